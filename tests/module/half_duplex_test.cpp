// The half-duplex MAC (CSMA/CD, carrier extension, bursting) against hand-computed timelines.
// At 1000 Mb/s one bit time is 1 ns: slotTime 4096 bit times = 4096 ns, the gap 96 ns.

#include <gtest/gtest.h>

#include <map>

#include "models/common/rng.hpp"
#include "models/mac/mac.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using testing::RecordedEvent;
using testing::SimFixture;

std::string nanos(double ns) {
  return std::to_string(ns);
}

// Two half-duplex stations joined by a one-way delay of d ns, with the given traffic and MAC
// settings; 1000 Mb/s unless `rate` says otherwise.
std::string pair(double d_ns, const std::string& a_traffic, const std::string& b_traffic,
                 const std::string& mac = "", int rate = 1000, std::int64_t duration_ns = 1000000) {
  return R"({"name": "t", "description": "", "duration_ns": )" + std::to_string(duration_ns) +
         R"(, "rate_mbps": )" + std::to_string(rate) + R"(,
      "mac": {"duplex": "half")" +
         (mac.empty() ? "" : ", " + mac) + R"(},
      "stations": {"a": {"traffic": [)" +
         a_traffic + R"(]}, "b": {"traffic": [)" + b_traffic + R"(]}},
      "collision_domains": [{"stations": ["a", "b"],
                             "delay_ns": [[0, )" +
         nanos(d_ns) + "], [" + nanos(d_ns) + ", 0]]}]}";
}

std::vector<Picoseconds> times(const std::vector<RecordedEvent>& events) {
  std::vector<Picoseconds> out;
  for (const auto& e : events) out.push_back(e.time_ps);
  return out;
}

// Built from default parameters (no loader filling in slot_time_bits), a MAC takes the
// slotTime of its speed: 4096 bit times at 1000 Mb/s, 512 at 100 Mb/s; a given one wins.
TEST(HalfDuplex, AMacBuiltFromDefaultParametersHasItsSpeedsSlotTime) {
  SimContext context(1);
  MacParams params;
  params.duplex = Duplex::half;
  MacConfig gigabit;
  gigabit.rate_mbps = 1000;
  MacConfig fast;
  fast.rate_mbps = 100;
  const Mac a("a", params, gigabit, context);
  const Mac b("b", params, fast, context);
  EXPECT_EQ(a.slot_time_ps(), 4096 * 1'000);
  EXPECT_EQ(b.slot_time_ps(), 512 * 10'000);
  params.slot_time_bits = 1024;
  const Mac c("c", params, gigabit, context);
  EXPECT_EQ(c.slot_time_ps(), 1024 * 1'000);
}

TEST(HalfDuplex, ExtendedFramesHoldTheMediumForASlotPlusPreamble) {
  // 64-byte frames, extension on, no bursting: each transmission lasts 64 + 4096 bit times
  // (4160 ns); after it our own gap of 96 ns: starts 4256 ns apart, 234 962 frames/s.
  SimFixture sim(pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", ""));
  sim.record_events();
  sim.run_until(5 * 4'256'000);
  const auto starts = times(sim.events_of(EventKind::tx_start, "a.mac"));
  const auto ends = times(sim.events_of(EventKind::tx_end, "a.mac"));
  ASSERT_GE(starts.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(starts[k], static_cast<Picoseconds>(k) * 4'256'000);
    EXPECT_EQ(ends[k], static_cast<Picoseconds>(k) * 4'256'000 + 4'160'000);
  }
  // The receiver gets the frame when the extension has arrived: 4160 + 10 ns.
  EXPECT_EQ(sim.events_of(EventKind::rx_ok, "b.mac").at(0).time_ps, 4'170'000);
}

TEST(HalfDuplex, WithoutExtensionAGigabitFrameIsAsShortAsInFullDuplex) {
  SimFixture sim(pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", "",
                      R"("carrier_extension": false)"));
  sim.record_events();
  sim.run_until(3 * 672'000);
  const auto starts = times(sim.events_of(EventKind::tx_start, "a.mac"));
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts[1], 672'000);
  EXPECT_EQ(starts[2], 1'344'000);
}

TEST(HalfDuplex, ABurstFollowsTheValidationTimeline) {
  // docs/references.md, Validation 2: frame 1 holds the medium 4160 ns; frame k >= 2 starts at
  // 4256 + (k - 2) * 672 ns; the last start below 65 536 ns is frame 93 (65 408 ns); the burst
  // ends at 65 984 ns; the next one starts 96 ns later, at 66 080 ns.
  SimFixture sim(pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", "",
                      R"("frame_bursting": true)"));
  sim.record_events();
  sim.run_until(70'000'000);
  const auto starts = times(sim.events_of(EventKind::tx_start, "a.mac"));
  ASSERT_GE(starts.size(), 94u);
  EXPECT_EQ(starts[0], 0);
  EXPECT_EQ(starts[1], 4'256'000);
  EXPECT_EQ(starts[92], 4'256'000 + 91 * 672'000);  // frame 93
  EXPECT_EQ(starts[93], 66'080'000);                // frame 1 of the next burst
  const auto bursts = sim.events_of(EventKind::burst_end, "a.mac");
  ASSERT_GE(bursts.size(), 1u);
  EXPECT_EQ(bursts[0].time_ps, 65'984'000);
  EXPECT_EQ(bursts[0].value, 93);
}

// 64-byte frames start at 0, 4256, 4928, 5600, ... ns into a burst. A frame may start while
// fewer than burstLimit bit times have passed: with a limit of 5600 the frame that would start at
// exactly 5600 ns may not (3 frames per burst); with 5601 it may (4 frames). One simulation per
// process, so one limit per test.
class BurstLimit : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(BurstLimit, AFrameMayStartOnlyBeforeTheLimit) {
  const auto [limit, frames] = GetParam();
  SimFixture sim(pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", "",
                      R"("frame_bursting": true, "burst_limit_bits": )" + std::to_string(limit)));
  sim.record_events();
  sim.run_until(20'000'000);
  const auto bursts = sim.events_of(EventKind::burst_end, "a.mac");
  ASSERT_GE(bursts.size(), 1u) << limit;
  EXPECT_EQ(bursts[0].value, frames) << limit;
  EXPECT_EQ(bursts[0].time_ps, 4'160'000 + (frames - 1) * 672'000) << limit;
}

INSTANTIATE_TEST_SUITE_P(HalfDuplex, BurstLimit,
                         ::testing::Values(std::pair{5600, 3}, std::pair{5601, 4}));

TEST(HalfDuplex, SimultaneousStartsCollideJamAndBackOffWholeSlots) {
  // Both stations queue a 64-byte frame at 0 and start at once; with 100 ns between them each
  // hears the other at 100 ns (after its 64 ns of preamble), jams 32 bit times to 132 ns and
  // backs off r slots of 4096 ns, r in {0, 1} drawn from its own stream. Both signals have left
  // both stations by 232 ns, and each sent last, so the first to go (smaller r) starts at
  // max(132 + 4096 r, 232 + 96); the other, if its backoff ends while that frame (4160 ns, plus
  // 100 ns to reach it) is on the wire, defers to it and goes 96 ns after it has passed.
  const char* frame = R"({"pattern": "script", "to": "%", "script": [{"at_ns": 0, "bytes": 64}]})";
  std::string to_b = frame, to_a = frame;
  to_b.replace(to_b.find('%'), 1, "b");
  to_a.replace(to_a.find('%'), 1, "a");
  SimFixture sim(pair(100, to_b, to_a));
  sim.record_events();
  sim.run_until(20'000'000);
  // The same draws the MACs make: stream (seed 1, path "<station>.mac"), range 2^1.
  std::map<std::string, std::int64_t> r;
  for (const std::string who : {"a", "b"})
    r[who] = static_cast<std::int64_t>(RngStream(1, who + ".mac").uniform_below(2));
  for (const std::string who : {"a", "b"}) {
    const std::string mac = who + ".mac";
    const std::string other = who == "a" ? "b" : "a";
    const auto collisions = sim.events_of(EventKind::collision, mac);
    const auto jams = sim.events_of(EventKind::jam_end, mac);
    const auto backoffs = sim.events_of(EventKind::backoff, mac);
    ASSERT_GE(collisions.size(), 1u) << who;
    EXPECT_EQ(collisions[0].time_ps, 100'000) << who;
    EXPECT_EQ(collisions[0].detail, "") << who;  // not late
    EXPECT_EQ(jams.at(0).time_ps, 132'000) << who;
    EXPECT_EQ(backoffs.at(0).value, r[who]) << who;
    const auto starts = times(sim.events_of(EventKind::tx_start, mac));
    ASSERT_GE(starts.size(), 2u) << who;
    const Picoseconds mine = std::max<Picoseconds>(132'000 + r[who] * 4'096'000, 328'000);
    const Picoseconds theirs = std::max<Picoseconds>(132'000 + r[other] * 4'096'000, 328'000);
    const bool defer = r[who] > r[other] && mine < theirs + 4'160'000 + 100'000;
    EXPECT_EQ(starts[1], defer ? theirs + 4'260'000 + 96'000 : mine) << who;
  }
}

TEST(HalfDuplex, SixteenCollisionsDropTheFrame) {
  // With backoff_limit 0 every backoff is 0 slots: two stations that start together retry
  // together and collide every time; after 16 attempts each drops its frame.
  SimFixture sim(pair(50,
                      R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]})",
                      R"({"pattern": "script", "to": "a", "script": [{"at_ns": 0, "bytes": 64}]})",
                      R"("backoff_limit": 0)"));
  sim.record_events();
  sim.run_until(10'000'000);
  for (const std::string who : {"a", "b"}) {
    EXPECT_EQ(sim.scalar(who + ".mac", "collisions"), 16) << who;
    EXPECT_EQ(sim.scalar(who + ".mac", "frames_aborted_excessive_collisions"), 1) << who;
    EXPECT_EQ(sim.scalar(who + ".mac", "frames_transmitted_ok"), 0) << who;
    const auto drops = sim.events_of(EventKind::drop, who + ".mac");
    ASSERT_EQ(drops.size(), 1u);
    EXPECT_EQ(drops[0].detail, "excessive_collisions");
  }
}

// a starts at 0; b's frame is queued 1 ns before a's signal reaches it, so b starts too; a hears
// b at 2d - 1 ns after its own start.
// a sends 1518 bytes (12 208 ns on the wire), long enough to still be sending when b's signal
// comes back (a 64-byte frame's extension ends at 4160 ns: past that, the collision is only
// seen by the receivers -- the very failure a too-large network produces).
std::string late_geometry(double d_ns) {
  return pair(d_ns, R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 1518}]})",
              R"({"pattern": "script", "to": "a", "script": [{"at_ns": )" +
                  std::to_string(static_cast<long>(d_ns) - 1) + R"(, "bytes": 64}]})");
}

TEST(HalfDuplex, CollisionsWithinTheSlotAreNotLate) {
  // d = 2000 ns: a hears b 3999 ns after starting: within the 4096 ns slot.
  SimFixture sim(late_geometry(2000));
  sim.record_events();
  sim.run_until(100'000'000);
  EXPECT_EQ(sim.scalar("a.mac", "late_collisions"), 0);
  EXPECT_EQ(sim.events_of(EventKind::collision, "a.mac").at(0).time_ps, 3'999'000);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 1);  // retried and delivered
}

TEST(HalfDuplex, BeyondHalfTheSlotCollisionsAreLateAndNotRetriedAtAGigabit) {
  // d = 2100 ns: a hears b 4199 ns after starting: later than the slot. At 1000 Mb/s the frame
  // is not retried. b hears a 1 ns after starting: a normal collision, retried.
  SimFixture sim(late_geometry(2100));
  sim.record_events();
  sim.run_until(100'000'000);
  EXPECT_EQ(sim.scalar("a.mac", "late_collisions"), 1);
  EXPECT_EQ(sim.scalar("a.mac", "frames_aborted_late_collision"), 1);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 0);
  const auto c = sim.events_of(EventKind::collision, "a.mac").at(0);
  EXPECT_EQ(c.time_ps, 4'199'000);
  EXPECT_EQ(c.detail, "late");
  EXPECT_EQ(sim.scalar("b.mac", "late_collisions"), 0);
  EXPECT_EQ(sim.scalar("b.mac", "frames_transmitted_ok"), 1);
}

class LateAt100 : public ::testing::TestWithParam<bool> {};

TEST_P(LateAt100, LateCollisionsAreRetriedAt100MbpsUnlessTurnedOff) {
  // 100 Mb/s: slot 512 bit times = 5120 ns; a's 64-byte frame lasts 5760 ns. d = 2600 ns: b
  // starts at 2599 ns, a hears it at 5199 ns: after the slot, before its frame ends.
  const bool retry = GetParam();
  const std::string mac = std::string(R"("retry_late_collisions": )") + (retry ? "true" : "false");
  SimFixture sim(pair(
      2600, R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]})",
      R"({"pattern": "script", "to": "a", "script": [{"at_ns": 2599, "bytes": 64}]})", mac, 100));
  sim.run_until(kPsPerMs);
  EXPECT_EQ(sim.scalar("a.mac", "late_collisions"), 1);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), retry ? 1 : 0);
  EXPECT_EQ(sim.scalar("a.mac", "frames_aborted_late_collision"), retry ? 0 : 1);
}

