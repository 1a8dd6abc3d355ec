#include "sim/input/scenario_resolve.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "models/common/speed_modes.hpp"
#include "models/phy/link_model.hpp"
#include "models/topology/cabling.hpp"
#include "models/topology/delay_table.hpp"
#include "models/topology/segment_rules.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/topology_loader.hpp"

namespace gbesim {

// Every DTE of the plant is a station, and each pair's one-way delay is half its path delay
// value without the margin (cables, repeaters and both stations' PHY delays), so the simulated
// round trip is the PDV arithmetic's.
void resolve_topology(const Json& doc, ScenarioConfig& c, Diagnostics& d) {
  if (!doc.contains("topology")) return;
  auto read =
      read_topology_block(doc["topology"], d.file(), "topology", c.run.rate_mbps, d, &c.media);
  if (!d.empty()) return;
  c.topology = std::make_shared<const LoadedTopology>(std::move(read));
  const LoadedTopology& t = *c.topology;
  std::vector<std::string> station_names;
  for (const auto& s : c.stations) station_names.push_back(s.name);
  const double bit_ns = 1000.0 / static_cast<double>(c.run.rate_mbps);
  // A run needs every pair's delay (the loader's report lists each station's worst only), found
  // through a listing whose size the loader's report knows before it is built.
  double every_pair_bytes = 0;
  for (const DomainReport& dom : t.report.domains) every_pair_bytes += dom.every_pair.bytes;
  if (every_pair_bytes > kMaxPairListingBytes) {
    d.error("topology",
            fmt::format("a run needs the path of every pair of stations: about {:.1f} GB for this "
                        "plant (at most {:.1f} GB): its paths cross more repeaters than any "
                        "repeater rule allows",
                        every_pair_bytes / 1e9, kMaxPairListingBytes / 1e9));
    return;
  }
  const TopologyReport every = analyse_topology(t.plant, PairScope::every_pair);
  for (const auto& p : every.problems) d.error("topology", p.message);
  for (std::size_t i = 0; i < every.domains.size(); ++i) {
    const DomainReport& dom = every.domains[i];
    const std::string origin = "topology domain " + std::to_string(i);
    if (dom.rate_mbps != c.run.rate_mbps) {
      d.error("topology", origin + " runs at " + std::to_string(dom.rate_mbps) +
                              " Mb/s, the scenario at " + std::to_string(c.run.rate_mbps) +
                              " (rate_mbps)");
      continue;
    }
    DomainConfig out;
    out.origin = origin;
    out.from_topology = true;
    for (const auto& s : dom.stations) {
      const CablingNode* node = t.plant.find(s);
      if (node == nullptr || node->kind != NodeKind::dte) continue;  // a switch port
      if (c.find_station(s) == nullptr)
        d.error(child_path("topology.nodes", s),
                "no station \"" + s + "\"" + suggestion(s, station_names) +
                    ": every station (dte) of a scenario's topology is a station of the scenario");
      out.stations.push_back(s);
    }
    if (out.stations.size() < 2) {
      if (out.stations.size() == 1)
        d.error(child_path("topology.nodes", out.stations[0]),
                "station \"" + out.stations[0] +
                    "\" has no other station in its collision domain (switches are not simulated "
                    "yet)");
      continue;
    }
    const std::size_t n = out.stations.size();
    out.delay_ns.assign(n, std::vector<double>(n, 0.0));
    for (const PathReport& p : dom.pairs) {
      const auto a = std::find(out.stations.begin(), out.stations.end(), p.from);
      const auto b = std::find(out.stations.begin(), out.stations.end(), p.to);
      if (a == out.stations.end() || b == out.stations.end()) continue;
      if (!p.pdv_known) {
        d.error("topology", origin + ": the path delay of " + p.from + " - " + p.to +
                                " is not known (a device delay is not in the table at this "
                                "speed); give \"delay_bt\" for its repeaters and stations");
        continue;
      }
      const double one_way_ns = (p.pdv_bt - p.margin_bt) / 2 * bit_ns;
      out.delay_ns[a - out.stations.begin()][b - out.stations.begin()] = one_way_ns;
      out.delay_ns[b - out.stations.begin()][a - out.stations.begin()] = one_way_ns;
    }
    c.domains.push_back(std::move(out));
  }
}

void resolve_rates(ScenarioConfig& c, Diagnostics& d) {
  auto port_rate = [&](const std::string& end) -> std::optional<std::int64_t> {
    const auto e = c.endpoint(end);
    if (!e || e->sw == nullptr) return std::nullopt;
    return e->sw->ports().at(static_cast<std::size_t>(e->port - 1)).rate_mbps;
  };
  std::map<std::string, std::int64_t> station_rate;
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    LinkConfig& l = c.links[i];
    const std::string path = child_path(index_path("links", i), "rate_mbps");
    const auto pa = port_rate(l.a);
    const auto pb = port_rate(l.b);
    if (l.params.rate_mbps > 0) {
      l.rate_mbps = l.params.rate_mbps;
      if (!find_speed_mode(l.rate_mbps))
        d.error(path, "no speed mode " + std::to_string(l.rate_mbps) + " Mb/s; expected one of " +
                          speed_mode_list());
      for (const auto& [end, rate] : {std::pair{l.a, pa}, std::pair{l.b, pb}})
        if (rate && *rate < l.rate_mbps)
          d.error(path, std::to_string(l.rate_mbps) + " Mb/s is faster than switch port " + end +
                            " (" + std::to_string(*rate) +
                            " Mb/s); a port negotiates down, never up");
    } else if (pa || pb) {
      l.rate_mbps = std::min(pa.value_or(pb.value_or(0)), pb.value_or(pa.value_or(0)));
    } else {
      l.rate_mbps = c.run.rate_mbps;
    }
    for (const auto& end : {l.a, l.b}) station_rate[end] = l.rate_mbps;
  }
  for (std::size_t i = 0; i < c.domains.size(); ++i) {
    DomainConfig& dom = c.domains[i];
    std::optional<std::int64_t> ports;
    for (const auto& m : dom.stations)
      if (const auto r = port_rate(m)) ports = ports ? std::min(*ports, *r) : *r;
    dom.resolved_rate_mbps = dom.rate_mbps > 0 ? dom.rate_mbps : ports.value_or(c.run.rate_mbps);
    if (dom.rate_mbps > 0 && !find_speed_mode(dom.rate_mbps))
      d.error(child_path(dom.origin, "rate_mbps"),
              "no speed mode " + std::to_string(dom.rate_mbps) + " Mb/s; expected 10, 100 or 1000");
    for (const auto& m : dom.stations) station_rate[m] = dom.resolved_rate_mbps;
  }
  for (auto& s : c.stations) {
    const auto it = station_rate.find(s.name);
    s.rate_mbps = it == station_rate.end() ? c.run.rate_mbps : it->second;
  }
}

