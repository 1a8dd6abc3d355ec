#pragma once
// `gbesim sweep`: every point x replication of a scenario's sweep, each as its own process
// (`gbesim run SCENARIO --point K`: SystemC allows one elaboration per process), -j at a time.
// Runs already complete with the same configuration are skipped, so a sweep resumes; the same
// --point K lets a cluster job array spread a sweep over machines, and a final `gbesim sweep`
// in the same directory aggregates. Writes sweep.json, runs/<K>/, points.csv and summary.csv.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gbesim {

struct SweepOptions {
  std::string scenario_file;
  std::vector<std::string> sets;
  int jobs = 1;
  std::optional<std::filesystem::path> out_dir;
  bool list_only = false;
  bool quiet = false;
  std::string self;  // path of the gbesim executable to spawn
};

int run_sweep(const SweepOptions& options);

}  // namespace gbesim
