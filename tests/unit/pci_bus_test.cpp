// The PCI bus model's timing, clock by clock, against the protocol (PCI 2.2 as summarised in
// docs/references.md, Standards D) and the closed form in analysis/pci_cycles. The bus engine is
// plain C++; these tests step it directly (tests/module/pci_bus_module_test.cpp runs it under the
// SystemC kernel).

#include "models/pci/pci_bus.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "analysis/pci_cycles.hpp"
#include "models/common/rng.hpp"
#include "tests/support/bus_log.hpp"
#include "tests/support/pci_request.hpp"

namespace gbesim {
namespace {

constexpr Picoseconds kP33 = 30'000;

struct Client : PciMasterClient {
  std::vector<std::pair<std::uint64_t, Picoseconds>> done;
  void pci_done(const PciRequest& r, Picoseconds at) override { done.push_back({r.tag, at}); }
};

struct Bench {
  explicit Bench(PciBusParams p = {}) : bus(p, stats, "pci") {}
  std::size_t master(const std::string& name, PciMasterParams p = {}) {
    clients.push_back(std::make_unique<Client>());
    return bus.add_master(name, p, clients.back().get());
  }
  void run_until(Picoseconds t) { bus.advance(t); }
  void run() {
    while (bus.next_event_ps() < kForeverPs) bus.advance(bus.next_event_ps());
  }
  double scalar(const std::string& name) const {
    StatContext c;
    c.elapsed_ps = std::max<Picoseconds>(last_edge() * bus.period_ps(), 1);
    for (const auto& s : stats.collect(c))
      if (s.component == "pci" && s.name == name) return s.value;
    ADD_FAILURE() << "no scalar " << name;
    return -1;
  }
  std::int64_t last_edge() const { return log.empty() ? 0 : log.back().end_clock + 1; }

  StatRegistry stats;
  PciBus bus;
  std::vector<std::unique_ptr<Client>> clients;
  // The transactions, from the bus's events.
  gbesim::testing::BusLog bus_log{bus};
  const std::vector<PciTransaction>& log = bus_log.transactions;
};

using gbesim::testing::pci_request;

// A request at t = 0 is sampled at edge 1; the arbiter grants at edge 1 and the master sees
// GNT# at edge 2: the address phase is clock [2, 3). A zero-wait write of 16 data phases
// (64 bytes, 32-bit) with fast DEVSEL: first data at edge 2 + 1 + 1 = 4, last at 19; the bus is
// free again at 20 (one turnaround clock): N + 2 = 18 clocks.
TEST(PciBus, AZeroWaitWriteBurstTakesNPlusTwoClocks) {
  Bench b;
  const auto bridge = b.bus.add_target("bridge", {});
  const auto m = b.master("nic");
  b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 64), 0);
  b.run();
  ASSERT_EQ(b.log.size(), 1u);
  const PciTransaction& t = b.log[0];
  EXPECT_EQ(t.start_clock, 2);
  EXPECT_EQ(t.data_phases, 16);
  EXPECT_EQ(t.end_clock, 19);
  EXPECT_EQ(t.address_clocks, 1);
  EXPECT_EQ(t.wait_clocks, 0);
  EXPECT_EQ(t.turnaround_clocks, 1);
  EXPECT_EQ(t.ending, PciEnding::complete);
  ASSERT_EQ(b.clients[0]->done.size(), 1u);
  EXPECT_EQ(b.clients[0]->done[0].second, 19 * kP33);
  PciTransactionShape s;
  s.data_phases = 16;
  EXPECT_EQ(t.end_clock + 1 - t.start_clock, pci_transaction_clocks(s));
  EXPECT_EQ(pci_transaction_clocks(s), 18);
}

// Reads: address, AD turnaround, then data: N + 3 clocks with zero waits; a target initial
// latency of 8 clocks puts the first data at FRAME# + 8 + 1; 3 subsequent wait states stretch
// every later data phase to 4 clocks.
TEST(PciBus, ReadsPayTheTurnaroundTheInitialLatencyAndTheWaitStates) {
  // A target answering in 1 clock still cannot drive AD before the turnaround: 2.
  for (auto [latency, wait] : {std::pair{1, 0}, {2, 0}, {8, 0}, {8, 3}}) {
    const int x = std::max(latency, 2);
    Bench b;
    PciTargetParams tp;
    tp.read_latency_clocks = latency;
    tp.subsequent_wait_clocks = wait;
    tp.prefetch_bytes = 4096;
    const auto bridge = b.bus.add_target("bridge", tp);
    const auto m = b.master("nic");
    b.bus.request(m, pci_request(bridge, PciCommand::memory_read_multiple, 128), 0);
    b.run();
    ASSERT_EQ(b.log.size(), 1u);
    const PciTransaction& t = b.log[0];
    EXPECT_EQ(t.data_phases, 32);
    EXPECT_EQ(t.end_clock, 2 + 1 + x + 31 * (1 + wait)) << latency << "/" << wait;
    EXPECT_EQ(t.turnaround_clocks, 2);
    EXPECT_EQ(t.wait_clocks, x - 2 + 31 * wait);
    PciTransactionShape s;
    s.read = true;
    s.latency_clocks = latency;
    s.subsequent_wait_clocks = wait;
    s.data_phases = 32;
    EXPECT_EQ(t.end_clock + 1 - t.start_clock, pci_transaction_clocks(s));
  }
}

