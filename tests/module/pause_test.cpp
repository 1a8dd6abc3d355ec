// PAUSE (IEEE 802.3 Annex 31B) against hand-computed timelines. Station a sends saturated
// 1518-byte frames to b at 1000 Mb/s: frame k occupies [12304k, 12304k + 12208] ns. Station b
// sends one PAUSE frame (64 bytes, 576 ns on the wire) when the test tells it to.

#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/crc32.hpp"
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
  // b sends PAUSE(100) at 1000 ns; it ends at 1576 ns and reaches a over 100 m of Cat 5e
  // (5.56 ns/m: 556 ns) at 2132 ns. a finishes frame 0 at 12208 ns and may not start another
  // before 2132 + 100 * 512 = 53332 ns.
  SimFixture sim(scenario(100));
  sim.record_events();
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(100);
  sim.run_until(80'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts[0], 0);
  EXPECT_EQ(starts[1], 53'332'000);
  EXPECT_EQ(starts[2], 53'332'000 + 12'304'000);
  EXPECT_EQ(sim.station("a").mac().pause_until_ps(), 53'332'000);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), 53'332'000.0 - 12'208'000.0);
  EXPECT_EQ(sim.scalar("a.mac", "pause_mac_ctrl_frames_received"), 1);
  EXPECT_EQ(sim.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 1);
}

