// One saturated half-duplex sender, simulated for 10 ms in every mode and frame size, must send
// exactly as many frames as the closed form (analysis/half_duplex) says; with it the efficiency
// is the published figure of docs/references.md, Validation 2 to within one frame's share.

#include <gtest/gtest.h>

#include "analysis/half_duplex.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

struct Mode {
  const char* name;
  int rate_mbps;
  bool half;
  bool extension;
  bool bursting;
};

struct Case {
  Mode mode;
  int bytes;
};

class SingleSender : public ::testing::TestWithParam<Case> {};

TEST_P(SingleSender, SimulatedFramesEqualTheClosedFormExactly) {
  const Case c = GetParam();
  const std::int64_t duration_ns = 10'000'000;
  gbesim::testing::SimFixture sim(
      std::string(R"({"name": "t", "description": "", "duration_ns": )") +
      std::to_string(duration_ns) + R"(, "rate_mbps": )" + std::to_string(c.mode.rate_mbps) +
      R"(, "mac": {"duplex": ")" + (c.mode.half ? "half" : "full") + R"(", "carrier_extension": )" +
      (c.mode.extension ? "true" : "false") + R"(, "frame_bursting": )" +
      (c.mode.bursting ? "true" : "false") + R"(},
          "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": )" +
      std::to_string(c.bytes) + R"(}]}, "b": {}},
          "links": [{"between": ["a", "b"], "cable_m": 20}]})");
  sim.run();
  SingleSenderSetup s;
  s.rate_mbps = c.mode.rate_mbps;
  s.frame_bytes = c.bytes;
  s.half_duplex = c.mode.half;
  s.slot_time_bits = c.mode.rate_mbps == 1000 ? 4096 : 512;
  s.carrier_extension = c.mode.extension;
  s.frame_bursting = c.mode.bursting;
  const double sent = sim.scalar("a.mac", "frames_transmitted_ok");
  EXPECT_EQ(sent, single_sender_frames_by(s, duration_ns * kPsPerNs));
  const double frame_share =
      8.0 * c.bytes * (1e6 / c.mode.rate_mbps) / static_cast<double>(duration_ns * kPsPerNs);
  EXPECT_NEAR(sim.scalar("a.mac", "tx_efficiency"), single_sender_timeline(s).efficiency(c.bytes),
              frame_share * 94);
  if (c.mode.half) {
    EXPECT_EQ(sim.scalar("a.mac", "collisions"), 0);
  }
}

std::vector<Case> cases() {
  const Mode modes[] = {
      {"fd1000", 1000, false, false, false},  {"hd1000noext", 1000, true, false, false},
      {"hd1000ext", 1000, true, true, false}, {"hd1000burst", 1000, true, true, true},
      {"hd100", 100, true, true, false},      {"hd10", 10, true, true, false}};
  std::vector<Case> out;
  for (const Mode& m : modes)
    for (int bytes : {64, 128, 256, 512, 1024, 1518}) out.push_back({m, bytes});
  return out;
}

INSTANTIATE_TEST_SUITE_P(EveryModeAndSize, SingleSender, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.mode.name) + "_" +
                                  std::to_string(info.param.bytes) + "B";
                         });

}  // namespace
}  // namespace gbesim
