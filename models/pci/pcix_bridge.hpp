#pragma once
// A PCI-X-to-PCI-X bridge on a card: the card's own segment (its chips' functions) behind it,
// the host's segment in front (the card's slot). Transparent, as the PCI-X addendum's bridge
// rules have it: each direction forwards what it takes -- a split read request as one request of
// the same byte count on the far side (up to max_outstanding_splits of them in flight), the
// completions coming back each as the far side delivers it (cut through, not stored); a write
// into its posted-write buffer, forwarded in the order taken -- what no latency-timer cut can
// take back as soon as its first ADB is in (never so early that the far side would overtake the
// bytes still arriving), the rest when the burst has ended -- its room returning as the far side
// takes the data. A full buffer retries a write; a nearly full one disconnects it at an ADB.
// Upstream (the card's DMA to memory) a write is done for its master when the bridge has it;
// downstream (the driver's register accesses) when it reaches the card's chip, so a tail write
// is seen by the NIC after it crossed both segments. latency_ns is added once to each crossing:
// to a forwarded request before it asks for the far bus, and to a completion before it asks to
// return. Does not model: the PCI-X ordering rules across the bridge (a completion does not wait
// for posted writes ahead of it), delayed transactions (a conventional-PCI side), prefetching
// beyond the request's byte count, or the bridge's configuration (its windows pass every address).

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "models/pci/pci_bus.hpp"
#include "models/pci/pci_bus_module.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {

class PciXBridge {
 public:
  // The bridge between `primary` (the host's segment, where `memory` is the host bridge's
  // target) and `secondary` (the card's segment); both PCI-X.
  PciXBridge(const std::string& name, const PciBridgeParams& params, PciBusModule& primary,
             PciBusModule& secondary, std::size_t memory);
  ~PciXBridge();
  PciXBridge(const PciXBridge&) = delete;
  PciXBridge& operator=(const PciXBridge&) = delete;

  // The target the card's masters address for memory (on the secondary segment).
  std::size_t memory_target() const { return memory_; }
  // A target on the primary segment through which the host reaches `secondary_target` (a chip's
  // registers on the card's segment).
  std::size_t expose(std::size_t secondary_target, const std::string& name);

 private:
  class Port;
  std::unique_ptr<Port> up_, down_;
  std::size_t memory_ = 0;
};

}  // namespace gbesim
