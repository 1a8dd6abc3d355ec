#include "sim/run/analytic_scalars.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "analysis/half_duplex.hpp"
#include "analysis/pci_cycles.hpp"
#include "analysis/pcie_cycles.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {
namespace {

const Scalar* find(const std::vector<Scalar>& scalars, const std::string& component,
                   const std::string& name) {
  for (const auto& s : scalars)
    if (s.component == component && s.name == name) return &s;
  return nullptr;
}

SingleSenderSetup setup_for(const ScenarioConfig& config, const StationConfig& station,
                            std::int64_t bytes) {
  const MacParams& mac = station.mac;
  SingleSenderSetup setup;
  setup.rate_mbps = config.run.rate_mbps;
  setup.frame_bytes = bytes;
  setup.half_duplex = mac.duplex == Duplex::half;
  setup.slot_time_bits = mac.slot_time_bits;
  setup.carrier_extension = mac.carrier_extension;
  setup.frame_bursting = mac.frame_bursting;
  setup.burst_limit_bits = mac.burst_limit_bits;
  setup.ifg_bits = mac.ifg_bits;
  return setup;
}

struct Sender {
  const StationConfig* station;
  const TrafficParams* source;
};

// The host's NIC path as the closed form sees it, without a direction or a frame size.
NicPathShape nic_path_shape(const HostConfig& h) {
  NicPathShape base;
  base.pcix = h.pci.mode == PciMode::pcix;
  base.width_bytes = std::min(h.pci.width_bits, h.nic_master.width_bits) / 8;
  base.dual_address = h.nic_master.dual_address_cycle;
  base.bridge_devsel_clocks = devsel_clocks(h.bridge.devsel);
  base.bridge_read_latency_clocks = h.bridge.read_latency_clocks;
  base.bridge_write_latency_clocks = h.bridge.write_latency_clocks;
  base.bridge_wait_clocks = h.bridge.subsequent_wait_clocks;
  base.cache_line_bytes = h.bridge.cache_line_bytes;
  base.prefetch_bytes = h.bridge.prefetch_bytes;
  base.split_read_bytes = h.bridge.split_read_bytes;
  base.mmrbc_bytes = h.nic_master.mmrbc_bytes;
  base.max_outstanding_splits = h.nic_master.max_outstanding_splits;
  base.read_multiple = h.nic.read_command == PciCommand::memory_read_multiple;
  base.register_read_latency_clocks = h.nic.register_read_latency_clocks;
  base.strip_crc = h.nic.strip_crc;
  base.burst_bytes = h.nic.max_burst_bytes;
  base.buffer_bytes = h.nic.buffer_bytes;
  base.descriptor_bytes = h.nic.descriptor_bytes;
  base.fetch_batch = h.nic.prefetch_batch;
  base.descriptor_cache = h.nic.descriptor_cache;
  base.prefetch_threshold = h.nic.prefetch_threshold;
  base.writeback_group = h.nic.writeback_threshold;
  base.read_icr = h.cpu.read_icr;
  return base;
}

// One direction of the path, if it carries one fixed frame size (the bulk sender's, or the
// saturated sources' to the NIC's station), with the frames per interrupt the run saw.
std::optional<NicPathShape> direction_shape(const ScenarioConfig& config, const HostConfig& h,
                                            NicPathShape s, bool transmit,
                                            const std::vector<Scalar>& simulated) {
  s.transmit = transmit;
  std::int64_t bytes = 0;
  if (transmit) {
    if (h.tx.to.empty()) return std::nullopt;
    bytes = h.tx.frame_bytes;
    const Scalar* done = find(simulated, h.name + ".nic", "tx_frames_done");
    const Scalar* irqs = find(simulated, h.name + ".nic", "interrupts");
    if (done && irqs && irqs->value > 0) s.frames_per_interrupt = done->value / irqs->value;
  } else {
    for (const auto& st : config.stations)
      for (const auto& t : st.traffic)
        if (t.enabled && t.to == h.nic.station && t.pattern == TrafficPattern::saturated &&
            t.frame_bytes.kind == FrameSizeSpec::Kind::fixed)
          bytes = t.frame_bytes.fixed_bytes;
    if (const Scalar* f = find(simulated, h.name + ".driver", "frames_per_interrupt"))
      if (f->value > 0) s.frames_per_interrupt = f->value;
  }
  if (bytes == 0) return std::nullopt;
  s.frame_bytes = bytes;
  return s;
}

// The frames per second the bus allows one direction, and the bus's busy share (PCIe: its
// busier direction's) at one frame per second plus what it is busy with at any frame rate (PCIe:
// SKPs and DLLPs); the per-frame rows of the closed form go to `out` under `a`, prefixed `dir`.
struct BusCeiling {
  double fps = 0;
  double busy_share = 0;
  double idle_floor = 0;
};

BusCeiling pcie_ceiling(const HostConfig& h, const NicPathShape& s, const std::string& a,
                        const std::string& dir, std::vector<Scalar>& out) {
  PcieLinkShape link;
  link.lanes = h.pci.lanes;
  link.max_payload_bytes = h.pci.max_payload_bytes;
  link.max_read_request_bytes = h.pci.max_read_request_bytes;
  link.completion_bytes = std::min(h.bridge.completion_bytes, h.pci.max_payload_bytes);
  link.four_dw_header = h.nic_master.dual_address_cycle;
  link.ecrc = h.pci.ecrc;
  link.ack_interval_symbols = pcie_ack_interval_symbols(h.pci);
  link.skp_interval_symbols = h.pci.skp_interval_symbols;
  const PcieNicPathBytes b = pcie_nic_bytes_per_frame(link, s);
  const double rate = 250e6 * static_cast<double>(h.pci.lanes);  // bytes/s per direction
  const double up_share = pcie_usable_share(link, b.down > 0, b.down_posted, b.down_nonposted);
  const double down_share = pcie_usable_share(link, b.up > 0, b.up_posted, b.up_nonposted);
  const double up_fps = rate * up_share / b.up;
  const double down_fps = rate * down_share / b.down;
  const bool up_busier = up_fps <= down_fps;
  out.push_back({a, dir + "link_up_bytes_per_frame", "bytes", b.up, false});
  out.push_back({a, dir + "link_down_bytes_per_frame", "bytes", b.down, false});
  out.push_back({a, dir + "link_data_bytes_per_frame", "bytes", b.data, false});
  out.push_back({a, dir + "link_up_usable_share", "fraction", up_share, false});
  out.push_back({a, dir + "link_down_usable_share", "fraction", down_share, false});
  return {std::min(up_fps, down_fps), (up_busier ? b.up : b.down) / rate,
          1.0 - (up_busier ? up_share : down_share)};
}

BusCeiling pci_ceiling(const HostConfig& h, const NicPathShape& s, const std::string& a,
                       const std::string& dir, std::vector<Scalar>& out) {
  const NicPathClocks c = nic_clocks_per_frame(s);
  const double clock_hz = 1e12 / static_cast<double>(pci_clock_period_ps(h.pci.clock_mhz));
  out.push_back({a, dir + "data_clocks_per_frame", "clocks", c.data, false});
  out.push_back({a, dir + "descriptor_fetch_clocks_per_frame", "clocks", c.fetch, false});
  out.push_back({a, dir + "writeback_clocks_per_frame", "clocks", c.writeback, false});
  out.push_back({a, dir + "register_clocks_per_frame", "clocks", c.registers, false});
  out.push_back({a, dir + "split_wait_clocks_per_frame", "clocks", c.wait, false});
  out.push_back({a, dir + "bus_clocks_per_frame", "clocks", c.total(), false});
  return {clock_hz / c.total(), c.busy() / clock_hz, 0.0};
}

// The bottleneck the simulation shows, first match: the CPU (the ring ran dry, or the CPU is
// saturated), the FIFO (below the wire rate with the bus under 95 % busy: receive overflowed;
// transmit cannot read the next frame while one is sent), the bus (busy >= 95 % below the wire
// rate), the wire (>= 98 % of its ceiling); else none.
std::string bottleneck_of(const HostConfig& h, bool transmit, double got, double wire_fps,
                          double bits, const std::vector<Scalar>& simulated) {
  auto value = [&](const std::string& component, const std::string& name) {
    const Scalar* x = find(simulated, component, name);
    return x ? x->value : 0.0;
  };
  const std::string nic = h.name + ".nic";
  const double bus_busy = value(h.name + ".pci", "utilisation");
  if (value(nic, "rx_no_descriptor") > 0 || value(h.name + ".driver", "cpu_utilisation") >= 0.95)
    return "cpu";
  if (bus_busy < 0.95 && got < 0.98 * wire_fps * bits &&
      (transmit || value(nic, "rx_fifo_overflow") > 0))
    return "fifo";  // receive: it overflowed; transmit: it holds too little to overlap
  if (bus_busy >= 0.95 && got < 0.98 * wire_fps * bits) return "bus";
  if (got >= 0.98 * wire_fps * bits) return "wire";
  return "none";
}

}  // namespace

