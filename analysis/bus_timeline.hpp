#pragma once
// A PCI / PCI-X bus's transactions and the NICs' interrupts as events.csv tells them: the rows
// of a bus's masters (component "<host>.pci.<master>": bus_address, then a read's
// bus_turnaround, bus_wait, bus_data, the last bus_turnaround, bus_end; docs/pci.md) folded into
// transactions with their phases, for the bus-timeline chart and for tests that hold the events
// to the bus's clock accounting (analysis/pci_cycles). Pure C++.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

// One row of events.csv.
struct EventRow {
  std::int64_t time_ps = 0;
  std::string component;
  std::string event;
  std::uint64_t frame_id = 0;  // 0: none
  std::int64_t bytes = -1;     // -1: none
  std::string detail;
};
// The rows of an events.csv table (as results load it); throws ResultsError on a field that is
// not a number where one belongs.
std::vector<EventRow> event_rows(const CsvTable& events);

enum class BusPhase { address, wait, data, turnaround };
const char* to_string(BusPhase phase);

struct BusSegment {
  BusPhase phase;
  std::int64_t from_ps = 0, to_ps = 0;
};

struct BusTransaction {
  std::string bus;      // "h.pci"
  std::string master;   // "nic", "driver", "bridge.completer"
  std::string command;  // memory_read_multiple, ..., split_completion
  std::uint64_t frame_id = 0;
  std::int64_t start_ps = 0;  // the address phase
  std::int64_t end_ps = 0;    // the end of its last (turnaround) clock
  std::vector<BusSegment> phases;
  std::string ending;  // complete, disconnect, latency_timer, retry, split_response
  std::int64_t data_phases = 0;
  std::int64_t bytes = 0;
  // Time in one kind of phase.
  std::int64_t ps_in(BusPhase phase) const;
};

// A NIC's interrupt line, raised to dropped (to the trace's last row if it never dropped).
struct InterruptSpan {
  std::string nic;  // "h.nic"
  std::int64_t from_ps = 0, to_ps = 0;
};

struct BusTimeline {
  std::vector<BusTransaction> transactions;  // in the order of their address phases
  std::vector<InterruptSpan> interrupts;
  // The bus clock, from a turnaround phase (always one clock); 0 when there is none.
  std::int64_t clock_ps = 0;
};

// Folds rows in events.csv's order. A transaction the trace cut (begun before its first row or
// not ended by its last) is left out.
BusTimeline bus_timeline(const std::vector<EventRow>& rows);

// A few frames' stretch of the first bus in a timeline: from the address phase of the first
// transaction carrying the first frame's data to the end of the last carrying the last frame's,
// with every transaction of that bus that starts in it and the interrupts over it (clipped).
// The frames are the first `frames` whose data cross the bus, after the first one when there
// are more (the trace may have begun in its middle); with no frame's data on the bus, the first
// `frames` x 8 transactions.
struct BusWindow {
  std::string bus;
  std::vector<std::uint64_t> frames;
  std::int64_t from_ps = 0, to_ps = 0;
  std::vector<BusTransaction> transactions;
  std::vector<InterruptSpan> interrupts;
  // Time in one kind of phase over the window's transactions.
  std::int64_t ps_in(BusPhase phase) const;
};
BusWindow bus_window(const BusTimeline& timeline, std::size_t frames);

}  // namespace gbesim
