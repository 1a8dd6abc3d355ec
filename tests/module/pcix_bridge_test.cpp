// The on-card PCI-X-to-PCI-X bridge (models/pci/pcix_bridge.hpp): reads through it meet the closed
// form (analysis/pci_cycles: pcix_bridged_read), writes stream through its posted-write buffer and
// are retried when it is full, and the host's register accesses cross both segments.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "analysis/pci_cycles.hpp"
#include "models/common/sim_context.hpp"
#include "models/pci/pci_bus.hpp"
#include "models/pci/pci_bus_module.hpp"
#include "models/pci/pcix_bridge.hpp"
#include "tests/support/bus_log.hpp"
#include "tests/support/pci_request.hpp"

namespace gbesim {
namespace {

PciBusParams pcix(std::int64_t clock_mhz) {
  PciBusParams p;
  p.mode = PciMode::pcix;
  p.width_bits = 64;
  p.clock_mhz = clock_mhz;
  return p;
}

// A master that asks for the same request again as soon as the last one is done, and notes when.
struct Repeater : PciMasterClient {
  PciBusModule* bus = nullptr;
  std::size_t index = 0;
  PciRequest request;
  bool repeat = true;
  std::vector<Picoseconds> done;
  void pci_done(const PciRequest&, Picoseconds at) override {
    done.push_back(at);
    if (repeat) bus->request(index, request);
  }
};

// The host's segment (its host bridge splitting reads into `completion` bytes, L clocks after
// the request), the card's segment behind a bridge, and a 64-bit master on the card's segment.
struct TimeResolution {
  TimeResolution() { init_time_resolution(); }
};

struct BridgedCard : TimeResolution {
  BridgedCard(std::int64_t host_mhz, std::int64_t card_mhz, const PciBridgeParams& bp,
              std::int64_t latency_clocks, std::int64_t mmrbc)
      : context(1),
        host("pci", pcix(host_mhz), context),
        card("card_pci", pcix(card_mhz), context) {
    PciTargetParams memory;
    memory.split_read_bytes = 512;
    memory.read_latency_clocks = latency_clocks;
    memory.posted_write_bytes = 0;
    const std::size_t m = host.bus().add_target("bridge", memory);
    bridge = std::make_unique<PciXBridge>("card_bridge", bp, host, card, m);
    PciMasterParams mp;
    mp.width_bits = 64;
    mp.mmrbc_bytes = mmrbc;
    mp.max_outstanding_splits = 1;
    master.bus = &card;
    master.index = card.bus().add_master("nic", mp, &master);
    master.request.target = bridge->memory_target();
  }
  void start(PciCommand command, std::int64_t bytes) {
    master.request.command = command;
    master.request.bytes = bytes;
    card.request(master.index, master.request);
  }
  // Bytes per ns from the first completion to the last.
  double rate() const {
    const auto n = static_cast<double>(master.done.size() - 1);
    return n * static_cast<double>(master.request.bytes) /
           (static_cast<double>(master.done.back() - master.done.front()) / 1000.0);
  }

