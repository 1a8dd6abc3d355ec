// PAUSE (IEEE 802.3 Annex 31B) against hand-computed timelines. Station a sends saturated
// 1518-byte frames to b at 1000 Mb/s: frame k occupies [12304k, 12304k + 12208] ns. Station b
// sends one PAUSE frame (64 bytes, 576 ns on the wire) when the test tells it to.

#include <gtest/gtest.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::SimFixture;

std::string scenario(double cable_m, int frame_bytes = 1518, int rate = 1000) {
  return R"({"name": "t", "description": "", "duration_ns": 1000, "rate_mbps": )" +
         std::to_string(rate) + R"(,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": )" +
         std::to_string(frame_bytes) + R"(}]}, "b": {}},
      "links": [{"between": ["a", "b"], "cable_m": )" +
         std::to_string(cable_m) + "}]}";
}

std::vector<Picoseconds> start_times(const SimFixture& sim) {
  std::vector<Picoseconds> out;
  for (const auto& e : sim.events_of(EventKind::tx_start, "a.mac")) out.push_back(e.time_ps);
  return out;
}

TEST(Pause, QuantaStopTheSenderForExactlyQuantaTimes512BitTimes) {
  // b sends PAUSE(100) at 1000 ns; it ends at 1576 ns and reaches a over 100 m (500 ns) at
  // 2076 ns. a finishes frame 0 at 12208 ns and may not start another before
  // 2076 + 100 * 512 = 53276 ns.
  SimFixture sim(scenario(100));
  sim.record_events();
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(100);
  sim.run_until(80'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts[0], 0);
  EXPECT_EQ(starts[1], 53'276'000);
  EXPECT_EQ(starts[2], 53'276'000 + 12'304'000);
  EXPECT_EQ(sim.station("a").mac().pause_until_ps(), 53'276'000);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), 53'276'000.0 - 12'208'000.0);
  EXPECT_EQ(sim.scalar("a.mac", "pause_mac_ctrl_frames_received"), 1);
  EXPECT_EQ(sim.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 1);
}

TEST(Pause, AQuantumIs512BitTimesAtEverySpeed) {
  // 100 Mb/s, no cable: PAUSE(7) sent at 10 us ends at 10 + 5.76 = 15.76 us; a's frame 0
  // (1518 bytes) ends at 122.08 us, after the 7 * 5.12 = 35.84 us pause (51.6 us): no effect.
  // PAUSE(30) instead holds a until 15.76 + 153.6 = 169.36 us.
  SimFixture sim(scenario(0, 1518, 100));
  sim.record_events();
  sim.run_until(10'000'000);
  sim.station("b").mac().send_pause(30);
  sim.run_until(400'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 2u);
  EXPECT_EQ(starts[1], 169'360'000);
}

TEST(Pause, AShortPauseThatEndsMidFrameChangesNothing) {
  // PAUSE(10) reaches a at 2076 ns and lasts 5120 ns: over before frame 0 ends at 12208 ns.
  SimFixture sim(scenario(100));
  sim.record_events();
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(10);
  sim.run_until(40'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts[1], 12'304'000);
  EXPECT_EQ(starts[2], 24'608'000);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), 0.0);
}

TEST(Pause, PauseZeroReleasesAPausedSender) {
  // PAUSE(100) as above, then PAUSE(0) sent at 20 us: it ends at 20.576 us and reaches a at
  // 21.076 us, which starts its next frame at once.
  SimFixture sim(scenario(100));
  sim.record_events();
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(100);
  sim.run_until(20'000'000);
  sim.station("b").mac().send_pause(0);
  sim.run_until(60'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 2u);
  EXPECT_EQ(starts[1], 21'076'000);
}

TEST(Pause, AFrameAlreadyPassedToTheMacGoesDespiteAPauseInTheGap) {
  // 64-byte frames, no cable: frame 2 ends at 1920 ns, when frame 3 is passed to the MAC to
  // start at 2016 ns. PAUSE(10) sent by b at 1400 ns arrives at 1976 ns, inside that gap:
  // frame 3 still starts at 2016 ns (31B.3.7), and frame 4 waits until 1976 + 5120 = 7096 ns.
  SimFixture sim(scenario(0, 64));
  sim.record_events();
  sim.run_until(1'400'000);
  sim.station("b").mac().send_pause(10);
  sim.run_until(10'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 5u);
  EXPECT_EQ(starts[3], 2'016'000);
  EXPECT_EQ(starts[4], 7'096'000);
}

std::string flow_control(bool pause_tx) {
  return std::string(R"({"name": "t", "description": "", "duration_ns": 20000000,
      "stations": {
        "a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
        "b": {"sink": {"drain_mbps": 500, "rx_queue_bytes": 65536},
              "mac": {"pause_tx_enabled": )") +
         (pause_tx ? "true" : "false") + R"(, "pause_xoff_bytes": 32768,
                      "pause_xon_bytes": 8192, "pause_quanta": 65535}}},
      "links": [{"between": ["a", "b"], "cable_m": 100}]})";
}

TEST(Pause, FlowControlKeepsASlowReceiverFromOverflowing) {
  // b consumes 500 Mb/s of a 1000 Mb/s stream. With PAUSE, nothing is lost and a's delivered
  // rate settles at b's drain rate (within the 64 KiB queue over 20 ms: 5.2%); without, b's
  // queue overflows.
  SimFixture with(flow_control(true));
  with.run();
  EXPECT_EQ(with.scalar("b.sink", "rx_queue_overflow"), 0);
  EXPECT_GT(with.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 2);
  const double delivered = with.scalar("b.sink", "throughput");
  EXPECT_NEAR(delivered, 500e6, 500e6 * 0.053);
  EXPECT_GT(with.scalar("a.mac", "paused_time"), 0);
}

TEST(Pause, WithoutFlowControlTheSlowReceiverDrops) {
  SimFixture without(flow_control(false));
  without.run();
  // a sends at line rate: 20 ms / 12.304 us = 1625 frames (1626 started); b drains about half.
  EXPECT_GT(without.scalar("b.sink", "rx_queue_overflow"), 700);
  EXPECT_EQ(without.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 0);
}

}  // namespace
}  // namespace gbesim
