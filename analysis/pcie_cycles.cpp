#include "analysis/pcie_cycles.hpp"

#include <algorithm>

namespace gbesim {

namespace {

std::int64_t tlp_bytes(const PcieLinkShape& s, std::uint64_t address, std::int64_t payload,
                       bool four_dw) {
  const std::int64_t data =
      payload > 0 ? 4 * ((static_cast<std::int64_t>(address % 4) + payload + 3) / 4) : 0;
  return 8 + (four_dw ? 16 : 12) + data + (s.ecrc ? 4 : 0);
}

std::int64_t to_boundary(std::uint64_t address, std::int64_t boundary) {
  const auto b = static_cast<std::uint64_t>(boundary);
  return static_cast<std::int64_t>(b - address % b);
}

}  // namespace

PcieTraffic pcie_write_traffic(const PcieLinkShape& s, std::uint64_t address, std::int64_t bytes) {
  PcieTraffic t;
  while (bytes > 0) {
    const std::int64_t n = std::min(bytes, to_boundary(address, s.max_payload_bytes));
    ++t.tlps;
    t.wire_bytes += tlp_bytes(s, address, n, s.four_dw_header);
    t.payload_bytes += n;
    address += static_cast<std::uint64_t>(n);
    bytes -= n;
  }
  return t;
}

PcieReadTraffic pcie_read_traffic(const PcieLinkShape& s, std::uint64_t address,
                                  std::int64_t bytes) {
  PcieReadTraffic r;
  const std::int64_t boundary = std::min(s.completion_bytes, s.max_payload_bytes);
  while (bytes > 0) {
    const std::int64_t n = std::min({bytes, s.max_read_request_bytes, to_boundary(address, 4096)});
    ++r.requests.tlps;
    r.requests.wire_bytes += tlp_bytes(s, address, 0, s.four_dw_header);
    for (std::int64_t done = 0; done < n;) {
      const std::uint64_t a = address + static_cast<std::uint64_t>(done);
      const std::int64_t c = std::min(n - done, to_boundary(a, boundary));
      ++r.completions.tlps;
      r.completions.wire_bytes += tlp_bytes(s, a, c, false);
      r.completions.payload_bytes += c;
      done += c;
    }
    address += static_cast<std::uint64_t>(n);
    bytes -= n;
  }
  return r;
}

double pcie_usable_share(const PcieLinkShape& s, bool answers_tlps, bool answers_posted,
                         bool answers_nonposted) {
  double share = 1.0;
  if (s.skp_interval_symbols > 0) share -= 4.0 / static_cast<double>(s.skp_interval_symbols);
  if (answers_tlps && s.ack_interval_symbols > 0) {
    const int dllps = 1 + (answers_posted ? 1 : 0) + (answers_nonposted ? 1 : 0);
    const double symbols =
        static_cast<double>(dllps * 8 + s.lanes - 1) / static_cast<double>(s.lanes);
    share -= symbols / static_cast<double>(s.ack_interval_symbols);
  }
  return share;
}

PcieNicPathBytes pcie_nic_bytes_per_frame(const PcieLinkShape& link, const NicPathShape& s) {
  PcieNicPathBytes b;
  // The NIC's own requests go upstream; what it reads comes back downstream.
  const std::int64_t descriptors = nic_data_requests(s, [&](std::uint64_t at, std::int64_t n) {
    if (s.transmit) {
      const PcieReadTraffic r = pcie_read_traffic(link, at, n);
      b.up += static_cast<double>(r.requests.wire_bytes);
      b.down += static_cast<double>(r.completions.wire_bytes);
      b.data += static_cast<double>(r.completions.wire_bytes);
      b.up_nonposted = true;
    } else {
      const PcieTraffic w = pcie_write_traffic(link, at, n);
      b.up += static_cast<double>(w.wire_bytes);
      b.data += static_cast<double>(w.wire_bytes);
      b.up_posted = true;
    }
  });
  const auto k = static_cast<double>(descriptors);
  const std::int64_t batch = std::max<std::int64_t>(1, std::min(s.fetch_batch, s.descriptor_cache));
  const PcieReadTraffic fetch = pcie_read_traffic(link, 0, batch * s.descriptor_bytes);
  b.up += k * static_cast<double>(fetch.requests.wire_bytes) / static_cast<double>(batch);
  b.down += k * static_cast<double>(fetch.completions.wire_bytes) / static_cast<double>(batch);
  b.up_nonposted = true;
  const std::int64_t group = std::max(s.writeback_group, descriptors);
  b.up += k *
          static_cast<double>(pcie_write_traffic(link, 0, group * s.descriptor_bytes).wire_bytes) /
          static_cast<double>(group);
  b.up_posted = true;
  // The driver's register accesses: a tail write and (read_icr) a cause-register read, from the
  // root complex (32-bit addresses), shared by the frames of an interrupt.
  PcieLinkShape root = link;
  root.four_dw_header = false;
  const double per_irq = std::max(1.0, s.frames_per_interrupt);
  b.down += static_cast<double>(pcie_write_traffic(root, 0, 4).wire_bytes) / per_irq;
  b.down_posted = true;
  if (s.read_icr) {
    const PcieReadTraffic icr = pcie_read_traffic(root, 0, 4);
    b.down += static_cast<double>(icr.requests.wire_bytes) / per_irq;
    b.up += static_cast<double>(icr.completions.wire_bytes) / per_irq;
    b.down_nonposted = true;
  }
  return b;
}

}  // namespace gbesim