TEST(PciBus, MediumAndSlowDevselAndADualAddressCycleAddClocks) {
  for (auto [devsel, clocks] :
       {std::pair{Devsel::fast, 1}, {Devsel::medium, 2}, {Devsel::slow, 3}}) {
    for (bool dac : {false, true}) {
      Bench b;
      PciTargetParams tp;
      tp.devsel = devsel;
      const auto bridge = b.bus.add_target("bridge", tp);
      PciMasterParams mp;
      mp.dual_address_cycle = dac;
      const auto m = b.master("nic", mp);
      b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 16), 0);
      b.run();
      const PciTransaction& t = b.log.at(0);
      EXPECT_EQ(t.end_clock, 2 + (dac ? 2 : 1) + clocks + 3) << choice_name(devsel) << dac;
      EXPECT_EQ(t.wait_clocks, clocks - 1);
    }
  }
}

// 64-bit transfers: 8 bytes per data phase when bus and master are both 64 bits wide; a 32-bit
// card in a 64-bit slot still moves 4.
TEST(PciBus, SixtyFourBitTransfersHalveTheDataPhases) {
  for (auto [bus_bits, master_bits, phases] :
       {std::tuple{32, 32, 128}, {64, 64, 64}, {64, 32, 128}}) {
    PciBusParams bp;
    bp.width_bits = bus_bits;
    Bench b(bp);
    const auto bridge = b.bus.add_target("bridge", {});
    PciMasterParams mp;
    mp.width_bits = master_bits;
    const auto m = b.master("nic", mp);
    b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 512), 0);
    b.run();
    EXPECT_EQ(b.log.at(0).data_phases, phases);
    EXPECT_EQ(b.log.at(0).end_clock, 2 + 1 + 1 + phases - 1);
  }
  // An unaligned start costs a partial first phase: 8 bytes at offset 4 on 64 bits are 2 phases.
  EXPECT_EQ(pci_data_phases(4, 8, 8), 2);
  EXPECT_EQ(pci_data_phases(0, 8, 8), 1);
}

// The master keeps the bus: parked, its next transaction starts right after the turnaround
// clock without arbitration; with parking "none" it must ask again (one more clock).
TEST(PciBus, AParkedMasterStartsWithoutArbitration) {
  for (const PciParking parking : {PciParking::last, PciParking::none}) {
    PciBusParams bp;
    bp.parking = parking;
    Bench b(bp);
    const auto bridge = b.bus.add_target("bridge", {});
    const auto m = b.master("nic");
    b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 16, 0, 1), 0);
    b.run();
    b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 16, 0, 2), 7 * kP33);
    b.run();
    ASSERT_EQ(b.log.size(), 2u);
    EXPECT_EQ(b.log[0].end_clock, 7);
    // Asked at edge 7: sampled at 8. Parked: FRAME# at 8; not parked: GNT# at 9.
    EXPECT_EQ(b.log[1].start_clock, parking == PciParking::last ? 8 : 9) << choice_name(parking);
  }
}

// Three masters: a (priority 2) holds the bus with a long burst, b asks at edge 5, c at edge 10.
// b's request takes GNT# from a (seen at edge 6), so a's timer (16 clocks) ends its burst with
// the data phase in progress at edge 18: the 16th, at 19. Round robin then serves the masters
// after a in turn (b, c); fixed priority serves c (priority 0) before b (1).
TEST(PciBus, MastersAreServedInTheArbitersOrder) {
  for (const PciArbiter policy : {PciArbiter::round_robin, PciArbiter::fixed_priority}) {
    PciBusParams bp;
    bp.arbiter = policy;
    Bench b(bp);
    const auto bridge = b.bus.add_target("bridge", {});
    PciMasterParams p;
    p.latency_timer_clocks = 16;
    p.priority = 2;
    const auto ma = b.master("a", p);
    p.priority = 1;
    const auto mb = b.master("b", p);
    p.priority = 0;
    const auto mc = b.master("c", p);
    b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 1024), 0);
    b.run_until(4 * kP33);
    b.bus.request(mb, pci_request(bridge, PciCommand::memory_write, 64), 4 * kP33);
    b.run_until(9 * kP33);
    b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 64), 9 * kP33);
    b.run();
    std::string order;
    for (const auto& t : b.log) order += b.bus.master_name(t.master);
    EXPECT_EQ(order, policy == PciArbiter::round_robin ? "abca" : "acba") << choice_name(policy);
    EXPECT_EQ(b.log[0].data_phases, 16);
    EXPECT_EQ(b.log[0].ending, PciEnding::latency_timer);
    EXPECT_EQ(b.log[0].end_clock, 19);
    EXPECT_EQ(b.log[1].start_clock, 20);  // granted during a's burst: one turnaround clock
    EXPECT_EQ(b.log[3].data_phases, 256 - 16);
  }
}

// The bridge as target and masters a, b, ... (one each letter of `names`) with a 16-clock latency
// timer; b is a's sibling function (one REQ# / GNT# pair) when `shared`.
struct ChipBench {
  ChipBench(bool shared, const std::string& names) {
    bridge = b.bus.add_target("bridge", {});
    PciMasterParams p;
    p.latency_timer_clocks = 16;
    for (const char name : names) m.push_back(b.master(std::string(1, name), p));
    if (shared) b.bus.share_request_line(m[1], m[0]);
  }
  Bench b;
  std::size_t bridge = 0;
  std::vector<std::size_t> m;
};