std::vector<Scalar> nic_analytic_scalars(const ScenarioConfig& config,
                                         const std::vector<Scalar>& simulated) {
  std::vector<Scalar> out;
  for (const auto& h : config.hosts) {
    if (!h.has_nic) continue;
    const NicPathShape base = nic_path_shape(h);
    for (const bool transmit : {false, true}) {
      const auto shape = direction_shape(config, h, base, transmit, simulated);
      if (!shape) continue;
      const NicPathShape& s = *shape;
      const double bits = 8.0 * static_cast<double>(s.frame_bytes);
      const double wire_fps = 1e6 * static_cast<double>(config.run.rate_mbps) /
                              (8.0 * static_cast<double>(s.frame_bytes + 20));
      const std::string a = "analysis." + h.name;
      const std::string dir = transmit ? "tx_" : "rx_";
      const BusCeiling bus = h.pci.mode == PciMode::pcie ? pcie_ceiling(h, s, a, dir, out)
                                                         : pci_ceiling(h, s, a, dir, out);
      const double fps = std::min(bus.fps, wire_fps);
      out.push_back({a, dir + "bus_ceiling_throughput", "bit/s", bus.fps * bits, false});
      out.push_back({a, dir + "wire_ceiling_throughput", "bit/s", wire_fps * bits, false});
      out.push_back({a, dir + "predicted_throughput", "bit/s", fps * bits, false});
      out.push_back({a, dir + "bus_bound", "bool", bus.fps < wire_fps ? 1.0 : 0.0, true});
      out.push_back({a, dir + "predicted_bus_utilisation", "fraction",
                     std::min(1.0, fps * bus.busy_share + bus.idle_floor), false});
      const Scalar* sim = find(simulated, h.name + ".driver",
                               transmit ? "sent_throughput" : "delivered_throughput");
      if (sim)
        out.push_back({a, dir + "throughput_difference", "bit/s", sim->value - fps * bits, false});
      const std::string bottleneck =
          bottleneck_of(h, transmit, sim ? sim->value : 0.0, wire_fps, bits, simulated);
      for (const char* b : {"wire", "bus", "fifo", "cpu"})
        out.push_back({a, dir + "bottleneck_" + b, "bool", bottleneck == b ? 1.0 : 0.0, true});
    }
  }
  return out;
}

