// The event vocabulary (models/common/event.hpp): each kind declared once, each reported by some
// model, each model's traced state declared; and the fold of bus events into transactions
// (analysis/bus_timeline) against a trace worked by hand.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "analysis/bus_timeline.hpp"
#include "scenarios/network.hpp"

namespace gbesim {
namespace {

TEST(EventVocabulary, EveryKindHasOneNameAndAMeaningAndSomeModelReportsIt) {
  std::set<std::string> names;
  for (std::size_t k = 0; k < kEventKindCount; ++k) {
    const EventKindInfo info = describe(static_cast<EventKind>(k));
    EXPECT_TRUE(names.insert(std::string(info.name)).second) << info.name;
    EXPECT_FALSE(info.meaning.empty()) << info.name;
    EXPECT_EQ(to_string(static_cast<EventKind>(k)), info.name);
  }
  EXPECT_EQ(names.size(), 51u);
  std::set<std::string> reported;
  std::set<std::string> models;
  for (const ModelVocabulary* m : Network::vocabularies()) {
    EXPECT_TRUE(models.insert(std::string(m->model)).second) << m->model;
    std::set<EventKind> own;
    for (const EventKind k : m->events) {
      EXPECT_TRUE(own.insert(k).second) << m->model << " lists " << to_string(k) << " twice";
      reported.insert(std::string(to_string(k)));
    }
  }
  EXPECT_EQ(reported, names);  // no kind is declared that no model reports
  EXPECT_EQ(models.size(), 10u);
}

TEST(EventVocabulary, TheMacsStateMachineNamesEachOfItsValues) {
  const StateVariable& tx = Mac::vocabulary().variable("tx_state");
  ASSERT_EQ(tx.states.size(), kMacTxStates);
  EXPECT_EQ(tx.states[static_cast<unsigned>(MacTxState::jamming)], "jamming");
  EXPECT_EQ(tx.states[static_cast<unsigned>(MacTxState::burst_fill)], "burst_fill");
  EXPECT_EQ(1u << tx.bits, kMacTxStates);  // the VCD's width holds every value
  EXPECT_THROW(Mac::vocabulary().variable("txstate"), std::logic_error);
}

// A 30 ns bus. The trace begins in the middle of a transaction (its address phase missing),
// then: a Memory Read Multiple of 64 data phases (address, read turnaround, 6 waits, data,
// turnaround: 73 clocks), a write of 4 (address, data, turnaround: 6 clocks), and one whose
// bus_end the trace did not reach. The NIC's interrupt line is up for 15 clocks.
TEST(BusTimeline, FoldsTheEventsOfEachMasterIntoTransactionsWithTheirClocks) {
  constexpr std::int64_t c = 30'000;
  const std::vector<EventRow> rows = {
      {10 * c, "h.pci.nic", "bus_data", 6, -1, ""},
      {11 * c, "h.pci.nic", "bus_turnaround", 6, -1, ""},
      {12 * c, "h.pci.nic", "bus_end", 6, 40, "complete 10"},
      {12 * c, "h.pci.nic", "bus_address", 7, -1, "memory_read_multiple"},
      {13 * c, "h.pci.nic", "bus_turnaround", 7, -1, ""},
      {14 * c, "h.pci.nic", "bus_wait", 7, -1, ""},
      {20 * c, "h.pci.nic", "bus_data", 7, -1, ""},
      {60 * c, "h.nic", "irq_assert", 0, -1, "coalesce_time"},
      {75 * c, "h.nic", "irq_deassert", 0, -1, ""},
      {84 * c, "h.pci.nic", "bus_turnaround", 7, -1, ""},
      {85 * c, "h.pci.nic", "bus_end", 7, 256, "disconnect 64"},
      {85 * c, "h.pci.driver", "bus_grant", 0, -1, ""},
      {86 * c, "h.pci.driver", "bus_address", 0, -1, "memory_write"},
      {87 * c, "h.pci.driver", "bus_data", 0, -1, ""},
      {91 * c, "h.pci.driver", "bus_turnaround", 0, -1, ""},
      {92 * c, "h.pci.driver", "bus_end", 0, 16, "complete 4"},
      {92 * c, "h.pci.nic", "bus_address", 8, -1, "memory_read_multiple"},
      {93 * c, "h.pci.nic", "bus_turnaround", 8, -1, ""},
  };
  const BusTimeline t = bus_timeline(rows);
  EXPECT_EQ(t.clock_ps, c);
  ASSERT_EQ(t.transactions.size(), 2u);
  const BusTransaction& read = t.transactions[0];
  EXPECT_EQ(read.master, "nic");
  EXPECT_EQ(read.bus, "h.pci");
  EXPECT_EQ(read.frame_id, 7u);
  EXPECT_EQ(read.ending, "disconnect");
  EXPECT_EQ(read.data_phases, 64);
  EXPECT_EQ(read.bytes, 256);
  EXPECT_EQ((read.end_ps - read.start_ps) / c, 73);
  EXPECT_EQ(read.ps_in(BusPhase::address) / c, 1);
  EXPECT_EQ(read.ps_in(BusPhase::turnaround) / c, 2);
  EXPECT_EQ(read.ps_in(BusPhase::wait) / c, 6);
  EXPECT_EQ(read.ps_in(BusPhase::data) / c, 64);
  const BusTransaction& write = t.transactions[1];
  EXPECT_EQ(write.master, "driver");
  EXPECT_EQ((write.end_ps - write.start_ps) / c, 6);
  EXPECT_EQ(write.ps_in(BusPhase::data) / c, 4);
  EXPECT_EQ(write.ps_in(BusPhase::wait), 0);
  ASSERT_EQ(t.interrupts.size(), 1u);
  EXPECT_EQ(t.interrupts[0].nic, "h.nic");
  EXPECT_EQ((t.interrupts[0].to_ps - t.interrupts[0].from_ps) / c, 15);
  // Frame 7 is the only one whose data the trace shows whole: the window is its transaction,
  // with the interrupt inside it.
  const BusWindow w = bus_window(t, 3);
  EXPECT_EQ(w.frames, (std::vector<std::uint64_t>{7}));
  EXPECT_EQ(w.from_ps, 12 * c);
  EXPECT_EQ(w.to_ps, 85 * c);
  EXPECT_EQ(w.transactions.size(), 1u);
  ASSERT_EQ(w.interrupts.size(), 1u);
}

}  // namespace
}  // namespace gbesim
