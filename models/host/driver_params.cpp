#include "models/host/driver_params.hpp"

namespace gbesim {

const ParamTable<CpuParams>& cpu_param_table() {
  static const ParamTable<CpuParams> table = [] {
    ParamTable<CpuParams> t("cpu",
                            "the host CPU: its clock and its own costs (in ns) for the NIC's "
                            "driver and stack, added to the driver's (hosts.<h>.driver, in "
                            "cycles)");
    t.real("clock_mhz", &CpuParams::clock_mhz, "MHz", 0, 100'000,
           "the CPU's clock, converting the driver's cycles to time (0: not given)")
        .real("interrupt_ns", &CpuParams::interrupt_ns, "ns", 0, 1e9,
              "per interrupt: entry, exit and the handler's fixed part")
        .real("per_packet_ns", &CpuParams::per_packet_ns, "ns", 0, 1e9,
              "per received frame: driver and protocol stack")
        .real("per_sent_packet_ns", &CpuParams::per_sent_packet_ns, "ns", 0, 1e9,
              "per sent frame carrying data: protocol stack and driver down to the ring")
        .real("per_sent_ack_ns", &CpuParams::per_sent_ack_ns, "ns", 0, 1e9,
              "per pure TCP ACK sent (no payload): the stack builds it in its receive path")
        .real("per_byte_ns", &CpuParams::per_byte_ns, "ns", 0, 1e6,
              "per byte received (DA..FCS, in the handler) or written by the application (at the "
              "send call): copy, and checksum unless offloaded")
        .real("memory_mbps", &CpuParams::memory_mbps, "MB/s", 0, 1e6,
              "peak bandwidth between the CPU and memory (the smaller of the front-side bus and "
              "the memory's); with per_byte_ns 0, a copy costs 2 bytes of traffic per byte at "
              "copy_efficiency of it (0: not given)")
        .real("copy_efficiency", &CpuParams::copy_efficiency, "", 0.05, 1.0,
              "the share of memory_mbps a memory copy achieves: 0.81 fitted to a Pentium 4 "
              "3.06 GHz's measured 1.71 GB/s copy on its 4,266 MB/s bus (docs/host.md)")
        .real("per_request_ns", &CpuParams::per_request_ns, "ns", 0, 1e9,
              "an application send or receive call: system call, socket and application "
              "bookkeeping (per request, reply or datagram)")
        .real("per_checksum_byte_ns", &CpuParams::per_checksum_byte_ns, "ns", 0, 1e6,
              "software TCP/UDP checksum per frame byte, received or sent, when the NIC does "
              "not offload it (nic.checksum_offload)")
        .real("per_refill_ns", &CpuParams::per_refill_ns, "ns", 0, 1e9,
              "per receive buffer given back to the NIC")
        .boolean("read_icr", &CpuParams::read_icr,
                 "the handler first reads the interrupt cause register (a PIO read on the bus)")
        .integer("logical_cpus", &CpuParams::logical_cpus, "", 1, 2,
                 "the CPUs the operating system sees: 1, or 2 (two processors, two cores, or "
                 "Hyper-Threading's two logical CPUs): the NIC's interrupt handler and the "
                 "stack's receive path run on the first, the applications' calls and their "
                 "sends on the second; cpu_utilisation is the mean over them, as Windows and "
                 "IOmeter report it")
        .boolean("shared_core", &CpuParams::shared_core,
                 "the two logical CPUs are one core's Hyper-Threading pair: while both work, "
                 "each runs at pair_throughput / 2 of the core's speed")
        .real("pair_throughput", &CpuParams::pair_throughput, "", 1.0, 2.0,
              "the work a Hyper-Threading pair does together, relative to one logical CPU "
              "alone: 1.1 assumed (measured gains on network servers are 'slight': Ruan et al. "
              "2005, docs/references.md)");
    return t;
  }();
  return table;
}

double CpuParams::copy_ns_per_byte() const {
  if (per_byte_ns > 0 || memory_mbps <= 0) return per_byte_ns;
  return 2.0 * 1000.0 / (memory_mbps * copy_efficiency);  // ns per byte: 1000 / (MB/s)
}

bool DriverParams::any_cycles() const {
  return interrupt_cycles > 0 || rx_packet_cycles > 0 || tx_packet_cycles > 0 || ack_cycles > 0 ||
         refill_cycles > 0 || request_cycles > 0 || checksum_byte_cycles > 0;
}

const ParamTable<DriverParams>& driver_param_table() {
  static const ParamTable<DriverParams> table = [] {
    ParamTable<DriverParams> t("driver",
                               "the NIC's driver and its operating system's stack: CPU cycles "
                               "per event, at the host's cpu.clock_mhz");
    t.text("os", &DriverParams::os, "the operating system the driver runs on")
        .text("version", &DriverParams::version, "the driver's version")
        .real("interrupt_cycles", &DriverParams::interrupt_cycles, "cycles", 0, 1e9,
              "per interrupt: entry, exit and the handler's fixed part")
        .real("rx_packet_cycles", &DriverParams::rx_packet_cycles, "cycles", 0, 1e9,
              "per received frame: driver and protocol stack")
        .real("tx_packet_cycles", &DriverParams::tx_packet_cycles, "cycles", 0, 1e9,
              "per sent frame carrying data: protocol stack and driver down to the ring, and "
              "its reclaim")
        .real("ack_cycles", &DriverParams::ack_cycles, "cycles", 0, 1e9,
              "per pure TCP ACK sent (no payload)")
        .real("refill_cycles", &DriverParams::refill_cycles, "cycles", 0, 1e9,
              "per receive buffer given back to the NIC")
        .real("request_cycles", &DriverParams::request_cycles, "cycles", 0, 1e9,
              "an application send or receive call: system call, socket, bookkeeping")
        .real("checksum_byte_cycles", &DriverParams::checksum_byte_cycles, "cycles", 0, 1e6,
              "software TCP/UDP checksum per frame byte when the NIC does not offload it")
        .integer("udp_receive_buffer_bytes", &DriverParams::udp_receive_buffer_bytes, "bytes", 0,
                 1 << 30,
                 "the OS's default UDP socket receive buffer (Linux net.core.rmem_default: 65535 "
                 "on 2.4); a UDP end on this host drops a whole datagram that would fill it to "
                 "its size or beyond with those waiting for the application's receive calls, as "
                 "Linux's sock_queue_rcv_skb does (udp_receive_buffer_drops); 0: no limit")
        .integer("udp_truesize_bytes", &DriverParams::udp_truesize_bytes, "bytes", 0, 1 << 20,
                 "what each received fragment takes of that buffer (Linux skb->truesize: the "
                 "driver's receive buffer plus its sk_buff); 0: the fragment's IP bytes")
        .integer("tick_us", &DriverParams::tick_us, "us", 1, 1'000'000,
                 "the OS timer tick, at the instants k x tick of the run: a thread sleeping to "
                 "the next tick wakes there (10,000: Linux 2.4's HZ 100; 4,000: HZ 250)");
    return t;
  }();
  return table;
}

CpuParams with_copy_cost(CpuParams cpu) {
  cpu.per_byte_ns = cpu.copy_ns_per_byte();
  return cpu;
}

CpuParams with_driver(const CpuParams& cpu, const DriverParams& driver) {
  CpuParams out = cpu;
  if (cpu.clock_mhz <= 0) return out;
  const double ns_per_cycle = 1000.0 / cpu.clock_mhz;
  out.interrupt_ns += driver.interrupt_cycles * ns_per_cycle;
  out.per_packet_ns += driver.rx_packet_cycles * ns_per_cycle;
  out.per_sent_packet_ns += driver.tx_packet_cycles * ns_per_cycle;
  out.per_sent_ack_ns += driver.ack_cycles * ns_per_cycle;
  out.per_refill_ns += driver.refill_cycles * ns_per_cycle;
  out.per_request_ns += driver.request_cycles * ns_per_cycle;
  out.per_checksum_byte_ns += driver.checksum_byte_cycles * ns_per_cycle;
  return out;
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
