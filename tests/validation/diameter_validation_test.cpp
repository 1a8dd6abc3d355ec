// The collision-domain edge by simulation (docs/references.md, Validation 3): four
// stations, each on its own cable of length L to one repeater, with the medium's one-way delays
// taken from the topology (half of each pair's PDV; the margin term is 0). In this model a
// collision is late when it is detected more than a slot time after the first preamble bit, and
// the worst case (a station restarting after its own frame while the others restart on seeing
// that frame end) is detected exactly one round trip = PDV after the start. So the edge is
// exactly PDV = slot time, with no jam or preamble terms, and these cases check both sides of it,
// then the two further regimes the same arithmetic predicts beyond it.
//
// Hand-computed PDVs (docs/topology.md, the 802.3 tables): 1000 Mb/s, gigabit repeater:
//   864 (DTE pair) + 976 (repeater) + 2 L x 11.12 BT/m (Cat5).
// 100 Mb/s, Class II repeater: 100 (DTE pair) + 92 (repeater) + 2 L x 1.112 BT/m.

#include <gtest/gtest.h>

#include <string>

#include "sim/input/topology_loader.hpp"
#include "sim/support/diagnostics.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

std::string star(int rate_mbps, double cable_m, const std::string& traffic, int frame_bytes,
                 std::int64_t duration_ns) {
  std::string stations;
  std::string nodes;
  std::string cables;
  for (int i = 0; i < 4; ++i) {
    const std::string s = "s" + std::to_string(i);
    const std::string to = "s" + std::to_string((i + 1) % 4);
    stations += (i ? ", " : "") + std::string("\"") + s + R"(": {"traffic": [{"to": ")" + to +
                R"(", "frame_bytes": )" + std::to_string(frame_bytes) + ", " + traffic + "}]}";
    nodes += "\"" + s + R"(": {"kind": "dte"}, )";
    cables += (i ? ", " : "") + std::string(R"({"between": [")") + s +
              R"(", "r"], "medium": "cat5", "cable_m": )" + std::to_string(cable_m) + "}";
  }
  const std::string repeater = rate_mbps == 1000 ? "gigabit" : "class_ii";
  return R"({"name": "edge", "description": "", "seed": 7, "duration_ns": )" +
         std::to_string(duration_ns) + R"(, "rate_mbps": )" + std::to_string(rate_mbps) +
         R"(, "mac": {"duplex": "half"}, "stations": {)" + stations +
         R"(}, "topology": {"nodes": {)" + nodes + R"("r": {"kind": "repeater", "class": ")" +
         repeater + R"("}}, "cables": [)" + cables + "]}}";
}

// The same star written as a collision domain (cable_m per station, the repeater's round trip
// in bit times; the DTE pair's default is the table's, 864 BT at 1000 Mb/s).
std::string star_as_collision_domain(int rate_mbps, double cable_m, const std::string& traffic,
                                     int frame_bytes, std::int64_t duration_ns) {
  std::string doc = star(rate_mbps, cable_m, traffic, frame_bytes, duration_ns);
  doc = doc.substr(0, doc.find(R"(, "topology": )"));
  std::string cables;
  for (int i = 0; i < 4; ++i)
    cables +=
        (i ? ", " : "") + std::string("\"s") + std::to_string(i) + "\": " + std::to_string(cable_m);
  return doc + R"(, "collision_domains": [{"stations": ["s0", "s1", "s2", "s3"], "medium": )" +
         R"("cat5", "cable_m": {)" + cables + R"(}, "repeater_round_trip_bt": )" +
         (rate_mbps == 1000 ? "976" : "92") + "}]}";
}

double pdv_1000(double cable_m) {
  return 864 + 976 + 2 * cable_m * 11.12;
}
double pdv_100(double cable_m) {
  return 100 + 92 + 2 * cable_m * 1.112;
}

struct Outcome {
  double pdv;
  double frames_ok;
  double attempts;
  double late;
  double late_drops;
  double unnoticed;
  double efficiency;
};

