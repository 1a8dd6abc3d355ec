#pragma once
// The strict reader of topology files (`gbesim topology FILE`): a cabling plant as JSON.
// The document is declared in sim/topology_schema.hpp.
//
// Errors name the file and JSON path, suggest what was probably meant, and are all reported
// together (ScenarioError); structural problems the analysis finds (loops, speeds that cannot
// meet) are reported the same way.

#include <cstddef>
#include <map>
#include <string>

#include "models/topology/cabling.hpp"
#include "sim/input/json_path.hpp"

namespace gbesim {

// A scenario's topology block is simulated: a run needs the delay of every pair of its stations
// (kept as a matrix per domain) and simulates every station, so the block takes far smaller plants
// than `gbesim topology` (kMaxPlantNodes): as many stations as one simulated collision domain of
// `gbesim bench` (1,024), and repeaters between them.
inline constexpr std::size_t kMaxScenarioPlantNodes = 4096;
inline constexpr std::size_t kMaxScenarioPlantStations = 1024;

struct LoadedTopology {
  std::string file;
  std::string description;
  CablingPlant plant;
  TopologyReport report;
  PairScope scope = PairScope::worst_per_station;  // which pairs `report` lists
  Json resolved;  // the document as read, every default written out (loads again to the same)
  // Keys given by an old name: "topology.cables[2].length_m: the old name of cable_m ...".
  std::vector<std::string> warnings;
};

// Reads and analyses; throws ScenarioError on bad input or structural problems.
LoadedTopology load_topology(const std::string& file);
LoadedTopology load_topology_text(const std::string& text, const std::string& file);
// The same from a block already parsed (a scenario's "topology"): errors go to `d` under `path`;
// `default_rate` is the speed of domains nothing in the block fixes; `media`, the scenario's
// media table, which the block's own "media" may change further. At most
// kMaxScenarioPlantNodes nodes and kMaxScenarioPlantStations stations (dte).
class Diagnostics;
LoadedTopology read_topology_block(const Json& block, const std::string& file,
                                   const std::string& path, std::int64_t default_rate,
                                   Diagnostics& d,
                                   const std::map<std::string, MediumParams>* media = nullptr);

}  // namespace gbesim
