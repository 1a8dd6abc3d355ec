#include "analysis/results.hpp"

#include "analysis/sweep_summary.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace gbesim {

namespace {

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot be read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file.string() + ": not valid JSON (" + e.what() + ")");
  }
}

}  // namespace

std::string axis_short_name(const std::string& axis) {
  std::string last = axis.substr(0, axis.find(", "));
  const auto dot = last.rfind('.');
  return dot == std::string::npos ? last : last.substr(dot + 1);
}

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

int CsvTable::column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

std::string CsvTable::at(std::size_t row, const std::string& name) const {
  const int c = column(name);
  if (c < 0 || row >= rows.size() || static_cast<std::size_t>(c) >= rows[row].size()) return "";
  return rows[row][static_cast<std::size_t>(c)];
}

double CsvTable::number(std::size_t row, const std::string& name) const {
  return parse_number(at(row, name)).value_or(std::numeric_limits<double>::quiet_NaN());
}

CsvTable read_csv_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot be read");
  CsvTable t;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(file + ": empty (expected a header row)");
  t.columns = split_csv_line(line);
  while (std::getline(in, line))
    if (!line.empty()) t.rows.push_back(split_csv_line(line));
  return t;
}

std::optional<Statistic> Results::value(std::size_t point, const std::string& component,
                                        const std::string& name) const {
  asked_.emplace(component, name);
  const auto it = stats_.find({point, component, name});
  if (it == stats_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Results::components() const {
  std::set<std::string> seen;
  for (const auto& [key, s] : stats_) seen.insert(std::get<1>(key));
  return {seen.begin(), seen.end()};
}

int Results::axis(const std::string& name) const {
  const auto it = std::find(axes.begin(), axes.end(), name);
  return it == axes.end() ? -1 : static_cast<int>(it - axes.begin());
}

std::vector<std::size_t> Results::where(
    const std::vector<std::pair<std::string, std::string>>& fixed) const {
  std::vector<std::size_t> out;
  for (std::size_t p = 0; p < points.size(); ++p) {
    bool ok = true;
    for (const auto& [ax, v] : fixed) {
      // A point with no complete run (an interrupted sweep) has no values: it matches nothing.
      const int a = axis(ax);
      if (a < 0 || static_cast<std::size_t>(a) >= points[p].size() ||
          points[p][static_cast<std::size_t>(a)] != v)
        ok = false;
    }
    if (ok) out.push_back(p);
  }
  return out;
}

std::vector<std::string> Results::values_of(const std::string& ax) const {
  std::vector<std::string> out;
  const int a = axis(ax);
  if (a < 0) return out;
  for (const auto& p : points) {
    if (static_cast<std::size_t>(a) >= p.size()) continue;  // a point with no complete run
    const auto& v = p[static_cast<std::size_t>(a)];
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

const nlohmann::json& Results::config(std::size_t point) const {
  const auto cached = configs_.find(point);
  if (cached != configs_.end()) return cached->second;
  nlohmann::json& out = configs_[point];
  if (kind == ResultsKind::run) {
    out = provenance.value("config", nlohmann::json());
  } else if (kind == ResultsKind::sweep) {
    const auto replications = std::max(1, provenance.value("replications", 1));
    std::ifstream in(std::filesystem::path(dir) / "runs" /
                     std::to_string(point * static_cast<std::size_t>(replications)) / "run.json");
    if (in) {
      try {
        out = nlohmann::json::parse(in).value("config", nlohmann::json());
      } catch (const std::exception&) {
        out = nullptr;
      }
    }
  }
  return out;
}

Results load_results(const std::string& dir_text) {
  namespace fs = std::filesystem;
  const fs::path dir(dir_text);
  if (!fs::is_directory(dir)) throw std::runtime_error(dir_text + ": no such results directory");
  Results r;
  r.dir = dir_text;
  if (fs::exists(dir / "sweep.json")) {
    r.kind = ResultsKind::sweep;
    r.provenance = read_json(dir / "sweep.json");
    r.name = r.provenance.value("name", "");
    const auto summary = read_csv_file((dir / "summary.csv").string());
    // point, <axes...>, component, name, unit, n, mean, ci95_half_width
    const int comp = summary.column("component");
    if (summary.column("point") != 0 || comp < 1 || summary.column("mean") < 0)
      throw std::runtime_error((dir / "summary.csv").string() +
                               ": expected columns point, <axes>, component, name, unit, n, mean, "
                               "ci95_half_width");
    r.axes.assign(summary.columns.begin() + 1, summary.columns.begin() + comp);
    for (std::size_t i = 0; i < summary.rows.size(); ++i) {
      if (summary.rows[i].size() != summary.columns.size())
        throw std::runtime_error((dir / "summary.csv").string() + ": row " + std::to_string(i + 2) +
                                 " has " + std::to_string(summary.rows[i].size()) +
                                 " fields, not " + std::to_string(summary.columns.size()));
      const auto point = static_cast<std::size_t>(std::stoul(summary.rows[i][0]));
      if (point >= r.points.size()) r.points.resize(point + 1);
      if (r.points[point].empty())
        r.points[point].assign(summary.rows[i].begin() + 1, summary.rows[i].begin() + comp);
      Statistic s;
      s.mean = summary.number(i, "mean");
      s.ci95 = summary.number(i, "ci95_half_width");
      if (std::isnan(s.ci95)) s.ci95 = 0;
      s.n = static_cast<int>(summary.number(i, "n"));
      s.unit = summary.at(i, "unit");
      r.set(point, summary.at(i, "component"), summary.at(i, "name"), s);
    }
    // A point with no complete run (an interrupted sweep) has no rows: empty values, which no
    // chart takes for a number.
    for (auto& p : r.points)
      if (p.empty()) p.assign(r.axes.size(), "");
    // The description, from the first run's record when there is one.
    const fs::path first = dir / "runs" / "0" / "run.json";
    if (fs::exists(first)) r.description = read_json(first).value("description", "");
  } else if (fs::exists(dir / "run.json")) {
    r.kind = ResultsKind::run;
    r.provenance = read_json(dir / "run.json");
    r.name = r.provenance.value("name", "");
    r.description = r.provenance.value("description", "");
    r.points.resize(1);
    // A time series (docs/results.md), when the run recorded one.
    if (fs::exists(dir / "series.csv"))
      r.tables["series"] = read_csv_file((dir / "series.csv").string());
    const auto scalars = read_csv_file((dir / "scalars.csv").string());
    for (std::size_t i = 0; i < scalars.rows.size(); ++i) {
      Statistic s;
      s.mean = scalars.number(i, "value");
      s.n = 1;
      s.unit = scalars.at(i, "unit");
      r.set(0, scalars.at(i, "component"), scalars.at(i, "name"), s);
    }
  } else if (fs::exists(dir / "phy.json")) {
    r.kind = ResultsKind::phy;
    r.provenance = read_json(dir / "phy.json");
    r.name = "phy";
    for (const char* stem : {"awgn", "coding_gain", "cable", "reach", "eye"})
      if (fs::exists(dir / (std::string(stem) + ".csv")))
        r.tables[stem] = read_csv_file((dir / (std::string(stem) + ".csv")).string());
  } else {
    throw std::runtime_error(dir_text +
                             ": not a results directory (no run.json, sweep.json or phy.json)");
  }
  return r;
}

}  // namespace gbesim
