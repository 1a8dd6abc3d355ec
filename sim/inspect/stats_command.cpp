#include "sim/inspect/stats_command.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "models/common/sim_context.hpp"
#include "scenarios/network.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/inspect/markdown_table.hpp"
#include "sim/run/analytic_scalars.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// Every kind of component, as small as it can be: elaborated, never simulated.
const char* kCatalogue = R"({
  "name": "stats-catalogue", "description": "one of every component, for gbesim stats",
  "stations": {
    "a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
    "b": {},
    "c": {"mac": {"duplex": "half"},
          "traffic": [{"pattern": "poisson", "to": "d", "load": 0.1}]},
    "d": {"mac": {"duplex": "half"}},
    "e": {},
    "f": {},
    "g": {},
    "i": {},
    "j": {},
    "k": {},
    "m": {}
  },
  "links": [{"between": ["a", "b"]}, {"between": ["e", "f"]}, {"between": ["g", "i"]},
            {"between": ["j", "s:1"]}, {"between": ["k", "s:2"]}, {"between": ["m", "s:3"]}],
  "switches": {"s": {"ports": [{"count": 3}], "fabric_mbps": 2000}},
  "collision_domains": [{"stations": ["c", "d"], "cable_m": {"c": 10, "d": 10}}],
  "hosts": {
    "h": {"nic": {"station": "e", "profile": "intel-82540em"},
          "cpu": {"logical_cpus": 2},
          "app": {"kind": "requests", "peer": "f"},
          "bridge": {"posted_write_bytes": 256, "memory_write_mbps": 800},
          "dma": {"disk": {"request_bytes": 4096}}},
    "x": {"pci": {"mode": "pcie"}, "nic": {"station": "g", "profile": "intel-82573"}},
    "l": {"station": "j", "app": {"kind": "requests", "peer": "k"},
          "apps": [{"kind": "requests", "peer": "m"}]}
  }
})";

