// Full-duplex line rate, simulated for one second and compared with IEEE 802.3's arithmetic
// (docs/references.md, Validation 1): the simulated count must equal the exact closed form, and
// the rate must be within one frame per second of the published figure. The 10 Gb/s figures
// (14 880 952 and 812 744 frames/s) are the standard 802.3ae line-rate table's.

#include <gtest/gtest.h>

#include "analysis/line_rate.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

struct Case {
  int rate_mbps;
  int frame_bytes;
  double published_frames_per_second;  // 0: no published figure, closed form only
};

class LineRate : public ::testing::TestWithParam<Case> {};

TEST_P(LineRate, OneSimulatedSecondOfSaturatedTrafficHitsTheLineRate) {
  const Case c = GetParam();
  gbesim::testing::SimFixture sim(
      R"({"name": "t", "description": "", "duration_ns": 1000000000, "rate_mbps": )" +
      std::to_string(c.rate_mbps) + R"(,
          "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": )" +
      std::to_string(c.frame_bytes) + R"(}]}, "b": {}},
          "mac": {"max_frame_bytes": 16128},
          "links": [{"between": ["a", "b"], "cable_m": 2}]})");
  sim.run();
  const double sent = sim.scalar("a.mac", "frames_transmitted_ok");
  EXPECT_EQ(sent, frames_completed_by(c.rate_mbps, c.frame_bytes, kPsPerSecond));
  const double rate = sim.scalar("a.mac", "tx_frame_rate");
  EXPECT_NEAR(rate, line_rate_frames_per_second(c.rate_mbps, c.frame_bytes), 1.0);
  if (c.published_frames_per_second > 0) {
    EXPECT_NEAR(rate, c.published_frames_per_second, 1.0);
  }
  // Everything sent 10 ns (2 m) before the end has arrived intact.
  EXPECT_NEAR(sim.scalar("b.mac", "frames_received_ok"), sent, 1);
  EXPECT_EQ(sim.scalar("b.mac", "frame_check_sequence_errors"), 0);
  // Efficiency: exactly the completed frames' bits over one second of line capacity, and within
  // one frame's share of the asymptotic closed form.
  const double efficiency = sim.scalar("a.mac", "tx_efficiency");
  EXPECT_DOUBLE_EQ(efficiency, sent * 8 * c.frame_bytes / (c.rate_mbps * 1e6));
  EXPECT_NEAR(efficiency, line_efficiency(c.frame_bytes),
              8.0 * c.frame_bytes / (c.rate_mbps * 1e6));
}

INSTANTIATE_TEST_SUITE_P(Ieee8023, LineRate,
                         ::testing::Values(Case{10, 64, 14880.95}, Case{10, 1518, 812.74},
                                           Case{100, 64, 148809.5}, Case{100, 1518, 8127.4},
                                           Case{1000, 64, 1488095}, Case{1000, 1518, 81274},
                                           Case{10000, 64, 14880952.38},
                                           Case{10000, 1518, 812743.82}, Case{1000, 9000, 0}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::to_string(info.param.rate_mbps) + "Mbps_" +
                                  std::to_string(info.param.frame_bytes) + "B";
                         });

}  // namespace
}  // namespace gbesim
