#include "sim/input/topology_loader.hpp"

#include <algorithm>

#include "sim/input/json_input.hpp"
#include "sim/input/topology_schema.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// A simulated plant's size, before it is analysed.
void check_simulated_size(const CablingPlant& plant, const std::string& path, Diagnostics& d) {
  const std::string at = child_path(path, "nodes");
  const std::string why =
      " (a run simulates every station and keeps the delay of every pair; gbesim topology checks "
      "plants of up to " +
      std::to_string(kMaxPlantNodes) + " nodes)";
  if (plant.nodes.size() > kMaxScenarioPlantNodes)
    d.error(at, "has " + std::to_string(plant.nodes.size()) +
                    " nodes; a scenario's topology takes at most " +
                    std::to_string(kMaxScenarioPlantNodes) + why);
  const auto stations = std::count_if(plant.nodes.begin(), plant.nodes.end(),
                                      [](const CablingNode& n) { return n.kind == NodeKind::dte; });
  if (static_cast<std::size_t>(stations) > kMaxScenarioPlantStations)
    d.error(at, "has " + std::to_string(stations) +
                    " stations (kind dte); a scenario's topology takes at most " +
                    std::to_string(kMaxScenarioPlantStations) + why);
}

LoadedTopology read(const Json& doc, const std::string& file, const std::string& path,
                    std::int64_t default_rate, Diagnostics& d,
                    const std::map<std::string, MediumParams>* media, bool simulated) {
  LoadedTopology out;
  out.file = file;
  TopologyDocument t;
  t.plant.rate_mbps = default_rate;
  read_topology_document(doc, path, t, d, media);
  if (simulated) check_simulated_size(t.plant, path, d);
  if (path.empty() && doc.is_object() && !doc.contains("name"))
    d.error("", "missing \"name\": the topology's name");
  out.resolved = topology_schema().write(t);
  for (std::size_t i = 0; i < t.plant.cables.size(); ++i)
    if (t.plant.cables[i].length_by_old_name)
      out.warnings.push_back(child_path(path, "cables[" + std::to_string(i) + "]") +
                             ".length_m is the old name of cable_m (read the same; rename it)");
  out.description = std::move(t.description);
  out.plant = std::move(t.plant);
  if (!d.empty()) return out;
  out.report = analyse_topology(out.plant);
  for (const auto& p : out.report.problems) {
    const std::string& where = p.where;
    if (path.empty() || where.empty())
      d.error(path.empty() ? where : path, p.message);
    else
      d.error(where[0] == '[' ? path + where : path + "." + where, p.message);
  }
  return out;
}

}  // namespace

LoadedTopology read_topology_block(const Json& block, const std::string& file,
                                   const std::string& path, std::int64_t default_rate,
                                   Diagnostics& d,
                                   const std::map<std::string, MediumParams>* media) {
  return read(block, file, path, default_rate, d, media, true);
}

LoadedTopology load_topology_text(const std::string& text, const std::string& file) {
  Diagnostics d(file);
  const Json doc = parse_document(text, d);
  d.throw_if_any();
  LoadedTopology out = read(doc, file, "", 100, d, nullptr, false);
  d.throw_if_any();
  return out;
}

LoadedTopology load_topology(const std::string& file) {
  return load_topology_text(read_json_file(file), file);
}

}  // namespace gbesim
