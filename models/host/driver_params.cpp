#include "models/host/driver_params.hpp"

namespace gbesim {

const ParamTable<CpuParams>& cpu_param_table() {
  static const ParamTable<CpuParams> table = [] {
    ParamTable<CpuParams> t("cpu", "the host CPU's costs for the NIC's driver and stack");
    t.real("interrupt_ns", &CpuParams::interrupt_ns, "ns", 0, 1e9,
           "per interrupt: entry, exit and the handler's fixed part")
        .real("per_packet_ns", &CpuParams::per_packet_ns, "ns", 0, 1e9,
              "per received frame: driver and protocol stack")
        .real("per_sent_packet_ns", &CpuParams::per_sent_packet_ns, "ns", 0, 1e9,
              "per sent frame: protocol stack and driver down to the ring")
        .real("per_byte_ns", &CpuParams::per_byte_ns, "ns", 0, 1e6,
              "per byte received (DA..FCS, in the handler) or written by the application (at the "
              "send call): copy, and checksum unless offloaded")
        .real("per_request_ns", &CpuParams::per_request_ns, "ns", 0, 1e9,
              "an application send or receive call: system call, socket and application "
              "bookkeeping (per request, reply or datagram)")
        .real("per_checksum_byte_ns", &CpuParams::per_checksum_byte_ns, "ns", 0, 1e6,
              "software TCP/UDP checksum per frame byte, received or sent, when the NIC does "
              "not offload it (nic.checksum_offload)")
        .real("per_refill_ns", &CpuParams::per_refill_ns, "ns", 0, 1e9,
              "per receive buffer given back to the NIC")
        .boolean("read_icr", &CpuParams::read_icr,
                 "the handler first reads the interrupt cause register (a PIO read on the bus)");
    return t;
  }();
  return table;
}

const ParamTable<HostTxParams>& host_tx_param_table() {
  static const ParamTable<HostTxParams> table = [] {
    ParamTable<HostTxParams> t("tx", "a bulk sender on the host, through its NIC");
    t.reference("to", &HostTxParams::to, "station", "the destination station")
        .integer("frame_bytes", &HostTxParams::frame_bytes, "bytes", 64, 16'128,
                 "DA..FCS bytes of every frame");
    return t;
  }();
  return table;
}

}  // namespace gbesim
