#pragma once
// The strict scenario loader: JSON file + --set overrides (+ a sweep point) -> ScenarioConfig.
// Unknown keys, wrong types, out-of-range values and inconsistent references are errors that
// name the file and the JSON path; all errors of a file are reported together.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenarios/scenario_config.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/sweep_plan.hpp"

namespace gbesim {

struct LoadOptions {
  std::vector<std::string> sets;     // "path=value", applied before any sweep point
  std::optional<std::size_t> run;    // --point K: run K of the sweep (point x replication)
  std::optional<std::int64_t> seed;  // --seed: overrides the scenario's (and the run's) seed
};

struct LoadedScenario {
  std::string file;
  ScenarioConfig config;
  Json written;   // the document as the user wrote it, with --set and the sweep point applied
  Json resolved;  // every parameter with its value; itself a valid scenario
  Json derived;   // what the resolve step computed (scenario_resolve.hpp), never a parameter
  SweepPlan plan;
  std::optional<std::size_t> run;
  std::vector<std::pair<std::string, Json>> point_values;  // of the selected run, if any
  // --set overrides the selected sweep point replaced (the point applies after --set), said as
  // warnings: "--set duration_ns=5000000 is replaced by sweep point 35's duration_ns = ...".
  std::vector<std::string> overridden_sets;
};

LoadedScenario load_scenario(const std::string& file, const LoadOptions& options = {});
// Loads and validates the base scenario and every sweep point; returns the plan.
SweepPlan load_sweep_plan(const std::string& file, const LoadOptions& options = {});

// Checks each value of each sweep axis applied alone to the base scenario (not every point):
// throws ScenarioError naming the axis and value. For `gbesim run`, which runs the base.
void check_sweep_axes(const std::string& file, const LoadOptions& options = {});

// Loads from text already in memory (tests, built-in scenarios); `file` names it in errors.
LoadedScenario load_scenario_text(const std::string& text, const std::string& file,
                                  const LoadOptions& options = {});

Json resolved_json(const ScenarioConfig& config);

}  // namespace gbesim
