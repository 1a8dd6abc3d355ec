#pragma once
// The SystemC timing shell of a PCI bus: one process that sleeps until the bus engine's next
// event (a transaction's last data phase -- in a long burst, the last one worked out so far -- or
// the next clock edge at which someone may start) and wakes early when a master asks for the
// bus. All timing is in the engine (pci_bus.hpp).
// Does not model: a pin-level bus (REQ#, GNT#, FRAME#, TRDY# are not SystemC signals and cannot
// be traced) or a clock: nothing runs at the clock edges between those events.

#include <string>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/pci/pci_bus.hpp"

namespace gbesim {

class PciBusModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(PciBusModule);
  PciBusModule(sc_core::sc_module_name name, const PciBusParams& params, SimContext& context);

  PciBus& bus() { return bus_; }
  // A master asks for a transfer now.
  void request(std::size_t master, const PciRequest& r);

 private:
  void run();

  SimContext& context_;
  PciBus bus_;
  sc_core::sc_event wake_;
};

}  // namespace gbesim
