#pragma once
// What `gbesim run` is asked to do: the scenario, its overrides, where the results go, which
// traces it writes.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "sim/input/scenario_loader.hpp"
#include "sim/run/traces.hpp"

namespace gbesim {

struct RunOptions {
  std::string scenario_file;
  LoadOptions load;
  std::optional<std::filesystem::path> out_dir;
  std::set<std::string> traces;                      // events, pcap, vcd
  std::map<std::string, TraceFilter> trace_filters;  // by kind, for those given filters
  bool quiet = false;                                // no progress, no summary
  // Fixed simulated time per kernel call instead of the adaptive one (for tests that prove the
  // chunking does not change results).
  std::optional<std::int64_t> chunk_ns;
  // Set by a sweep for its runs: the run ends (as on SIGTERM) when this process does.
  std::optional<std::int64_t> parent_pid;
};

}  // namespace gbesim
