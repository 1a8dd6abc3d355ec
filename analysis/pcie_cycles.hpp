#pragma once
// Closed-form PCI Express 1.x link arithmetic, independent of the link model: the TLPs and bytes
// a write or a read puts on each direction, and what one frame of a NIC's receive or transmit
// path costs each direction. The link model's tests and the pci-ceiling analysis compare with it.
//
// Per TLP: 8 bytes of framing and data-link layer (STP, sequence number, LCRC, END), a 12-byte
// header (16 with 64-bit addresses), the payload in whole dwords, 4 more with ECRC. Writes split
// at Max_Payload_Size-aligned addresses; reads ask for at most Max_Read_Request_Size without
// crossing 4 KB and come back in completions ending at the completer's boundary.
// The usable share of a direction (the model of Neugebauer et al., SIGCOMM 2018, with this
// model's DLLP policy): 1 - 4 / skp_interval (SKP ordered sets) - the Ack and UpdateFC DLLPs it
// carries for the other direction's TLPs, one of each kind per Ack interval while that direction
// is busy (an upper bound: the model sends them an interval after the first unacknowledged TLP,
// so a little less often).

#include <cstdint>

#include "analysis/pci_cycles.hpp"

namespace gbesim {

struct PcieLinkShape {
  std::int64_t lanes = 1;
  std::int64_t max_payload_bytes = 128;
  std::int64_t max_read_request_bytes = 512;
  std::int64_t completion_bytes = 64;  // the completer's boundary (at most max_payload_bytes)
  bool four_dw_header = false;         // the requester uses 64-bit addresses
  bool ecrc = false;
  std::int64_t ack_interval_symbols = 237;
  std::int64_t skp_interval_symbols = 1538;  // 0: none
};

struct PcieTraffic {
  std::int64_t tlps = 0;
  std::int64_t wire_bytes = 0;
  std::int64_t payload_bytes = 0;
};

PcieTraffic pcie_write_traffic(const PcieLinkShape& s, std::uint64_t address, std::int64_t bytes);
struct PcieReadTraffic {
  PcieTraffic requests;     // requester -> completer
  PcieTraffic completions;  // completer -> requester
};
PcieReadTraffic pcie_read_traffic(const PcieLinkShape& s, std::uint64_t address,
                                  std::int64_t bytes);

// Share of a direction left for TLPs: after SKPs, and after the DLLPs answering the other
// direction's TLPs when `answers_posted` / `answers_nonposted` (an UpdateFC of that kind).
double pcie_usable_share(const PcieLinkShape& s, bool answers_tlps, bool answers_posted,
                         bool answers_nonposted);

// Per frame of a NIC path: bytes (framing included) on each direction, and the posted /
// non-posted TLPs each direction carries (for the DLLPs the other owes).
struct PcieNicPathBytes {
  double up = 0, down = 0;  // upstream (NIC -> root complex) and downstream
  double data = 0;          // of which the frame's data (in its direction)
  bool up_posted = false, up_nonposted = false, down_posted = false, down_nonposted = false;
};
PcieNicPathBytes pcie_nic_bytes_per_frame(const PcieLinkShape& link, const NicPathShape& nic);

}  // namespace gbesim