std::vector<Scalar> network_totals(const std::vector<Scalar>& simulated) {
  double tx = 0;
  double payload = 0;
  double delivered = 0;
  for (const auto& s : simulated) {
    const bool mac = s.component.size() > 4 && s.component.rfind(".mac") == s.component.size() - 4;
    const bool sink =
        s.component.size() > 5 && s.component.rfind(".sink") == s.component.size() - 5;
    if (mac && s.name == "tx_throughput") tx += s.value;
    if (mac && s.name == "tx_payload_throughput") payload += s.value;
    const bool driver =
        s.component.size() > 7 && s.component.rfind(".driver") == s.component.size() - 7;
    if (sink && s.name == "throughput") delivered += s.value;
    if (driver && s.name == "delivered_throughput") delivered += s.value;  // a NIC's host
  }
  return {{"network", "tx_throughput", "bit/s", tx, false},
          {"network", "tx_payload_throughput", "bit/s", payload, false},
          {"network", "delivered_throughput", "bit/s", delivered, false}};
}

std::vector<Scalar> analytic_scalars(const ScenarioConfig& config,
                                     const std::vector<Scalar>& simulated) {
  std::vector<Scalar> out;
  std::vector<Sender> senders;
  bool all_saturated_fixed = true;
  for (const auto& s : config.stations) {
    for (const auto& t : s.traffic) {
      if (!t.enabled) continue;
      senders.push_back({&s, &t});
      if (t.pattern != TrafficPattern::saturated ||
          t.frame_bytes.kind != FrameSizeSpec::Kind::fixed || t.count != 0 || t.start_ns != 0 ||
          t.stop_ns >= 0)
        all_saturated_fixed = false;
    }
  }
  if (senders.empty() || !all_saturated_fixed) return out;
  const std::int64_t bytes = senders.front().source->frame_bytes.fixed_bytes;

  if (senders.size() == 1) {
    const SingleSenderSetup setup = setup_for(config, *senders.front().station, bytes);
    const SingleSenderTimeline t = single_sender_timeline(setup);
    const double efficiency = t.efficiency(bytes);
    const double period_s =
        static_cast<double>(t.period_bits) / (1e6 * static_cast<double>(config.run.rate_mbps));
    out.push_back({"analysis", "single_sender_efficiency", "fraction", efficiency, false});
    out.push_back({"analysis", "single_sender_frame_rate", "frames/s",
                   static_cast<double>(t.frames_per_period()) / period_s, false});
    if (setup.half_duplex && setup.frame_bursting)
      out.push_back({"analysis", "single_sender_frames_per_burst", "frames",
                     static_cast<double>(t.frames_per_period()), true});
    const std::string mac_name = senders.front().station->name + ".mac";
    if (const Scalar* sim = find(simulated, mac_name, "tx_efficiency"))
      out.push_back(
          {"analysis", "efficiency_difference", "fraction", sim->value - efficiency, false});
    return out;
  }

  // Contention: every sender on the same collision domain, one frame size.
  for (std::size_t d = 0; d < config.domains.size(); ++d) {
    const auto& members = config.domains[d].stations;
    const bool inside = std::all_of(senders.begin(), senders.end(), [&](const Sender& s) {
      return std::find(members.begin(), members.end(), s.station->name) != members.end() &&
             s.source->frame_bytes.fixed_bytes == bytes;
    });
    if (!inside) continue;
    const SingleSenderTimeline t =
        single_sender_timeline(setup_for(config, *senders.front().station, bytes));
    const double mb = metcalfe_boggs_efficiency(
        static_cast<std::int64_t>(senders.size()),
        static_cast<double>(t.frames_per_period()) * 8.0 * static_cast<double>(bytes),
        static_cast<double>(t.period_bits),
        static_cast<double>(senders.front().station->mac.slot_time_bits));
    out.push_back({"analysis", "metcalfe_boggs_efficiency", "fraction", mb, false});
    if (const Scalar* sim = find(simulated, "domain" + std::to_string(d), "efficiency"))
      out.push_back({"analysis", "metcalfe_boggs_difference", "fraction", sim->value - mb, false});
  }
  return out;
}

