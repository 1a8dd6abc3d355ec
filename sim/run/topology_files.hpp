#pragma once
// A cabling plant's report as the files a run and `gbesim topology` write: topology.txt (a table
// per collision domain, the worst pairs first, the worst path, its margin in bit times and metres
// of cable, the verdict and the notes) and topology_pairs.csv (the listed pairs, one row each).

#include <cstddef>
#include <string>

#include "sim/input/topology_loader.hpp"

namespace gbesim {

std::string topology_report_text(const LoadedTopology& topology, std::size_t max_pairs = 12);
std::string topology_pairs_csv(const TopologyReport& report);

}  // namespace gbesim