// A dual-function chip (a, b) has one REQ# / GNT# pair: the rotating arbiter alternates between
// the chip and c, and the chip passes its turns between a and b. With their own pairs, the order
// is a, b, c. Each burst is cut by its 16-clock latency timer, as someone else always asks.
TEST(PciBus, TheFunctionsOfAChipShareOneRequestLine) {
  for (const bool shared : {true, false}) {
    ChipBench chip(shared, "abc");
    Bench& b = chip.b;
    for (const auto m : chip.m)
      b.bus.request(m, pci_request(chip.bridge, PciCommand::memory_write, 1024), 0);
    b.run();
    std::string order;
    for (std::size_t i = 0; i < 8; ++i) order += b.bus.master_name(b.log.at(i).master);
    EXPECT_EQ(order, shared ? "acbcacbc" : "abcabcab") << shared;
    EXPECT_EQ(b.log[0].data_phases, 16);
    EXPECT_EQ(b.log[0].ending, PciEnding::latency_timer);
    EXPECT_EQ(b.log[1].start_clock, b.log[0].end_clock + 1);
  }
}

// GNT# stays with the chip while only its other function asks: the owner's latency timer does
// not end its burst for a sibling (it does for a master with a pair of its own).
TEST(PciBus, ASiblingFunctionDoesNotCutTheOwnersBurst) {
  for (const bool shared : {true, false}) {
    ChipBench chip(shared, "ab");
    Bench& b = chip.b;
    b.bus.request(chip.m[0], pci_request(chip.bridge, PciCommand::memory_write, 1024), 0);
    b.run_until(4 * kP33);
    b.bus.request(chip.m[1], pci_request(chip.bridge, PciCommand::memory_write, 64), 4 * kP33);
    b.run();
    ASSERT_GE(b.log.size(), 2u);
    EXPECT_EQ(b.log[0].data_phases, shared ? 256 : 16) << shared;
    EXPECT_EQ(b.bus.master_name(b.log[1].master), "b");
    EXPECT_EQ(b.log[1].start_clock, b.log[0].end_clock + 1);
  }
}

// Latency timer: it only ends the burst once GNT# is removed. Another master asking late cuts
// the burst at the data phase in progress when the owner sees GNT# go.
TEST(PciBus, LatencyTimerExpiryCutsABurstAtTheRightClock) {
  Bench b;
  const auto bridge = b.bus.add_target("bridge", {});
  PciMasterParams a;
  a.latency_timer_clocks = 16;
  const auto ma = b.master("a", a);
  const auto mc = b.master("c");
  b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 1024), 0);  // 256 phases from 2
  // c asks at edge 40: sampled at 41, GNT# moves; a sees it removed at 42 (timer long expired)
  // and the phase completing after 42 is its last: data phases end at 4, 5, ... so 43 is the
  // 40th.
  b.run_until(40 * kP33);
  b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 4), 40 * kP33);
  b.run();
  ASSERT_GE(b.log.size(), 3u);
  EXPECT_EQ(b.log[0].end_clock, 43);
  EXPECT_EQ(b.log[0].data_phases, 40);
  EXPECT_EQ(b.log[0].ending, PciEnding::latency_timer);
  EXPECT_EQ(b.bus.master_name(b.log[1].master), "c");
  EXPECT_EQ(b.log[1].start_clock, 44);
  // a resumes where it stopped and finishes the remaining 216 phases.
  EXPECT_EQ(b.log[2].data_phases, 216);
  EXPECT_EQ(b.log[2].ending, PciEnding::complete);

  // Alone on the bus, the same burst is never cut.
  Bench alone;
  const auto br = alone.bus.add_target("bridge", {});
  const auto m = alone.master("a", a);
  alone.bus.request(m, pci_request(br, PciCommand::memory_write, 1024), 0);
  alone.run();
  ASSERT_EQ(alone.log.size(), 1u);
  EXPECT_EQ(alone.log[0].data_phases, 256);
}

// Fixed priority: the owner (priority 0) loses GNT# to a lower-priority request, but asks again
// before its timer expires and wins GNT# back, so at expiry GNT# is still its own: no cut. Had it
// asked only after the expiry, the burst would end at the 16th phase.
TEST(PciBus, TheTimerCutsOnlyIfGntIsGoneWhenItExpires) {
  for (bool asks_again_early : {true, false}) {
    PciBusParams bp;
    bp.arbiter = PciArbiter::fixed_priority;
    Bench b(bp);
    const auto bridge = b.bus.add_target("bridge", {});
    PciMasterParams p;
    p.latency_timer_clocks = 16;
    p.priority = 0;
    const auto ma = b.master("a", p);
    p.priority = 5;
    const auto mc = b.master("c", p);
    b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 1024), 0);  // FRAME# at 2
    b.run_until(4 * kP33);
    b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 4), 4 * kP33);  // sampled at 5
    const Picoseconds again = (asks_again_early ? 9 : 30) * kP33;
    b.run_until(again);
    b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 4), again);
    b.run();
    ASSERT_GE(b.log.size(), 2u);
    EXPECT_EQ(b.bus.master_name(b.log[0].master), "a");
    EXPECT_EQ(b.log[0].data_phases, asks_again_early ? 256 : 16) << asks_again_early;
    EXPECT_EQ(b.log[0].ending, asks_again_early ? PciEnding::complete : PciEnding::latency_timer);
  }
}

