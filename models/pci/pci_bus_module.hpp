#pragma once
// The SystemC timing shell of a host's bus: one process that sleeps until the bus engine's next
// event (PCI: a transaction's last data phase -- in a long burst, the last one worked out so far
// -- or the next clock edge at which someone may start; PCI Express: a packet's last symbol, an
// arrival, an Ack or a completion due) and wakes early when a master asks for the bus. All
// timing is in the engine: pci_bus.hpp for PCI and PCI-X, pcie_link.hpp for PCI Express.
// Does not model: a pin-level bus (REQ#, GNT#, FRAME#, TRDY# are not SystemC signals and cannot
// be traced) or a clock: nothing runs at the clock edges between those events.

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

 private:
  void run();

  SimContext& context_;
  std::unique_ptr<DmaBus> bus_;
  sc_core::sc_event wake_;
};

}  // namespace gbesim
