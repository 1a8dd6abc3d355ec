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
#include <functional>

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

namespace gbesim {

// The bus clocks one frame costs a NIC's receive or transmit path on a saturated bus, summed
// over its transactions (each from analysis of pci_transaction_clocks; arbitration is hidden
// and a parked master adds no idle clock, so back to back these are the only clocks):
//   data      - the frame in requests of `burst` bytes (receive: writes without the FCS if
//               stripped; transmit: reads, split at the bridge's prefetch or cache-line
//               boundary, each part paying the read latency);
//   fetch     - one read of a full batch of descriptors, shared by the batch (a received
//               frame takes one per buffer_bytes; the engine sometimes fetches fewer, so this
//               is the cheapest case);
//   writeback - one write of writeback_group descriptors (or of all a frame's, if more),
//               likewise shared;
//   registers - the driver's cause-register read (if read_icr) and tail write, shared by the
//               frames handled per interrupt (taken from the simulation).
//   wait      - PCI-X split reads (split_read_bytes > 0): a request is read in sequences of
//               mmrbc_bytes (else split_read_bytes), each a Split Response (A + 1 + D + 2
//               clocks) and, read_latency_clocks later, the bridge's completion writes of up
//               to split_read_bytes (N + 4 clocks each, one burst, no prefetch disconnects); the
//               NIC keeps one request at a time and max_outstanding_splits sequences of it in
//               flight, so the bus waits idle for the latency, plus one clock to grant the NIC
//               the bus back from the completer, once per that many sequences (exact for one
//               sequence at a time; several in flight overlap their latencies).
// Not counted: latency-timer cuts, waits for a full posted-write buffer, retries, the bridge's
// write_disconnect_bytes.
struct NicPathShape {
  bool transmit = false;
  bool pcix = false;
  std::int64_t width_bytes = 4;
  bool dual_address = false;
  std::int64_t bridge_devsel_clocks = 1;
  std::int64_t bridge_read_latency_clocks = 2;
  std::int64_t bridge_write_latency_clocks = 1;
  std::int64_t bridge_wait_clocks = 0;
  std::int64_t cache_line_bytes = 64;
  std::int64_t prefetch_bytes = 64;
  std::int64_t split_read_bytes = 0;        // PCI-X: reads are split transactions in such chunks
  std::int64_t mmrbc_bytes = 0;             // PCI-X: a read sequence's size (0: split_read_bytes)
  std::int64_t max_outstanding_splits = 4;  // PCI-X: sequences the NIC keeps in flight
  bool read_multiple = true;  // Memory Read Multiple (prefetch) or Read / Read Line (to line end)
  std::int64_t register_read_latency_clocks = 4;
  std::int64_t frame_bytes = 1518;
  bool strip_crc = true;
  std::int64_t burst_bytes = 256;
  std::int64_t buffer_bytes = 2048;  // receive: one descriptor per buffer; requests stay inside
  std::int64_t descriptor_bytes = 16;
  std::int64_t fetch_batch = 16;
  std::int64_t descriptor_cache = 64;    // a fetch is at most min(fetch_batch, cache)
  std::int64_t prefetch_threshold = 16;  // (unused by the closed form; the engine's refill point)
  std::int64_t writeback_group = 1;
  double frames_per_interrupt = 1;
  bool read_icr = true;
};

struct NicPathClocks {
  double data = 0;
  double fetch = 0;
  double writeback = 0;
  double registers = 0;
  double wait = 0;  // the bus idle while the NIC waits for split completions
  double busy() const { return data + fetch + writeback + registers; }
  double total() const { return busy() + wait; }
};

NicPathClocks nic_clocks_per_frame(const NicPathShape& s);

// A frame's data requests on a NIC path: receive fills buffers of buffer_bytes (without the FCS
// if stripped), transmit reads the frame as one piece; each piece goes in requests of
// burst_bytes. Calls `each(offset in its piece, bytes)` per request; returns the descriptors the
// frame takes.
std::int64_t nic_data_requests(const NicPathShape& s,
                               const std::function<void(std::uint64_t, std::int64_t)>& each);

}  // namespace gbesim

