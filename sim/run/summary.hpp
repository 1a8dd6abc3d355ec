#pragma once
// What `gbesim run` prints when it ends: a line for the run, a table of the stations, a line per
// collision domain, host (bus, NIC, driver, applications, the bus's ceiling), switch and
// 1000BASE-T link, and where the results are.

#include <filesystem>
#include <vector>

#include "models/common/stats.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/run/simulate.hpp"

namespace gbesim {

class Network;

void print_summary(const LoadedScenario& scenario, const Network& network,
                   const std::vector<Scalar>& scalars, const Outcome& outcome,
                   const std::filesystem::path& dir, const std::vector<std::string>& outputs);

}  // namespace gbesim