// Memory Write and Invalidate finishes its cache line even when the timer says stop. With an
// 8-clock timer and another master asking at once, an ordinary write stops after the phase in
// progress at edge 10 (the 8th, 32 bytes); MWI goes on to the end of the 64-byte line.
TEST(PciBus, MemoryWriteAndInvalidateFinishesTheCacheLine) {
  for (auto [command, phases] :
       {std::pair{PciCommand::memory_write, 8}, {PciCommand::memory_write_invalidate, 16}}) {
    Bench b;
    PciTargetParams tp;
    tp.cache_line_bytes = 64;
    const auto bridge = b.bus.add_target("bridge", tp);
    PciMasterParams a;
    a.latency_timer_clocks = 8;
    const auto ma = b.master("a", a);
    const auto mc = b.master("c");
    b.bus.request(ma, pci_request(bridge, command, 1024), 0);
    b.run_until(2 * kP33);
    b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 4), 2 * kP33);
    b.run();
    ASSERT_GE(b.log.size(), 2u);
    EXPECT_EQ(b.log[0].command, command);
    EXPECT_EQ(b.log[0].data_phases, phases) << to_string(command);
    EXPECT_EQ(b.log[0].ending, PciEnding::latency_timer);
  }
}

// Targets disconnect at their boundary: Memory Read Multiple after the prefetch (rounded up to
// a cache line), Memory Read / Read Line at the end of the cache line; each continuation is a
// new transaction paying the latency again.
TEST(PciBus, TargetsDisconnectAtThePrefetchAndCacheLineBoundaries) {
  for (auto [command, per] : {std::pair{PciCommand::memory_read_multiple, 128},
                              {PciCommand::memory_read_line, 64},
                              {PciCommand::memory_read, 64}}) {
    Bench b;
    PciTargetParams tp;
    tp.cache_line_bytes = 64;
    tp.prefetch_bytes = 100;  // rounds up to 128
    tp.read_latency_clocks = 6;
    const auto bridge = b.bus.add_target("bridge", tp);
    const auto m = b.master("nic");
    b.bus.request(m, pci_request(bridge, command, 512), 0);
    b.run();
    ASSERT_EQ(b.log.size(), static_cast<std::size_t>(512 / per)) << to_string(command);
    for (std::size_t i = 0; i < b.log.size(); ++i) {
      EXPECT_EQ(b.log[i].data_phases, per / 4);
      EXPECT_EQ(b.log[i].ending,
                i + 1 < b.log.size() ? PciEnding::disconnect : PciEnding::complete);
      if (i > 0) {
        EXPECT_EQ(b.log[i].start_clock, b.log[i - 1].end_clock + 1);  // parked
      }
      EXPECT_EQ(b.log[i].end_clock - b.log[i].start_clock, 1 + 6 + per / 4 - 1);
    }
    ASSERT_EQ(b.clients[0]->done.size(), 1u);
  }
}

// A posted-write buffer of 64 bytes draining at one byte per clock (33.33 MB/s at 33 MHz):
// phase k (4 bytes) is accepted at edge s + 1 + k while the buffer has room (k <= 21), then
// only every 4 clocks: at s + 4k - 62. So 100 phases end at s + 338.
TEST(PciBus, APostedWriteBufferThrottlesWritesToTheMemoryRate) {
  Bench b;
  PciTargetParams tp;
  tp.posted_write_bytes = 64;
  tp.memory_write_mbps = 1e6 / 30'000.0;  // 30 000 ps per byte
  const auto bridge = b.bus.add_target("bridge", tp);
  const auto m = b.master("nic");
  b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 400), 0);
  b.run();
  ASSERT_EQ(b.log.size(), 1u);
  const std::int64_t s = b.log[0].start_clock;
  EXPECT_EQ(b.log[0].end_clock, s + 4 * 100 - 62);
  EXPECT_EQ(b.log[0].wait_clocks, (s + 338) - s - 1 - 100);
}

// A 16 MiB DMA write: its 4,194,304 data phases are worked out as the bus reaches them, not at
// its start (which took seconds and hundreds of MB for a few microseconds of simulation), and
// the timing across the blocks they are worked out in is the closed form's to the clock.
TEST(PciBus, AHugeRequestIsTimedExactlyWithoutWorkingOutEveryPhaseAhead) {
  constexpr std::int64_t kBytes = std::int64_t{16} << 20;
  constexpr std::int64_t kPhases = kBytes / 4;
  {
    // Throttled by a posted-write buffer (the closed form s + 4N - 62 of the test above).
    Bench b;
    PciTargetParams tp;
    tp.posted_write_bytes = 64;
    tp.memory_write_mbps = 1e6 / 30'000.0;
    const auto bridge = b.bus.add_target("bridge", tp);
    const auto m = b.master("dma");
    b.bus.request(m, pci_request(bridge, PciCommand::memory_write, kBytes), 0);
    b.run_until(100 * kP33);
    EXPECT_LE(b.bus.phases_generated(), 2 * PciBus::kPhaseBlock);
    b.run();
    ASSERT_EQ(b.log.size(), 1u);
    EXPECT_EQ(b.log[0].data_phases, kPhases);
    EXPECT_EQ(b.log[0].end_clock, b.log[0].start_clock + 4 * kPhases - 62);
    EXPECT_EQ(b.log[0].bytes, kBytes);
  }
  {
    // Cut by the latency timer when another master asks, 40 phases in, as above.
    Bench b;
    const auto bridge = b.bus.add_target("bridge", {});
    PciMasterParams a;
    a.latency_timer_clocks = 16;
    const auto ma = b.master("a", a);
    const auto mc = b.master("c");
    b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, kBytes), 0);
    b.run_until(40 * kP33);
    EXPECT_LE(b.bus.phases_generated(), PciBus::kPhaseBlock);
    b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 4), 40 * kP33);
    b.run();
    ASSERT_EQ(b.log.size(), 3u);
    EXPECT_EQ(b.log[0].end_clock, 43);
    EXPECT_EQ(b.log[0].data_phases, 40);
    EXPECT_EQ(b.log[2].data_phases, kPhases - 40);
    EXPECT_EQ(b.log[2].end_clock, b.log[2].start_clock + 2 + kPhases - 40 - 1);
    EXPECT_EQ(b.log[2].ending, PciEnding::complete);
  }
}

