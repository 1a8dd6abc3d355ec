#include "models/pci/pci_params.hpp"

namespace gbesim {

const ChoiceList<PciMode>& choice_list(PciMode) {
  static const ChoiceList<PciMode> list = {
      {PciMode::pci, "pci", "conventional PCI 2.2 (wait states, Retry, delayed reads)"},
      {PciMode::pcix, "pcix", "PCI-X 1.0 (attribute phase, split transactions)"},
      {PciMode::pcie, "pcie",
       "a PCI Express 1.x link (2.5 GT/s, 8b/10b; width_bits, clock_mhz, arbiter and parking do "
       "not apply)"},
  };
  return list;
}

const ChoiceList<PciArbiter>& choice_list(PciArbiter) {
  static const ChoiceList<PciArbiter> list = {
      {PciArbiter::round_robin, "round_robin", "the masters asking are served in turn"},
      {PciArbiter::fixed_priority, "fixed_priority",
       "the master asking with the lowest priority value is served first"},
  };
  return list;
}

const ChoiceList<PciParking>& choice_list(PciParking) {
  static const ChoiceList<PciParking> list = {
      {PciParking::last, "last",
       "with no request pending GNT# stays with the last master (it starts without arbitration)"},
      {PciParking::none, "none", "with no request pending GNT# is removed"},
  };
  return list;
}

const ChoiceList<Devsel>& choice_list(Devsel) {
  static const ChoiceList<Devsel> list = {
      {Devsel::fast, "fast", "DEVSEL# 1 clock after the address phase (PCI-X decode A)"},
      {Devsel::medium, "medium", "2 clocks (decode B)"},
      {Devsel::slow, "slow", "3 clocks (decode C)"},
  };
  return list;
}

std::int64_t devsel_clocks(Devsel devsel) {
  switch (devsel) {
    case Devsel::fast:
      return 1;
    case Devsel::medium:
      return 2;
    case Devsel::slow:
      return 3;
  }
  return 1;
}

const ChoiceList<PciCommand>& choice_list(PciCommand) {
  static const ChoiceList<PciCommand> list = {
      {PciCommand::memory_read, "memory_read", "Memory Read: to the end of the cache line"},
      {PciCommand::memory_read_line, "memory_read_line",
       "Memory Read Line: to the end of the cache line"},
      {PciCommand::memory_read_multiple, "memory_read_multiple",
       "Memory Read Multiple: the target streams prefetch_bytes"},
      {PciCommand::memory_write, "memory_write", "Memory Write"},
      {PciCommand::memory_write_invalidate, "memory_write_invalidate",
       "Memory Write and Invalidate: whole cache lines"},
  };
  return list;
}

const ParamTable<PciBusParams>& pci_bus_param_table() {
  static const ParamTable<PciBusParams> table = [] {
    ParamTable<PciBusParams> t("pci.bus", "a PCI or PCI-X bus segment: width, clock, arbiter");
    t.choice("mode", &PciBusParams::mode)
        .integer("width_bits", &PciBusParams::width_bits, "bits", 32, 64,
                 "AD bus width: 32 or 64 (REQ64#/ACK64#: 8 bytes per data phase)")
        .one_of({32, 64}, "a PCI bus is 32 or 64 bits wide")
        .integer("clock_mhz", &PciBusParams::clock_mhz, "MHz", 33, 133,
                 "bus clock: 33 or 66 (pci); 66, 100 or 133 (pcix); 33 means 33.33 MHz")
        .choice("arbiter", &PciBusParams::arbiter, "central arbiter policy")
        .choice("parking", &PciBusParams::parking,
                "with no request pending GNT# stays with the last master (it starts without "
                "arbitration), or is removed")
        .integer("lanes", &PciBusParams::lanes, "lanes", 1, 4,
                 "pcie: link width, x1 or x4 (250 MB/s per lane and direction)")
        .one_of({1, 4}, "a PCI Express 1.x link here is x1 or x4")
        .integer("max_payload_bytes", &PciBusParams::max_payload_bytes, "bytes", 128, 256,
                 "pcie: Max_Payload_Size: a write TLP or a completion carries at most this much")
        .one_of({128, 256}, "Max_Payload_Size is 128 or 256 bytes here (the Ack limits known)")
        .integer("max_read_request_bytes", &PciBusParams::max_read_request_bytes, "bytes", 128,
                 4096, "pcie: Max_Read_Request_Size: a read request asks for at most this much")
        .power_of_two("Max_Read_Request_Size is a power of two from 128 to 4096")
        .integer("ack_interval_symbols", &PciBusParams::ack_interval_symbols, "symbols", 0, 8192,
                 "pcie: a receiver sends its Ack DLLP (and UpdateFC for the credits used) this "
                 "many symbol times after the first TLP it has not acknowledged; 0 = the base "
                 "specification's Ack latency limit for this payload size and width")
        .integer("skp_interval_symbols", &PciBusParams::skp_interval_symbols, "symbols", 0, 100000,
                 "pcie: every transmitter sends a SKP ordered set (4 symbol times) this often, "
                 "at the next packet boundary (the specification allows 1180 to 1538); 0 = none")
        .integer("link_latency_ns", &PciBusParams::link_latency_ns, "ns", 0, 100000,
                 "pcie: delay from a packet's last symbol leaving to its arrival in the other "
                 "end's transaction layer, beyond the symbols themselves")
        .integer("posted_header_credits", &PciBusParams::posted_header_credits, "credits", 1, 127,
                 "pcie: posted-request header credits each receiver advertises")
        .integer("posted_data_credits", &PciBusParams::posted_data_credits, "credits", 1, 2047,
                 "pcie: posted-request data credits (16 bytes each) each receiver advertises")
        .integer("nonposted_header_credits", &PciBusParams::nonposted_header_credits, "credits", 1,
                 127, "pcie: non-posted (read) request header credits each receiver advertises")
        .boolean("ecrc", &PciBusParams::ecrc, "pcie: every TLP carries a 4-byte end-to-end CRC");
    return t;
  }();
  return table;
}

std::int64_t pcie_ack_limit_symbols(std::int64_t max_payload_bytes, std::int64_t lanes) {
  // Base specification, Ack transmission latency limit at 2.5 GT/s (docs/references.md
  // Standards F).
  if (max_payload_bytes == 128) return lanes == 1 ? 237 : lanes == 4 ? 73 : 0;
  if (max_payload_bytes == 256) return lanes == 1 ? 416 : lanes == 4 ? 118 : 0;
  return 0;
}

std::int64_t pcie_ack_interval_symbols(const PciBusParams& p) {
  return p.ack_interval_symbols > 0 ? p.ack_interval_symbols
                                    : pcie_ack_limit_symbols(p.max_payload_bytes, p.lanes);
}

Picoseconds pci_clock_period_ps(std::int64_t clock_mhz) {
  switch (clock_mhz) {
    case 33:
      return 30'000;
    case 66:
      return 15'000;
    case 100:
      return 10'000;
    case 120:  // an on-card segment (e1000: the PRO/1000 MT Quad's); 120.005 MHz, to the ps
      return 8'333;
    case 133:
      return 7'500;
    default:
      return 0;
  }
}

const ParamTable<PciTargetParams>& pci_target_param_table() {
  static const ParamTable<PciTargetParams> table = [] {
    ParamTable<PciTargetParams> t("pci.target", "a bus target: the host bridge, a device");
    t.choice("devsel", &PciTargetParams::devsel,
             "DEVSEL# timing: 1, 2 or 3 clocks after the address phase (PCI-X decode A, B, C)")
        .integer("read_latency_clocks", &PciTargetParams::read_latency_clocks, "clocks", 1, 1000,
                 "target initial latency of a read, FRAME# to the first TRDY# (at least 2 and "
                 "the DEVSEL# clock); above 16 on conventional PCI the target retries and "
                 "completes the read as a delayed transaction")
        .integer("read_latency_ns", &PciTargetParams::read_latency_ns, "ns", 0, 100'000,
                 "the read latency in ns instead of clocks, so that it stays the same when the "
                 "bus clock is swept: read_latency_clocks becomes ns / clock period, rounded up "
                 "(what it was given is then ignored); 0 = read_latency_clocks applies")
        .integer("write_latency_clocks", &PciTargetParams::write_latency_clocks, "clocks", 1, 16,
                 "target initial latency of a write (at least the DEVSEL# clock)")
        .integer("subsequent_wait_clocks", &PciTargetParams::subsequent_wait_clocks, "clocks", 0, 7,
                 "wait states before each data phase after the first (conventional PCI)")
        .integer("cache_line_bytes", &PciTargetParams::cache_line_bytes, "bytes", 8, 256,
                 "cache line: Memory Read and Memory Read Line are served to its end, Memory "
                 "Write and Invalidate moves whole lines")
        .power_of_two("a cache line is a power of two")
        .integer("prefetch_bytes", &PciTargetParams::prefetch_bytes, "bytes", 8, 1 << 20,
                 "Memory Read Multiple: bytes streamed from the start address (rounded up to a "
                 "cache-line end) before the target disconnects")
        .integer("write_disconnect_bytes", &PciTargetParams::write_disconnect_bytes, "bytes", 0,
                 1 << 20, "writes disconnect at multiples of this address boundary; 0 = never")
        .integer("posted_write_bytes", &PciTargetParams::posted_write_bytes, "bytes", 0, 1 << 20,
                 "posted-write buffer; when it is full the target inserts wait states; 0 = no "
                 "limit")
        .real("memory_write_mbps", &PciTargetParams::memory_write_mbps, "MB/s", 0, 1e6,
              "rate at which posted writes drain to memory (10^6 bytes/s); 0 = instantly")
        .real("memory_read_mbps", &PciTargetParams::memory_read_mbps, "MB/s", 0, 1e6,
              "PCI-X split reads: the rate the bridge's read path (memory, the chipset's link) "
              "delivers at (10^6 bytes/s): after the read latency it delivers each completion's "
              "bytes at this rate, one completion after another, and the completion is ready "
              "when they are in; 0 = no limit")
        .real("memory_mbps", &PciTargetParams::memory_mbps, "MB/s", 0, 1e6,
              "PCI-X: the bridge's memory port, shared: split reads' completions and posted "
              "writes' draining take their bytes from one timeline at this rate (10^6 "
              "bytes/s), each direction also at most its own memory_read_mbps / "
              "memory_write_mbps; needs split_read_bytes and posted_write_bytes; 0 = no shared "
              "limit")
        .integer("split_read_bytes", &PciTargetParams::split_read_bytes, "bytes", 0, 4096,
                 "PCI-X: reads become split transactions, completed in chunks of up to this many "
                 "bytes after read_latency_clocks; 0 = immediate reads")
        .integer("completion_bytes", &PciTargetParams::completion_bytes, "bytes", 64, 4096,
                 "PCI Express: the completer ends each read completion at a multiple of this "
                 "address boundary (its Read Completion Boundary, 64 or 128, or a multiple) and "
                 "at Max_Payload_Size")
        .power_of_two("a completion boundary is a power of two")
        .integer("completion_latency_ns", &PciTargetParams::completion_latency_ns, "ns", 0, 1000000,
                 "PCI Express: from a read request's arrival to its first completion starting "
                 "back (the completer's memory or register access)");
    return t;
  }();
  return table;
}

const ParamTable<PciMasterParams>& pci_master_param_table() {
  static const ParamTable<PciMasterParams> table = [] {
    ParamTable<PciMasterParams> t("pci.master", "a bus master (initiator)");
    t.integer("width_bits", &PciMasterParams::width_bits, "bits", 32, 64,
              "the master's data path: 32 or 64")
        .one_of({32, 64}, "a master is 32 or 64 bits wide")
        .integer("latency_timer_clocks", &PciMasterParams::latency_timer_clocks, "clocks", 0, 248,
                 "master latency timer (multiple of 8): once expired with GNT# removed the burst "
                 "ends with the data phase in progress")
        .multiple_of(8, "the latency timer counts in units of 8 clocks")
        .integer("priority", &PciMasterParams::priority, "", 0, 255,
                 "fixed_priority arbiter: lower is served first")
        .boolean("dual_address_cycle", &PciMasterParams::dual_address_cycle,
                 "64-bit addresses above 4 GB: every transaction has a second address clock")
        .integer("retry_backoff_clocks", &PciMasterParams::retry_backoff_clocks, "clocks", 1, 64,
                 "after a Retry the master requests again this many clocks after the bus is "
                 "released")
        .integer("max_outstanding_splits", &PciMasterParams::max_outstanding_splits, "", 1, 32,
                 "PCI-X: split read requests (sequences) the master keeps in flight, its "
                 "Maximum Outstanding Split Transactions; PCI Express: read requests in flight "
                 "(tags)")
        .integer("mmrbc_bytes", &PciMasterParams::mmrbc_bytes, "bytes", 0, 4096,
                 "PCI-X: the Maximum Memory Read Byte Count its driver writes in the PCI-X "
                 "Command register (512 at reset), the most one read request (sequence) asks "
                 "for; the bridge returns each in split completions of up to its "
                 "split_read_bytes; 0 = a request asks for split_read_bytes")
        .one_of({0, 512, 1024, 2048, 4096},
                "the PCI-X Command register's MMRBC is 512, 1024, "
                "2048 or 4096 bytes (0: the bridge's size)");
    return t;
  }();
  return table;
}

const ParamTable<DmaTrafficParams>& dma_traffic_param_table() {
  static const ParamTable<DmaTrafficParams> table = [] {
    ParamTable<DmaTrafficParams> t("pci.dma", "what a generic DMA master moves over the bus");
    t.reference("target", &DmaTrafficParams::target, "target",
                "the target it reads or writes (\"bridge\")")
        .choice("command", &DmaTrafficParams::command,
                "the bus command of every request (reads: memory -> device)")
        .integer("request_bytes", &DmaTrafficParams::request_bytes, "bytes", 4, 1 << 24,
                 "bytes per request (one or more transactions)")
        .real("rate_mbps", &DmaTrafficParams::rate_mbps, "MB/s", 0, 1e5,
              "requests at this rate (10^6 bytes/s); 0 = back to back")
        .integer("start_ns", &DmaTrafficParams::start_ns, "ns", 0, 1LL << 50, "first request")
        .integer("max_outstanding", &DmaTrafficParams::max_outstanding, "requests", 1, 64,
                 "requests waiting at the bus at most; beyond, the master falls behind");
    return t;
  }();
  return table;
}

const ParamTable<PciBridgeParams>& pci_bridge_param_table() {
  static const ParamTable<PciBridgeParams> table = [] {
    ParamTable<PciBridgeParams> t("pci.card_bridge",
                                  "a PCI-X-to-PCI-X bridge on the card: the NICs on a segment of "
                                  "their own behind it (docs/pci.md)");
    t.integer("clock_mhz", &PciBridgeParams::clock_mhz, "MHz", 66, 133,
              "the card's segment clock, the bridge's secondary side (133: the IBM 133 PCI-X "
              "bridge's most; e1000 reports the PRO/1000 MT Quad's as 120)")
        .one_of({66, 100, 120, 133}, "a PCI-X segment runs at 66, 100, 120 or 133 MHz")
        .integer("width_bits", &PciBridgeParams::width_bits, "bits", 32, 64,
                 "the card's segment width")
        .one_of({32, 64}, "a segment is 32 or 64 bits wide")
        .integer("posted_write_bytes", &PciBridgeParams::posted_write_bytes, "bytes", 128, 1 << 20,
                 "each direction's posted-write buffer: a write is taken while it has room (1024: "
                 "the IBM bridge's 8 x 128 bytes)")
        .integer("read_request_bytes", &PciBridgeParams::read_request_bytes, "bytes", 128, 4096,
                 "a read it forwards is asked for on the far side in pieces of this, each once "
                 "the previous one's data are all in (its Split Transaction Commitment Limit: "
                 "512 below 32 KB, the IBM bridge's reset value; the request's own byte count "
                 "above)")
        .one_of({128, 256, 512, 1024, 2048, 4096},
                "a read piece is 128 to 4096 bytes, a power of 2")
        .integer(
            "read_buffer_bytes", &PciBridgeParams::read_buffer_bytes, "bytes", 128, 65536,
            "each direction's read buffers: read_buffer_bytes / read_request_bytes pieces "
            "in flight at once, from different requests (4096: the IBM bridge's eight 512-byte "
            "buffers)")
        .integer("latency_ns", &PciBridgeParams::latency_ns, "ns", 0, 100'000,
                 "added to each crossing: a forwarded request asks for the far bus this long "
                 "after the near one took it, a completion returns this long after it arrived (60: "
                 "an assumption, no figure is published)");
    return t;
  }();
  return table;
}

}  // namespace gbesim