INSTANTIATE_TEST_SUITE_P(HalfDuplex, LateAt100, ::testing::Bool());

TEST(HalfDuplex, ACollisionDuringTheExtensionIsANormalCollision) {
  // a's 64-byte frame ends its data at 576 ns and its extension at 4160 ns. b is 1500 ns away and
  // queues a frame at 1499 ns, just before a's signal reaches it, so it starts at once; a hears b
  // at 2999 ns, during a's extension and within the slot: a normal collision, retried.
  SimFixture sim(
      pair(1500, R"({"pattern": "script", "to": "b", "script": [{"at_ns": 0, "bytes": 64}]})",
           R"({"pattern": "script", "to": "a", "script": [{"at_ns": 1499, "bytes": 64}]})"));
  sim.record_events();
  sim.run_until(100'000'000);
  const auto c = sim.events_of(EventKind::collision, "a.mac").at(0);
  EXPECT_EQ(c.time_ps, 2'999'000);
  EXPECT_EQ(c.detail, "");
  EXPECT_EQ(sim.events_of(EventKind::jam_end, "a.mac").at(0).time_ps, 3'031'000);
  EXPECT_EQ(sim.scalar("a.mac", "late_collisions"), 0);
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"), 1);
}

TEST(HalfDuplex, ChannelSharesFollowTheSingleSenderTimeline) {
  // One sender, 64-byte frames with extension: every 4256 ns carry 64 ns of preamble, 512 of
  // frame, 3584 of extension and 96 of idle gap. Ten periods exactly.
  SimFixture one(pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})", ""));
  one.run_until(10 * 4'256'000);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "preamble_share"), 64.0 / 4256);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "frame_share"), 512.0 / 4256);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "extension_share"), 3584.0 / 4256);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "idle_share"), 96.0 / 4256);
  EXPECT_EQ(one.scalar("domain0", "collision_share"), 0);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "throughput"), 10 * 512 / 42'560e-9);
  EXPECT_DOUBLE_EQ(one.scalar("domain0", "payload_throughput"), 10 * 46 * 8 / 42'560e-9);
  EXPECT_EQ(one.scalar("domain0", "collisions_per_frame"), 0);
}

