#pragma once
// Parameters of a NIC's bus side: FIFOs, descriptor rings and caches, DMA bursts, descriptor
// write-back and interrupt moderation; and of the host's driver costs.

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {

// How the NIC moderates its interrupts (models/nic/interrupt_moderation.hpp).
enum class Moderation { itr, coalesce, none };
const ChoiceList<Moderation>& choice_list(Moderation);
// The bus family a NIC plugs into.
enum class NicBus { pci, pcie };
const ChoiceList<NicBus>& choice_list(NicBus);
// shared: one DMA engine, the receive and transmit work taking turns, one request at the bus at a
// time; separate: a receive and a transmit engine, each with a request at the bus.
enum class DmaEngines { shared, separate };
const ChoiceList<DmaEngines>& choice_list(DmaEngines);

struct NicParams {
  std::string station;  // the station whose MAC this NIC serves
  std::int64_t rx_fifo_bytes = 49'152;
  std::int64_t tx_fifo_bytes = 16'384;
  std::int64_t rx_ring_descriptors = 256;
  std::int64_t tx_ring_descriptors = 256;
  std::int64_t descriptor_bytes = 16;
  std::int64_t buffer_bytes = 2048;      // host receive buffer per descriptor
  std::int64_t descriptor_cache = 64;    // on-chip receive descriptors
  std::int64_t prefetch_threshold = 16;  // fetch when the cache holds at most this many
  std::int64_t prefetch_batch = 16;      // descriptors per fetch (at most)
  std::int64_t writeback_threshold = 1;  // write back after this many done (1 = each frame)
  std::int64_t max_burst_bytes = 256;    // data DMA request size
  std::int64_t tx_max_burst_bytes = 0;   // the same for transmit reads (0: max_burst_bytes)
  std::int64_t rx_early_bytes = 0;       // start DMA of a frame once this much has arrived (0 =
                                         // when it is all in)
  std::int64_t tx_start_bytes = 0;       // hand a frame to the MAC once this much is read (0 =
                                         // store and forward: the whole frame)
  PciCommand read_command = PciCommand::memory_read_multiple;
  PciCommand write_command = PciCommand::memory_write;
  bool strip_crc = true;          // the FCS is not written to host memory
  bool checksum_offload = false;  // the NIC computes/checks TCP/UDP checksums
  Moderation moderation = Moderation::itr;
  std::int64_t itr_256ns = 0;                     // minimum interrupt interval in 256 ns units
  std::int64_t rdtr_1024ns = 0;                   // receive packet timer (restarted per frame)
  std::int64_t radv_1024ns = 0;                   // receive absolute delay from the first frame
  std::int64_t tidv_1024ns = 0;                   // transmit delay timer, restarted per completion
  std::int64_t tadv_1024ns = 0;                   // transmit absolute delay from the first
  std::int64_t coalesce_frames = 1;               // coalesce: interrupt after this many frames
  std::int64_t coalesce_us = 0;                   //   or this long after the first
  std::int64_t register_read_latency_clocks = 4;  // the NIC as a bus target
  std::int64_t chip_ports = 1;  // ports of one chip: consecutive NICs of a host share its bus
                                // interface (one REQ# / GNT# pair)
  NicBus bus = NicBus::pci;     // its bus family
  DmaEngines dma_engines = DmaEngines::shared;
  std::int64_t pcie_lanes = 1;                   // pcie: the widest link it trains to
  std::int64_t pcie_max_payload_bytes = 128;     // pcie: the largest Max_Payload_Size it takes
  std::int64_t pcie_max_read_request_bytes = 0;  // pcie: what its driver programs (0: leave
                                                 // the link's setting)
};

const ParamTable<NicParams>& nic_param_table();

}  // namespace gbesim