Outcome simulate(int rate_mbps, double cable_m, const std::string& traffic, int frame_bytes,
                 std::int64_t duration_ns, bool as_collision_domain = false) {
  gbesim::testing::SimFixture sim(
      as_collision_domain
          ? star_as_collision_domain(rate_mbps, cable_m, traffic, frame_bytes, duration_ns)
          : star(rate_mbps, cable_m, traffic, frame_bytes, duration_ns));
  sim.run();
  Outcome r{};
  if (as_collision_domain) {
    // The simulated round trip between two stations: twice the medium's one-way delay.
    const auto& dom = sim.config().domains.at(0);
    r.pdv = 2 * dom.delay_ps(5.56, 1000.0 / rate_mbps)[0][1] / 1000.0 * rate_mbps / 1000.0;
  } else {
    const LoadedTopology& t = *sim.config().topology;
    r.pdv = t.report.domains.at(0).pairs.at(*t.report.domains.at(0).worst).pdv_bt;
  }
  r.efficiency = sim.scalar("domain0", "efficiency");
  r.late_drops = sim.scalar("domain0", "late_collision_drops");
  r.unnoticed = sim.scalar("domain0", "unnoticed_collision_losses");
  for (int i = 0; i < 4; ++i) {
    const std::string mac = "s" + std::to_string(i) + ".mac";
    r.frames_ok += sim.scalar(mac, "frames_transmitted_ok");
    r.attempts += sim.scalar(mac, "transmission_attempts");
    r.late += sim.scalar(mac, "late_collisions");
  }
  return r;
}

const char* kSaturated = R"("pattern": "saturated")";

