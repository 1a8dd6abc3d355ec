// The full-duplex MAC against hand-computed timelines. Times are in ps; at 1000 Mb/s one bit
// time is 1000 ps and a 64-byte frame occupies (8 + 64) * 8 = 576 bit times plus a 96-bit gap.

#include <gtest/gtest.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::SimFixture;

std::string two_stations(const std::string& a_traffic, double cable_m = 0,
                         const std::string& extra = "") {
  return R"({"name": "t", "description": "", "duration_ns": 10000,)" + extra +
         R"("stations": {"a": {"traffic": [)" + a_traffic + R"(]}, "b": {}},
             "links": [{"between": ["a", "b"], "cable_m": )" +
         std::to_string(cable_m) + "}]}";
}

TEST(FullDuplexMac, BackToBack64ByteFramesStartExactly672NsApart) {
  SimFixture sim(two_stations(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})"));
  sim.record_events();
  sim.run_until(10 * 672'000 + 1);
  const auto starts = sim.events_of(EventKind::tx_start, "a.mac");
  const auto ends = sim.events_of(EventKind::tx_end, "a.mac");
  ASSERT_GE(starts.size(), 10u);
  ASSERT_GE(ends.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(starts[k].time_ps, static_cast<Picoseconds>(k) * 672'000) << k;
    EXPECT_EQ(ends[k].time_ps, static_cast<Picoseconds>(k) * 672'000 + 576'000) << k;
  }
}

TEST(FullDuplexMac, InterFrameGapIsAParameter) {
  SimFixture sim(two_stations(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", 0,
                              R"("mac": {"ifg_bits": 64},)"));
  sim.record_events();
  sim.run_until(5 * 640'000);
  const auto starts = sim.events_of(EventKind::tx_start, "a.mac");
  ASSERT_GE(starts.size(), 5u);
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_EQ(starts[k].time_ps, static_cast<Picoseconds>(k) * 640'000);
}

TEST(FullDuplexMac, BitTimesScaleWithTheRate) {
  // 100 Mb/s: bit time 10 ns, so 64-byte frames start 6720 ns apart.
  SimFixture sim(two_stations(R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", 0,
                              R"("rate_mbps": 100,)"));
  sim.record_events();
  sim.run_until(4 * 6'720'000);
  const auto starts = sim.events_of(EventKind::tx_start, "a.mac");
  ASSERT_GE(starts.size(), 4u);
  EXPECT_EQ(starts[1].time_ps - starts[0].time_ps, 6'720'000);
  EXPECT_EQ(starts[3].time_ps, 3 * 6'720'000);
}

TEST(FullDuplexMac, DeliveryTakesFrameTimePlusCableDelayExactly) {
  // One 100-byte frame queued at 1000 ns on an idle MAC: it starts at once, its last bit leaves
  // at 1000 + (8 + 100) * 8 = 1864 ns and arrives 37.5 m * 5.56 ns/m (Cat 5e) = 208.5 ns later.
  SimFixture sim(two_stations(
      R"({"pattern": "script", "to": "b", "script": [{"at_ns": 1000, "bytes": 100}]})", 37.5));
  sim.record_events();
  sim.run_until(5'000'000);
  const auto start = sim.events_of(EventKind::tx_start, "a.mac");
  const auto received = sim.events_of(EventKind::rx_ok, "b.mac");
  ASSERT_EQ(start.size(), 1u);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(start[0].time_ps, 1'000'000);
  EXPECT_EQ(received[0].time_ps, 2'072'500);
  EXPECT_DOUBLE_EQ(sim.scalar("b.sink", "latency_min"), 1072.5);
  EXPECT_DOUBLE_EQ(sim.scalar("b.sink", "latency_max"), 1072.5);
}

TEST(FullDuplexMac, AFrameQueuedDuringTheGapWaitsForItsEnd) {
  // Frame 1 at 0 ends at 576 ns; one queued at 600 ns waits for the gap to end at 672 ns;
  // one queued at 1400 ns, long after the gap, starts at once.
  SimFixture sim(two_stations(R"({"pattern": "script", "to": "b", "script": [
      {"at_ns": 0, "bytes": 64}, {"at_ns": 600, "bytes": 64}, {"at_ns": 1400, "bytes": 64}]})"));
  sim.record_events();
  sim.run_until(3'000'000);
  const auto starts = sim.events_of(EventKind::tx_start, "a.mac");
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_EQ(starts[0].time_ps, 0);
  EXPECT_EQ(starts[1].time_ps, 672'000);
  EXPECT_EQ(starts[2].time_ps, 1'400'000);
}

TEST(FullDuplexMac, AFullTransmitQueueDropsAndCountsTheRest) {
  // Ten frames arrive at once at a queue of four: four go, six are dropped.
  SimFixture sim(two_stations(R"({"pattern": "script", "to": "b", "script": [
      {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64},
      {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64},
      {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64}, {"at_ns": 0, "bytes": 64},
      {"at_ns": 0, "bytes": 64}]})",
                              0, R"("mac": {"tx_queue_frames": 4},)"));
  sim.record_events();
  sim.run_until(20'000'000);
  EXPECT_EQ(sim.scalar("a.mac", "tx_queue_drops"), 6);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 4);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 4);
  EXPECT_EQ(sim.events_of(EventKind::drop, "a.mac").size(), 6u);
  EXPECT_EQ(sim.events_of(EventKind::drop, "a.mac")[0].detail, "tx_queue_full");
}