// A read slower than 16 clocks becomes a delayed transaction: Retry at the DEVSEL# clock, the
// master asks again retry_backoff_clocks later, and the attempt made once the data is there
// (20 clocks after the first) gets it at the fastest timing.
TEST(PciBus, ASlowReadIsRetriedUntilTheDelayedReadCompletes) {
  Bench b;
  PciTargetParams tp;
  tp.read_latency_clocks = 20;
  const auto bridge = b.bus.add_target("bridge", tp);
  const auto m = b.master("nic");
  b.bus.request(m, pci_request(bridge, PciCommand::memory_read_line, 64), 0);
  b.run();
  // Attempts every 1 (address) + 1 (DEVSEL#, STOP#) + 2 (backoff) = 4 clocks from 2: at
  // 2, 6, 10, 14, 18 retried, at 22 (>= 2 + 20) served: data at 22 + 3, 16 phases to 40.
  ASSERT_EQ(b.log.size(), 6u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(b.log[i].ending, PciEnding::retry);
    EXPECT_EQ(b.log[i].start_clock, 2 + 4 * i);
    EXPECT_EQ(b.log[i].end_clock, 4 + 4 * i);
  }
  EXPECT_EQ(b.log[5].start_clock, 22);
  EXPECT_EQ(b.log[5].end_clock, 40);
  EXPECT_EQ(b.scalar("retries"), 5);
}

// A PCI-X bus at 133 MHz, and a bridge that splits reads and completes them in 512-byte pieces
// `latency` clocks after the Split Response.
PciBusParams pcix133(std::int64_t width_bits) {
  PciBusParams bp;
  bp.mode = PciMode::pcix;
  bp.width_bits = width_bits;
  bp.clock_mhz = 133;
  return bp;
}

PciTargetParams splitting_bridge(std::int64_t latency) {
  PciTargetParams tp;
  tp.split_read_bytes = 512;
  tp.read_latency_clocks = latency;
  return tp;
}