void resolve_defaults(ScenarioConfig& c) {
  static const DelayTable table = DelayTable::standard();
  for (auto& d : c.domains)
    if (d.dte_pair_round_trip_bt < 0)
      d.dte_pair_round_trip_bt = default_dte_pair_bt(table, d.resolved_rate_mbps);
  // A PCI Express link trains to the narrower width and the smaller payload of its two ends;
  // the NIC's driver may program its own read request size.
  for (auto& h : c.hosts) {
    if (!h.has_nic || h.pci.mode != PciMode::pcie || h.nic.bus != NicBus::pcie) continue;
    h.pci.lanes = std::min(h.pci.lanes, h.nic.pcie_lanes);
    h.pci.max_payload_bytes = std::min(h.pci.max_payload_bytes, h.nic.pcie_max_payload_bytes);
    if (h.nic.pcie_max_read_request_bytes > 0)
      h.pci.max_read_request_bytes = h.nic.pcie_max_read_request_bytes;
  }
  for (auto& s : c.stations) {
    // Written out, so that run.json says the slotTime the station used.
    s.mac.slot_time_bits = slot_time_bits_at(s.mac, s.rate_mbps);
    for (auto& t : s.traffic) {
      if (t.load > 0) t.load_bps = t.load * 1e6 * static_cast<double>(s.rate_mbps);
      t.load = 0;  // from here on the load is load_bps
    }
  }
}

