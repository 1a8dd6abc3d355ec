#pragma once
// What a run writes when it ends: scalars.csv (every model's statistics, the network's totals,
// the analytic references beside them, the plant's figures), flows.csv, and run.json (the
// record: configuration, status, timing, the files' checks, what the run said before it ran).
// Also what it says before it runs: the plant's rules and the sources' warnings.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/input/scenario_resolve.hpp"
#include "sim/input/topology_loader.hpp"
#include "sim/run/run_options.hpp"
#include "sim/run/simulate.hpp"

namespace gbesim {

class Network;
class SeriesRecorder;

// The plant a scenario's topology block describes, analysed, and every warning a run says
// before it simulates: the plant's broken rules first, then cables past their segment limits,
// then sources that send nothing.
struct RunChecks {
  std::shared_ptr<const LoadedTopology> plant;
  std::vector<std::string> rule_warnings;
  std::vector<RuleBreach> rule_breaches;
  std::vector<std::string> segment_warnings;
  std::vector<std::string> source_warnings;
};
RunChecks check_run(const LoadedScenario& scenario);
// Prints them on stderr (with the --set overrides a sweep point replaced).
void print_warnings(const LoadedScenario& scenario, const RunChecks& checks);

// Every scalar of the run, in scalars.csv's order.
std::vector<Scalar> result_scalars(const LoadedScenario& scenario, const Network& network,
                                   SimContext& context, const Outcome& outcome,
                                   const RunChecks& checks);
std::string scalars_csv(const std::vector<Scalar>& scalars);
std::string format_scalar_value(const Scalar& s);
// One row per flow (a traffic source's frames at its receiver), with what its source sent; empty
// when there is no flow.
std::string flows_csv(const std::vector<Scalar>& scalars);

// The topology files beside the results (topology.txt, topology_pairs.csv, topology.dot).
void write_topology_files(const std::filesystem::path& dir, const LoadedTopology& plant);

// run.json's record (unsealed), once every other file is written: `outputs` what the run wrote
// (flows.csv is put beside scalars.csv when written).
Json run_record(const LoadedScenario& scenario, const RunOptions& options,
                const SimContext& context, const Outcome& outcome, const RunChecks& checks,
                std::vector<std::string> outputs, bool flows, const SeriesRecorder* series,
                const std::filesystem::path& dir);

}  // namespace gbesim
