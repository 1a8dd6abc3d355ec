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

PcixBridgedRead pcix_bridged_read(const PcixBridgedReadShape& s) {
  PcixSplitReadShape piece = s.host;
  piece.mmrbc_bytes = std::min(s.read_request_bytes, s.mmrbc_bytes);
  piece.outstanding = 1;
  const double t_piece = pcix_split_read(piece).sequence_clocks;
  const std::int64_t pieces = (s.mmrbc_bytes + piece.mmrbc_bytes - 1) / piece.mmrbc_bytes;
  const std::int64_t last_completion = std::min(piece.mmrbc_bytes, s.host.completion_bytes);
  const std::int64_t card_phases = (last_completion + s.card_width_bytes - 1) / s.card_width_bytes;
  const std::int64_t a = s.host.dual_address ? 2 : 1;
  const std::int64_t d = 1;  // the bridge decodes at speed A on the card's segment
  const auto pc = static_cast<double>(s.card_period_ps);
  const auto lambda = static_cast<double>(s.latency_ps);
  PcixBridgedRead r;
  r.sequence_ps =
      static_cast<double>(a + d + 3) * pc +
      static_cast<double>(pieces) * (t_piece * static_cast<double>(s.host_period_ps) + lambda) +
      lambda + static_cast<double>(1 + d + card_phases + 3) * pc;
  r.bytes_per_ns = static_cast<double>(s.mmrbc_bytes) / r.sequence_ps * 1000.0;
  return r;
}

}  // namespace gbesim

