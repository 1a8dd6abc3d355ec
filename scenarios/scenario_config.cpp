#include "scenarios/scenario_config.hpp"

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

const StationConfig* ScenarioConfig::peer_of(const std::string& name) const {
  for (const auto& l : links) {
    if (l.a == name) return find_station(l.b);
    if (l.b == name) return find_station(l.a);
  }
  return nullptr;
}

std::vector<ParamTableInfo> all_param_tables() {
  return {
      describe(run_param_table(), "(top level)"),
      describe(mac_param_table(), "mac, stations.<name>.mac"),
      describe(sink_param_table(), "sink, stations.<name>.sink"),
      describe(traffic_param_table(), "stations.<name>.traffic[i]"),
      describe(link_param_table(), "links[i]  (plus \"between\": [station, station])"),
      describe(medium_param_table(), "media.<medium name>"),
  };
}

}  // namespace gbesim