void predict_phy_errors(ScenarioConfig& c) {
  // Solving the link model takes a fraction of a second per cable: each cable is solved once per
  // process (the desktop app and the fuzz tests load many variants of one scenario).
  static std::mutex mutex;
  static std::map<std::tuple<std::string, double, double, double>, LinkConfig::PhyPrediction> done;
  const std::lock_guard<std::mutex> lock(mutex);
  for (auto& l : c.links) {
    if (l.params.phy != "1000base-t") continue;
    const phy::CableCategory* cable = phy::find_cable_category(l.params.medium);
    if (cable == nullptr) continue;  // refused by the phy-model rule
    const double ns_per_m = c.media.at(l.params.medium).ns_per_m;
    const auto key =
        std::make_tuple(l.params.medium, l.params.cable_m, l.params.phy_noise_dbm_per_hz, ns_per_m);
    auto it = done.find(key);
    if (it == done.end()) {
      phy::PhyLinkParams p;
      p.cable = cable;
      p.length_m = l.params.cable_m;
      p.ns_per_m = ns_per_m;
      p.background_noise_dbm_per_hz = l.params.phy_noise_dbm_per_hz;
      const auto a = phy::analyse_link(p);
      LinkConfig::PhyPrediction pred;
      pred.snr_db = a.snr_db;
      pred.margin_db = a.margin_db;
      pred.ber = a.ber_coded;
      pred.octet_error_rate = a.octet_error_coded;
      it = done.emplace(key, pred).first;
    }
    l.phy = it->second;
  }
}

Json derived_json(const ScenarioConfig& c) {
  Json out = Json::object();
  Json links = Json::array();
  for (const auto& l : c.links) {
    Json link = {{"between", {l.a, l.b}}, {"injected_ber", l.injected_ber()}};
    if (l.phy)
      link["phy"] = {{"snr_db", l.phy->snr_db},
                     {"margin_db", l.phy->margin_db},
                     {"ber", l.phy->ber},
                     {"octet_error_rate", l.phy->octet_error_rate}};
    links.push_back(std::move(link));
  }
  out["links"] = std::move(links);
  Json slots = Json::object();
  for (const auto& s : c.stations)
    slots.get_ref<Json::object_t&>().emplace_back(s.name, s.mac.slot_time_bits);
  out["slot_time_bits"] = std::move(slots);
  Json domains = Json::array();
  for (const auto& d : c.domains)
    if (d.from_topology)
      domains.push_back({{"origin", d.origin}, {"stations", d.stations}, {"delay_ns", d.delay_ns}});
  if (!domains.empty()) out["topology_domains"] = std::move(domains);
  return out;
}

}  // namespace gbesim

