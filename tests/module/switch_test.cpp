// The switch (models/switch) against hand-computed timelines and closed forms. Frame times: a
// 1518-byte frame is (8 + 1518) x 8 = 12208 bit times on the wire, 12208 ns at 1000 Mb/s and
// 122080 ns at 100 Mb/s; with the 96-bit gap a saturated gigabit sender starts one every
// 12304 ns. Cat 5e is 5.56 ns/m, so 20 m of cable is 111.2 ns.

#include <gtest/gtest.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::SimFixture;

std::string scenario(const std::string& stations, const std::string& links,
                     const std::string& switch_keys, std::int64_t duration_ns,
                     const std::string& extra = "") {
  return R"({"name": "t", "description": "", "duration_ns": )" + std::to_string(duration_ns) +
         extra + R"(, "stations": {)" + stations + R"(}, "switches": {"sw": {)" + switch_keys +
         R"(}}, "links": [)" + links + "]}";
}

std::string script(const std::string& to, std::int64_t at_ns, std::int64_t bytes = 1518) {
  return R"({"pattern": "script", "to": ")" + to + R"(", "script": [{"at_ns": )" +
         std::to_string(at_ns) + R"(, "bytes": )" + std::to_string(bytes) + "}]}";
}

std::vector<Picoseconds> received(const SimFixture& sim, const std::string& station) {
  std::vector<Picoseconds> out;
  for (const auto& e : sim.events_of(EventKind::rx_ok, station + ".mac")) out.push_back(e.time_ps);
  return out;
}

double port(const SimFixture& sim, int n, const std::string& name) {
  return sim.scalar("sw.port" + std::to_string(n), name);
}

// Every frame the relay took is filtered, sent to one port, flooded or dropped at the fabric;
// every copy offered to an output is sent, dropped or still queued.
void expect_conservation(const SimFixture& sim) {
  EXPECT_EQ(sim.scalar("sw", "frames_received"),
            sim.scalar("sw", "frames_filtered") + sim.scalar("sw", "frames_unicast") +
                sim.scalar("sw", "frames_flooded") + sim.scalar("sw", "frames_dropped_fabric"));
  EXPECT_EQ(sim.scalar("sw", "copies_made"), sim.scalar("sw", "copies_sent") +
                                                 sim.scalar("sw", "copies_dropped") +
                                                 sim.scalar("sw", "frames_queued"));
}

const char* kThreePorts = R"("ports": [{"count": 3, "rate_mbps": 1000}])";

