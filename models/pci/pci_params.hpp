#pragma once
// Parameters of the PCI / PCI-X bus model: the bus itself, its targets (the host bridge in front
// of memory, a NIC's registers) and its masters (a NIC's DMA engine, the host bridge doing PIO, a
// disk controller). Each is one plain struct declared once in its param table.

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/param_table.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// pci (conventional, PCI 2.2), pcix (PCI-X 1.0) or pcie (PCI Express 1.x, a link: the fields
// below width_bits..parking).
enum class PciMode { pci, pcix, pcie };
const ChoiceList<PciMode>& choice_list(PciMode);
enum class PciArbiter { round_robin, fixed_priority };
const ChoiceList<PciArbiter>& choice_list(PciArbiter);
enum class PciParking { last, none };
const ChoiceList<PciParking>& choice_list(PciParking);

struct PciBusParams {
  PciMode mode = PciMode::pci;
  std::int64_t width_bits = 32;
  std::int64_t clock_mhz = 33;  // 33 and 66 (pci); 66, 100 and 133 (pcix)
  PciArbiter arbiter = PciArbiter::round_robin;
  PciParking parking = PciParking::last;
  // PCI Express 1.x (2.5 GT/s, 8b/10b): one symbol per lane every 4 ns.
  std::int64_t lanes = 1;                     // x1 or x4
  std::int64_t max_payload_bytes = 128;       // Max_Payload_Size (both ends)
  std::int64_t max_read_request_bytes = 512;  // Max_Read_Request_Size
  std::int64_t ack_interval_symbols = 0;      // an Ack (and UpdateFC) this long after the first
                                              // unacknowledged TLP; 0 = the spec's limit
  std::int64_t skp_interval_symbols = 1538;   // a SKP ordered set every so many symbol times
  std::int64_t link_latency_ns = 0;           // transmitter to receiver beyond serialisation
  std::int64_t posted_header_credits = 32;    // what each receiver advertises
  std::int64_t posted_data_credits = 128;     // 16-byte units
  std::int64_t nonposted_header_credits = 32;
  bool ecrc = false;  // 4 more bytes per TLP
};

// PCI Express 1.x: the symbol time (ps) and the Ack latency limit of the base specification for
// a Max_Payload_Size and width, in symbol times (0 for a pair the table does not hold).
constexpr Picoseconds kPcieSymbolPs = 4'000;
std::int64_t pcie_ack_limit_symbols(std::int64_t max_payload_bytes, std::int64_t lanes);
// The Ack interval a link uses: its ack_interval_symbols, or the limit above when that is 0.
std::int64_t pcie_ack_interval_symbols(const PciBusParams& p);

const ParamTable<PciBusParams>& pci_bus_param_table();

// The clock period in ps: 33 -> 30 000 (33.33 MHz), 66 -> 15 000 (66.67), 100 -> 10 000,
// 120 -> 8 333 (an on-card segment), 133 -> 7 500 (133.33). Zero for a clock the table does not
// know.
Picoseconds pci_clock_period_ps(std::int64_t clock_mhz);

enum class Devsel { fast, medium, slow };
const ChoiceList<Devsel>& choice_list(Devsel);
// DEVSEL# 1, 2 or 3 clocks after the address phase.
std::int64_t devsel_clocks(Devsel devsel);

struct PciTargetParams {
  Devsel devsel = Devsel::fast;
  std::int64_t read_latency_clocks = 2;  // target initial latency of a read: FRAME# to the
                                         // first TRDY#; above 16 (pci) the target answers
                                         // with a delayed transaction (Retry)
  std::int64_t read_latency_ns = 0;      // the same in ns (the scenario loader turns it into clocks
                                         // at the bus clock); 0 = read_latency_clocks
  std::int64_t write_latency_clocks = 1;    // the same for a write
  std::int64_t subsequent_wait_clocks = 0;  // wait states before every later data phase (pci)
  std::int64_t cache_line_bytes = 64;
  std::int64_t prefetch_bytes = 64;         // Memory Read Multiple: data the target streams
                                            // from the start address before it disconnects
                                            // (rounded up to a cache-line end)
  std::int64_t write_disconnect_bytes = 0;  // disconnect writes at multiples of this address
                                            // boundary; 0 = never
  std::int64_t posted_write_bytes = 0;      // posted-write buffer; 0 = writes are not posted
                                            // (accepted at the bus rate)
  double memory_write_mbps = 0;             // the posted-write buffer drains at this rate
                                            // (MB/s = 10^6 bytes/s)
  double memory_read_mbps = 0;              // pcix: split completions are ready no faster than this
                                            // (the chipset's read path, MB/s); 0 = no limit
  double memory_mbps = 0;  // pcix: split reads and posted writes together, one memory port (MB/s);
                           // 0 = no shared limit
  std::int64_t split_read_bytes = 0;         // pcix: reads are split transactions completed by
                                             // this target in chunks of up to this many bytes;
                                             // 0 = immediate reads
  std::int64_t completion_bytes = 64;        // pcie: read completions end at multiples of this
                                             // address boundary (the RCB or a multiple of it)
  std::int64_t completion_latency_ns = 400;  // pcie: a read request's arrival to its first
                                             // completion leaving
};

const ParamTable<PciTargetParams>& pci_target_param_table();

struct PciMasterParams {
  std::int64_t width_bits = 32;  // a 32-bit card in a 64-bit slot moves 4 bytes
  std::int64_t latency_timer_clocks = 64;
  std::int64_t priority = 0;                // fixed_priority: lower wins
  bool dual_address_cycle = false;          // 64-bit addresses: one more address clock
  std::int64_t retry_backoff_clocks = 2;    // REQ# held off this long after a Retry
  std::int64_t max_outstanding_splits = 4;  // pcix: split reads in flight at once; pcie: read
                                            // requests in flight (tags)
  std::int64_t mmrbc_bytes = 0;  // pcix: Maximum Memory Read Byte Count, the largest read one
                                 // request asks for; 0 = the bridge's split_read_bytes
};

const ParamTable<PciMasterParams>& pci_master_param_table();

// The bus commands a master uses for memory.
enum class PciCommand {
  memory_read,
  memory_read_line,
  memory_read_multiple,
  memory_write,
  memory_write_invalidate,
};
const ChoiceList<PciCommand>& choice_list(PciCommand);

// What a generic DMA master (a disk or another controller contending for the bus) moves.
struct DmaTrafficParams {
  std::string target = "bridge";
  PciCommand command = PciCommand::memory_write;
  std::int64_t request_bytes = 4096;
  double rate_mbps = 0;  // MB/s (10^6 bytes/s); 0 = back to back
  std::int64_t start_ns = 0;
  std::int64_t max_outstanding = 1;
};

const ParamTable<DmaTrafficParams>& dma_traffic_param_table();

// A PCI-X-to-PCI-X bridge on a card (pcix_bridge.hpp): the card's own segment behind it.
struct PciBridgeParams {
  std::int64_t clock_mhz = 133;            // the card's segment: 66, 100 or 133
  std::int64_t width_bits = 64;            // the card's segment
  std::int64_t posted_write_bytes = 1024;  // each direction's posted-write buffer
  std::int64_t read_request_bytes = 512;   // a forwarded read is asked for in pieces of this
  std::int64_t read_buffer_bytes = 4096;   // each direction's read buffers: pieces in flight
  std::int64_t latency_ns = 60;            // added to each crossing, request and completion
};
const ParamTable<PciBridgeParams>& pci_bridge_param_table();

}  // namespace gbesim
