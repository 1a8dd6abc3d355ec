#pragma once
// A PCI bus's transactions as its events tell them: each master's events folded the way
// events.csv is (analysis/bus_timeline), every transaction back as the PciTransaction it
// describes. The bus tests read transactions only through it, so every timing they check is
// checked in the events too.

#include <map>
#include <string>
#include <vector>

#include "analysis/bus_timeline.hpp"
#include "models/pci/pci_bus.hpp"

namespace gbesim::testing {

class BusLog {
 public:
  explicit BusLog(PciBus& bus) : bus_(bus) {
    bus.events.connect([this](const Event& e) { heard(e); });
  }
  std::vector<PciTransaction> transactions;  // in the order they ended

 private:
  void heard(const Event& e) {
    const std::string component = "h.pci." + std::string(e.part);
    std::string detail(e.detail);
    if (e.value >= 0) detail += (detail.empty() ? "" : " ") + std::to_string(e.value);
    auto& rows = open_[component];
    rows.push_back(
        {e.time_ps, component, std::string(to_string(e.kind)), e.frame_id, e.bytes, detail});
    if (e.kind != EventKind::bus_end) return;
    const BusTimeline folded = bus_timeline(rows);
    rows.clear();
    if (folded.transactions.size() == 1) transactions.push_back(as_pci(folded.transactions[0]));
  }

  PciTransaction as_pci(const BusTransaction& b) const {
    const std::int64_t p = bus_.period_ps();
    PciTransaction t;
    for (std::size_t m = 0; m < bus_.master_count(); ++m)
      if (bus_.master_name(m) == b.master) t.master = m;
    t.split_completion = b.command == "split_completion";
    for (const PciCommand c :
         {PciCommand::memory_read, PciCommand::memory_read_line, PciCommand::memory_read_multiple,
          PciCommand::memory_write, PciCommand::memory_write_invalidate})
      if (b.command == to_string(c)) t.command = c;
    for (const PciEnding e : {PciEnding::complete, PciEnding::disconnect, PciEnding::latency_timer,
                              PciEnding::retry, PciEnding::split_response})
      if (b.ending == to_string(e)) t.ending = e;
    t.start_clock = b.start_ps / p;
    t.end_clock = b.end_ps / p - 1;  // bus_end comes at the end of the turnaround clock
    t.data_phases = b.data_phases;
    t.bytes = b.bytes;
    t.frame_id = b.frame_id;
    t.address_clocks = b.ps_in(BusPhase::address) / p;
    // Initial waits, and those between data phases.
    t.wait_clocks = b.ps_in(BusPhase::wait) / p + b.ps_in(BusPhase::data) / p - b.data_phases;
    t.turnaround_clocks = b.ps_in(BusPhase::turnaround) / p;
    return t;
  }

  const PciBus& bus_;
  std::map<std::string, std::vector<EventRow>> open_;  // per master, since its last bus_end
};

}  // namespace gbesim::testing