namespace gbesim {

std::vector<std::string> segment_warnings(const ScenarioConfig& c, const TopologyReport* report) {
  std::vector<std::string> out;
  auto check = [&](const std::string& path, const std::string& medium, double length_m) {
    const std::string p = segment_problem(c.run.rate_mbps, medium, length_m);
    if (!p.empty()) out.push_back(path + ": " + p);
  };
  for (std::size_t i = 0; i < c.links.size(); ++i)
    check(index_path("links", i), c.links[i].params.medium, c.links[i].params.cable_m);
  for (std::size_t i = 0; i < c.domains.size(); ++i) {
    const DomainConfig& d = c.domains[i];
    if (d.from_topology) continue;  // the topology's own report below
    for (std::size_t k = 0; k < d.stations.size() && k < d.cable_m.size(); ++k)
      check(child_path(child_path(index_path("collision_domains", i), "cable_m"), d.stations[k]),
            d.medium, d.cable_m[k]);
  }
  if (report != nullptr)
    for (const auto& dom : report->domains)
      for (const auto& v : dom.segment_violations)
        out.push_back("topology." + v.where + ": " + v.message);
  return out;
}

std::vector<RuleBreach> repeater_rule_breaches(const TopologyReport& report) {
  std::vector<RuleBreach> out;
  for (std::size_t i = 0; i < report.domains.size(); ++i) {
    std::set<std::string> said;
    for (const PathReport& p : report.domains[i].pairs)
      if (!p.rule_problem.empty() && said.insert(p.rule_problem).second)
        out.push_back({i, p.from, p.to, p.rule_problem});
  }
  return out;
}

std::vector<std::string> plant_rule_warnings(const TopologyReport& report) {
  std::vector<std::string> out;
  auto where = [&report](std::size_t i) {
    return fmt::format("topology: collision domain {} ({} Mb/s)", i, report.domains[i].rate_mbps);
  };
  for (const RuleBreach& b : repeater_rule_breaches(report))
    out.push_back(fmt::format("{} breaks a repeater rule of 802.3: {} - {}: {}", where(b.domain),
                              b.from, b.to, b.rule));
  for (std::size_t i = 0; i < report.domains.size(); ++i) {
    const DomainReport& dom = report.domains[i];
    if (!dom.worst) continue;
    const PathReport& w = dom.pairs[*dom.worst];
    if (w.pdv_known && w.pdv_bt > dom.budget_bt)
      out.push_back(fmt::format(
          "{}: the path delay value of {} - {} is {:.2f} bit times, over the {:g} BT budget by "
          "{:.2f}: collisions can come after the slot (late) or reach a receiver after its "
          "sender stopped (frames lost unseen)",
          where(i), w.from, w.to, w.pdv_bt, dom.budget_bt, w.pdv_bt - dom.budget_bt));
  }
  return out;
}

double offered_load_bps(const TrafficParams& t) {
  if (t.pattern == TrafficPattern::poisson) return t.load_bps;
  if (t.pattern == TrafficPattern::on_off) return t.peak_load_bps * t.on_ns / (t.on_ns + t.off_ns);
  return 0;
}

std::vector<std::string> traffic_warnings(const ScenarioConfig& c) {
  std::vector<std::string> out;
  const double run_ns = static_cast<double>(c.run.duration_ns);
  for (const auto& s : c.stations) {
    for (std::size_t i = 0; i < s.traffic.size(); ++i) {
      const TrafficParams& t = s.traffic[i];
      if (!t.enabled || t.pattern == TrafficPattern::script) continue;
      const std::string path = index_path(child_path(child_path("stations", s.name), "traffic"), i);
      const double stop = t.stop_ns < 0 ? run_ns : std::min(run_ns, static_cast<double>(t.stop_ns));
      const double active_ns = stop - static_cast<double>(t.start_ns);
      if (active_ns <= 0) {
        out.push_back(
            fmt::format("{}: starts at {} ns, when the run ({} ns) is already over: it "
                        "sends nothing",
                        path, t.start_ns, c.run.duration_ns));
        continue;
      }
      const double rate_bps = offered_load_bps(t);
      std::string rate;
      if (t.pattern == TrafficPattern::poisson) {
        rate = fmt::format("load_bps {:g} bit/s", t.load_bps);
      } else if (t.pattern == TrafficPattern::on_off) {
        rate = fmt::format("peak_load_bps {:g} bit/s on {:g} of every {:g} ns", t.peak_load_bps,
                           t.on_ns, t.on_ns + t.off_ns);
      } else {
        continue;  // saturated: sends from its start
      }
      const double mean_bytes = t.frame_bytes.mean_bytes();
      const double expected = rate_bps * active_ns * 1e-9 / (8 * mean_bytes);
      if (expected < 1)
        out.push_back(fmt::format(
            "{}: expect {:.3g} frames in the run ({} x {:g} ns active / {:g}-byte frames): it "
            "will probably send none (rates are in bit/s: 300 Mb/s is 3e8)",
            path, expected, rate, active_ns, mean_bytes));
    }
  }
  return out;
}

}  // namespace gbesim
