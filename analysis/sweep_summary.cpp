#include "analysis/sweep_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
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

// A scalar's key, component and name (neither holds a NUL).
std::string scalar_key(const RunScalar& s) {
  std::string key = s.component;
  key += '\0';
  key += s.name;
  return key;
}

// Scalars in order of first appearance, each with its position in that order.
struct ScalarOrder {
  std::vector<const RunScalar*> first;  // the first of each
  std::unordered_map<std::string, std::size_t> index;
  std::size_t add(const RunScalar& s) {
    const auto [it, added] = index.emplace(scalar_key(s), first.size());
    if (added) first.push_back(&s);
    return it->second;
  }
};

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

std::string points_csv(const std::vector<std::string>& swept_paths,
                       const std::vector<RunRecord>& runs) {
  ScalarOrder columns;
  for (const auto& r : runs)
    for (const auto& s : r.scalars) columns.add(s);
  std::string out = "run,point,replication,seed,status";
  for (const auto& p : swept_paths) out += "," + csv_field(p);
  for (const RunScalar* c : columns.first) out += "," + csv_field(c->component + "." + c->name);
  out += "\n";
  std::vector<const RunScalar*> cells;
  for (const auto& r : runs) {
    out += fmt::format("{},{},{},{},{}", r.run, r.point, r.replication, r.seed, r.status);
    for (const auto& v : r.swept_values) out += "," + csv_field(v);
    cells.assign(columns.first.size(), nullptr);
    for (const auto& s : r.scalars) cells[columns.index.find(scalar_key(s))->second] = &s;
    for (const RunScalar* cell : cells) {
      out += ',';
      if (cell != nullptr) out += cell->text;
    }
    out += "\n";
  }
  return out;
}

std::vector<SummaryRow> summary_rows(const std::vector<RunRecord>& runs,
                                     std::int64_t replications) {
  std::vector<SummaryRow> rows;
  // Points in order; within a point, scalars in order of first appearance.
  std::map<std::size_t, std::vector<const RunRecord*>> by_point;
  for (const auto& r : runs)
    if (r.status == "complete") by_point[r.point].push_back(&r);
  for (const auto& [point, members] : by_point) {
    const bool complete = static_cast<std::int64_t>(members.size()) >= replications;
    ScalarOrder order;
    std::vector<std::vector<double>> samples;
    std::vector<const std::string*> units;
    for (const RunRecord* r : members) {
      for (const auto& s : r->scalars) {
        const std::size_t i = order.add(s);
        if (i == samples.size()) {
          samples.emplace_back();
          units.push_back(nullptr);
        }
        // Statistics that do not exist for a run (no value, e.g. the latency of a sink that
        // received nothing) are left out of the summary rather than counted as zeros.
        if (!std::isnan(s.value)) samples[i].push_back(s.value);
        units[i] = &s.unit;
      }
    }
    for (std::size_t i = 0; i < order.first.size(); ++i)
      rows.push_back({point, &members.front()->swept_values, order.first[i]->component,
                      order.first[i]->name, *units[i], summarize(samples[i]), complete});
  }
  return rows;
}

std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<SummaryRow>& rows) {
  std::string out = "point";
  for (const auto& p : swept_paths) out += "," + csv_field(p);
  out += ",component,name,unit,n,mean,ci95_half_width,status\n";
  std::string prefix;
  const std::vector<std::string>* prefix_of = nullptr;
  for (const SummaryRow& row : rows) {
    if (row.swept_values != prefix_of) {
      prefix_of = row.swept_values;
      prefix = std::to_string(row.point);
      for (const auto& v : *row.swept_values) prefix += "," + csv_field(v);
    }
    out += fmt::format("{},{},{},{},{},{},{},{}\n", prefix, csv_field(row.component),
                       csv_field(row.name), csv_field(row.unit), row.summary.n,
                       number_text(row.summary.mean), number_text(row.summary.ci95_half_width),
                       row.complete ? "complete" : "partial");
  }
  return out;
}

std::string summary_csv(const std::vector<std::string>& swept_paths,
                        const std::vector<RunRecord>& runs, std::int64_t replications) {
  return summary_csv(swept_paths, summary_rows(runs, replications));
}

}  // namespace gbesim
