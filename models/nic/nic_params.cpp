#include "models/nic/nic_params.hpp"

namespace gbesim {

const ChoiceList<Moderation>& choice_list(Moderation) {
  static const ChoiceList<Moderation> list = {
      {Moderation::itr, "itr", "Intel ITR interval + RDTR/RADV timers"},
      {Moderation::coalesce, "coalesce", "count/time"},
      {Moderation::none, "none", ""},
  };
  return list;
}

const ChoiceList<NicBus>& choice_list(NicBus) {
  static const ChoiceList<NicBus> list = {
      {NicBus::pci, "pci", "a PCI card, also in PCI-X slots"},
      {NicBus::pcie, "pcie", "PCI Express"},
  };
  return list;
}

const ChoiceList<DmaEngines>& choice_list(DmaEngines) {
  static const ChoiceList<DmaEngines> list = {
      {DmaEngines::shared, "shared",
       "one engine: receive and transmit take turns, one request at the bus at a time"},
      {DmaEngines::separate, "separate",
       "a receive and a transmit engine, each with a request at the bus (a write need not wait "
       "for a read's completions)"},
  };
  return list;
}

const ParamTable<NicParams>& nic_param_table() {
  static const ParamTable<NicParams> table = [] {
    ParamTable<NicParams> t("nic", "a NIC between a station's MAC and its host's PCI bus");
    t.reference("station", &NicParams::station, "station", "the station whose MAC it serves")
        .integer("rx_fifo_bytes", &NicParams::rx_fifo_bytes, "bytes", 2048, 1 << 27,
                 "receive FIFO (packet buffer share)")
        .integer("tx_fifo_bytes", &NicParams::tx_fifo_bytes, "bytes", 2048, 1 << 27,
                 "transmit FIFO")
        .integer("rx_ring_descriptors", &NicParams::rx_ring_descriptors, "descriptors", 8, 65536,
                 "receive descriptor ring in host memory")
        .integer("tx_ring_descriptors", &NicParams::tx_ring_descriptors, "descriptors", 8, 65536,
                 "transmit descriptor ring in host memory")
        .integer("descriptor_bytes", &NicParams::descriptor_bytes, "bytes", 8, 64, "one descriptor")
        .integer("buffer_bytes", &NicParams::buffer_bytes, "bytes", 256, 65536,
                 "host receive buffer per descriptor (a frame must fit)")
        .integer("descriptor_cache", &NicParams::descriptor_cache, "descriptors", 1, 4096,
                 "receive descriptors the NIC holds on chip")
        .integer("prefetch_threshold", &NicParams::prefetch_threshold, "descriptors", 0, 4096,
                 "fetch descriptors when the cache holds at most this many")
        .integer("prefetch_batch", &NicParams::prefetch_batch, "descriptors", 1, 4096,
                 "descriptors per fetch, at most")
        .integer("writeback_threshold", &NicParams::writeback_threshold, "descriptors", 1, 256,
                 "write completed descriptors back in groups of this many (1: after each frame)")
        .integer("max_burst_bytes", &NicParams::max_burst_bytes, "bytes", 4, 65536,
                 "bytes per data DMA request")
        .integer("tx_max_burst_bytes", &NicParams::tx_max_burst_bytes, "bytes", 0, 65536,
                 "bytes per data DMA read of a frame to send, where the chip sets it apart from "
                 "receive (the DP8382x's TXCFG and RXCFG MXDMA); 0: max_burst_bytes")
        .integer("rx_early_bytes", &NicParams::rx_early_bytes, "bytes", 0, 1 << 20,
                 "receive early threshold: DMA of a frame starts once this many of its bytes "
                 "have arrived, bursts follow the bytes in (full-duplex links only); a frame the "
                 "MAC then rejects is discarded with its buffers reused (rx_early_discarded); "
                 "0 = whole frames only")
        .integer("tx_start_bytes", &NicParams::tx_start_bytes, "bytes", 0, 1 << 20,
                 "transmit start threshold: the MAC may start a frame once this many of its "
                 "bytes are in the FIFO; if the bus then falls behind the wire the frame "
                 "underruns and goes out with a bad FCS (tx_underruns); 0 = store and forward")
        .choice("read_command", &NicParams::read_command,
                "bus command for descriptor and data reads")
        .choice("write_command", &NicParams::write_command, "bus command for data writes")
        .boolean("strip_crc", &NicParams::strip_crc, "do not write the FCS to host memory")
        .boolean("checksum_offload", &NicParams::checksum_offload,
                 "the NIC computes (transmit) and checks (receive) TCP/UDP checksums, so the "
                 "host's per_checksum_byte_ns is not spent")
        .choice("moderation", &NicParams::moderation)
        .integer("itr_256ns", &NicParams::itr_256ns, "256 ns", 0, 65535,
                 "itr: minimum interval between interrupts (interrupts/s <= 1e9 / (ITR x 256))")
        .integer("rdtr_1024ns", &NicParams::rdtr_1024ns, "1.024 us", 0, 65535,
                 "itr: receive delay timer, restarted by every frame (0 = none)")
        .integer("radv_1024ns", &NicParams::radv_1024ns, "1.024 us", 0, 65535,
                 "itr: receive absolute delay from the first frame (0 = none)")
        .integer("tidv_1024ns", &NicParams::tidv_1024ns, "1.024 us", 0, 65535,
                 "itr: transmit delay timer, restarted by every completion (0 = none)")
        .integer("tadv_1024ns", &NicParams::tadv_1024ns, "1.024 us", 0, 65535,
                 "itr: transmit absolute delay from the first completion (0 = none)")
        .integer("coalesce_frames", &NicParams::coalesce_frames, "frames", 1, 4096,
                 "coalesce: interrupt once this many frames are waiting")
        .integer("coalesce_us", &NicParams::coalesce_us, "us", 0, 1'000'000,
                 "coalesce: or this long after the first (0 = no timer)")
        .integer("register_read_latency_clocks", &NicParams::register_read_latency_clocks, "clocks",
                 2, 16,
                 "the NIC's registers as a bus target: read latency (PCI Express: in clocks of "
                 "an assumed 125 MHz core)")
        .choice("dma_engines", &NicParams::dma_engines,
                "how the NIC's receive and transmit DMA share its bus master: one engine taking "
                "turns, or an engine each")
        .integer("chip_ports", &NicParams::chip_ports, "ports", 1, 4,
                 "ports of one multi-port chip (its PCI functions): the host's NICs (its nic, "
                 "then its team's stations in order) are taken this many to a chip, and a chip's "
                 "ports share its one bus interface: one REQ# / GNT# pair, granted to the chip "
                 "and passed between its ports in turn")
        .choice("bus", &NicParams::bus,
                "the NIC's bus family: pci (a PCI card, also in PCI-X slots) or pcie (PCI "
                "Express); the host's pci.mode must match")
        .integer("pcie_lanes", &NicParams::pcie_lanes, "lanes", 1, 4,
                 "PCI Express: the widest link the NIC trains to; the link runs at the narrower "
                 "of it and the host's pci.lanes")
        .one_of({1, 4}, "a PCI Express NIC here is x1 or x4")
        .integer("pcie_max_payload_bytes", &NicParams::pcie_max_payload_bytes, "bytes", 128, 256,
                 "PCI Express: the largest Max_Payload_Size the NIC supports; the link uses the "
                 "smaller of it and the host's pci.max_payload_bytes")
        .one_of({128, 256}, "Max_Payload_Size is 128 or 256 bytes here")
        .integer("pcie_max_read_request_bytes", &NicParams::pcie_max_read_request_bytes, "bytes", 0,
                 4096,
                 "PCI Express: the Max_Read_Request_Size the NIC's driver programs (0 = leave "
                 "the host's pci.max_read_request_bytes)");
    return t;
  }();
  return table;
}

}  // namespace gbesim