TEST(Pause, AShortPauseThatEndsMidFrameChangesNothing) {
  // PAUSE(10) reaches a at 2132 ns and lasts 5120 ns: over before frame 0 ends at 12208 ns.
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
  // 21.132 us, which starts its next frame at once.
  SimFixture sim(scenario(100));
  sim.record_events();
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(100);
  sim.run_until(20'000'000);
  sim.station("b").mac().send_pause(0);
  sim.run_until(60'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 2u);
  EXPECT_EQ(starts[1], 21'132'000);
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

TEST(Pause, APauseArrivingAsAFrameEndsHoldsTheNextFrame) {
  // Same-instant order: arrivals are settled before the MAC decides. No cable, 64-byte frames:
  // b's PAUSE(10), sent at 1344 ns, ends at 1920 ns -- exactly when a's frame 2 ends. a is
  // paused for its decision at 1920 ns: frame 3 starts at 1920 + 5120 = 7040 ns, not 2016.
  SimFixture sim(scenario(0, 64));
  sim.record_events();
  sim.run_until(1'344'000);
  sim.station("b").mac().send_pause(10);
  sim.run_until(10'000'000);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 4u);
  EXPECT_EQ(starts[2], 1'344'000);
  EXPECT_EQ(starts[3], 7'040'000);
}

TEST(Pause, AFrameQueuedAsAPauseEndsLeavesTheNextStartWhereTheGapPutsIt) {
  // Exact tracing: the MAC's state changes on its edges. No cable, 64-byte frames queued by a
  // script: four at 0 ns (frame k on the wire [672k, 672k + 576] ns) and one at 1962 ns. b's
  // PAUSE(1), sent at 874 ns, ends and reaches a at 1450 ns: paused until 1450 + 512 = 1962 ns.
  // At 1920 ns frame 2 ends and frame 3 waits (paused); at 1962 ns the pause ends as the fifth
  // frame is queued -- a request to a MAC still paused, which wakes it again in that instant,
  // after it has passed frame 3 on. Frame 3 still starts when the gap after frame 2 has passed,
  // 2016 ns: the MAC is in the gap until then, not transmitting.
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000,
      "stations": {"a": {"traffic": [{"pattern": "script", "to": "b", "script": [
                          {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64},
                          {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64},
                          {"at_ns": 1962, "bytes": 64}]}]},
                   "b": {}},
      "links": [{"between": ["a", "b"], "cable_m": 0}]})");
  sim.record_events();
  Mac& a = sim.station("a").mac();
  const std::vector<TracedValue> traced = a.trace_state();  // exact tracing
  ASSERT_EQ(traced[0].variable->name, "tx_state");
  ASSERT_EQ(traced[1].variable->name, "transmitting");
  std::vector<std::pair<Picoseconds, MacTxState>> states;
  a.state_changed.connect([&](MacTxState s, Picoseconds at) { states.emplace_back(at, s); });
  sim.run_until(874'000);
  sim.station("b").mac().send_pause(1);
  sim.run_until(2'000'000);
  EXPECT_EQ(*std::get<const unsigned*>(traced[0].value),
            static_cast<unsigned>(MacTxState::interframe_gap));
  EXPECT_FALSE(*std::get<const bool*>(traced[1].value));
  sim.run_until(4'000'000);
  const std::vector<std::pair<Picoseconds, MacTxState>> from_1920 = {
      {1'920'000, MacTxState::interframe_gap}, {1'920'000, MacTxState::paused},
      {1'962'000, MacTxState::interframe_gap}, {2'016'000, MacTxState::transmitting},
      {2'592'000, MacTxState::interframe_gap}, {2'688'000, MacTxState::transmitting},
      {3'264'000, MacTxState::interframe_gap}, {3'264'000, MacTxState::idle}};
  const auto first = std::find_if(states.begin(), states.end(),
                                  [](const auto& s) { return s.first >= 1'920'000; });
  EXPECT_EQ((std::vector<std::pair<Picoseconds, MacTxState>>(first, states.end())), from_1920);
  const auto starts = start_times(sim);
  ASSERT_EQ(starts.size(), 5u);
  EXPECT_EQ(starts[3], 2'016'000);
  EXPECT_EQ(starts[4], 2'688'000);
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

namespace gbesim {
namespace {

struct RateCase {
  int rate_mbps;
  Picoseconds bit_ps;
};

class PauseAtEverySpeed : public ::testing::TestWithParam<RateCase> {};

TEST_P(PauseAtEverySpeed, AQuantumIs512BitTimes) {
  // No cable. b sends PAUSE(100) at 100 bit times; it ends at 676 bit times, when a is halfway
  // through frame 0 (1518 bytes: it ends at 12208 bit times). a's next frame starts exactly at
  // 676 + 100 * 512 = 51876 bit times.
  const auto [rate, bit] = GetParam();
  testing::SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000, "rate_mbps": )" +
                          std::to_string(rate) + R"(,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
                   "b": {}},
      "links": [{"between": ["a", "b"], "cable_m": 0}]})");
  sim.record_events();
  sim.run_until(100 * bit);
  sim.station("b").mac().send_pause(100);
  sim.run_until(60'000 * bit);
  const auto starts = sim.events_of(EventKind::tx_start, "a.mac");
  ASSERT_GE(starts.size(), 2u);
  EXPECT_EQ(starts[1].time_ps, 51'876 * bit);
}

INSTANTIATE_TEST_SUITE_P(Speeds, PauseAtEverySpeed,
                         ::testing::Values(RateCase{10, 100'000}, RateCase{100, 10'000},
                                           RateCase{1000, 1'000}, RateCase{10000, 100}),
                         [](const ::testing::TestParamInfo<RateCase>& info) {
                           return std::to_string(info.param.rate_mbps) + "Mbps";
                         });

TEST(Pause, XoffRefreshAndXonFollowTheReceiveBacklogExactly) {
  // 1000 Mb/s, no cable. a sends 1518-byte frames (frame k ends at 12304k + 12208 ns); b drains
  // them at 100 Mb/s (121 440 ns each) with XOFF at 4554 bytes (3 frames), XON at 1518, quanta
  // 1000 (512 us).
  //   36816 ns  frame 2 arrives, backlog 4554: XOFF sent at once, on the wire until 37392.
  //   37392     a is paused until 37392 + 512000 = 549392 (frame 3, committed at 36816, goes).
  //   49120     frame 3 ends: a holds frame 4.
  //   293392    refresh, half the pause time after the XOFF ended: backlog 3036 > 1518.
  //   376528    third drain: backlog 1518 = XON threshold: PAUSE(0), on the wire until 377104.
  //   377104    a resumes: frame 4 starts. Paused 377104 - 49120 = 327984 ns.
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 400000,
      "stations": {
        "a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
        "b": {"sink": {"drain_mbps": 100, "rx_queue_bytes": 1000000},
              "mac": {"pause_tx_enabled": true, "pause_xoff_bytes": 4554,
                      "pause_xon_bytes": 1518, "pause_quanta": 1000}}},
      "links": [{"between": ["a", "b"], "cable_m": 0}]})");
  sim.record_events();
  sim.run();
  const auto pauses = sim.events_of(EventKind::pause_tx, "b.mac");
  ASSERT_EQ(pauses.size(), 3u);
  EXPECT_EQ(pauses[0].time_ps, 36'816'000);
  EXPECT_EQ(pauses[0].value, 1000);
  EXPECT_EQ(pauses[1].time_ps, 293'392'000);
  EXPECT_EQ(pauses[1].value, 1000);
  EXPECT_EQ(pauses[2].time_ps, 376'528'000);
  EXPECT_EQ(pauses[2].value, 0);
  const auto starts = start_times(sim);
  ASSERT_GE(starts.size(), 5u);
  EXPECT_EQ(starts[3], 36'912'000);
  EXPECT_EQ(starts[4], 377'104'000);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), 327'984'000.0);
  EXPECT_EQ(sim.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 3);
}

