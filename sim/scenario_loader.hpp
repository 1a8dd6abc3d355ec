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
#include "sim/json_path.hpp"

namespace gbesim {

// One sweep axis: one path, or several paths varied together ("zipped").
struct SweepAxis {
  std::vector<std::string> paths;
  std::vector<std::vector<Json>> values;  // values[i][p]: value of paths[p] at step i
};

inline constexpr std::size_t kMaxSweepRuns = 100000;

struct SweepPlan {
  std::vector<SweepAxis> axes;  // the last axis varies fastest
  std::int64_t replications = 1;
  std::int64_t base_seed = 1;

  std::size_t point_count() const;
  std::size_t run_count() const { return point_count() * static_cast<std::size_t>(replications); }
  // The path=value assignments of point k, in axis order.
  std::vector<std::pair<std::string, Json>> point(std::size_t k) const;
  std::vector<std::string> swept_paths() const;
  std::size_t point_of_run(std::size_t run) const { return run / replications; }
  std::int64_t replication_of_run(std::size_t run) const {
    return static_cast<std::int64_t>(run % replications);
  }
  std::int64_t seed_of_run(std::size_t run) const { return base_seed + replication_of_run(run); }
};

struct LoadOptions {
  std::vector<std::string> sets;     // "path=value", applied before any sweep point
  std::optional<std::size_t> run;    // --point K: run K of the sweep (point x replication)
  std::optional<std::int64_t> seed;  // --seed: overrides the scenario's (and the run's) seed
};

struct LoadedScenario {
  std::string file;
  ScenarioConfig config;
  Json resolved;  // every parameter with its value; itself a valid scenario
  SweepPlan plan;
  std::optional<std::size_t> run;
  std::vector<std::pair<std::string, Json>> point_values;  // of the selected run, if any
};

LoadedScenario load_scenario(const std::string& file, const LoadOptions& options = {});
// Loads and validates the base scenario and every sweep point; returns the plan.
SweepPlan load_sweep_plan(const std::string& file, const LoadOptions& options = {});

// Loads from text already in memory (tests, built-in scenarios); `file` names it in errors.
LoadedScenario load_scenario_text(const std::string& text, const std::string& file,
                                  const LoadOptions& options = {});

Json resolved_json(const ScenarioConfig& config);

}  // namespace gbesim
