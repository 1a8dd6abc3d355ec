#include "analysis/sweep_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/statistics.hpp"

namespace gbesim {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  out.reserve(1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')));
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(field));
      field.clear();
    } else {
      field += c;
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

// Scalar columns in order of first appearance.
std::vector<std::pair<std::string, std::string>> scalar_columns(
    const std::vector<RunRecord>& runs) {
  std::vector<std::pair<std::string, std::string>> columns;
  std::map<std::pair<std::string, std::string>, bool> seen;
  for (const auto& r : runs)
    for (const auto& s : r.scalars)
      if (!seen[{s.component, s.name}]) {
        seen[{s.component, s.name}] = true;
        columns.emplace_back(s.component, s.name);
      }
  return columns;
}

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

std::string points_csv(const std::vector<std::string>& swept_paths,
                       const std::vector<RunRecord>& runs) {
  const auto columns = scalar_columns(runs);
  std::string out = "run,point,replication,seed,status";
  for (const auto& p : swept_paths) out += "," + csv_field(p);
  for (const auto& [component, name] : columns) out += "," + csv_field(component + "." + name);
  out += "\n";
  for (const auto& r : runs) {
    out += fmt::format("{},{},{},{},{}", r.run, r.point, r.replication, r.seed, r.status);
    for (const auto& v : r.swept_values) out += "," + csv_field(v);
    std::map<std::pair<std::string, std::string>, const RunScalar*> by_key;
    for (const auto& s : r.scalars) by_key[{s.component, s.name}] = &s;
    for (const auto& key : columns) {
      auto it = by_key.find(key);
      out += "," + (it == by_key.end() ? std::string() : it->second->text);
    }
    out += "\n";
  }
  return out;
}

std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<RunRecord>& runs, std::int64_t replications) {
  std::string out = "point";
  for (const auto& p : swept_paths) out += "," + csv_field(p);
  out += ",component,name,unit,n,mean,ci95_half_width,status\n";
  // Points in order; within a point, scalars in order of first appearance.
  std::map<std::size_t, std::vector<const RunRecord*>> by_point;
  for (const auto& r : runs)
    if (r.status == "complete") by_point[r.point].push_back(&r);
  for (const auto& [point, members] : by_point) {
    const char* status =
        static_cast<std::int64_t>(members.size()) >= replications ? "complete" : "partial";
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::pair<std::string, std::string>, std::vector<double>> samples;
    std::map<std::pair<std::string, std::string>, std::string> units;
    for (const RunRecord* r : members) {
      for (const auto& s : r->scalars) {
        const auto key = std::make_pair(s.component, s.name);
        if (samples.find(key) == samples.end()) order.push_back(key);
        // Statistics that do not exist for a run (no value, e.g. the latency of a sink that
        // received nothing) are left out of the summary rather than counted as zeros.
        auto& list = samples[key];
        if (!std::isnan(s.value)) list.push_back(s.value);
        units[key] = s.unit;
      }
    }
    std::string prefix = std::to_string(point);
    for (const auto& v : members.front()->swept_values) prefix += "," + csv_field(v);
    for (const auto& key : order) {
      const SampleSummary sum = summarize(samples[key]);
      out += fmt::format("{},{},{},{},{},{},{},{}\n", prefix, csv_field(key.first),
                         csv_field(key.second), csv_field(units[key]), sum.n, number_text(sum.mean),
                         number_text(sum.ci95_half_width), status);
    }
  }
  return out;
}

}  // namespace gbesim
