#pragma once
// A sweep's results as one SQLite file (DIR/results.sqlite), as OMNeT++ can give its results, so
// that SQL, pandas (analysis/python/gbesim_results.py) or any SQLite tool reads them without
// parsing CSV. Written at the end of a sweep (and by --aggregate) from the same records as
// points.csv and summary.csv, atomically (a temporary file renamed into place). Tables
// (docs/results.md):
//   axes(position, name)                       -- the swept paths or variant axes, in order
//   points(point, axis, label, value)          -- each point's value on each axis: the label as
//                                                 written, and as a number when it is one
//   parameters(point, path, value, text)       -- every path a point sets: numbers in `value`,
//                                                 strings and booleans (also 0/1) in `text`,
//                                                 structured values as JSON text
//   runs(run, point, replication, seed, status)
//   scalars(run, component, name, unit, value) -- every complete run's scalars.csv (NULL: none)
//   summary(point, component, name, unit, n, mean, ci95_half_width)  -- summary.csv
//   series(run, time_s, component, name, unit, value)                -- runs' series.csv

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/sweep_summary.hpp"

namespace gbesim {

struct SweepTables {
  std::vector<std::string> axes;
  std::vector<std::vector<std::string>> point_labels;  // per point, per axis
  std::vector<std::vector<std::pair<std::string, nlohmann::ordered_json>>> point_sets;  // per point
  std::vector<RunRecord> runs;
  std::vector<SummaryRow> summary;  // summary.csv's rows
};

// Throws std::runtime_error naming the file and SQLite's message.
void write_results_sqlite(const std::filesystem::path& sweep_dir, const SweepTables& tables);

}  // namespace gbesim