namespace gbesim {

namespace {

// Clocks to read `bytes` from the bridge at `address`, split where the bridge disconnects (or,
// PCI-X with split reads, into Split Responses and completions; `wait` gets the idle clocks).
double read_clocks(const NicPathShape& s, std::uint64_t address, std::int64_t bytes,
                   double* wait = nullptr) {
  double clocks = 0;
  if (s.pcix && s.split_read_bytes > 0) {
    const std::int64_t address_clocks = s.dual_address ? 2 : 1;
    const std::int64_t sequence = s.mmrbc_bytes > 0 ? s.mmrbc_bytes : s.split_read_bytes;
    std::int64_t sequences = 0;
    for (std::int64_t start = 0; start < bytes; start += sequence, ++sequences) {
      const std::int64_t in_sequence = std::min(sequence, bytes - start);
      clocks += static_cast<double>(address_clocks + 1 + s.bridge_devsel_clocks + 2);
      for (std::int64_t done = 0; done < in_sequence; done += s.split_read_bytes) {
        PciTransactionShape completion;  // the bridge writes the data back, decoded at speed A
        completion.pcix = true;
        completion.data_phases =
            pci_data_phases(address + static_cast<std::uint64_t>(start + done),
                            std::min(s.split_read_bytes, in_sequence - done), s.width_bytes);
        clocks += static_cast<double>(pci_transaction_clocks(completion));
      }
    }
    const std::int64_t rounds = (sequences + s.max_outstanding_splits - 1) /
                                std::max<std::int64_t>(1, s.max_outstanding_splits);
    if (wait != nullptr) *wait += static_cast<double>(rounds * (s.bridge_read_latency_clocks + 1));
    return clocks;
  }
  const std::int64_t line = s.cache_line_bytes;
  while (bytes > 0) {
    const auto a = static_cast<std::int64_t>(address);
    const std::int64_t end =
        s.read_multiple ? (a + s.prefetch_bytes + line - 1) / line * line : (a / line + 1) * line;
    const std::int64_t n = std::min(bytes, end - a);
    PciTransactionShape t;
    t.pcix = s.pcix;
    t.read = true;
    t.dual_address = s.dual_address;
    t.devsel_clocks = s.bridge_devsel_clocks;
    t.latency_clocks = s.bridge_read_latency_clocks;
    t.subsequent_wait_clocks = s.bridge_wait_clocks;
    t.data_phases = pci_data_phases(address, n, s.width_bytes);
    clocks += static_cast<double>(pci_transaction_clocks(t));
    address += static_cast<std::uint64_t>(n);
    bytes -= n;
  }
  return clocks;
}

double write_clocks(const NicPathShape& s, std::uint64_t address, std::int64_t bytes,
                    std::int64_t latency, std::int64_t devsel) {
  PciTransactionShape t;
  t.pcix = s.pcix;
  t.dual_address = s.dual_address;
  t.devsel_clocks = devsel;
  t.latency_clocks = latency;
  t.subsequent_wait_clocks = s.bridge_wait_clocks;
  t.data_phases = pci_data_phases(address, bytes, s.width_bytes);
  return static_cast<double>(pci_transaction_clocks(t));
}

}  // namespace

std::int64_t nic_data_requests(const NicPathShape& s,
                               const std::function<void(std::uint64_t, std::int64_t)>& each) {
  const std::int64_t bytes = s.transmit ? s.frame_bytes : s.frame_bytes - (s.strip_crc ? 4 : 0);
  const std::int64_t piece = s.transmit ? bytes : s.buffer_bytes;
  for (std::int64_t start = 0; start < bytes; start += piece) {
    const std::int64_t in_piece = std::min(piece, bytes - start);
    for (std::int64_t done = 0; done < in_piece; done += s.burst_bytes)
      each(static_cast<std::uint64_t>(done), std::min(s.burst_bytes, in_piece - done));
  }
  return s.transmit ? 1 : (bytes + piece - 1) / piece;
}

NicPathClocks nic_clocks_per_frame(const NicPathShape& s) {
  NicPathClocks c;
  const std::int64_t descriptors = nic_data_requests(s, [&](std::uint64_t at, std::int64_t n) {
    c.data += s.transmit
                  ? read_clocks(s, at, n, &c.wait)
                  : write_clocks(s, at, n, s.bridge_write_latency_clocks, s.bridge_devsel_clocks);
  });
  const auto k = static_cast<double>(descriptors);
  // Full batches: the engine may fetch fewer when its cache is nearly full, so this is the
  // cheapest case and the ceiling an upper bound.
  const std::int64_t batch = std::max<std::int64_t>(1, std::min(s.fetch_batch, s.descriptor_cache));
  double fetch_wait = 0;
  c.fetch =
      k * read_clocks(s, 0, batch * s.descriptor_bytes, &fetch_wait) / static_cast<double>(batch);
  c.wait += k * fetch_wait / static_cast<double>(batch);
  // Write-back happens once a group is done, and a frame's descriptors go together.
  const std::int64_t group = std::max(s.writeback_group, descriptors);
  c.writeback = k *
                write_clocks(s, 0, group * s.descriptor_bytes, s.bridge_write_latency_clocks,
                             s.bridge_devsel_clocks) /
                static_cast<double>(group);
  // The driver's register accesses come from the host bridge (32-bit addresses).
  PciTransactionShape tail;
  tail.pcix = s.pcix;
  PciTransactionShape icr;
  icr.pcix = s.pcix;
  icr.read = true;
  icr.latency_clocks = s.register_read_latency_clocks;
  const double per_interrupt = (s.read_icr ? static_cast<double>(pci_transaction_clocks(icr)) : 0) +
                               static_cast<double>(pci_transaction_clocks(tail));
  c.registers = per_interrupt / std::max(1.0, s.frames_per_interrupt);
  return c;
}

}  // namespace gbesim

namespace gbesim {

PcixSplitRead pcix_split_read(const PcixSplitReadShape& s) {
  const std::int64_t a = s.dual_address ? 2 : 1;
  const std::int64_t d = s.devsel_clocks;
  const std::int64_t completions = (s.mmrbc_bytes + s.completion_bytes - 1) / s.completion_bytes;
  const std::int64_t phases = (s.completion_bytes + s.width_bytes - 1) / s.width_bytes;
  const auto n = static_cast<double>(completions);
  const auto burst = static_cast<double>(d + phases + 3);  // one completion, start to start
  PcixSplitRead r;
  r.bus_clocks = static_cast<double>(a + d + 3) + n * burst;
  r.sequence_clocks = static_cast<double>(a + d + 3 + s.read_latency_clocks) + n * burst + 1;
  const auto m = static_cast<double>(s.mmrbc_bytes);
  const double by_bus = m / r.bus_clocks;
  const double by_latency = static_cast<double>(s.outstanding) * m / r.sequence_clocks;
  r.latency_bound = by_latency < by_bus;
  r.bytes_per_clock = std::min(by_bus, by_latency);
  if (s.read_bytes_per_clock > 0 && s.read_bytes_per_clock < r.bytes_per_clock) {
    r.read_path_bound = true;
    r.bytes_per_clock = s.read_bytes_per_clock;
  }
  return r;
}

}  // namespace gbesim