bool is_index(const std::string& s, std::size_t from) {
  if (from >= s.size()) return false;
  for (std::size_t i = from; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// The names a scenario gives, which a pattern replaces.
struct Names {
  std::set<std::string> stations, hosts, masters, switches;
};

// "to_s_2" (a link direction delivering to port 2 of switch s) -> "to_<switch>_<n>".
bool delivers_to_switch_port(const std::string& part, const std::set<std::string>& switches) {
  if (part.rfind("to_", 0) != 0) return false;
  const std::size_t last = part.rfind('_');
  return last > 3 && switches.count(part.substr(3, last - 3)) != 0 && is_index(part, last + 1);
}

// "e.mac" -> "<station>.mac", "link1.to_b" -> "link<i>.to_<station>", "h.nic" -> "<host>.nic",
// "s.port2.mac" -> "<switch>.port<n>.mac", "h.stack_b" -> "<host>.stack_<station>".
std::string pattern_of(const std::string& component, const Names& names) {
  const auto& [stations, hosts, masters, switches] = names;
  std::string out;
  std::size_t start = 0;
  while (start <= component.size()) {
    const std::size_t dot = component.find('.', start);
    std::string part =
        component.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (stations.count(part) != 0) {
      part = "<station>";
    } else if (hosts.count(part) != 0 && out.empty()) {
      part = "<host>";
    } else if (masters.count(part) != 0 && !out.empty()) {
      part = "<dma master>";
    } else if (switches.count(part) != 0 && out.empty()) {
      part = "<switch>";
    } else if (part.rfind("to_", 0) == 0 && stations.count(part.substr(3)) != 0) {
      part = "to_<station>";
    } else if (part.rfind("stack_", 0) == 0 && stations.count(part.substr(6)) != 0) {
      part = "stack_<station>";
    } else if (delivers_to_switch_port(part, switches)) {
      part = "to_<switch>_<n>";
    } else if (part.rfind("port", 0) == 0 && is_index(part, 4) && !out.empty()) {
      part = "port<n>";
    } else {
      for (const char* prefix : {"link", "domain", "source"}) {
        const std::string p = prefix;
        if (part.rfind(p, 0) == 0 && is_index(part, p.size())) part = p + "<i>";
      }
    }
    out += (out.empty() ? "" : ".") + part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// Component pattern -> its statistics, each once, in the order the models declare them.
struct Catalogue {
  std::vector<std::string> order;
  std::map<std::string, std::vector<StatGroup::Description>> by_component;
};

Catalogue catalogue_of(const LoadedScenario& scenario) {
  init_time_resolution();
  SimContext context(static_cast<std::uint64_t>(scenario.config.run.seed));
  const Network network(scenario.config, context);
  Names names;
  for (const auto& s : scenario.config.stations) names.stations.insert(s.name);
  for (const auto& s : scenario.config.switches) names.switches.insert(s.name);
  for (const auto& h : scenario.config.hosts) {
    names.hosts.insert(h.name);
    for (const auto& m : h.dma) names.masters.insert(m.name);
  }
  Catalogue c;
  std::set<std::pair<std::string, std::string>> seen;
  for (const StatGroup* group : context.stats.groups()) {
    const std::string pattern = pattern_of(group->component(), names);
    if (c.by_component.count(pattern) == 0) c.order.push_back(pattern);
    auto& list = c.by_component[pattern];
    for (const auto& d : group->describe())
      if (seen.emplace(pattern, d.name).second) list.push_back(d);
  }
  for (const auto& d : derived_statistics()) {
    if (c.by_component.count(d.component) == 0) c.order.push_back(d.component);
    c.by_component[d.component].push_back({d.name, d.unit, d.description, "derived"});
  }
  return c;
}

// Keeps only the patterns asked for, in the order asked.
void select(Catalogue& c, const std::vector<std::string>& components) {
  if (components.empty()) return;
  Diagnostics diagnostics("--component");
  for (const auto& pattern : components)
    if (c.by_component.count(pattern) == 0)
      diagnostics.error(pattern,
                        "no component of the scenario has this pattern (gbesim stats lists them)" +
                            suggestion(pattern, c.order));
  diagnostics.throw_if_any();
  c.order = components;
}

std::string markdown(Catalogue& c) {
  std::string out;
  for (const auto& component : c.order) {
    out += fmt::format("{}`{}`\n\n| statistic | unit | kind | description |\n|---|---|---|---|\n",
                       out.empty() ? "" : "\n", component);
    for (const auto& d : c.by_component[component])
      out += fmt::format("| `{}` | {} | {} | {} |\n", d.name, markdown_cell(d.unit),
                         markdown_cell(d.kind), markdown_cell(d.description));
  }
  return out;
}

std::string json(Catalogue& c) {
  Json out = Json::array();
  for (const auto& component : c.order)
    for (const auto& d : c.by_component[component])
      out.push_back({{"component", component},
                     {"name", d.name},
                     {"unit", d.unit},
                     {"kind", d.kind},
                     {"description", d.description}});
  return out.dump(1) + "\n";
}

std::string text(Catalogue& c, const std::string& scenario_file) {
  std::string out = fmt::format(
      "Statistics of {} (scalars.csv: component,name,unit,value), then the rows a run "
      "derives (network, analysis.*, topology.*).\nKind says what each covers after a warm-up "
      "(warmup_ns): a count, total or distribution what happened since; a rate or ratio the "
      "same over the time since; a summary (peak, mean occupancy, fairness) is restarted by its "
      "model; \"at end\" is the state at the end, whatever the warm-up\n",
      scenario_file.empty() ? "every kind of component" : scenario_file);
  for (const auto& component : c.order) {
    out += fmt::format("\n{}\n", component);
    for (const auto& d : c.by_component[component])
      out += fmt::format("  {:<36} {:<14} {:<12} {}\n", d.name, d.unit, d.kind, d.description);
  }
  return out;
}

}  // namespace

std::string stats_listing(const StatsOptions& options) {
  const LoadedScenario scenario = options.scenario_file.empty()
                                      ? load_scenario_text(kCatalogue, "(built-in catalogue)")
                                      : load_scenario(options.scenario_file);
  Catalogue c = catalogue_of(scenario);
  select(c, options.components);
  return options.markdown ? markdown(c) : options.json ? json(c) : text(c, options.scenario_file);
}

}  // namespace gbesim
