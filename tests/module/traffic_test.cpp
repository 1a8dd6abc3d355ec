#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::SimFixture;

std::string scenario(const std::string& traffic, std::int64_t duration_ns = 1000) {
  return R"({"name": "t", "description": "", "duration_ns": )" + std::to_string(duration_ns) +
         R"(, "stations": {"a": {"traffic": [)" + traffic +
         R"(]}, "b": {}}, "links": [{"between": ["a", "b"]}]})";
}

TEST(Traffic, PoissonOffersTheRequestedLoad) {
  // 200 Mb/s of uniform 64..1518-byte frames (mean 791 bytes): 31 606 frames/s; over 0.2 s the
  // count is Poisson with mean 6321 and sd 79.5: allow 5 sd.
  SimFixture sim(scenario(R"({"pattern": "poisson", "to": "b", "load_bps": 200e6,
                              "frame_bytes": {"uniform": [64, 1518]}})",
                          200'000'000));
  sim.run();
  const double frames = sim.scalar("a.source0", "frames_generated");
  const double mean = 200e6 / (791.0 * 8) * 0.2;
  EXPECT_NEAR(frames, mean, 5 * std::sqrt(mean));
  EXPECT_NEAR(sim.scalar("a.source0", "offered_load"), 200e6, 200e6 * 0.05);
  EXPECT_EQ(sim.scalar("a.mac", "tx_queue_drops"), 0);
}

TEST(Traffic, OnOffSendsAtPeakRateOnlyWhileOn) {
  // Fixed periods: 10 us on, 30 us off; 64-byte frames at 500 Mb/s are 1.024 us apart, so ten
  // frames per on-period (at 0, 1.024, ..., 9.216 us); 25 cycles in 1 ms: 250 frames.
  SimFixture sim(scenario(R"({"pattern": "on_off", "to": "b", "peak_load_bps": 500e6,
                              "on_ns": 10000, "off_ns": 30000, "periods": "fixed",
                              "frame_bytes": 64})",
                          1'000'000));
  sim.record_events();
  sim.run();
  EXPECT_EQ(sim.scalar("a.source0", "frames_generated"), 250);
  const auto enq = sim.events_of(EventKind::enqueue, "a.mac");
  ASSERT_EQ(enq.size(), 250u);
  EXPECT_EQ(enq[9].time_ps, 9'216'000);
  EXPECT_EQ(enq[10].time_ps, 40'000'000);
}

TEST(Traffic, ScriptQueuesFramesAtTheGivenTimesInOrder) {
  SimFixture sim(scenario(R"({"pattern": "script", "to": "b", "script": [
      {"at_ns": 5000, "bytes": 80}, {"at_ns": 0, "bytes": 214}, {"at_ns": 0, "bytes": 80}]})"));
  sim.record_events();
  sim.run_until(20'000'000);
  const auto enq = sim.events_of(EventKind::enqueue, "a.mac");
  ASSERT_EQ(enq.size(), 3u);
  EXPECT_EQ(enq[0].time_ps, 0);
  EXPECT_EQ(enq[0].bytes, 214u);  // same time: file order kept
  EXPECT_EQ(enq[1].bytes, 80u);
  EXPECT_EQ(enq[2].time_ps, 5'000'000);
}

TEST(Traffic, CountLimitsASource) {
  SimFixture sim(
      scenario(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64, "count": 12})"));
  sim.run_until(100'000'000);
  EXPECT_EQ(sim.scalar("a.source0", "frames_generated"), 12);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 12);
}

TEST(Traffic, StartAndStopBoundASaturatedSource) {
  // First frame queued at 1000 ns and taken at once, which queues the second; later frames are
  // taken (and replaced) at each frame end, 1576 + 672k ns. Replacements stop at 10000 ns:
  // k = 0..12, so 1 + 1 + 13 = 15 frames.
  SimFixture sim(scenario(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64,
                              "start_ns": 1000, "stop_ns": 10000})"));
  sim.record_events();
  sim.run_until(100'000'000);
  EXPECT_EQ(sim.scalar("a.source0", "frames_generated"), 15);
  const auto enq = sim.events_of(EventKind::enqueue, "a.mac");
  ASSERT_EQ(enq.size(), 15u);
  EXPECT_EQ(enq[0].time_ps, 1'000'000);
  EXPECT_EQ(enq[1].time_ps, 1'000'000);
  EXPECT_EQ(enq[14].time_ps, 9'640'000);
}

TEST(Traffic, ASaturatedSourceWaitsForItsStartEvenWhenOthersUseTheMac) {
  // A script frame at 0 goes through the MAC long before the saturated source's start at 40 us;
  // from then on: 40000 (taken at once, replaced), then replaced at each frame end
  // 40576 + 672k ns < 50 us, k = 0..14: 1 + 1 + 15 = 17 frames.
  SimFixture sim(
      scenario(R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]},
                             {"pattern": "saturated", "to": "b", "frame_bytes": 64,
                              "start_ns": 40000})",
               50000));
  sim.record_events();
  sim.run();
  EXPECT_EQ(sim.scalar("a.source1", "frames_generated"), 17);
  const auto enq = sim.events_of(EventKind::enqueue, "a.mac");
  ASSERT_GE(enq.size(), 2u);
  EXPECT_EQ(enq[1].time_ps, 40'000'000);
}

TEST(Traffic, SaturatedSourcesShareTheMacRoundRobin) {
  // Two saturated sources each keep one frame queued: they alternate exactly.
  SimFixture sim(scenario(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64},
                             {"pattern": "saturated", "to": "b", "frame_bytes": 128})"));
  sim.run_until(1'000'000'000);
  const double a0 = sim.scalar("a.source0", "frames_generated");
  const double a1 = sim.scalar("a.source1", "frames_generated");
  EXPECT_LE(std::fabs(a0 - a1), 1);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

TEST(Traffic, ExtremeRatesAndPeriodsNeitherHangNorOverflowTime) {
  // A vanishing Poisson load schedules its first frame beyond any run. The shortest on-period is
  // 1 ns (the loader refuses less) and a zero off-period still lasts 1 ps, so time always
  // advances: cycles of 1001 ps, each opening with one frame: 1999 cycles start in 2 us.
  testing::SimFixture sim(scenario(R"({"pattern": "poisson", "to": "b", "load_bps": 1e-300},
                                     {"pattern": "on_off", "to": "b", "peak_load_bps": 1e-300,
                                      "on_ns": 1, "off_ns": 0, "periods": "fixed",
                                      "frame_bytes": 64})",
                                   2000));
  sim.run();
  EXPECT_EQ(sim.scalar("a.source0", "frames_generated"), 0);
  EXPECT_EQ(sim.scalar("a.source1", "frames_generated"), 1999);
}

}  // namespace
}  // namespace gbesim