  SimContext context;
  PciBusModule host, card;
  std::unique_ptr<PciXBridge> bridge;
  Repeater master;
};

struct ReadCase {
  std::int64_t host_mhz, card_mhz, mmrbc, request_bytes, latency_ns;
};

void expect_closed_form(const ReadCase& c) {
  PciBridgeParams bp;
  bp.clock_mhz = c.card_mhz;
  bp.read_request_bytes = c.request_bytes;
  bp.latency_ns = c.latency_ns;
  BridgedCard b(c.host_mhz, c.card_mhz, bp, 30, c.mmrbc);
  b.start(PciCommand::memory_read_multiple, c.mmrbc);
  sc_core::sc_start(sc_core::sc_time(400, sc_core::SC_US));
  ASSERT_GT(b.master.done.size(), 50u);
  PcixBridgedReadShape s;
  s.host.read_latency_clocks = 30;
  s.host.completion_bytes = 512;
  s.host_period_ps = pci_clock_period_ps(c.host_mhz);
  s.card_period_ps = pci_clock_period_ps(c.card_mhz);
  s.mmrbc_bytes = c.mmrbc;
  s.read_request_bytes = c.request_bytes;
  s.latency_ps = c.latency_ns * 1000;
  const double expected = pcix_bridged_read(s).bytes_per_ns;
  EXPECT_NEAR(b.rate(), expected, 0.02 * expected)
      << c.host_mhz << "/" << c.card_mhz << " MHz, M " << c.mmrbc << ", R " << c.request_bytes
      << ", " << c.latency_ns << " ns";
}

// One 512-byte sequence at a time, both segments at 133 MHz, a 60 ns bridge.
TEST(PciXBridge, AReadThroughItMeetsTheClosedForm) {
  expect_closed_form({133, 133, 512, 512, 60});
}

// A 2048-byte sequence asked for in four 512-byte pieces, one after another.
TEST(PciXBridge, ALongReadGoesInPiecesOneAfterAnother) {
  expect_closed_form({133, 133, 2048, 512, 60});
}

// The same with the Commitment Limit raised: one piece of 2048 bytes.
TEST(PciXBridge, ARaisedCommitmentLimitForwardsTheWholeSequence) {
  expect_closed_form({133, 133, 2048, 2048, 60});
}

// The host's segment slower than the card's, and no bridge latency.
TEST(PciXBridge, ASlowHostSegmentSetsThePieceTime) {
  expect_closed_form({66, 133, 1024, 512, 0});
}

PciBus& engine(PciBusModule& m) {
  return dynamic_cast<PciBus&>(m.bus());
}
Picoseconds at_133(std::int64_t edge) {
  return edge * 7'500;
}

// A card (its segment at 133 MHz) whose master writes `bytes` once, both segments logged, run for
// run_us.
struct LoggedWrite : BridgedCard {
  LoggedWrite(std::int64_t host_mhz, std::int64_t bytes, int run_us)
      : BridgedCard(host_mhz, 133, PciBridgeParams{}, 30, 512),
        host_log(engine(host)),
        card_log(engine(card)) {
    master.repeat = false;
    start(PciCommand::memory_write, bytes);
    sc_core::sc_start(sc_core::sc_time(run_us, sc_core::SC_US));
  }
  testing::BusLog host_log, card_log;
};

// Both segments at 133 MHz, a 60 ns (8-clock) bridge: a 1024-byte write on the card's segment
// (address, attribute, decode A, data from s + 4: 128 phases to s + 131) is in the bridge's
// buffer at once. What no latency-timer cut can take back -- the phases to the timer's expiry at
// s + 64, to the ADB after them: 512 bytes -- goes on as soon as its first ADB is in (s + 19):
// the bridge asks 8 clocks later, the host's segment samples REQ# at s + 28 and writes it from
// s + 29 to s + 96, while the card's write still runs. The other 512 bytes go when the card's
// write has ended at s + 131 (their first ADB and the latency long past): the host's segment,
// parked on the bridge, writes them from s + 132 to s + 199. The card's master is done when the
// bridge has it all.
TEST(PciXBridge, AWriteCrossesFromItsFirstAdb) {
  LoggedWrite b(133, 1024, 20);
  const auto& host = b.host_log;
  const auto& card = b.card_log;
  ASSERT_EQ(card.transactions.size(), 1u);
  ASSERT_EQ(host.transactions.size(), 2u);
  const std::int64_t s = card.transactions[0].start_clock;
  EXPECT_EQ(card.transactions[0].bytes, 1024);
  EXPECT_EQ(card.transactions[0].end_clock, s + 131);
  EXPECT_EQ(host.transactions[0].start_clock, s + 29);
  EXPECT_EQ(host.transactions[0].bytes, 512);
  EXPECT_EQ(host.transactions[0].end_clock, s + 96);
  EXPECT_EQ(host.transactions[1].start_clock, s + 132);
  EXPECT_EQ(host.transactions[1].bytes, 512);
  EXPECT_EQ(host.transactions[1].end_clock, s + 199);
  ASSERT_EQ(b.master.done.size(), 1u);
  EXPECT_EQ(b.master.done[0], at_133(s + 131));
}

// The host's segment at half the card's rate: the 1 KB buffer fills, the card's write is cut at
// its ADB and retried until the host's side has taken some; every byte arrives.
TEST(PciXBridge, AFullBufferRetriesTheWrite) {
  LoggedWrite b(66, 8192, 100);
  const auto& host = b.host_log;
  const auto& card = b.card_log;
  std::int64_t moved = 0, retries = 0, to_memory = 0;
  for (const auto& t : card.transactions) {
    if (t.ending == PciEnding::retry) ++retries;
    EXPECT_LE(t.bytes, 1024);
    moved += t.bytes;
  }
  for (const auto& t : host.transactions) to_memory += t.bytes;
  EXPECT_EQ(card.transactions.front().bytes, 1024);
  EXPECT_EQ(card.transactions.front().ending, PciEnding::disconnect);
  EXPECT_GT(retries, 0);
  EXPECT_EQ(moved, 8192);
  EXPECT_EQ(to_memory, 8192);
  EXPECT_EQ(b.master.done.size(), 1u);
}

// The host's register accesses to a chip on the card cross both segments: a read is a Split
// Response on the host's segment, forwarded (8 clocks), read on the card's segment, and its
// completion comes back 8 clocks after that read ends; a write is done for the host when it has
// reached the chip, not when the bridge took it.
TEST(PciXBridge, TheHostsRegisterAccessesCrossBothSegments) {
  BridgedCard b(133, 133, PciBridgeParams{}, 30, 512);
  testing::BusLog host(engine(b.host)), card(engine(b.card));
  const std::size_t registers = b.card.bus().add_target("nic.registers", PciTargetParams{});
  const std::size_t window = b.bridge->expose(registers, "card_bridge.nic");
  Repeater cpu;
  cpu.repeat = false;
  PciMasterParams mp;
  mp.width_bits = 64;
  cpu.index = b.host.bus().add_master("driver", mp, &cpu);
  b.host.request(cpu.index, testing::pci_request(window, PciCommand::memory_read, 4));
  sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_US));
  b.host.request(cpu.index, testing::pci_request(window, PciCommand::memory_write, 4));
  sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_US));
  ASSERT_EQ(host.transactions.size(), 3u);  // Split Response, completion, the write
  ASSERT_EQ(card.transactions.size(), 2u);  // the read, the write
  EXPECT_EQ(host.transactions[0].ending, PciEnding::split_response);
  EXPECT_TRUE(host.transactions[1].split_completion);
  EXPECT_GE(card.transactions[0].start_clock, host.transactions[0].end_clock + 8);
  EXPECT_GE(host.transactions[1].start_clock, card.transactions[0].end_clock + 8);
  ASSERT_EQ(cpu.done.size(), 2u);
  EXPECT_EQ(cpu.done[0], at_133(host.transactions[1].end_clock));
  EXPECT_EQ(cpu.done[1], at_133(card.transactions[1].end_clock));
  EXPECT_GT(cpu.done[1], at_133(host.transactions[2].end_clock));
}

}  // namespace
}  // namespace gbesim