TEST(Switch, StoreAndForwardLatencyIsTheWholeFrameAtTheIngressRatePlusTheForwardingLatency) {
  // a's frame ends at 12208 ns, reaches the switch at 12319.2 ns, waits 2500 ns, goes out at
  // 14819.2 ns for 12208 ns and reaches b 111.2 ns later: 27138.4 ns.
  SimFixture sim(scenario(R"("a": {"traffic": [)" + script("b", 0) + R"(]}, "b": {}, "c": {})",
                          R"({"between": ["a", "sw:1"], "cable_m": 20},
                             {"between": ["sw:2", "b"], "cable_m": 20},
                             {"between": ["sw:3", "c"], "cable_m": 20})",
                          std::string(kThreePorts) + R"(, "forwarding_latency_ns": 2500)",
                          100'000));
  sim.record_events();
  sim.run();
  ASSERT_EQ(received(sim, "b"), std::vector<Picoseconds>{27'138'400});
  EXPECT_EQ(sim.scalar("b.sink", "latency_mean"), 27'138'400.0 / 1000);
  expect_conservation(sim);
}

TEST(Switch, CutThroughForwardsOnceTheHeaderIsIn) {
  // The first bit reaches the switch at 111.2 ns; preamble, SFD and the 14 header bytes take
  // 176 ns more; 2500 ns of latency: out at 2787.2 ns, whole at b at 2787.2 + 12208 + 111.2.
  SimFixture sim(scenario(
      R"("a": {"traffic": [)" + script("b", 0) + R"(]}, "b": {}, "c": {})",
      R"({"between": ["a", "sw:1"], "cable_m": 20},
                             {"between": ["sw:2", "b"], "cable_m": 20},
                             {"between": ["sw:3", "c"], "cable_m": 20})",
      std::string(kThreePorts) + R"(, "forwarding_latency_ns": 2500, "mode": "cut_through")",
      100'000));
  sim.record_events();
  sim.run();
  ASSERT_EQ(received(sim, "b"), std::vector<Picoseconds>{15'106'400});
  EXPECT_EQ(port(sim, 1, "cut_through_frames"), 1);
  expect_conservation(sim);
}

TEST(Switch, FastEthernetToGigabitAndBackTakesEachFrameTimeAtItsOwnRate) {
  // a on a 100 Mb/s port, b on a gigabit one, no cable, no latency. a -> b: 122080 ns in, then
  // 12208 ns out: b has it at 134288 ns. b -> a at 200 us: 12208 in, 122080 out: 334288 ns.
  const std::string stations = R"("a": {"traffic": [)" + script("b", 0) +
                               R"(]}, "b": {"traffic": [)" + script("a", 200'000) + "]}";
  const std::string links = R"({"between": ["a", "sw:1"], "cable_m": 0},
                               {"between": ["sw:2", "b"], "cable_m": 0})";
  const std::string ports =
      R"("ports": [{"count": 1, "rate_mbps": 100}, {"count": 1, "rate_mbps": 1000}])";
  {
    SimFixture sim(scenario(stations, links, ports, 400'000));
    EXPECT_EQ(sim.config().find_station("a")->rate_mbps, 100);
    EXPECT_EQ(sim.config().find_station("b")->rate_mbps, 1000);
    sim.record_events();
    sim.run();
    EXPECT_EQ(received(sim, "b"), std::vector<Picoseconds>{134'288'000});
    EXPECT_EQ(received(sim, "a"), std::vector<Picoseconds>{334'288'000});
    expect_conservation(sim);
  }
}

TEST(Switch, CutThroughOnlyTowardsAnOutputNoFasterThanTheInput) {
  // As above in cut-through: 100 -> 1000 is stored and forwarded (134288 ns as before); 1000 ->
  // 100 goes once the header is in: 200000 + 176 + 122080 = 322256 ns.
  const std::string stations = R"("a": {"traffic": [)" + script("b", 0) +
                               R"(]}, "b": {"traffic": [)" + script("a", 200'000) + "]}";
  SimFixture sim(
      scenario(stations, R"({"between": ["a", "sw:1"], "cable_m": 0},
                                       {"between": ["sw:2", "b"], "cable_m": 0})",
               R"("ports": [{"count": 1, "rate_mbps": 100}, {"count": 1, "rate_mbps": 1000}],
                             "mode": "cut_through")",
               400'000));
  sim.record_events();
  sim.run();
  EXPECT_EQ(received(sim, "b"), std::vector<Picoseconds>{134'288'000});
  EXPECT_EQ(received(sim, "a"), std::vector<Picoseconds>{322'256'000});
  EXPECT_EQ(port(sim, 1, "cut_through_frames"), 0);
  EXPECT_EQ(port(sim, 2, "cut_through_frames"), 1);
}

TEST(Switch, TheFirstFrameToAnUnknownAddressIsFloodedLaterOnesAreUnicast) {
  // a -> b at 0 (b unknown: flooded, c's MAC discards it); b -> a at 50 us (a learned from its
  // first frame: unicast); a -> b at 100 us (b learned: unicast).
  SimFixture sim(scenario(R"("a": {"traffic": [{"pattern": "script", "to": "b", "script": [
                               {"at_ns": 0, "bytes": 100}, {"at_ns": 100000, "bytes": 100}]}]},
                             "b": {"traffic": [)" +
                              script("a", 50'000, 100) + R"(]}, "c": {})",
                          R"({"between": ["a", "sw:1"]}, {"between": ["sw:2", "b"]},
                             {"between": ["sw:3", "c"]})",
                          kThreePorts, 200'000));
  sim.run();
  EXPECT_EQ(sim.scalar("sw", "frames_flooded"), 1);
  EXPECT_EQ(sim.scalar("sw", "frames_unicast"), 2);
  EXPECT_EQ(sim.scalar("c.mac", "frames_filtered"), 1);
  EXPECT_EQ(sim.scalar("b.sink", "frames_received"), 2);
  EXPECT_EQ(sim.scalar("a.sink", "frames_received"), 1);
  EXPECT_EQ(sim.scalar("sw", "addresses_learned"), 2);
  expect_conservation(sim);
}

TEST(Switch, AnAddressNotSeenForTheAgingTimeIsForgottenAndFloodedAgain) {
  // Ageing 100 us. b is learned from its frame to a (sent at 10 us); a's frame at 50 us is
  // unicast; by 200 us b was last seen more than 100 us ago: flooded again. a's own entry has
  // aged by then too (last seen at 50 us) and is learned afresh: two entries aged.
  SimFixture sim(scenario(R"("a": {"traffic": [{"pattern": "script", "to": "b", "script": [
                               {"at_ns": 0, "bytes": 100}, {"at_ns": 50000, "bytes": 100},
                               {"at_ns": 200000, "bytes": 100}]}]},
                             "b": {"traffic": [)" +
                              script("a", 10'000, 100) + R"(]}, "c": {})",
                          R"({"between": ["a", "sw:1"]}, {"between": ["sw:2", "b"]},
                             {"between": ["sw:3", "c"]})",
                          std::string(kThreePorts) + R"(, "aging_s": 0.0001)", 300'000));
  sim.run();
  EXPECT_EQ(sim.scalar("sw", "frames_flooded"), 2);
  EXPECT_EQ(sim.scalar("sw", "frames_unicast"), 2);
  EXPECT_EQ(sim.scalar("sw", "addresses_aged"), 2);
  EXPECT_EQ(sim.scalar("sw", "addresses_learned"), 3);  // a, b, then a afresh
  EXPECT_EQ(sim.scalar("c.mac", "frames_filtered"), 2);
  EXPECT_EQ(sim.scalar("b.sink", "frames_received"), 3);
  expect_conservation(sim);
}

// Eight saturated gigabit senders s1..s8 (ports 1-8) to r (port 9), which announces itself with
// a broadcast at 0 so that the senders' frames are unicast.
std::string eight_into_one(const std::string& switch_keys, std::int64_t duration_ns) {
  std::string stations, links;
  for (int i = 1; i <= 8; ++i) {
    const std::string s = "s" + std::to_string(i);
    stations += "\"" + s +
                R"(": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 1518}]}, )";
    links += R"({"between": [")" + s + R"(", "sw:)" + std::to_string(i) + "\"]}, ";
  }
  stations += R"("r": {"traffic": [)" + script("broadcast", 0, 64) + "]}";
  links += R"({"between": ["sw:9", "r"]})";
  return scenario(stations, links, R"("ports": [{"count": 9, "rate_mbps": 1000}], )" + switch_keys,
                  duration_ns);
}

