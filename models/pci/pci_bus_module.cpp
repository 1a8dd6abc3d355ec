#include "models/pci/pci_bus_module.hpp"

#include "models/pci/pci_bus.hpp"
#include "models/pci/pcie_link.hpp"

namespace gbesim {

PciBusModule::PciBusModule(sc_core::sc_module_name name, const PciBusParams& params,
                           SimContext& context)
    : sc_module(name), context_(context) {
  const std::string component(this->name());
  if (params.mode == "pcie")
    bus_ = std::make_unique<PcieLink>(params, context.stats, component);
  else
    bus_ = std::make_unique<PciBus>(params, context.stats, component);
  SC_METHOD(run);  // a method, not a thread: no coroutine switch per wake-up
}

void PciBusModule::request(std::size_t master, const PciRequest& r) {
  bus_->request(master, r, now_ps());
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void PciBusModule::run() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  bus_->advance(now);
  const Picoseconds next = bus_->next_event_ps();
  if (next >= kForeverPs)
    next_trigger(wake_);
  else
    next_trigger(to_sc_time(next - now), wake_);
}

}  // namespace gbesim
