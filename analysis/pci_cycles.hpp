#pragma once
// Closed-form PCI / PCI-X transaction timing, independent of the bus model: how many clocks one
// transaction holds the bus, from its address phase to the end of the turnaround clock after it.
// The NIC's per-frame bus-cycle accounting builds on it; the bus model's tests compare with it.
//
// Conventional PCI: A + X + (N - 1)(1 + w) + 1, where A = 1 address clock (2 with a
// dual-address cycle), X = the target initial latency (FRAME# to the first TRDY#; at least the
// DEVSEL# clock, and 2 on a read for the AD turnaround), N data phases, w subsequent wait states.
// PCI-X (as modelled, docs/pci.md): A + 1 (attribute) + D (decode A/B/C = 1/2/3) + (1 write,
// 2 read) + extra initial waits + (N - 1) + 1.

#include <cstdint>

namespace gbesim {

struct PciTransactionShape {
  bool pcix = false;
  bool read = false;
  bool dual_address = false;
  std::int64_t devsel_clocks = 1;           // 1 fast / decode A, 2 medium / B, 3 slow / C
  std::int64_t latency_clocks = 1;          // pci: target initial latency; pcix: the same
                                            // parameter (waits beyond 1 write / 2 read)
  std::int64_t subsequent_wait_clocks = 0;  // pci only
  std::int64_t data_phases = 1;
};

std::int64_t pci_transaction_clocks(const PciTransactionShape& s);

// Data phases to move `bytes` starting at `address` on a bus `width_bytes` wide.
std::int64_t pci_data_phases(std::uint64_t address, std::int64_t bytes, std::int64_t width_bytes);

}  // namespace gbesim