// PCI-X 64-bit/133 MHz: a 512-byte read from a bridge with split reads. The request: address,
// attribute, decode A, Split Response: ends at s + 4. The bridge has the data 30 clocks later
// and, as a master, arbitrates (its REQ# sampled at s + 34, granted, FRAME# at s + 35) and writes
// the completion: address, attribute, decode, then 64 data phases: s + 35 + 4 + 63.
TEST(PciBus, PciXSplitReadTiming) {
  Bench b(pcix133(64));
  const auto bridge = b.bus.add_target("bridge", splitting_bridge(30));
  PciMasterParams mp;
  mp.width_bits = 64;
  const auto m = b.master("nic", mp);
  b.bus.request(m, pci_request(bridge, PciCommand::memory_read_multiple, 512, 0, 9), 0);
  b.run();
  ASSERT_EQ(b.log.size(), 2u);
  const std::int64_t s = b.log[0].start_clock;
  EXPECT_EQ(b.log[0].ending, PciEnding::split_response);
  EXPECT_EQ(b.log[0].end_clock, s + 4);
  EXPECT_TRUE(b.log[1].split_completion);
  EXPECT_EQ(b.log[1].start_clock, s + 35);
  EXPECT_EQ(b.log[1].data_phases, 64);
  EXPECT_EQ(b.log[1].end_clock, s + 35 + 4 + 63);
  ASSERT_EQ(b.clients[0]->done.size(), 1u);
  EXPECT_EQ(b.clients[0]->done[0].second, (s + 102) * 7'500);
  EXPECT_EQ(b.scalar("bytes_read"), 512);
}

// PCI-X split reads with the master's own MMRBC and several sequences in flight: a 64-bit master
// reads 256 KB from a 64-bit/133 MHz bridge that returns each sequence in 512-byte completions
// L clocks after its Split Response. The rate over the whole read meets the closed form
// (analysis/pci_cycles: min(M / B, k M / T) bytes per clock) within 2 % in both regimes: the
// latency binds one sequence at a time (L = 30 or 200, M = 512 or 2048) and two 512-byte ones
// with L = 200; the bus binds four or more of them, or two of 1024-4096 bytes.
struct SplitCase {
  std::int64_t latency, mmrbc, outstanding;
  bool latency_bound;
};

constexpr std::int64_t kLongRead = 256 * 1024;

// A 64-bit master with this MMRBC and split limit reads kLongRead bytes in one request from a
// PCI-X 133 bridge: the bytes per clock from its first transaction to the read's end.
double long_read_rate(Bench& b, const PciTargetParams& bridge_params, std::int64_t mmrbc,
                      std::int64_t outstanding) {
  const auto bridge = b.bus.add_target("bridge", bridge_params);
  PciMasterParams mp;
  mp.width_bits = 64;
  mp.mmrbc_bytes = mmrbc;
  mp.max_outstanding_splits = outstanding;
  const auto m = b.master("nic", mp);
  b.bus.request(m, pci_request(bridge, PciCommand::memory_read_multiple, kLongRead), 0);
  b.run();
  EXPECT_EQ(b.clients[0]->done.size(), 1u);
  if (b.clients[0]->done.empty()) return 0;
  const auto clocks = b.clients[0]->done[0].second / 7'500 - b.log[0].start_clock;
  return static_cast<double>(kLongRead) / static_cast<double>(clocks);
}

class PciXSplitReads : public ::testing::TestWithParam<SplitCase> {};

TEST_P(PciXSplitReads, MeetTheClosedForm) {
  const SplitCase c = GetParam();
  Bench b(pcix133(64));
  const double rate = long_read_rate(b, splitting_bridge(c.latency), c.mmrbc, c.outstanding);
  PcixSplitReadShape shape;
  shape.read_latency_clocks = c.latency;
  shape.mmrbc_bytes = c.mmrbc;
  shape.completion_bytes = 512;
  shape.outstanding = c.outstanding;
  const PcixSplitRead expected = pcix_split_read(shape);
  EXPECT_EQ(expected.latency_bound, c.latency_bound);
  EXPECT_NEAR(rate, expected.bytes_per_clock, 0.02 * expected.bytes_per_clock);
  EXPECT_EQ(b.scalar("split_responses"), kLongRead / c.mmrbc);
  EXPECT_EQ(b.scalar("bytes_read"), kLongRead);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PciXSplitReads,
    ::testing::Values(SplitCase{30, 512, 1, true}, SplitCase{200, 512, 2, true},
                      SplitCase{200, 2048, 1, true}, SplitCase{200, 512, 4, false},
                      SplitCase{200, 4096, 2, false}, SplitCase{30, 512, 4, false},
                      SplitCase{30, 4096, 2, false}, SplitCase{200, 512, 8, false},
                      SplitCase{200, 512, 16, false}, SplitCase{100, 1024, 4, false},
                      SplitCase{200, 1024, 8, false}, SplitCase{60, 512, 2, false}));

// The bridge's read path at 400 MB/s (memory_read_mbps): eight 512-byte sequences in flight
// would read 7 bytes per clock of PCI-X 133, but the path delivers 400e6 / 133.33e6 = 3.0; the
// read gets that within 2 %, the closed form's third bound.
TEST(PciBus, ABridgesReadPathCapsSplitReads) {
  Bench b(pcix133(64));
  PciTargetParams tp = splitting_bridge(30);
  tp.memory_read_mbps = 400;
  const double rate = long_read_rate(b, tp, 512, 8);
  PcixSplitReadShape shape;
  shape.outstanding = 8;
  shape.read_bytes_per_clock = 400e6 / (1e12 / 7'500.0);
  const PcixSplitRead expected = pcix_split_read(shape);
  EXPECT_TRUE(expected.read_path_bound);
  EXPECT_NEAR(rate, expected.bytes_per_clock, 0.02 * expected.bytes_per_clock);
}

// One memory port for both directions (memory_mbps 400): a master reading 256 KB through split
// reads and another writing 256 KB through the posted-write buffer share it, so the two are done
// after 512 KB at 400 MB/s, 1.31 ms (within 2 %), not after 256 KB at 400 MB/s each.
TEST(PciBus, AMemoryPortSharedByReadsAndWritesCapsTheirSum) {
  Bench b(pcix133(64));
  PciTargetParams tp = splitting_bridge(30);
  tp.posted_write_bytes = 4096;
  tp.memory_mbps = 400;
  const auto bridge = b.bus.add_target("bridge", tp);
  PciMasterParams mp;
  mp.width_bits = 64;
  mp.max_outstanding_splits = 8;
  const auto reader = b.master("reader", mp);
  const auto writer = b.master("writer", mp);
  b.bus.request(reader, pci_request(bridge, PciCommand::memory_read_multiple, kLongRead), 0);
  b.bus.request(writer, pci_request(bridge, PciCommand::memory_write, kLongRead, 1 << 20), 0);
  b.run();
  ASSERT_EQ(b.clients[0]->done.size(), 1u);
  ASSERT_EQ(b.clients[1]->done.size(), 1u);
  const Picoseconds end = std::max(b.clients[0]->done[0].second, b.clients[1]->done[0].second);
  const double seconds = static_cast<double>(end) * 1e-12;
  EXPECT_NEAR(2.0 * kLongRead / seconds / 1e6, 400, 8);
  // The port was busy all along: its busy time is what it moved at its rate (2,500 ps a byte).
  StatContext c;
  c.elapsed_ps = end;
  double busy = -1;
  for (const auto& x : b.stats.collect(c))
    if (x.component == "pci.bridge" && x.name == "memory_utilisation") busy = x.value;
  EXPECT_NEAR(busy, 1.0, 0.02);
}

// A split completion is one burst: on a 32-bit PCI-X bus a 512-byte completion (128 phases)
// runs to its end although another master asks meanwhile and the timer has expired.
TEST(PciBus, ASplitCompletionIsNotCutByTheLatencyTimer) {
  Bench b(pcix133(32));
  const auto bridge = b.bus.add_target("bridge", splitting_bridge(30));
  const auto m = b.master("nic");
  const auto other = b.master("disk");
  b.bus.request(m, pci_request(bridge, PciCommand::memory_read_multiple, 512), 0);
  b.run_until(60 * 7'500);  // the completion starts at 37
  b.bus.request(other, pci_request(bridge, PciCommand::memory_write, 64), 60 * 7'500);
  b.run();
  ASSERT_GE(b.log.size(), 3u);
  EXPECT_TRUE(b.log[1].split_completion);
  EXPECT_EQ(b.log[1].data_phases, 128);
  EXPECT_EQ(b.scalar("bytes_read"), 512);
  ASSERT_EQ(b.clients[0]->done.size(), 1u);
}

// The arbiter's choice for edge k rests on what was sampled at k - 1, so when it starts a
// transaction the engine takes it at k - 1's time (the shell wakes then, not once more at k). A
// request at t = 0 (sampled at 1) starts at 2: due at edge 1. Its second transfer, queued behind
// it, follows the turnaround clock at 20: decided at 19, as the first ends, so the shell's next
// wake-up after 19 is the second's end (37).
TEST(PciBus, ADecisionThatStartsATransactionIsTakenAClockBeforeItsEdge) {
  Bench b;
  const auto bridge = b.bus.add_target("bridge", {});
  const auto m = b.master("nic");
  b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 64, 0, 1), 0);
  b.bus.request(m, pci_request(bridge, PciCommand::memory_write, 64, 64, 2), 0);
  EXPECT_EQ(b.bus.next_event_ps(), 1 * kP33);
  b.run_until(1 * kP33);
  EXPECT_EQ(b.bus.next_event_ps(), 19 * kP33);  // started (at edge 2): its end is next
  b.run_until(19 * kP33);
  ASSERT_EQ(b.log.size(), 1u);
  EXPECT_EQ(b.log[0].start_clock, 2);
  EXPECT_EQ(b.bus.next_event_ps(), 37 * kP33);
  b.run();
  ASSERT_EQ(b.log.size(), 2u);
  EXPECT_EQ(b.log[1].start_clock, 20);
  EXPECT_EQ(b.log[1].end_clock, 37);
}

// A choice that starts nothing is not taken early: the bus is parked on a (its last master), c
// asks at 29.5 clocks (sampled at 30), so the choice for edge 30 sees no REQ# at 29 and would
// start nothing -- unless the parked master asks before edge 30, which a does at 29.5 clocks
// and a few ps: parked, it starts at 30 without arbitration; c follows.
TEST(PciBus, AParkedMasterAskingInTheClockBeforeAnEdgeStartsAtIt) {
  Bench b;
  const auto bridge = b.bus.add_target("bridge", {});
  const auto ma = b.master("a");
  const auto mc = b.master("c");
  b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 64), 0);  // edges 2 to 19
  const Picoseconds c_asks = 29 * kP33 + kP33 / 2;
  b.run_until(c_asks);
  b.bus.request(mc, pci_request(bridge, PciCommand::memory_write, 4), c_asks);
  b.run_until(c_asks + 100);
  b.bus.request(ma, pci_request(bridge, PciCommand::memory_write, 4), c_asks + 200);
  b.run();
  ASSERT_EQ(b.log.size(), 3u);
  EXPECT_EQ(b.bus.master_name(b.log[1].master), "a");
  EXPECT_EQ(b.log[1].start_clock, 30);
  EXPECT_EQ(b.bus.master_name(b.log[2].master), "c");
}

