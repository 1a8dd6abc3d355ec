#pragma once
// A bus request in one line, for the PCI bus and PCI Express link tests.

#include "models/pci/dma_bus.hpp"

namespace gbesim::testing {

inline PciRequest pci_request(std::size_t target, PciCommand command, std::int64_t bytes,
                              std::uint64_t address = 0, std::uint64_t tag = 0) {
  PciRequest r;
  r.target = target;
  r.command = command;
  r.bytes = bytes;
  r.address = address;
  r.tag = tag;
  return r;
}

}  // namespace gbesim::testing
