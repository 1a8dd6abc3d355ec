#pragma once
// `gbesim run`: load a scenario, elaborate it, simulate it in chunks (progress, interruption),
// and write the results directory.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/common/stats.hpp"
#include "sim/input/scenario_loader.hpp"

namespace gbesim {

// What one kind of trace keeps: some stations' frames and events, within a time window.
struct TraceFilter {
  std::set<std::string> stations;  // empty: every station
  // events: components by name, each with everything inside it ("h" all of host h, "h.pci" its
  // bus, "h.pci.nic" the transactions its NIC masters); a station named here or in `stations`
  // keeps its own. Neither given: every component.
  std::set<std::string> components;
  Picoseconds from_ps = 0;
  Picoseconds to_ps = kForeverPs;
  // pcap, pcapng: stamp each frame at its first preamble bit (ts=start) instead of its last
  // FCS bit, or the end of its carrier extension (ts=end, the default).
  bool stamp_start = false;
  bool keeps(Picoseconds t) const { return t >= from_ps && t < to_ps; }
  bool keeps(const std::string& station) const {
    return (stations.empty() && components.empty()) || stations.count(station) > 0 ||
           components.count(station) > 0;
  }
  // The component names whose events are kept (empty: all).
  std::set<std::string> selection() const {
    std::set<std::string> out = components;
    out.insert(stations.begin(), stations.end());
    return out;
  }
};

// The values of --trace (split at commas): a kind, optionally with filters after a colon, e.g.
// "pcap:stations=a,b" (split as "pcap:stations=a", "b"), "events:from=1ms,to=2ms",
// "events:components=h.nic,h.pci", "pcapng:ts=start". A bare value continues the list of the
// filter before it. Throws ScenarioError naming "--trace" (exit 2).
std::map<std::string, TraceFilter> parse_traces(const std::vector<std::string>& values);

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

// The bytes of events.csv and of the pcap files the run's traces will take, estimated from the
// sources' rates and the filters (a shared medium or a slow receiver sends less; collisions add
// event rows); and the warning a run prints when they pass 100 MB.
std::pair<double, double> trace_bytes_estimate(const LoadedScenario& scenario,
                                               const RunOptions& options);
std::optional<std::string> large_trace_warning(const LoadedScenario& scenario,
                                               const RunOptions& options);

inline const std::vector<std::string>& trace_kinds() {
  static const std::vector<std::string> kinds = {"events", "pcap", "pcapng", "vcd"};
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