TEST(Pause, APauseToAMacThatTransmitsLateStopsItOnTime) {
  // The first test's timeline without the events trace: nothing watches a, so it transmits
  // late (woken once every 64 frames, the first time at the end of frame 63, 787 us) -- until b
  // is about to send the PAUSE at 1 us. a then catches up and decides on time again, so the
  // PAUSE holds frame 1 until 53,332 ns; frame 2 follows at 53,332 + 12,304 = 65,636 and ends at
  // 77,844 ns (arriving 556 ns later), frame 3 ends after 80 us.
  SimFixture sim(scenario(100));
  sim.network().deliver_late();
  EXPECT_TRUE(sim.station("a").mac().transmits_late());
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(100);
  EXPECT_FALSE(sim.station("a").mac().transmits_late());
  sim.run_until(80'000'000);
  EXPECT_EQ(sim.station("a").mac().pause_until_ps(), 53'332'000);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), 53'332'000.0 - 12'208'000.0);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 3);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 3);
  EXPECT_EQ(sim.scalar("a.mac", "pause_mac_ctrl_frames_received"), 1);
}

TEST(Pause, APauseAskedOfAMacThatTransmitsLateAsItsFrameEndsGoesFirst) {
  // b sends saturated 1518-byte frames to a and transmits late. Asked for a PAUSE exactly as its
  // frame 0 ends (12,208 ns, an instant the kernel has not run yet), b sends it before its next
  // data frame, as on time: the PAUSE (64 bytes, 576 ns with the preamble) starts after the gap
  // at 12,304 ns, ends at 12,880 and reaches a 556 ns later, at 13,436 ns: a may not send until
  // 13,436 + 100 x 512 = 64,636 ns. (Data frame 1 first would put it at 76,940 ns.)
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000,
      "stations": {"a": {},
                   "b": {"traffic": [{"pattern": "saturated", "to": "a", "frame_bytes": 1518}]}},
      "links": [{"between": ["a", "b"], "cable_m": 100}]})");
  sim.network().deliver_late();
  EXPECT_TRUE(sim.station("b").mac().transmits_late());
  sim.run_until(12'208'000);
  sim.station("b").mac().send_pause(100);
  sim.run_until(100'000'000);
  EXPECT_EQ(sim.station("a").mac().pause_until_ps(), 64'636'000);
  EXPECT_EQ(sim.scalar("b.mac", "pause_mac_ctrl_frames_transmitted"), 1);
  // Frame 1 starts after the PAUSE, at 12,880 + 96 = 12,976 ns, and the next every 12,304 ns;
  // frame k (k >= 1) ends at 12,976 + 12,304 (k - 1) + 12,208 ns, before 100 us for k <= 7:
  // frames 0..7 and the PAUSE (frames_transmitted_ok counts MAC Control frames too).
  EXPECT_EQ(sim.scalar("b.mac", "frames_transmitted_ok"), 8 + 1);
}