TEST(Switch, EightSendersIntoOneOutputDeliverItsLineRateAndDropTheRest) {
  // Output frame j leaves from 12208 + 12304 j ns (the first arrivals end at 12208), so r has
  // frames j with 24416 + 12304 j <= T by T = 2 ms: 161. Each sender's frame k arrives whole at
  // 12208 + 12304 k: 162 each by T, 1296 in all. With 64 frames of buffer, the rest are dropped.
  const Picoseconds t_ns = 2'000'000;
  SimFixture sim(eight_into_one(R"("port_buffer_frames": 64, "port_buffer_bytes": 1000000)", t_ns));
  sim.run();
  const std::int64_t delivered = (t_ns - 24'416) / 12'304 + 1;
  const std::int64_t arrived = 8 * ((t_ns - 12'208) / 12'304 + 1);
  EXPECT_EQ(sim.scalar("r.sink", "frames_received"), delivered);
  double in = 0;
  for (int i = 1; i <= 8; ++i) in += port(sim, i, "frames_in");
  EXPECT_EQ(in, arrived);
  EXPECT_EQ(port(sim, 9, "queued_frames"), 64);
  // The frame on the wire at T counts as queued, not sent.
  EXPECT_EQ(port(sim, 9, "drops_buffer_full"), arrived - (delivered + 64));
  expect_conservation(sim);
}

TEST(Switch, WithPauseNoFrameIsDroppedAndEachSenderGetsAnEighth) {
  const Picoseconds t_ns = 20'000'000;
  SimFixture sim(eight_into_one(R"("port_buffer_frames": 1024, "port_buffer_bytes": 1000000,
                                   "mac": {"pause_tx_enabled": true, "pause_xoff_bytes": 8000,
                                           "pause_xon_bytes": 3000})",
                                t_ns));
  sim.run();
  EXPECT_EQ(sim.scalar("sw", "copies_dropped"), 0);
  const double delivered = sim.scalar("r.sink", "frames_received");
  EXPECT_EQ(delivered, (t_ns - 24'416) / 12'304 + 1);  // the output never idles
  for (int i = 1; i <= 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_NEAR(port(sim, i, "frames_in"), delivered / 8, 8);
    EXPECT_GT(sim.scalar("s" + std::to_string(i) + ".mac", "pause_mac_ctrl_frames_received"), 0);
  }
  expect_conservation(sim);
}

TEST(Switch, AFabricSlowerThanItsPortsLimitsWhatTheyDeliver) {
  // Four saturated senders to four receivers through a 2000 Mb/s fabric: a 1518-byte frame
  // takes 6072 ns to cross, one at a time from the first arrival (12208 ns) on. Frame j reaches
  // its output at 12208 + 6072 (j + 1) and its receiver 12208 later.
  const Picoseconds t_ns = 1'000'000;
  std::string stations, links;
  for (int i = 1; i <= 4; ++i) {
    const std::string s = std::to_string(i);
    stations += "\"s" + s + R"(": {"traffic": [{"pattern": "saturated", "to": "r)" + s +
                R"(", "frame_bytes": 1518}]}, )";
    stations += "\"r" + s + R"(": {"traffic": [)" + script("broadcast", 0, 64) + "]}";
    stations += i < 4 ? ", " : "";
    links += R"({"between": ["s)" + s + R"(", "sw:)" + s + R"("]}, {"between": ["r)" + s +
             R"(", "sw:)" + std::to_string(i + 4) + "\"]}";
    links += i < 4 ? ", " : "";
  }
  SimFixture sim(scenario(stations, links,
                          R"("ports": [{"count": 8, "rate_mbps": 1000}], "fabric_mbps": 2000,
                             "port_buffer_bytes": 20000)",
                          t_ns));
  sim.run();
  double data = 0;
  for (int i = 1; i <= 4; ++i)
    data += sim.scalar("r" + std::to_string(i) + ".sink", "frames_received") - 3;
  EXPECT_EQ(data, (t_ns - 24'416) / 6072);
  EXPECT_GT(sim.scalar("sw", "frames_dropped_fabric"), 0);
  EXPECT_NEAR(sim.scalar("sw", "fabric_utilisation"), 1.0, 0.015);
  expect_conservation(sim);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

TEST(Switch, StrictPriorityServesTheHigherQueueFirst) {
  // a sends 1518-byte frames at priority 0, b 1500-byte frames at priority 7, both saturated, to
  // r. b's first frame is in at 12064 ns and goes at once; when it ends (24128 ns) only a's first
  // (in at 12208) waits, so it goes next; from then on one of b's frames (every 12160 ns, as
  // fast as the output sends them) always waits, and a never gets the output again: r has
  // exactly one 1518-byte frame.
  const std::string stations =
      R"("a": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 1518, "vlan_id": 1, "vlan_pcp": 0}]},
         "b": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 1500, "vlan_id": 1, "vlan_pcp": 7}]},
         "r": {"traffic": [{"pattern": "script", "to": "broadcast", "script": [{"at_ns": 0, "bytes": 64}]}]})";
  SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 1000000, "stations": {)" +
                 stations +
                 R"(}, "switches": {"sw": {"ports": [{"count": 3, "rate_mbps": 1000}],
                    "priority_queues": 2, "port_buffer_frames": 32, "port_buffer_bytes": 1000000}},
                    "links": [{"between": ["a", "sw:1"]}, {"between": ["b", "sw:2"]},
                              {"between": ["sw:3", "r"]}]})");
  sim.run();
  const double frames = sim.scalar("r.sink", "frames_received");
  const double octets = sim.scalar("r.sink", "octets_received");
  EXPECT_EQ((octets - 1500 * frames) / 18, 1);
  EXPECT_GT(frames, 80);
  expect_conservation(sim);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// Two Catalyst 3560E-24TD profiles (store and forward, 4000 ns forwarding latency) joined by a