namespace {

// The rows of network_totals and of the half-duplex closed forms (analysis).
std::vector<DerivedStatistic> network_and_analysis_rows() {
  return {
      {"network", "tx_throughput", "bit/s", "DA..FCS bits sent OK per second, every station"},
      {"network", "tx_payload_throughput", "bit/s",
       "payload bits sent OK per second, every station"},
      {"network", "delivered_throughput", "bit/s",
       "DA..FCS bits delivered to the applications per second (sinks and NIC drivers)"},
      {"network", "segment_violations", "cables",
       "cables longer than their PHY's segment limit (links, collision domains, topology)"},
      {"analysis", "single_sender_efficiency", "fraction",
       "one saturated sender: the closed-form timeline's efficiency (analysis/half_duplex)"},
      {"analysis", "single_sender_frame_rate", "frames/s",
       "one saturated sender: the closed-form frame rate"},
      {"analysis", "single_sender_frames_per_burst", "frames",
       "one saturated half-duplex sender with bursting: frames per burst"},
      {"analysis", "efficiency_difference", "fraction",
       "the sender's simulated tx_efficiency minus single_sender_efficiency"},
      {"analysis", "metcalfe_boggs_efficiency", "fraction",
       "saturated senders on one domain: the Metcalfe-Boggs efficiency (slotted, p-persistent)"},
      {"analysis", "metcalfe_boggs_difference", "fraction",
       "the domain's simulated efficiency minus metcalfe_boggs_efficiency"},
  };
}

// The rows of nic_analytic_scalars, per direction of a host's NIC path.
std::vector<DerivedStatistic> nic_path_rows() {
  std::vector<DerivedStatistic> out;
  for (const char* dir : {"rx", "tx"}) {
    const std::string p = std::string(dir) + "_";
    const std::string way = std::string(dir) == "rx" ? "receive" : "transmit";
    const std::vector<DerivedStatistic> rows = {
        {"", "data_clocks_per_frame", "clocks", "data transfer, bus clocks per frame"},
        {"", "descriptor_fetch_clocks_per_frame", "clocks", "descriptor fetches per frame"},
        {"", "writeback_clocks_per_frame", "clocks", "status write-backs per frame"},
        {"", "register_clocks_per_frame", "clocks", "register accesses per frame"},
        {"", "split_wait_clocks_per_frame", "clocks", "PCI-X split-completion waits per frame"},
        {"", "bus_clocks_per_frame", "clocks", "every bus clock a frame costs"},
        {"", "link_up_bytes_per_frame", "bytes",
         "PCI Express: bytes on the upstream direction per frame (analysis/pcie_cycles)"},
        {"", "link_down_bytes_per_frame", "bytes",
         "PCI Express: bytes on the downstream direction per frame"},
        {"", "link_data_bytes_per_frame", "bytes", "PCI Express: of which the frame's data"},
        {"", "link_up_usable_share", "fraction",
         "PCI Express: upstream share left after SKPs and the DLLPs answering downstream"},
        {"", "link_down_usable_share", "fraction",
         "PCI Express: downstream share left after SKPs and the DLLPs answering upstream"},
        {"", "bus_ceiling_throughput", "bit/s", "the bus's ceiling, DA..FCS bits per second"},
        {"", "wire_ceiling_throughput", "bit/s", "the wire's ceiling, DA..FCS bits per second"},
        {"", "predicted_throughput", "bit/s", "the smaller ceiling"},
        {"", "bus_bound", "bool", "1 when the bus ceiling is below the wire's"},
        {"", "predicted_bus_utilisation", "fraction", "the bus's busy share at the prediction"},
        {"", "throughput_difference", "bit/s", "simulated minus predicted throughput"},
        {"", "bottleneck_wire", "bool", "the simulation runs at >= 98 % of the wire ceiling"},
        {"", "bottleneck_bus", "bool", "the bus is >= 95 % busy below the wire ceiling"},
        {"", "bottleneck_fifo", "bool", "the FIFO overflowed (rx) or cannot overlap (tx)"},
        {"", "bottleneck_cpu", "bool", "the ring ran dry or the CPU is >= 95 % busy"},
    };
    for (const auto& r : rows)
      out.push_back({"analysis.<host>", p + r.name, r.unit,
                     way + " path (analysis/pci_cycles): " + r.description});
  }
  return out;
}

// The 1000BASE-T link predictions and the topology's per-domain rows.
std::vector<DerivedStatistic> link_and_topology_rows() {
  return {
      {"analysis.link<i>", "phy_snr_db", "dB", "the 1000BASE-T link model's SNR at the slicer"},
      {"analysis.link<i>", "phy_margin_db", "dB", "SNR margin over the 10^-10 BER requirement"},
      {"analysis.link<i>", "phy_ber", "errors/bit", "predicted bit-error rate"},
      {"analysis.link<i>", "phy_octet_error_rate", "errors/octet", "predicted octet-error rate"},
      {"analysis.link<i>", "injected_ber", "errors/bit", "the bit-error rate the run injects"},
      {"topology.domain<i>", "worst_pdv", "bit times", "the worst pair's path delay value"},
      {"topology.domain<i>", "budget", "bit times", "the speed's round-trip budget"},
      {"topology.domain<i>", "margin", "bit times", "budget minus worst_pdv"},
      {"topology.domain<i>", "margin_cable", "m", "cable the margin still allows"},
      {"topology.domain<i>", "worst_path_cable", "m", "cable on the worst path"},
      {"topology.domain<i>", "max_legal_path_cable", "m",
       "the longest legal cable on the worst path (worst_path_cable + margin_cable)"},
      {"topology.domain<i>", "pass", "bool",
       "1 when every pair is within the budget and every cable within its segment limit"},
      {"topology.domain<i>", "max_station_cable", "m",
       "the longest legal cable per station (every station cable at that length, the others as "
       "they are): the smaller of the path-delay and segment limits"},
      {"topology.domain<i>", "max_station_cable_pdv", "m",
       "the longest station cable the path delay value alone allows"},
      {"topology.domain<i>", "segment_violations", "cables",
       "cables of the domain longer than their PHY's segment limit"},
      {"topology.domain<i>", "repeater_rule_breaches", "rules",
       "the kinds of repeater-rule breach (count, class, 5-4-3) on the domain's paths"},
  };
}

}  // namespace

std::vector<DerivedStatistic> derived_statistics() {
  std::vector<DerivedStatistic> out = network_and_analysis_rows();
  for (auto part : {nic_path_rows, link_and_topology_rows}) {
    std::vector<DerivedStatistic> rows = part();
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

}  // namespace gbesim
