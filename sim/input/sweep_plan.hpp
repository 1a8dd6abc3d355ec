#pragma once
// The sweep plan: a scenario's "sweep" block (axes of values or labelled variants), its
// replications and base seed, and which run is which point. Read apart from the configuration:
// a point is the scenario with its assignments applied, then read like any scenario.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/sweep_summary.hpp"
#include "sim/input/json_path.hpp"
#include "sim/support/diagnostics.hpp"

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

struct SweepPlan {
  std::vector<SweepAxis> axes;  // the last axis varies fastest
  std::int64_t replications = 1;
  std::int64_t base_seed = 1;
  // The sweep's "exclude" entry: combinations of column entries that are not points (e.g. a PCI
  // NIC on a PCI Express link). `kept` lists the product's indices that remain, in order; empty
  // when nothing is excluded.
  std::vector<std::vector<std::pair<std::string, std::vector<std::string>>>> excludes;
  std::vector<std::size_t> kept;

  std::size_t point_count() const;
  std::size_t run_count() const { return point_count() * static_cast<std::size_t>(replications); }
  // The path=value assignments of point k, in axis order.
  std::vector<std::pair<std::string, Json>> point(std::size_t k) const;
  // What names a point in points.csv and summary.csv: a column per swept path, one per variant
  // axis; and point k's entries (values as text, or the variant's label).
  std::vector<std::string> columns() const;
  std::vector<std::string> point_labels(std::size_t k) const;
  // Point k's step on each axis.
  std::vector<std::size_t> steps_of_point(std::size_t k) const;
  std::size_t point_of_run(std::size_t run) const { return run / replications; }
  std::int64_t replication_of_run(std::size_t run) const {
    return static_cast<std::int64_t>(run % replications);
  }
  std::int64_t seed_of_run(std::size_t run) const { return base_seed + replication_of_run(run); }
};

// The plan of a scenario document (its sweep, replications and seed); errors go to `d`.
SweepPlan read_sweep_plan(const Json& doc, Diagnostics& d);

// The runs of shard `index` (1 .. count) when `runs` runs are split into `count` blocks of
// consecutive runs whose sizes differ by at most one: [first, last). Every run is in exactly one
// shard; count must be 1 .. runs.
struct RunBlock {
  std::size_t first = 0;
  std::size_t last = 0;
};
RunBlock shard_block(std::size_t runs, std::size_t index, std::size_t count);

// "path=value, path=value": a point's assignments, for messages.
std::string point_label(const std::vector<std::pair<std::string, Json>>& values);

}  // namespace gbesim
