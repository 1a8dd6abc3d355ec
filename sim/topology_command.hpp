#pragma once
// `gbesim topology FILE`: the collision-domain report of a cabling plant, on stdout and in the
// output directory (topology.txt, topology_pairs.csv, topology.dot).

#include <string>

#include "sim/topology_loader.hpp"

namespace gbesim {

struct TopologyOptions {
  std::string file;
  std::string out_dir;      // default results/<name>
  bool quiet = false;       // files only
  bool every_pair = false;  // list every pair, not each station's worst
};

// The report as text: a table per collision domain (the worst pairs first), the worst path, its
// margin in bit times and metres of cable, the verdict and the notes.
std::string topology_report_text(const LoadedTopology& topology, std::size_t max_pairs = 12);
// The listed pairs of every domain (each station's worst, or every pair), one row each.
std::string topology_pairs_csv(const TopologyReport& report);

// Exit code: 0 every domain passes, 1 some domain fails, 2 bad input (thrown as ScenarioError).
int run_topology(const TopologyOptions& options);

}  // namespace gbesim
