#include <gtest/gtest.h>

#include "models/medium/full_duplex_link.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::SimFixture;

TEST(FullDuplexLink, DelayIsCableLengthTimesNsPerMetreRoundedOnceToThePicosecond) {
  EXPECT_EQ(FullDuplexLink::delay_for(100, 5.0), 500'000);
  EXPECT_EQ(FullDuplexLink::delay_for(37.5, 5.0), 187'500);
  EXPECT_EQ(FullDuplexLink::delay_for(1.0001, 5.0), 5'001);  // 5000.5 ps rounds away from 0
  EXPECT_EQ(FullDuplexLink::delay_for(0, 5.0), 0);
}

std::string scenario(const std::string& link_extra, const std::string& traffic) {
  return R"({"name": "t", "description": "", "duration_ns": 1000,
      "media": {"slow_fibre": {"ns_per_m": 6.25}},
      "stations": {"a": {"traffic": [)" +
         traffic + R"(]}, "b": {}},
      "links": [{"between": ["a", "b"], "cable_m": 80)" +
         link_extra + "}]}";
}

TEST(FullDuplexLink, UsesTheScenariosOwnMediaTable) {
  // 80 m at 6.25 ns/m = 500 ns: a 64-byte frame sent at 0 arrives at 576 + 500 ns.
  SimFixture sim(
      scenario(R"(, "medium": "slow_fibre")",
               R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]})"));
  sim.record_events();
  sim.run_until(5'000'000);
  const auto rx = sim.events_of(EventKind::rx_ok, "b.mac");
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0].time_ps, 1'076'000);
}

TEST(FullDuplexLink, CorruptedFramesAreCountedAsFcsErrorsByTheReceiver) {
  // An error hook that flips one bit of every third frame: exactly a third fail the FCS check.
  SimFixture sim(scenario("", R"({"pattern": "saturated", "to": "b", "frame_bytes": 200,
                                  "count": 300})"));
  int n = 0;
  sim.network().links()[0]->a_to_b().set_error_injector([&n](Frame& f) -> std::uint64_t {
    if (++n % 3 != 0) return 0;
    f.bytes[f.size() / 2] ^= 0x04;
    return 1;
  });
  sim.run_until(1'000'000'000);
  EXPECT_EQ(sim.scalar("b.mac", "frame_check_sequence_errors"), 100);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 200);
  EXPECT_EQ(sim.scalar("link0.to_b", "frames_corrupted"), 100);
  EXPECT_EQ(sim.scalar("b.sink", "frames_received"), 200);
}

TEST(FullDuplexLink, ABitErrorRateLosesTheExpectedShareOfFrames) {
  // BER 1e-5 on 1518-byte frames: frame error rate 1 - (1 - 1e-5)^12144 = 0.1143;
  // 5000 frames: sd 0.0045, allow 5 sd. Every corrupted frame is lost: most to the FCS check,
  // the few hit in the destination address to the address filter, as in a real MAC.
  SimFixture sim(scenario(R"(, "ber": 1e-5)", R"({"pattern": "saturated", "to": "b",
                                                  "frame_bytes": 1518, "count": 5000})"));
  sim.run_until(100 * kPsPerMs);
  const double corrupted = sim.scalar("link0.to_b", "frames_corrupted");
  const double fcs = sim.scalar("b.mac", "frame_check_sequence_errors");
  const double filtered = sim.scalar("b.mac", "frames_filtered");
  const double length = sim.scalar("b.mac", "in_range_length_errors") +
                        sim.scalar("b.mac", "out_of_range_length_field");
  EXPECT_EQ(fcs + filtered + length, corrupted);
  EXPECT_GT(fcs, 0.95 * corrupted);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 5000 - corrupted);
  EXPECT_NEAR(corrupted / 5000, 0.1143, 5 * 0.0045);
}

TEST(FullDuplexLink, CarrierTraceFollowsTheFrameAtTheFarEnd) {
  // 80 m of cat5e (5.56 ns/m: 444.8 ns): the frame sent at 0 is seen at b from 444.8 ns to
  // 444.8 + 576 = 1020.8 ns.
  SimFixture sim(
      scenario("", R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]})"));
  LinkDirection& d = sim.network().links()[0]->a_to_b();
  d.enable_carrier_trace();
  sim.run_until(444'799);
  EXPECT_FALSE(d.trace_carrier());
  sim.run_until(444'801);
  EXPECT_TRUE(d.trace_carrier());
  sim.run_until(1'020'799);
  EXPECT_TRUE(d.trace_carrier());
  sim.run_until(1'020'801);
  EXPECT_FALSE(d.trace_carrier());
}

}  // namespace
}  // namespace gbesim