// 10GBASE-LR uplink on their port 25 over 8 km of single-mode fibre (smf28_1310: 4.896 ns/m),
// with 100 ns transmit and 150 ns receive PHY latency; a on sw1:1, b on sw2:1 over 10 m of
// Cat 5e (55.6 ns). Each switch's 64,000 Mb/s fabric carries the 1518 bytes in 189.75 ns after
// the forwarding latency. By hand: a's frame is whole at sw1 at 12208 + 55.6 = 12263.6 ns; out
// on the uplink at 12263.6 + 4000 + 189.75 = 16453.35 for 1526 x 0.8 = 1220.8 ns; its end
// reaches sw2 39168 + 250 ns later, at 57092.15; out at 61281.9 for 12208 ns; at b 55.6 ns
// after: 73545.5 ns.
TEST(Switch, TwoSwitchProfilesOverAnEightKilometreTenGigabitUplink) {
  gbesim::testing::SimFixture sim(
      R"({"name": "t", "description": "", "duration_ns": 200000,
      "stations": {"a": {"traffic": [{"pattern": "script", "to": "b",
                                      "script": [{"at_ns": 0, "bytes": 1518}]}]}, "b": {}},
      "switches": {"sw1": {"profile": "cisco-catalyst-3560e-24td"},
                   "sw2": {"profile": "cisco-catalyst-3560e-24td"}},
      "links": [{"between": ["a", "sw1:1"], "cable_m": 10},
                {"between": ["sw1:25", "sw2:25"], "medium": "smf28_1310", "cable_m": 8000,
                 "phy_tx_latency_ns": 100, "phy_rx_latency_ns": 150},
                {"between": ["sw2:1", "b"], "cable_m": 10}]})");
  sim.record_events();
  sim.run();
  ASSERT_EQ(received(sim, "b"), std::vector<Picoseconds>{73'545'500});
  EXPECT_EQ(sim.scalar("sw1.port25", "frames_out"), 1);
  EXPECT_EQ(sim.scalar("sw2.port1", "frames_out"), 1);
}

}  // namespace
}  // namespace gbesim