// 1000 Mb/s, slot 4096: L = 101.4 m gives PDV 4095.17, L = 101.5 m gives 4097.39.
TEST(DiameterEdge, GigabitJustInsideTheSlotHasNoLateCollisionIn100000Frames) {
  const Outcome r = simulate(1000, 101.4, kSaturated, 1518, 1'400'000'000);
  EXPECT_NEAR(r.pdv, pdv_1000(101.4), 1e-9);
  EXPECT_LT(r.pdv, 4096);
  EXPECT_GE(r.frames_ok, 100'000);
  EXPECT_GT(r.attempts, r.frames_ok);  // there were collisions: all of them in the slot
  EXPECT_EQ(r.late, 0);
  EXPECT_EQ(r.unnoticed, 0);
}

TEST(DiameterEdge, GigabitJustInsideWithPoissonTrafficHasNoLateCollisionIn100000Frames) {
  const Outcome r =
      simulate(1000, 101.4, R"("pattern": "poisson", "load": 0.1)", 512, 1'100'000'000);
  EXPECT_GE(r.frames_ok, 100'000);
  EXPECT_GT(r.attempts, r.frames_ok);
  EXPECT_EQ(r.late, 0);
  EXPECT_EQ(r.unnoticed, 0);
}

TEST(DiameterEdge, GigabitJustOutsideTheSlotHasLateCollisionsAndLosesTheFrames) {
  const Outcome r = simulate(1000, 101.5, kSaturated, 1518, 100'000'000);
  EXPECT_NEAR(r.pdv, pdv_1000(101.5), 1e-9);
  EXPECT_GT(r.pdv, 4096);
  EXPECT_GT(r.late, 0);
  EXPECT_EQ(r.late_drops, r.late);  // never retried at 1000 Mb/s
}

// The same edge with the plant written as a collision domain: the same delays (the loader test
// ACollisionDomainAndTheSameTopologyGiveTheSameDelays shows them equal to the picosecond), so
// the same sides of the same 101.44 m.
TEST(DiameterEdge, AsACollisionDomainGigabitJustInsideTheSlotHasNoLateCollision) {
  const Outcome r = simulate(1000, 101.4, kSaturated, 1518, 140'000'000, true);
  EXPECT_NEAR(r.pdv, pdv_1000(101.4), 0.002);  // integer picoseconds
  EXPECT_GE(r.frames_ok, 10'000);
  EXPECT_GT(r.attempts, r.frames_ok);
  EXPECT_EQ(r.late, 0);
  EXPECT_EQ(r.unnoticed, 0);
}

TEST(DiameterEdge, AsACollisionDomainGigabitJustOutsideTheSlotHasLateCollisions) {
  const Outcome r = simulate(1000, 101.5, kSaturated, 1518, 100'000'000, true);
  EXPECT_NEAR(r.pdv, pdv_1000(101.5), 0.002);
  EXPECT_GT(r.late, 0);
  EXPECT_EQ(r.late_drops, r.late);
}

// 100 Mb/s, slot 512: L = 143.8 m gives PDV 511.82, L = 144.0 m gives 512.26.
TEST(DiameterEdge, FastEthernetJustInsideTheSlotHasNoLateCollisionIn100000Frames) {
  const Outcome r = simulate(100, 143.8, kSaturated, 1518, 13'000'000'000);
  EXPECT_NEAR(r.pdv, pdv_100(143.8), 1e-9);
  EXPECT_LT(r.pdv, 512);
  EXPECT_GE(r.frames_ok, 100'000);
  EXPECT_GT(r.attempts, r.frames_ok);
  EXPECT_EQ(r.late, 0);
}

TEST(DiameterEdge, FastEthernetJustOutsideTheSlotHasLateCollisions) {
  const Outcome r = simulate(100, 144.0, kSaturated, 1518, 1'000'000'000);
  EXPECT_GT(r.pdv, 512);
  EXPECT_GT(r.late, 0);
  EXPECT_EQ(r.late_drops, 0);  // 10/100 Mb/s retry after a late collision by default
}

// Beyond the edge, a collision is noticed only while the station still transmits: a 64-byte
// frame extended to the slot lasts 64 + 4096 = 4160 bit times from the first preamble bit. At
// L = 102 m (PDV 4108.48) the collision arrives inside that, late; at L = 105 m (4175.2) after it:
// the sender counts the frame sent, the receiver gets it damaged. (One simulation per test: SystemC
// elaborates once per process.)
TEST(DiameterEdge, BeyondTheSlotButWithinTheTransmissionCollisionsAreLate) {
  const Outcome r = simulate(1000, 102, kSaturated, 64, 20'000'000);
  EXPECT_LT(r.pdv, 4160);
  EXPECT_GT(r.late, 0);
  EXPECT_EQ(r.unnoticed, 0);
}

TEST(DiameterEdge, BeyondTheTransmissionLengthCollisionsGoUnnoticed) {
  const Outcome r = simulate(1000, 105, kSaturated, 64, 20'000'000);
  EXPECT_GT(r.pdv, 4160);
  EXPECT_EQ(r.late, 0);
  EXPECT_GT(r.unnoticed, 0);
}

// When even the one-way delay (PDV / 2) exceeds the slot, stations that start together detect
// their collision late too. At 1000 Mb/s nobody retries, nobody backs off, and the symmetric
// saturated stations restart together for ever: every attempt is a late collision. L = 285 m
// (PDV 8178.4 < 2 x 4096) still carries traffic; L = 290 m (8289.6) carries none.
TEST(DiameterEdge, BelowTwiceTheSlotSaturatedStationsStillCarryTraffic) {
  const Outcome r = simulate(1000, 285, kSaturated, 1518, 20'000'000);
  EXPECT_LT(r.pdv, 8192);
  EXPECT_GT(r.efficiency, 0.9);
}

TEST(DiameterEdge, BeyondTwiceTheSlotSymmetricSaturatedStationsLockUp) {
  const Outcome r = simulate(1000, 290, kSaturated, 1518, 20'000'000);
  EXPECT_GT(r.pdv, 8192);
  EXPECT_EQ(r.frames_ok, 0);
  EXPECT_GT(r.attempts, 1000);
  EXPECT_NEAR(r.late, r.attempts, 4);  // up to one attempt per station in flight
}

}  // namespace
}  // namespace gbesim
