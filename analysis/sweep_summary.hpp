#pragma once
// Aggregation of a sweep: points.csv (one row per run: swept values and every scalar) and
// summary.csv (per point and scalar: n, mean and 95% CI half-width over replications).

#include <cstdint>
#include <string>
#include <vector>

namespace gbesim {

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
  std::vector<std::string> swept_values;  // as text, in the order of the swept paths
  std::vector<RunScalar> scalars;
};

std::string csv_field(const std::string& text);
// One CSV line split into fields (RFC 4180 quoting, as csv_field writes it).
std::vector<std::string> split_csv_line(const std::string& line);
std::string points_csv(const std::vector<std::string>& swept_paths,
                       const std::vector<RunRecord>& runs);
std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<RunRecord>& runs);

}  // namespace gbesim