TEST(HalfDuplex, UnderContentionTheChannelSharesAddUpToOne) {
  // Two saturated stations 300 ns apart collide; whatever the mix, the parts add up to the whole.
  SimFixture two(pair(300, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})",
                      R"({"pattern": "saturated", "to": "a", "frame_bytes": 64})", "", 1000,
                      5'000'000));
  two.run_until(5'000'000);
  double sum = 0;
  for (const char* share : {"preamble_share", "frame_share", "extension_share", "in_progress_share",
                            "collision_share", "idle_share"})
    sum += two.scalar("domain0", share);
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_GT(two.scalar("domain0", "collision_share"), 0);
  EXPECT_GT(two.scalar("a.mac", "collisions"), 0);
  const double a = two.scalar("a.mac", "frame_octets_transmitted_ok");
  const double b = two.scalar("b.mac", "frame_octets_transmitted_ok");
  EXPECT_DOUBLE_EQ(two.scalar("domain0", "fairness"), (a + b) * (a + b) / (2 * (a * a + b * b)));
  EXPECT_DOUBLE_EQ(two.scalar("domain0", "collisions_per_frame"),
                   (two.scalar("a.mac", "collisions") + two.scalar("b.mac", "collisions")) /
                       (two.scalar("a.mac", "frames_transmitted_ok") +
                        two.scalar("b.mac", "frames_transmitted_ok")));
}

