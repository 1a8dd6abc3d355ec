#include "models/pci/pci_bus_module.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "models/pci/pci_bus.hpp"
#include "models/pci/pcie_link.hpp"

namespace gbesim {

namespace {

// GBESIM_BUS_WAKES=every-ns: the differential check's reference schedule. The bus also wakes
// every nanosecond and at once on every request, so that the simulation kernel orders the
// processes of each instant differently; results must not change (tests/scenario).
bool waking_every_ns() {
  static const bool every = [] {
    const char* v = std::getenv("GBESIM_BUS_WAKES");
    return v != nullptr && std::string_view(v) == "every-ns";
  }();
  return every;
}

}  // namespace

PciBusModule::PciBusModule(sc_core::sc_module_name name, const PciBusParams& params,
                           SimContext& context)
    : sc_module(name), context_(context) {
  const std::string component(this->name());
  if (params.mode == PciMode::pcie)
    bus_ = std::make_unique<PcieLink>(params, context.stats, component);
  else
    bus_ = std::make_unique<PciBus>(params, context.stats, component);
  SC_METHOD(run);  // a method, not a thread: no coroutine switch per wake-up
  sensitive << wake_;
  if (!waking_every_ns()) dont_initialize();  // nothing to do before a master asks
}

void PciBusModule::request(std::size_t master, const PciRequest& r) {
  request_at(master, r, now_ps());
}

void PciBusModule::reschedule() {
  if (!running_) wake_for_next_event(now_ps());
}

void PciBusModule::request_at(std::size_t master, const PciRequest& r, Picoseconds at) {
  const Picoseconds now = now_ps();
  // What the bus does at this instant comes first (a PCI Express link may have packets to send
  // or completions to queue now): the request joins after it, whichever process the
  // simulation kernel runs first. A request from a callback while the bus runs is already after.
  settle();
  bus_->request(master, r, std::max(at, now));
  // Asked from a master's callback while the bus runs: run() sets the wake-up as it returns.
  if (waking_every_ns())
    wake_.notify(sc_core::SC_ZERO_TIME);
  else if (!running_)
    wake_for_next_event(now);
}

void PciBusModule::settle() {
  const Picoseconds now = now_ps();
  if (advance_to(now)) wake_for_next_event(now);
}

void PciBusModule::catch_up(Picoseconds before) {
  advance_to(before);  // the wake-up set stands: nothing done here reaches a master before it
}

bool PciBusModule::advance_to(Picoseconds t) {
  if (running_ || bus_->next_event_ps() > t) return false;
  running_ = true;
  bus_->advance(t);
  running_ = false;
  return true;
}

void PciBusModule::wake_for_next_event(Picoseconds now) {
  // One pending notification: a later one is replaced by an earlier one, an earlier one kept
  // (the wake-up it causes finds nothing due and sets the next).
  Picoseconds next = bus_->next_wake_ps();
  if (waking_every_ns()) next = std::min(next, (now / 1000 + 1) * 1000);
  if (next < kForeverPs) wake_.notify(to_sc_time(std::max<Picoseconds>(next - now, 0)));
}

void PciBusModule::run() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  running_ = true;
  bus_->advance(now);
  running_ = false;
  wake_for_next_event(now);
}

}  // namespace gbesim
