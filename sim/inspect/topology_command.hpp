#pragma once
// `gbesim topology FILE`: the collision-domain report of a cabling plant, on stdout and in the
// output directory (topology.txt, topology_pairs.csv, topology.dot).

#include <string>

#include "sim/input/topology_loader.hpp"

namespace gbesim {

struct TopologyOptions {
  std::string file;
  std::string out_dir;      // default results/<name>
  bool quiet = false;       // files only
  bool every_pair = false;  // list every pair, not each station's worst
};

// Exit code: 0 every domain passes, 1 some domain fails, 2 bad input (thrown as ScenarioError).
int run_topology(const TopologyOptions& options);

}  // namespace gbesim
