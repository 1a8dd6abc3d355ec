#include "scenarios/scenario_config.hpp"

#include <algorithm>

#include "models/common/speed_modes.hpp"

namespace gbesim {

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
                 "independent runs per sweep point (seeds seed, seed+1, ...)");
    return t;
  }();
  return table;
}

const StationConfig* ScenarioConfig::find_station(const std::string& name) const {
  for (const auto& s : stations)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> ScenarioConfig::reachable_from(const std::string& name) const {
  std::vector<std::string> out;
  if (const StationConfig* peer = peer_of(name)) out.push_back(peer->name);
  for (const auto& d : domains) {
    if (std::find(d.stations.begin(), d.stations.end(), name) == d.stations.end()) continue;
    for (const auto& s : d.stations)
      if (s != name) out.push_back(s);
  }
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