namespace gbesim {

// A PCI-X master reading a long buffer through split transactions, in steady state. Each read
// request (a sequence of M = mmrbc bytes) is a Split Response: address A (+1 dual), attribute,
// decode D, the response: it ends A + D + 2 clocks after it starts, and with the turnaround the
// next transaction may start A + D + 3 clocks after it. L = read_latency_clocks after that end the
// completer (the bridge) has the data, asks the next clock, and writes the sequence back in
// n = M / C completions of C bytes, N = C / width data phases each: D + N + 3 clocks each from
// start to the next start. The requester asks again as the last data phase of a sequence
// completes. Arbitration is hidden, so back to back
//   one sequence holds the bus      B = (A + D + 3) + n (D + N + 3) clocks, and
//   one sequence alone takes        T = (A + D + 3) + L + n (D + N + 3) + 1 clocks, request to
//                                   request;
// with k sequences in flight the master reads min(M / B, k M / T) bytes per clock: the bus or
// the latency, whichever binds -- or the bridge's read path, when it delivers fewer bytes per
// clock than that (read_bytes_per_clock > 0).
struct PcixSplitReadShape {
  std::int64_t width_bytes = 8;
  bool dual_address = false;
  std::int64_t devsel_clocks = 1;         // the bridge's decode speed (A = 1, B = 2, C = 3)
  std::int64_t read_latency_clocks = 30;  // L
  std::int64_t mmrbc_bytes = 512;         // M
  std::int64_t completion_bytes = 512;    // C (the bridge's split_read_bytes)
  std::int64_t outstanding = 1;           // k
  double read_bytes_per_clock = 0;        // the bridge's read path; 0 = no limit
};

struct PcixSplitRead {
  double bus_clocks = 0;         // B, per sequence
  double sequence_clocks = 0;    // T, one sequence alone
  double bytes_per_clock = 0;    // min(M / B, k M / T, the read path)
  bool latency_bound = false;    // k M / T < M / B
  bool read_path_bound = false;  // the read path below both
};

PcixSplitRead pcix_split_read(const PcixSplitReadShape& s);

// A PCI-X master on a card's own segment reading a long buffer through the card's PCI-X-to-PCI-X
// bridge (models/pci/pcix_bridge.hpp), one sequence of M bytes in flight. Its request is a
// Split Response on the card's segment (A + D + 3 clocks there); the bridge asks the host's
// segment for it in pieces of R bytes, each lambda after the previous one's last completion
// (the first lambda after the Split Response), so each piece costs the host segment's T for one
// sequence of R bytes (pcix_split_read, k = 1) plus lambda; the last piece's last completion (C'
// bytes) comes back lambda after it ended and is written on the card's segment in one burst
// (ready, then D + C' / width + 3 clocks), and the master asks again:
//   sequence = (A + D + 3) Pc + (M / R) (T(R) Ph + lambda) + lambda + (1 + D + C' / w + 3) Pc.
// The master reads M / sequence.
struct PcixBridgedReadShape {
  PcixSplitReadShape host;  // the host's segment (mmrbc and outstanding: unused)
  std::int64_t host_period_ps = 7'500;
  std::int64_t card_period_ps = 7'500;
  std::int64_t card_width_bytes = 8;
  std::int64_t mmrbc_bytes = 512;         // M, the card master's sequence
  std::int64_t read_request_bytes = 512;  // R, the bridge's pieces
  std::int64_t latency_ps = 0;            // lambda, each crossing
};

// std::int64_t per sequence and bytes per ns.
struct PcixBridgedRead {
  double sequence_ps = 0;
  double bytes_per_ns = 0;
};

PcixBridgedRead pcix_bridged_read(const PcixBridgedReadShape& s);

}  // namespace gbesim
