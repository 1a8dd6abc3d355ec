#pragma once
// Aggregation of a sweep: points.csv (one row per planned run: its status, swept values and, for
// a complete run, every scalar) and summary.csv (per point and scalar over its complete runs:
// n, mean and 95% CI half-width, and whether every replication of the point is complete).

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/statistics.hpp"

namespace gbesim {

// The most runs a sweep may have (its points times its replications): the plan refuses more, and
// a results directory claiming more is not read.
inline constexpr std::size_t kMaxSweepRuns = 100000;

struct RunScalar {
  std::string component;
  std::string name;
  std::string unit;
  double value = 0;
  std::string text;  // the value as written in scalars.csv
};

struct RunRecord {
  std::size_t run = 0;
  std::size_t point = 0;
  std::int64_t replication = 0;
  std::int64_t seed = 0;
  // complete, or why not: running, interrupted, failed, stale (another configuration or
  // version), missing
  std::string status = "complete";
  std::vector<std::string> swept_values;  // as text, in the order of the swept paths
  std::vector<RunScalar> scalars;         // empty unless complete
};

std::string csv_field(const std::string& text);
// One CSV line split into fields (RFC 4180 quoting, as csv_field writes it).
std::vector<std::string> split_csv_line(const std::string& line);
std::string points_csv(const std::vector<std::string>& swept_paths,
                       const std::vector<RunRecord>& runs);
// One row of summary.csv: a point's statistic over its complete runs.
struct SummaryRow {
  std::size_t point = 0;
  const std::vector<std::string>* swept_values = nullptr;  // the point's, from one of its runs
  std::string component;
  std::string name;
  std::string unit;
  SampleSummary summary;
  bool complete = false;  // every replication of the point is complete (else "partial")
};
// `replications`: how many runs each point has in the plan. The rows point into `runs`.
std::vector<SummaryRow> summary_rows(const std::vector<RunRecord>& runs, std::int64_t replications);
std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<SummaryRow>& rows);
std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<RunRecord>& runs, std::int64_t replications);
// A value as results files write it: empty when it has no value (NaN), inf or -inf, otherwise
// the shortest text that reads back to the same double.
std::string number_text(double v);

}  // namespace gbesim
