#pragma once
// `gbesim run`: load a scenario, elaborate it, simulate it in chunks (progress, interruption),
// and write the results directory -- a few steps, each in the file of its own: the outputs
// (sim/run/outputs), the traces (traces), the kernel run (simulate), the results and run.json
// (results), what is printed (summary).

#include "sim/run/outputs.hpp"
#include "sim/run/results.hpp"
#include "sim/run/run_options.hpp"
#include "sim/run/traces.hpp"

namespace gbesim {

// Runs one simulation. Returns the process exit code (0, or 130 when interrupted).
// Throws ScenarioError for bad input.
int run_simulation(const RunOptions& options);

}  // namespace gbesim