// Nothing depends on whether a request made at an instant comes before or after what the bus
// does at that instant (the order in which simulation processes run there): random traffic of
// three masters -- writes and reads, short latency timers, one master asking again from its
// completion callback as a DMA engine does -- gives the same transactions and completion times
// when every request is made after the bus has done everything due at its instant and when it
// is made before.
TEST(PciBus, WhetherARequestComesBeforeOrAfterTheBusAtItsInstantChangesNothing) {
  struct Chaining : PciMasterClient {
    PciBus* bus = nullptr;
    std::size_t self = 0;
    std::vector<std::pair<std::uint64_t, Picoseconds>> done;
    bool chains = false;  // asks again at once, from inside the bus's own step
    void pci_done(const PciRequest& r, Picoseconds at) override {
      done.push_back({r.tag, at});
      if (chains && done.size() < 60) {
        PciRequest next = r;
        next.tag = r.tag + 1;
        next.address += static_cast<std::uint64_t>(r.bytes);
        bus->request(self, next, at);
      }
    }
  };
  struct Request {
    Picoseconds at;
    std::size_t master;
    PciRequest r;
  };
  auto outcome = [](const std::vector<Request>& requests, const PciBusParams& bp,
                    bool request_first) {
    StatRegistry stats;
    PciBus bus(bp, stats, "pci");
    gbesim::testing::BusLog bus_log(bus);
    const std::vector<PciTransaction>& log = bus_log.transactions;
    PciTargetParams tp;
    tp.read_latency_clocks = 6;
    tp.prefetch_bytes = 128;
    tp.subsequent_wait_clocks = 1;
    const auto bridge = bus.add_target("bridge", tp);
    std::vector<std::unique_ptr<Chaining>> clients;
    for (std::size_t i = 0; i < 3; ++i) {
      PciMasterParams mp;
      mp.latency_timer_clocks = 4 + 6 * static_cast<std::int64_t>(i);
      mp.priority = static_cast<std::int64_t>(i);
      clients.push_back(std::make_unique<Chaining>());
      clients.back()->bus = &bus;
      clients.back()->self = bus.add_master("m" + std::to_string(i), mp, clients.back().get());
    }
    // Master 2 works like a DMA engine: one request at a time, the next asked for as the last
    // completes (a master's own requests come from one process, in its order).
    clients[2]->chains = true;
    bus.request(2, pci_request(0, PciCommand::memory_write, 64, 0, 1000), 0);
    for (Request q : requests) {
      q.r.target = bridge;
      // After: the bus has done everything due at the instant. Before: everything due up to
      // the picosecond before it, and what is due at the instant after the request.
      bus.advance(request_first ? q.at - 1 : q.at);
      bus.request(q.master, q.r, q.at);
    }
    while (bus.next_event_ps() < kForeverPs) bus.advance(bus.next_event_ps());
    std::string text;
    for (const auto& t : log)
      text += std::to_string(t.master) + ":" + std::to_string(t.start_clock) + "-" +
              std::to_string(t.end_clock) + "/" + std::to_string(t.bytes) + "/" +
              to_string(t.ending) + " ";
    for (const auto& c : clients)
      for (const auto& [tag, at] : c->done)
        text += std::to_string(tag) + "@" + std::to_string(at) + " ";
    return std::make_pair(text, log.size());
  };
  RngStream rng(7, "pci-order");
  int trials = 0;
  for (const PciArbiter arbiter : {PciArbiter::round_robin, PciArbiter::fixed_priority}) {
    for (const PciParking parking : {PciParking::last, PciParking::none}) {
      for (int trial = 0; trial < 25; ++trial, ++trials) {
        PciBusParams bp;
        bp.arbiter = arbiter;
        bp.parking = parking;
        std::vector<Request> requests;
        Picoseconds t = 0;
        for (int i = 0; i < 40; ++i) {
          // Often exactly on an edge (where a transaction may end or a decision fall).
          t += kP33 * rng.uniform_range(0, 40);
          const Picoseconds at =
              t + (rng.uniform_below(2) == 0 ? 0 : rng.uniform_range(1, kP33 - 1));
          const PciCommand command = rng.uniform_below(3) == 0 ? PciCommand::memory_read_multiple
                                                               : PciCommand::memory_write;
          requests.push_back(
              {at, rng.uniform_below(2),
               pci_request(0, command, 4 * rng.uniform_range(1, 100), 4 * rng.uniform_below(1000),
                           static_cast<std::uint64_t>(10 * i))});
        }
        std::stable_sort(requests.begin(), requests.end(),
                         [](const Request& a, const Request& b) { return a.at < b.at; });
        const auto after = outcome(requests, bp, false);
        const auto before = outcome(requests, bp, true);
        EXPECT_GE(after.second, 40u);
        if (after.first != before.first) {
          std::size_t at = 0;
          while (at < after.first.size() && at < before.first.size() &&
                 after.first[at] == before.first[at])
            ++at;
          at = after.first.rfind(' ', at);  // from the transaction where they part
          ADD_FAILURE() << choice_name(arbiter) << " " << choice_name(parking) << " trial " << trial
                        << ": after: " << after.first.substr(at, 160)
                        << "; before: " << before.first.substr(at, 160);
          return;
        }
      }
    }
  }
  EXPECT_EQ(trials, 100);
}

