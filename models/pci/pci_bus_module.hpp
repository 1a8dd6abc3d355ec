#pragma once
// The SystemC timing shell of a host's bus: one process that sleeps until the bus engine's next
// event (PCI: a transaction's last data phase -- in a long burst, the last one worked out so far
// -- or the arbiter's next decision, taken as soon as it is known; PCI Express: a packet's last
// symbol, an arrival, an Ack or a completion due). A master's request moves that wake-up earlier
// when it makes the next event sooner; a request made from a callback while the bus runs needs
// none. All timing is in the engine: pci_bus.hpp for PCI and PCI-X, pcie_link.hpp for PCI
// Express.
// Does not model: a pin-level bus (REQ#, GNT#, FRAME#, TRDY# are not SystemC signals and cannot
// be traced) or a clock: nothing runs at the clock edges between those events.
// It sleeps until the engine's next wake-up (DmaBus::next_wake_ps): a PCI Express link's steps
// that call no master (a packet sent, an Ack) wait for the next that does, or for a request.

#include <memory>
#include <string>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/pci/dma_bus.hpp"

namespace gbesim {

class PciBusModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(PciBusModule);
  PciBusModule(sc_core::sc_module_name name, const PciBusParams& params, SimContext& context);

  DmaBus& bus() { return *bus_; }
  // A master asks for a transfer now.
  void request(std::size_t master, const PciRequest& r);
  // ... or at `at` (not before now): a bridge forwarding what it took, its latency later.
  void request_at(std::size_t master, const PciRequest& r, Picoseconds at);
  // The engine's state was changed from outside (a bridge handed it completions or room): its
  // next wake-up may be sooner.
  void reschedule();
  // Brings the bus up to now: whatever it completes at this instant (with its masters'
  // callbacks) has happened before the caller acts, whichever process the simulation kernel
  // runs first. A process that reads what bus transfers change calls it first.
  void settle();
  // Brings the bus up to `before` (the kernel has stopped, before its next instant) when it is
  // to be read between runs: the work it holds for its next wake-up (DmaBus::next_wake_ps), none
  // of which calls a master before then.
  void catch_up(Picoseconds before);

 private:
  void run();
  // Does what is due by t unless the bus is running already; false if there was nothing.
  bool advance_to(Picoseconds t);
  void wake_for_next_event(Picoseconds now);

  SimContext& context_;
  std::unique_ptr<DmaBus> bus_;
  sc_core::sc_event wake_;
  bool running_ = false;  // inside run(): a request needs no wake-up of its own
};

}  // namespace gbesim
