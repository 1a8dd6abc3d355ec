#pragma once
// The files of a run's directory: what it will write (named before it is opened, so that a
// directory that is not gbesim's is refused before it is marked), what an earlier run there
// wrote and may be removed, and the `running` record written before anything is simulated.

#include <filesystem>
#include <string>
#include <vector>

#include "sim/input/scenario_loader.hpp"
#include "sim/run/run_options.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {

// The files a run writes besides run.json, which lists them (so that the next run in the same
// directory removes exactly what this one wrote, e.g. pcaps of stations it no longer has).
std::vector<std::string> output_files(const RunOptions& options, const ScenarioConfig& config);
// Every name a run may write in its directory: its outputs, flows.csv (written when the run has
// flows) and run.json.
std::vector<std::string> names_written(std::vector<std::string> outputs);

// Makes room for this run's files: in a directory gbesim marked, what the last run's run.json
// lists is removed (its pcaps of stations this run no longer has too); a file this run would
// write that no record lists is refused, never overwritten (OutputDirectory). Then run.json says
// `running` and lists what this run will write, so that a run killed before its end leaves a
// record naming its files for the next run here to remove.
void prepare_outputs(const OutputDirectory& out, const LoadedScenario& scenario,
                     const std::vector<std::string>& outputs);

// The default results directory of a run: results/<name>, or results/<name>/runs/<K> for --point K.
std::filesystem::path default_out_dir(const LoadedScenario& scenario);

}  // namespace gbesim
