#pragma once
// What the host's CPU spends running a NIC's driver and stack, and the raw bulk sender a host may
// run through its NIC.

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// What the host's CPU spends. All costs in ns of CPU time.
struct CpuParams {
  double interrupt_ns = 0;          // entry + exit + the handler's fixed part
  double per_packet_ns = 0;         // driver + protocol stack per received frame
  double per_sent_packet_ns = 0;    // driver + protocol stack per sent frame
  double per_byte_ns = 0;           // copy (and checksum unless offloaded) per byte
  double per_refill_ns = 0;         // allocate and post one receive buffer
  double per_request_ns = 0;        // an application send/receive call (system call + bookkeeping)
  double per_checksum_byte_ns = 0;  // software checksum per frame byte, unless the NIC offloads
  bool read_icr = true;             // the handler reads the interrupt cause register (PIO read)
};

const ParamTable<CpuParams>& cpu_param_table();

// A bulk sender on the host: keeps the NIC's transmit ring full of frames to one station.
struct HostTxParams {
  std::string to;  // destination station; empty = no sending
  std::int64_t frame_bytes = 1518;
};

const ParamTable<HostTxParams>& host_tx_param_table();

}  // namespace gbesim
