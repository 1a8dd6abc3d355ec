#include "sim/run/summary.hpp"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <string>
#include <unordered_map>

#include "analysis/host_limit.hpp"
#include "scenarios/network.hpp"
#include "sim/support/progress.hpp"

namespace gbesim {
namespace {

// The scalars by component and name, looked up a few times per station when the summary is
// printed (a scan of all of them per lookup made a 1,024-station summary quadratic). A statistic
// a component does not have (a NIC, not a sink, receives) reads as NaN, printed "-".
class ScalarIndex {
 public:
  explicit ScalarIndex(const std::vector<Scalar>& scalars) {
    by_key_.reserve(scalars.size());
    for (const auto& s : scalars) by_key_.emplace(key(s.component, s.name), &s);  // first wins
  }
  const Scalar* find(const std::string& component, const std::string& name) const {
    const auto it = by_key_.find(key(component, name));
    return it != by_key_.end() ? it->second : nullptr;
  }
  double operator()(const std::string& component, const std::string& name,
                    double missing = std::numeric_limits<double>::quiet_NaN()) const {
    const Scalar* s = find(component, name);
    return s != nullptr ? s->value : missing;
  }

 private:
  static std::string key(const std::string& component, const std::string& name) {
    std::string k;
    k.reserve(component.size() + 1 + name.size());
    k.append(component).push_back('\0');
    k.append(name);
    return k;
  }
  std::unordered_map<std::string, const Scalar*> by_key_;
};

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// The run's line: what it has, how long it simulated and how fast, and the warm-up.
void print_run_line(const LoadedScenario& scenario, const Network& network,
                    const Outcome& outcome) {
  const auto& run = scenario.config.run;
  const double rtf =
      outcome.wall_seconds > 0 ? ps_to_seconds(outcome.simulated_ps) / outcome.wall_seconds : 0;
  std::string wiring = plural(network.links().size(), "full-duplex link");
  if (!network.switches().empty())
    wiring += fmt::format(", {} switch{}", network.switches().size(),
                          network.switches().size() == 1 ? "" : "es");
  if (!network.media().empty())
    wiring += ", " + plural(network.media().size(), "half-duplex collision domain");
  if (!network.hosts().empty()) wiring += ", " + plural(network.hosts().size(), "host");
  if (!network.light_hosts().empty())
    wiring += ", " + plural(network.light_hosts().size(), "light host");
  fmt::print("{}: {}, {} at {} Mb/s; {} simulated in {:.3f} s wall ({:.3g}x real time){}\n",
             run.name, plural(network.stations().size(), "station"), wiring, run.rate_mbps,
             format_duration_ps(outcome.simulated_ps), outcome.wall_seconds, rtf,
             outcome.interrupted ? " -- INTERRUPTED" : "");
  if (outcome.statistics_from_ps > 0)
    fmt::print("  statistics after a {} warm-up: the last {}\n",
               format_duration_ps(outcome.statistics_from_ps),
               format_duration_ps(outcome.simulated_ps - outcome.statistics_from_ps));
}

void print_stations(const Network& network, const ScalarIndex& value) {
  if (network.stations().empty()) return;
  fmt::print("  {:<10} {:>12} {:>10} {:>12} {:>10} {:>14} {:>14} {:>8}\n", "station", "tx frames",
             "tx Mb/s", "rx frames", "rx Mb/s", "latency mean", "latency p99", "drops");
  for (const auto& station : network.stations()) {
    const std::string mac = std::string(station->name()) + ".mac";
    const std::string sink = std::string(station->name()) + ".sink";
    const double drops = value(mac, "tx_queue_drops", 0) + value(sink, "rx_queue_overflow", 0) +
                         value(mac, "frame_check_sequence_errors", 0);
    fmt::print(
        "  {:<10} {:>12.0f} {:>10.2f} {:>12.0f} {:>10.2f} {:>11.3f} us {:>11.3f} us {:>8.0f}\n",
        station->basename(), Shown{value(mac, "frames_transmitted_ok")},
        Shown{value(mac, "tx_throughput") / 1e6}, Shown{value(mac, "frames_received_ok")},
        Shown{value(mac, "rx_throughput") / 1e6}, Shown{value(sink, "latency_mean") / 1e3},
        Shown{value(sink, "latency_p99") / 1e3}, Shown{drops});
  }
}

void print_media(const Network& network, const ScalarIndex& value) {
  for (const auto& medium : network.media()) {
    const std::string m = medium->basename();
    fmt::print(
        "  {}: efficiency {:.4f}; time on frames {:.1f} %, preambles {:.1f} %, extension {:.1f} %, "
        "collisions {:.1f} %, idle {:.1f} %; {:.0f} bursts\n",
        m, Shown{value(m, "efficiency")}, Shown{100 * value(m, "frame_share")},
        Shown{100 * value(m, "preamble_share")}, Shown{100 * value(m, "extension_share")},
        Shown{100 * value(m, "collision_share")}, Shown{100 * value(m, "idle_share")},
        Shown{value(m, "bursts")});
  }
}

// A host's application ends, one line each.
void print_stacks(const std::string& host, const std::vector<AppEnd>& ends,
                  const ScalarIndex& value) {
  for (const AppEnd& e : ends) {
    const AppParams& app = e.app;
    const std::string s = host + "." + e.name;
    const bool udp = app.kind == AppKind::udp;
    const std::string role = app.kind == AppKind::file ? (e.sender ? "client" : "server")
                                                       : (e.sender ? "send" : "receive");
    std::string detail =
        udp ? fmt::format("{:.0f} datagrams sent, {:.0f} received",
                          Shown{value(s, "udp_datagrams_sent")},
                          Shown{value(s, "udp_datagrams_received")})
            : fmt::format("{:.0f} segments resent, {:.0f} timeouts, round trip mean {:.2f} us",
                          Shown{value(s, "segments_retransmitted")}, Shown{value(s, "timeouts")},
                          Shown{value(s, "round_trip_mean") / 1e3});
    if (app.kind == AppKind::file)
      detail = fmt::format("records read {:.2f} MB/s, written {:.2f} MB/s; ",
                           Shown{value(s, "read_throughput") / 8e6},
                           Shown{value(s, "write_throughput") / 8e6}) +
               detail;
    fmt::print(
        "  {}: {} of {} B, {} with {}: application {:.2f} Mb/s received, {:.2f} Mb/s sent; "
        "{:.0f} requests/s; {}\n",
        s, choice_name(app.kind), app.request_bytes, role, e.peer,
        Shown{value(s, "receive_throughput") / 1e6}, Shown{value(s, "send_throughput") / 1e6},
        Shown{value(s, "requests_per_second")}, detail);
  }
}

// What limited a host with a NIC or a light host (analysis/host_limit: the words of a sweep's
// answer).
void print_host_limit(const std::string& host, bool runs_applications, const Json& config,
                      const std::vector<Scalar>& scalars, const ScalarIndex& value) {
  std::set<std::string> named;
  for (const auto& s : scalars) named.insert(s.component);
  const std::vector<std::string> components(named.begin(), named.end());
  const std::string limit = host_limit(
      config, host, components,
      [&](const std::string& c, const std::string& name) {
        const Scalar* s = value.find(c, name);
        return s != nullptr ? std::optional<double>(s->value) : std::nullopt;
      },
      runs_applications);
  if (!limit.empty()) fmt::print("  {}: limited by {}\n", host, limit);
}

void print_light_hosts(const Network& network, const Json& config,
                       const std::vector<Scalar>& scalars, const ScalarIndex& value) {
  for (const auto& host : network.light_hosts()) {
    const std::string c = std::string(host->name()) + ".cpu";
    fmt::print("  {}: light host on {}; CPU {:.1f} %, {:.0f} frames in, {:.0f} out\n", c,
               host->config().station, Shown{100 * value(c, "cpu_utilisation")},
               Shown{value(c, "frames_delivered")}, Shown{value(c, "frames_sent")});
    print_stacks(host->basename(), host->ends(), value);
    print_host_limit(host->basename(), !host->ends().empty(), config, scalars, value);
  }
}

// A host's bus: PCI or PCI-X, or its PCI Express link.
void print_bus(const Host& host, const ScalarIndex& value) {
  const std::string b = std::string(host.name()) + ".pci";
  const PciBusParams& p = host.config().pci;
  if (p.mode == PciMode::pcie)
    fmt::print(
        "  {}: PCI Express x{}, peak {:.0f} MB/s per direction; utilisation up {:.1f} %, down "
        "{:.1f} %; read {:.1f} MB/s, write {:.1f} MB/s; {:.0f} TLPs up, {:.0f} down\n",
        b, p.lanes, Shown{value(b, "peak_mbps")}, Shown{100 * value(b, "utilisation_up")},
        Shown{100 * value(b, "utilisation_down")}, Shown{value(b, "read_mbps")},
        Shown{value(b, "write_mbps")}, Shown{value(b, "tlps_up")}, Shown{value(b, "tlps_down")});
  else
    fmt::print(
        "  {}: {} {}-bit {} MHz, peak {:.1f} MB/s; utilisation {:.1f} %, data {:.1f} %; read "
        "{:.1f} MB/s, write {:.1f} MB/s; {:.0f} transactions, {:.1f} data phases each\n",
        b, p.mode == PciMode::pcix ? "PCI-X" : "PCI", p.width_bits, p.clock_mhz,
        Shown{value(b, "peak_mbps")}, Shown{100 * value(b, "utilisation")},
        Shown{100 * value(b, "data_share")}, Shown{value(b, "read_mbps")},
        Shown{value(b, "write_mbps")}, Shown{value(b, "transactions")},
        Shown{value(b, "data_phases_mean")});
  if (!host.config().has_card_bridge) return;
  const std::string c = std::string(host.name()) + ".card_pci";
  const PciBridgeParams& q = host.config().card_bridge;
  fmt::print(
      "  {}: the card's PCI-X {}-bit {} MHz behind its bridge, peak {:.1f} MB/s; utilisation "
      "{:.1f} %, data {:.1f} %; {:.0f} transactions, {:.0f} retried (the bridge's write buffer "
      "full)\n",
      c, q.width_bits, q.clock_mhz, Shown{value(c, "peak_mbps")},
      Shown{100 * value(c, "utilisation")}, Shown{100 * value(c, "data_share")},
      Shown{value(c, "transactions")}, Shown{value(c, "retries")});
}

// A host's NIC (and its team's), the driver's figures.
void print_nics(const Host& host, const ScalarIndex& value) {
  const std::string n = std::string(host.name()) + ".nic";
  const std::string d = std::string(host.name()) + ".driver";
  fmt::print(
      "  {}: {:.0f} frames in, {:.0f} dropped (FIFO overflow {:.0f}, no descriptor {:.0f}); "
      "{:.0f} interrupts/s; host: {:.2f} Mb/s delivered, {:.2f} Mb/s sent, CPU {:.1f} %, "
      "{:.1f} "
      "frames per interrupt, P/E {:.1f} (Mb/s per CPU %)\n",
      n, Shown{value(n, "frames_arrived")},
      Shown{value(n, "rx_fifo_overflow") + value(n, "rx_no_descriptor")},
      Shown{value(n, "rx_fifo_overflow")}, Shown{value(n, "rx_no_descriptor")},
      Shown{value(n, "interrupts_per_second")}, Shown{value(d, "delivered_throughput") / 1e6},
      Shown{value(d, "sent_throughput") / 1e6}, Shown{100 * value(d, "cpu_utilisation")},
      Shown{value(d, "frames_per_interrupt")}, Shown{value(d, "pe_index")});
  for (std::size_t k = 1; k < host.nics().size(); ++k) {
    const std::string t = std::string(host.nics()[k]->name());
    fmt::print("  {} (team, {}): {:.0f} frames in, {:.0f} dropped; {:.0f} interrupts/s\n", t,
               choice_name(host.config().team.mode), Shown{value(t, "frames_arrived")},
               Shown{value(t, "rx_fifo_overflow") + value(t, "rx_no_descriptor")},
               Shown{value(t, "interrupts_per_second")});
  }
}

// The bus's ceiling each way (analysis/pci_cycles) and what the run showed limits it.
void print_ceilings(const Host& host, const ScalarIndex& value) {
  const std::string a = "analysis." + std::string(host.name());
  for (const char* dir : {"rx", "tx"}) {
    const std::string pre = std::string(dir) + "_";
    const bool pcie = value.find(a, pre + "link_up_bytes_per_frame") != nullptr;
    if (!pcie && value.find(a, pre + "bus_clocks_per_frame") == nullptr) continue;
    std::string bottleneck = "none of wire, bus, FIFO, CPU";
    for (const char* b : {"wire", "bus", "fifo", "cpu"})
      if (value(a, pre + "bottleneck_" + b) > 0) bottleneck = b;
    const std::string cost = pcie ? fmt::format("{:.0f} bytes up and {:.0f} down per frame",
                                                Shown{value(a, pre + "link_up_bytes_per_frame")},
                                                Shown{value(a, pre + "link_down_bytes_per_frame")})
                                  : fmt::format("{:.1f} bus clocks per frame",
                                                Shown{value(a, pre + "bus_clocks_per_frame")});
    fmt::print("  {} {}: {}; ceilings: bus {:.2f} Mb/s, wire {:.2f} Mb/s; bottleneck: {}\n", a, dir,
               cost, Shown{value(a, pre + "bus_ceiling_throughput") / 1e6},
               Shown{value(a, pre + "wire_ceiling_throughput") / 1e6}, bottleneck);
  }
}

void print_hosts(const Network& network, const Json& config, const std::vector<Scalar>& scalars,
                 const ScalarIndex& value) {
  for (const auto& host : network.hosts()) {
    print_bus(*host, value);
    if (!host->config().has_nic) continue;
    print_nics(*host, value);
    print_stacks(host->basename(), host->ends(), value);
    print_ceilings(*host, value);
    print_host_limit(host->basename(), !host->ends().empty(), config, scalars, value);
  }
}

void print_switches(const Network& network, const ScalarIndex& value) {
  for (const auto& sw : network.switches()) {
    const std::string n = sw->basename();
    fmt::print(
        "  {}: {} ports; {:.0f} frames in: {:.0f} unicast, {:.0f} flooded, {:.0f} filtered; "
        "{:.0f} sent, {:.0f} dropped at outputs, {:.0f} at the fabric; {:.0f} addresses learned\n",
        n, sw->port_count(), Shown{value(n, "frames_received")}, Shown{value(n, "frames_unicast")},
        Shown{value(n, "frames_flooded")}, Shown{value(n, "frames_filtered")},
        Shown{value(n, "copies_sent")}, Shown{value(n, "copies_dropped")},
        Shown{value(n, "frames_dropped_fabric")}, Shown{value(n, "table_entries")});
  }
}

// What the link-level model predicted for each 1000BASE-T cable.
void print_phy_links(const ScenarioConfig& config) {
  for (std::size_t i = 0; i < config.links.size(); ++i) {
    const auto& l = config.links[i];
    if (!l.phy) continue;
    fmt::print(
        "  link{} {} - {}: 1000BASE-T over {} m of {}: SNR {:.2f} dB, margin {:.2f} dB, BER "
        "{:.3g}, octet errors {:.3g} -> {:.3g} injected bit errors/bit\n",
        i, l.a, l.b, l.params.cable_m, l.params.medium, Shown{l.phy->snr_db},
        Shown{l.phy->margin_db}, Shown{l.phy->ber}, Shown{l.phy->octet_error_rate},
        Shown{l.injected_ber()});
  }
}

}  // namespace

void print_summary(const LoadedScenario& scenario, const Network& network,
                   const std::vector<Scalar>& scalars, const Outcome& outcome,
                   const std::filesystem::path& dir, const std::vector<std::string>& outputs) {
  const ScalarIndex value(scalars);
  print_run_line(scenario, network, outcome);
  print_stations(network, value);
  print_media(network, value);
  print_light_hosts(network, scenario.resolved, scalars, value);
  print_hosts(network, scenario.resolved, scalars, value);
  print_switches(network, value);
  print_phy_links(scenario.config);
  // Every file this run wrote (the traces too), in the order the run lists them.
  std::string written = "run.json";
  for (const std::string& file : outputs)
    if (file != "run.json" && std::filesystem::exists(dir / file)) written += ", " + file;
  fmt::print("results: {}/ ({})\n", dir.string(), written);
}

}  // namespace gbesim
