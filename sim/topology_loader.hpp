#pragma once
// The strict reader of topology files (`gbesim topology FILE`): a cabling plant as JSON.
//
// {
//   "name": "two-hubs", "description": "...",
//   "rate_mbps": 100,                  // domains whose speed nothing else fixes
//   "margin_bt": 0,                    // added to every path delay value
//   "budget_bt": 512,                  // optional: replaces the speed's budget ("what if")
//   "media": {"my_cable": {"round_trip_bt_per_m": {"100": 1.2}, "source": "datasheet"}},
//   "nodes": {"a": {"kind": "dte"}, "h1": {"kind": "repeater", "class": "class_ii"},
//             "sw": {"kind": "switch"}, "mc": {"kind": "converter", "delay_bt": 12}},
//   "cables": [{"between": ["a", "h1"], "medium": "cat5", "length_m": 100}]
// }
//
// Errors name the file and JSON path, suggest what was probably meant, and are all reported
// together (ScenarioError); structural problems the analysis finds (loops, speeds that cannot
// meet) are reported the same way.

#include <string>

#include "models/topology/cabling.hpp"
#include "sim/json_path.hpp"

namespace gbesim {

struct LoadedTopology {
  std::string file;
  std::string description;
  CablingPlant plant;
  TopologyReport report;
};

// Reads and analyses; throws ScenarioError on bad input or structural problems.
LoadedTopology load_topology(const std::string& file);
LoadedTopology load_topology_text(const std::string& text, const std::string& file);
// The same from a block already parsed (a scenario's "topology"): errors go to `d` under `path`;
// `default_rate` is the speed of domains nothing in the block fixes.
class Diagnostics;
LoadedTopology read_topology_block(const Json& block, const std::string& file,
                                   const std::string& path, std::int64_t default_rate,
                                   Diagnostics& d);

}  // namespace gbesim