TEST(HalfDuplex, ADeferringStationWaitsForTheBurstAndCostsNoEventPerFrame) {
  // a bursts 64-byte frames; b has a frame from 1 us on and defers to the whole first burst
  // (its carrier is continuous), then goes 96 ns after it reaches b: 65 984 + 10 + 96 ns. b's
  // MAC wakes a bounded number of times, not once per frame of a's 93-frame burst.
  SimFixture sim(
      pair(10, R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})",
           R"({"pattern": "script", "to": "a", "script": [{"at_ns": 1000, "bytes": 64}]})",
           R"("frame_bursting": true)"));
  sim.record_events();
  const std::uint64_t before = sim.context().activations;
  sim.run_until(66'200'000);
  const auto b_starts = times(sim.events_of(EventKind::tx_start, "b.mac"));
  ASSERT_EQ(b_starts.size(), 1u);
  EXPECT_EQ(b_starts[0], 66'090'000);  // 65 984 + 10 + 96
  // Every frame of a's costs three activations (a's MAC at the frame's end and at the end of the
  // fill, the delivery to b); b's MAC adds a handful (its frame, the end of the burst). Waking b
  // for each of a's 93 frames would add 93 more: at least 4 x 93 in all.
  EXPECT_LT(sim.context().activations - before, 4u * 93);
  EXPECT_EQ(sim.scalar("b.mac", "deferred_transmissions"), 1);
}

}  // namespace
}  // namespace gbesim
