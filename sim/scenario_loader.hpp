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

// One sweep axis: one path, several paths varied together ("zipped"), or labelled variants,
// each setting any paths it likes: {"label": L, "set": {"<path>": value, ...}}.
struct SweepAxis {
  std::string name;                       // the key as written
  std::vector<std::string> paths;         // path axes
  std::vector<std::vector<Json>> values;  // path axes: values[i][p] is paths[p] at step i
  std::vector<std::string> labels;        // variant axes
  std::vector<std::vector<std::pair<std::string, Json>>> sets;  // variant axes, in order
  bool variant() const { return !labels.empty(); }
  std::size_t steps() const { return variant() ? labels.size() : values.size(); }
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
  // What names a point in points.csv and summary.csv: a column per swept path, one per variant
  // axis; and point k's entries (values as text, or the variant's label).
  std::vector<std::string> columns() const;
  std::vector<std::string> point_labels(std::size_t k) const;
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
