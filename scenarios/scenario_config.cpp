#include "scenarios/scenario_config.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "models/common/speed_modes.hpp"

namespace gbesim {

const ChoiceList<TeamMode>& choice_list(TeamMode) {
  static const ChoiceList<TeamMode> list = {
      {TeamMode::per_client, "per_client",
       "each peer is served by one NIC, in turn (the i-th peer by NIC i mod N), both ways, as "
       "3Com DynamicAccess and Intel ALB with receive balancing did"},
      {TeamMode::round_robin, "round_robin",
       "each frame sent goes out of the next NIC in turn, and every peer sends to the first NIC "
       "(transmit load balancing)"},
  };
  return list;
}

const ChoiceList<TeamBalance>& choice_list(TeamBalance) {
  static const ChoiceList<TeamBalance> list = {
      {TeamBalance::every_protocol, "every_protocol", "every application's traffic is spread"},
      {TeamBalance::ip_only, "ip_only",
       "only TCP/IP applications are spread; IPX (apps' network \"ipx\") goes through the first "
       "NIC, both ways: 3Com DynamicAccess load balancing (3Com Fast EtherLink Server NIC "
       "release notes 09-1548-001, 1999, as the file-server test reports)"},
      {TeamBalance::receive_ip_only, "receive_ip_only",
       "every application's sends are spread per client, but only TCP/IP peers are pointed at "
       "their NIC (by the team's ARP replies); an IPX peer (apps' network \"ipx\") has no ARP "
       "and sends to the first NIC: 3Com DynamicAccess transmit balancing with receive balancing "
       "through ARP (3Com DynamicAccess user guides; which 3Com's NetWare driver did is an "
       "assumption)"},
  };
  return list;
}

const ParamTable<RunParams>& run_param_table() {
  static const ParamTable<RunParams> table = [] {
    ParamTable<RunParams> t("scenario", "top-level keys of a scenario file");
    t.text("name", &RunParams::name, "scenario name; names the results directory")
        .text("description", &RunParams::description, "what the scenario is for")
        .integer("duration_ns", &RunParams::duration_ns, "ns", 1, 1LL << 50,
                 "simulated time to run")
        .integer("seed", &RunParams::seed, "", 0, (1LL << 53) - 1,
                 "run seed; replication r of a sweep uses seed + r")
        .integer("rate_mbps", &RunParams::rate_mbps, "Mb/s", 10, 10000,
                 "line rate of every link: " + speed_mode_list())
        .integer("replications", &RunParams::replications, "runs", 1, 100000,
                 "independent runs per sweep point (seeds seed, seed+1, ...)")
        .integer("series_interval_ns", &RunParams::series_interval_ns, "ns", 0, 1LL << 50,
                 "record every rate (throughputs, frame rates, utilisations) per interval of "
                 "this length into series.csv (0: no series; gbesim run --series 1s)")
        .integer("warmup_ns", &RunParams::warmup_ns, "ns", 0, 1LL << 50,
                 "warm-up: every statistic restarts at this time and covers the rest of the "
                 "run (duration_ns is the end, the warm-up included; series.csv covers the "
                 "whole run; 0: no warm-up)");
    return t;
  }();
  return table;
}

const StationConfig* ScenarioConfig::find_station(const std::string& name) const {
  for (const auto& s : stations)
    if (s.name == name) return &s;
  return nullptr;
}

const HostConfig* ScenarioConfig::host_of(const std::string& station) const {
  for (const auto& h : hosts)
    for (const auto& own : h.own_stations())
      if (own == station) return &h;
  return nullptr;
}

std::uint32_t ScenarioConfig::station_number(const std::string& station) const {
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (stations[i].name == station) return static_cast<std::uint32_t>(i + 1);
  return 0;
}

std::vector<std::pair<std::string, const AppParams*>> HostConfig::applications() const {
  std::vector<std::pair<std::string, const AppParams*>> out;
  if (app.kind != AppKind::none) out.emplace_back("app", &app);
  for (std::size_t i = 0; i < apps.size(); ++i)
    out.emplace_back("apps[" + std::to_string(i) + "]", &apps[i]);
  return out;
}

std::vector<std::string> HostConfig::own_stations() const {
  if (light()) return {station};
  if (!has_nic || nic.station.empty()) return {};
  std::vector<std::string> out{nic.station};
  out.insert(out.end(), team.stations.begin(), team.stations.end());
  return out;
}

const SwitchConfig* ScenarioConfig::find_switch(const std::string& name) const {
  for (const auto& s : switches)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<SwitchPortParams> SwitchConfig::ports() const {
  std::vector<SwitchPortParams> out;
  for (const auto& g : groups)
    for (std::int64_t i = 0; i < g.count; ++i) out.push_back({g.rate_mbps, g.duplex});
  return out;
}

std::optional<Endpoint> ScenarioConfig::endpoint(const std::string& name) const {
  const auto colon = name.find(':');
  if (colon == std::string::npos) {
    if (find_station(name) == nullptr) return std::nullopt;
    Endpoint e;
    e.station = name;
    return e;
  }
  const std::string sw = name.substr(0, colon);
  const std::string number = name.substr(colon + 1);
  if (number.empty() || number.size() > 6 ||
      !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    if (switches[i].name != sw) continue;
    const std::int64_t port = std::stoll(number);
    std::int64_t count = 0;
    for (const auto& g : switches[i].groups) count += g.count;
    if (port < 1 || port > count) return std::nullopt;
    Endpoint e;
    e.sw = &switches[i];
    e.switch_index = i;
    e.port = port;
    return e;
  }
  return std::nullopt;
}

std::int64_t ScenarioConfig::switch_port_rate(const std::string& port) const {
  for (const auto& l : links)
    if (l.a == port || l.b == port) return l.rate_mbps;
  for (const auto& dom : domains)
    if (std::find(dom.stations.begin(), dom.stations.end(), port) != dom.stations.end())
      return dom.resolved_rate_mbps;
  const auto e = endpoint(port);
  return e && e->sw != nullptr ? e->sw->ports().at(static_cast<std::size_t>(e->port - 1)).rate_mbps
                               : run.rate_mbps;
}

std::vector<std::string> ScenarioConfig::reachable_from(const std::string& name) const {
  // Stations and switches are nodes; links and domains join their ends, a switch all its ports.
  auto node = [](const std::string& end) {
    const auto colon = end.find(':');
    return colon == std::string::npos ? end : "switch:" + end.substr(0, colon);
  };
  std::map<std::string, std::vector<std::string>> next;
  auto join = [&](const std::string& a, const std::string& b) {
    next[node(a)].push_back(node(b));
    next[node(b)].push_back(node(a));
  };
  for (const auto& l : links) join(l.a, l.b);
  for (const auto& d : domains)
    for (std::size_t i = 1; i < d.stations.size(); ++i) join(d.stations[0], d.stations[i]);
  std::vector<std::string> out;
  std::set<std::string> seen = {name};
  std::vector<std::string> todo = {name};
  while (!todo.empty()) {
    const std::string at = todo.back();
    todo.pop_back();
    for (const auto& n : next[at]) {
      if (!seen.insert(n).second) continue;
      todo.push_back(n);
      if (find_station(n) != nullptr) out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::map<std::string, std::size_t> ScenarioConfig::station_groups() const {
  // Union-find over the same nodes and joins as reachable_from.
  std::map<std::string, std::size_t> index;
  std::vector<std::size_t> parent;
  auto id = [&](const std::string& end) {
    const auto colon = end.find(':');
    const std::string n = colon == std::string::npos ? end : "switch:" + end.substr(0, colon);
    const auto [it, added] = index.emplace(n, parent.size());
    if (added) parent.push_back(parent.size());
    return it->second;
  };
  auto root = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto join = [&](const std::string& a, const std::string& b) {
    const std::size_t ra = root(id(a));
    const std::size_t rb = root(id(b));
    parent[std::max(ra, rb)] = std::min(ra, rb);
  };
  for (const auto& l : links) join(l.a, l.b);
  for (const auto& d : domains)
    for (std::size_t i = 1; i < d.stations.size(); ++i) join(d.stations[0], d.stations[i]);
  std::map<std::string, std::size_t> out;
  for (const auto& st : stations) out[st.name] = root(id(st.name));
  return out;
}

std::vector<std::vector<std::int64_t>> DomainConfig::delay_ps(double ns_per_m,
                                                              double bit_ns) const {
  const double devices_ns =
      (repeater_round_trip_bt + std::max(0.0, dte_pair_round_trip_bt)) * bit_ns / 2;
  const std::size_t n = stations.size();
  std::vector<std::vector<std::int64_t>> out(n, std::vector<std::int64_t>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      if (i == k) continue;
      const double ns =
          delay_ns.empty() ? (cable_m[i] + cable_m[k]) * ns_per_m + devices_ns : delay_ns[i][k];
      out[i][k] = round_to_ps(ns * 1000.0);
    }
  }
  return out;
}

const StationConfig* ScenarioConfig::peer_of(const std::string& name) const {
  for (const auto& l : links) {
    if (l.a == name) return find_station(l.b);
    if (l.b == name) return find_station(l.a);
  }
  return nullptr;
}

double LinkConfig::injected_ber() const {
  return phy ? std::min(0.5, phy->octet_error_rate / 8) : params.ber;
}

LinkParams LinkConfig::effective_params() const {
  LinkParams p = params;
  p.ber = injected_ber();
  return p;
}

}  // namespace gbesim
