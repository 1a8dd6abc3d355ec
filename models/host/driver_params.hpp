#pragma once
// What the host's CPU spends running a NIC's driver and stack, and the raw bulk sender a host may
// run through its NIC.

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// What the host's CPU spends. All costs in ns of CPU time: the host's own, added to its NIC
// driver's (DriverParams, in cycles at `clock_mhz`).
struct CpuParams {
  double clock_mhz = 0;             // the CPU's clock; 0: not given (the driver's cycles need it)
  double interrupt_ns = 0;          // entry + exit + the handler's fixed part
  double per_packet_ns = 0;         // driver + protocol stack per received frame
  double per_sent_packet_ns = 0;    // driver + protocol stack per sent frame with data
  double per_sent_ack_ns = 0;       // per pure TCP ACK sent (no payload)
  double per_byte_ns = 0;           // copy (and checksum unless offloaded) per byte; 0: derived
  double memory_mbps = 0;           // peak CPU-memory bandwidth, MB/s (FSB or memory, the smaller)
  double copy_efficiency = 0.81;    // share of memory_mbps a copy achieves (fitted: docs/host.md)
  double per_refill_ns = 0;         // allocate and post one receive buffer
  double per_request_ns = 0;        // an application send/receive call (system call + bookkeeping)
  double per_checksum_byte_ns = 0;  // software checksum per frame byte, unless the NIC offloads
  bool read_icr = true;             // the handler reads the interrupt cause register (PIO read)
  // Logical CPUs (docs/host.md, "Logical CPUs"): 1, or 2 -- the NIC's interrupt handler and the
  // stack's receive path on the first, the applications' calls on the second.
  std::int64_t logical_cpus = 1;
  bool shared_core = false;      // the two are one core's Hyper-Threading pair
  double pair_throughput = 1.1;  // a Hyper-Threading pair's work together, relative to one

  // The copy cost per byte: per_byte_ns when given, else two bytes of memory traffic (a read and
  // a write) per byte copied at copy_efficiency x memory_mbps; 0 when neither is given.
  double copy_ns_per_byte() const;
};

const ParamTable<CpuParams>& cpu_param_table();

// What a NIC's driver (and the stack of its operating system) costs the CPU, in cycles, so the
// same driver on a slower CPU costs proportionally more. Part of a NIC profile (a board with its
// driver: docs/nic.md); `hosts.<h>.driver` overrides it.
struct DriverParams {
  std::string os;                   // "Windows 2000 SP3"
  std::string version;              // "6.2.33.0"
  double interrupt_cycles = 0;      // per interrupt: entry, exit, the handler's fixed part
  double rx_packet_cycles = 0;      // per received frame: driver and protocol stack
  double tx_packet_cycles = 0;      // per sent frame with data: stack, driver, reclaim
  double ack_cycles = 0;            // per pure TCP ACK sent
  double refill_cycles = 0;         // per receive buffer given back to the NIC
  double request_cycles = 0;        // per application send/receive call
  double checksum_byte_cycles = 0;  // software checksum per byte, unless the NIC offloads it
  // The OS's UDP receive socket: its default buffer (0: no limit) and what a fragment takes of it.
  std::int64_t udp_receive_buffer_bytes = 0;
  std::int64_t udp_truesize_bytes = 0;
  std::int64_t tick_us = 10'000;  // the OS timer tick (a sleep to the next tick ends there)

  bool any_cycles() const;
};

const ParamTable<DriverParams>& driver_param_table();

// The CPU's costs in ns: the host's own plus the driver's cycles at the host's clock.
CpuParams with_driver(const CpuParams& cpu, const DriverParams& driver);

// The same CPU with its copy cost per byte resolved (copy_ns_per_byte() into per_byte_ns), so the
// per-frame paths read a constant.
CpuParams with_copy_cost(CpuParams cpu);

// A bulk sender on the host: keeps the NIC's transmit ring full of frames to one station.
struct HostTxParams {
  std::string to;  // destination station; empty = no sending
  std::int64_t frame_bytes = 1518;
};

const ParamTable<HostTxParams>& host_tx_param_table();

}  // namespace gbesim
