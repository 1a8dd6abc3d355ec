#include "analysis/pci_cycles.hpp"

#include <algorithm>

namespace gbesim {

std::int64_t pci_transaction_clocks(const PciTransactionShape& s) {
  const std::int64_t address = s.dual_address ? 2 : 1;
  const std::int64_t n = s.data_phases;
  if (s.pcix) {
    const std::int64_t minimum = s.read ? 2 : 1;
    const std::int64_t extra = std::max<std::int64_t>(0, s.latency_clocks - minimum);
    return address + 1 + s.devsel_clocks + minimum + extra + (n - 1) + 1;
  }
  const std::int64_t x =
      std::max({s.latency_clocks, s.devsel_clocks, std::int64_t{s.read ? 2 : 1}});
  return address + x + (n - 1) * (1 + s.subsequent_wait_clocks) + 1;
}

std::int64_t pci_data_phases(std::uint64_t address, std::int64_t bytes, std::int64_t width_bytes) {
  const std::int64_t offset =
      static_cast<std::int64_t>(address % static_cast<std::uint64_t>(width_bytes));
  return (offset + bytes + width_bytes - 1) / width_bytes;
}

}  // namespace gbesim