TEST(FullDuplexMac, CountersFollowClause30) {
  // 100 frames of 1518 bytes: 1500 octets of client data each; 64-byte frames carry 46.
  SimFixture sim(two_stations(R"({"pattern": "saturated", "to": "b", "frame_bytes": 1518,
                                  "count": 100})"));
  sim.run_until(2'000'000'000);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 100);
  EXPECT_EQ(sim.scalar("a.mac", "octets_transmitted_ok"), 150000);
  EXPECT_EQ(sim.scalar("a.mac", "frame_octets_transmitted_ok"), 151800);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 100);
  EXPECT_EQ(sim.scalar("b.mac", "octets_received_ok"), 150000);
  EXPECT_EQ(sim.scalar("b.mac", "frame_check_sequence_errors"), 0);
}

TEST(FullDuplexMac, BroadcastFramesAreCountedAsSuch) {
  SimFixture sim(two_stations(
      R"({"pattern": "saturated", "to": "broadcast", "frame_bytes": 64, "count": 7})"));
  sim.run_until(1'000'000'000);
  EXPECT_EQ(sim.scalar("a.mac", "broadcast_frames_transmitted_ok"), 7);
  EXPECT_EQ(sim.scalar("b.mac", "broadcast_frames_received_ok"), 7);
  EXPECT_EQ(sim.scalar("b.sink", "frames_received"), 7);
}

TEST(FullDuplexMac, TooLongFramesAreCountedByTheReceiver) {
  // a may send 2000-byte frames, b accepts only 1518.
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000,
      "stations": {"a": {"mac": {"max_frame_bytes": 2000},
                         "traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 2000,
                                      "count": 3}]},
                   "b": {}},
      "links": [{"between": ["a", "b"]}]})");
  sim.run_until(1'000'000'000);
  EXPECT_EQ(sim.scalar("b.mac", "frame_too_long_errors"), 3);
  EXPECT_EQ(sim.scalar("b.mac", "frames_received_ok"), 0);
}

// A client that writes down what its MAC tells it, and the trace hook beside it: the client hears
// each transmit outcome and each rejected frame, at the frame's exact times, before the trace.
struct RecordingClient : MacClient {
  std::vector<std::string>* log = nullptr;
  std::string who;
  void mac_receive(FramePtr frame, Picoseconds now) override {
    log->push_back(who + " receive " + std::to_string(frame->size()) + " " + std::to_string(now));
  }
  void mac_tx_started(const Frame& frame, Picoseconds at) override {
    log->push_back(who + " started " + std::to_string(frame.size()) + " " + std::to_string(at));
  }
  void mac_tx_done(const Frame& frame, Picoseconds at, bool sent) override {
    log->push_back(who + (sent ? " sent " : " given up ") + std::to_string(frame.size()) + " " +
                   std::to_string(at));
  }
  void mac_rejected(const Frame& frame, Picoseconds at) override {
    log->push_back(who + " rejected " + std::to_string(frame.size()) + " " + std::to_string(at));
  }
  void settle(Picoseconds) override {}
};

TEST(FullDuplexMac, TheClientHearsEveryOutcomeBeforeTheTrace) {
  // a may send jumbo frames, b takes at most 1518 bytes: the 2000-byte frame is rejected at b.
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 30000,
    "stations": {"a": {"mac": {"max_frame_bytes": 9018},
                       "traffic": [{"pattern": "script", "to": "b", "script": [
                         {"at_ns": 1000, "bytes": 64}, {"at_ns": 5000, "bytes": 2000}]}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 0}]})");
  std::vector<std::string> log;
  RecordingClient a_client, b_client;
  a_client.log = b_client.log = &log;
  a_client.who = "a";
  b_client.who = "b";
  for (auto [name, client] : {std::pair{"a", &a_client}, std::pair{"b", &b_client}}) {
    Mac& mac = sim.station(name).mac();
    mac.attach_client(client);
    mac.events.connect([&log, name = std::string(name)](const Event& e) {
      if (e.frame != nullptr && e.kind != EventKind::enqueue)
        log.push_back(name + " trace " + std::string(to_string(e.kind)) + " " +
                      std::to_string(e.time_ps));
    });
  }
  sim.run();
  // 64 bytes: 1000 .. 1000 + 72 x 8 ns; 2000 bytes: 5000 .. 5000 + 2008 x 8 ns; no cable delay.
  const std::vector<std::string> expected = {
      "a started 64 1000000",    "a trace tx_start 1000000", "a sent 64 1576000",
      "a trace tx_end 1576000",  "b trace rx_ok 1576000",    "b receive 64 1576000",
      "a started 2000 5000000",  "a trace tx_start 5000000", "a sent 2000 21064000",
      "a trace tx_end 21064000", "b rejected 2000 21064000", "b trace rx_drop 21064000"};
  EXPECT_EQ(log, expected);
}

}  // namespace
}  // namespace gbesim
