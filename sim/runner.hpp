#pragma once
// `gbesim run`: load a scenario, elaborate it, simulate it in chunks (progress, interruption),
// and write the results directory.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/common/stats.hpp"
#include "sim/scenario_loader.hpp"

namespace gbesim {

struct RunOptions {
  std::string scenario_file;
  LoadOptions load;
  std::optional<std::filesystem::path> out_dir;
  std::set<std::string> traces;  // events, pcap, vcd
  bool quiet = false;            // no progress, no summary
  // Fixed simulated time per kernel call instead of the adaptive one (for tests that prove the
  // chunking does not change results).
  std::optional<std::int64_t> chunk_ns;
  // Set by a sweep for its runs: the run ends (as on SIGTERM) when this process does.
  std::optional<std::int64_t> parent_pid;
};

inline const std::vector<std::string>& trace_kinds() {
  static const std::vector<std::string> kinds = {"events", "pcap", "vcd"};
  return kinds;
}

// The default results directory of a run: results/<name>, or results/<name>/runs/<K> for --point K.
std::filesystem::path default_out_dir(const LoadedScenario& scenario);

// Runs one simulation. Returns the process exit code (0, or 130 when interrupted).
// Throws ScenarioError for bad input.
int run_simulation(const RunOptions& options);

// scalars.csv text for a list of scalars.
std::string scalars_csv(const std::vector<Scalar>& scalars);
std::string format_scalar_value(const Scalar& s);

}  // namespace gbesim