TEST(Pause, PausedTimeIncludesAPauseStillRunningAtTheEnd) {
  // PAUSE(65535) reaches a at 2076 ns; a holds its frame from 12208 ns to the end at 1 ms.
  SimFixture sim(scenario(100));
  sim.run_until(1'000'000);
  sim.station("b").mac().send_pause(65535);
  sim.run_until(kPsPerMs);
  EXPECT_DOUBLE_EQ(sim.scalar("a.mac", "paused_time"), (1'000'000.0 - 12'208.0) * 1000);
}

TEST(Pause, OnlyPauseFramesForThisStationAreObeyed) {
  // A promiscuous MAC sees a PAUSE sent to another station's unicast address: it passes it up
  // as data and does not pause.
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000,
      "stations": {"a": {}, "b": {"mac": {"promiscuous": true}}},
      "links": [{"between": ["a", "b"]}]})");
  sim.run_until(1000);
  Frame pause;
  build_pause_frame(pause, MacAddress::for_station(1), 500);
  std::copy_n(MacAddress::for_station(9).octets.begin(), 6, pause.bytes.begin());  // DA
  write_fcs(pause.bytes.data(), pause.size() - kFcsBytes);
  FramePtr frame = sim.context().frames.acquire();
  frame->bytes = pause.bytes;
  sim.station("b").mac().receive(std::move(frame), 1000);
  EXPECT_EQ(sim.station("b").mac().pause_until_ps(), 0);
  EXPECT_EQ(sim.scalar("b.sink", "frames_received"), 1);
  EXPECT_EQ(sim.scalar("b.mac", "pause_mac_ctrl_frames_received"), 0);
}

TEST(Pause, AnXoffQueuedWhileAnotherIsOnTheWireIsStillRefreshed) {
  // No cable. b sends a two 1518-byte frames at 0; a's application drains 1518 bytes in exactly
  // 12304 ns; XOFF at 1518 bytes, XON at 0, quanta 20 (refresh every 5120 ns). a is busy with a
  // frame of its own from 11640 to 23848 ns, so:
  //   12208  frame 0 arrives: XOFF asked; it goes after a's frame and the gap: 23944..24520.
  //   24512  frame 0 consumed (XON asked) and frame 1 arrives (XOFF asked again): one XOFF waits.
  //   24616  that XOFF goes (24616..25192); refresh 5120 ns after it: 30312, then 36008.
  //   36816  frame 1 consumed: XON (PAUSE 0).
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 60000,
      "stations": {
        "a": {"mac": {"pause_tx_enabled": true, "pause_xoff_bytes": 1518, "pause_xon_bytes": 0,
                      "pause_quanta": 20},
              "sink": {"drain_mbps": 986.9960988296489},
              "traffic": [{"pattern": "script", "to": "b",
                           "script": [{"at_ns": 11640, "bytes": 1518}]}]},
        "b": {"traffic": [{"pattern": "script", "to": "a",
                           "script": [{"at_ns": 0, "bytes": 1518}, {"at_ns": 0, "bytes": 1518}]}]}},
      "links": [{"between": ["a", "b"], "cable_m": 0}]})");
  sim.record_events();
  sim.run();
  std::vector<Picoseconds> pause_starts;
  for (const auto& e : sim.events_of(EventKind::tx_start, "a.mac"))
    if (e.bytes == 64) pause_starts.push_back(e.time_ps);
  EXPECT_EQ(pause_starts,
            (std::vector<Picoseconds>{23'944'000, 24'616'000, 30'312'000, 36'008'000, 36'816'000}));
  EXPECT_EQ(sim.scalar("a.mac", "pause_mac_ctrl_frames_transmitted"), 5);
}

}  // namespace
}  // namespace gbesim