// Every clock is accounted for once, and nothing beats the theoretical peak.
TEST(PciBus, ClocksAddUpAndNothingExceedsThePeak) {
  Bench b;
  PciTargetParams tp;
  tp.read_latency_clocks = 9;
  tp.prefetch_bytes = 256;
  const auto bridge = b.bus.add_target("bridge", tp);
  const auto m1 = b.master("a");
  const auto m2 = b.master("c");
  for (int i = 0; i < 50; ++i) {
    b.bus.request(m1, pci_request(bridge, PciCommand::memory_write, 1518), 0);
    b.bus.request(m2, pci_request(bridge, PciCommand::memory_read_multiple, 1518), 0);
  }
  b.run();
  const double sum = b.scalar("address_clocks") + b.scalar("wait_clocks") +
                     b.scalar("data_clocks") + b.scalar("turnaround_clocks") +
                     b.scalar("idle_clocks");
  EXPECT_EQ(sum, b.scalar("elapsed_clocks"));
  EXPECT_EQ(b.scalar("bytes_read"), 50 * 1518);
  EXPECT_EQ(b.scalar("bytes_written"), 50 * 1518);
  EXPECT_LE(b.scalar("read_mbps") + b.scalar("write_mbps"), b.scalar("peak_mbps"));
  EXPECT_NEAR(b.scalar("peak_mbps"), 133.333, 0.001);
  EXPECT_LE(b.scalar("utilisation"), 1.0);
  EXPECT_EQ(b.clients[0]->done.size() + b.clients[1]->done.size(), 100u);
}

}  // namespace
}  // namespace gbesim
