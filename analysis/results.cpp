#include "analysis/results.hpp"

#include "analysis/result_files.hpp"
#include "analysis/sweep_summary.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>

namespace gbesim {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw ResultsError(file.string() + ": " + what);
}

nlohmann::json read_record(const std::filesystem::path& file) {
  return read_record_file(file);
}

// A member of a record of the expected type, or `fallback` when absent.
std::string text_member(const nlohmann::json& record, const std::filesystem::path& file,
                        const std::string& key, const std::string& fallback = "") {
  if (!record.contains(key)) return fallback;
  if (!record[key].is_string())
    fail(file, key + ": expected a string, got " + std::string(record[key].type_name()));
  return record[key].get<std::string>();
}

std::int64_t integer_member(const nlohmann::json& record, const std::filesystem::path& file,
                            const std::string& key, std::int64_t fallback, std::int64_t min,
                            std::int64_t max) {
  if (!record.contains(key)) return fallback;
  const auto& v = record[key];
  if (!v.is_number_integer() || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max)
    fail(file, key + ": expected an integer in " + std::to_string(min) + " .. " +
                   std::to_string(max) + ", got " + v.dump());
  return v.get<std::int64_t>();
}

// A run's record must say it finished: a running one has not (or was killed).
void require_finished(const nlohmann::json& record, const std::filesystem::path& file) {
  const std::string status = text_member(record, file, "status", "complete");
  if (status == "complete" || status == "interrupted") return;
  if (status == "running")
    fail(file, "says the run is still running (or was killed before its end): no results yet");
  fail(file, "status: expected \"complete\" or \"interrupted\", got \"" + status + "\"");
}

bool has_control_byte(const std::string& line) {
  return std::any_of(line.begin(), line.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t' && c != '\r') || u == 0x7f;
  });
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
  return parse_csv(read_result_file(file), file);
}

CsvTable parse_csv(const std::string& text, const std::string& file) {
  CsvTable t;
  std::size_t line_number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (has_control_byte(line))
      fail(file, "line " + std::to_string(line_number) +
                     ": holds a control byte: not a CSV file gbesim wrote");
    if (line_number == 1) {
      t.columns = split_csv_line(line);
      continue;
    }
    if (line.empty()) continue;
    auto fields = split_csv_line(line);
    if (fields.size() != t.columns.size())
      fail(file, "line " + std::to_string(line_number) + ": " + std::to_string(fields.size()) +
                     " fields; the header has " + std::to_string(t.columns.size()));
    t.rows.push_back(std::move(fields));
  }
  if (line_number == 0 || t.columns.empty() || (t.columns.size() == 1 && t.columns[0].empty()))
    fail(file, "empty (expected a header row)");
  return t;
}

bool is_number_field(const std::string& text) {
  if (text.empty() || text == "inf" || text == "-inf") return true;
  std::size_t i = text[0] == '-' ? 1 : 0;
  const std::size_t digits_from = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == digits_from) return false;
  if (i < text.size() && text[i] == '.') {
    const std::size_t from = ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == from) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t from = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == from) return false;
  }
  if (i != text.size()) return false;
  const auto v = parse_number(text);
  return v && std::isfinite(*v);
}

CsvTable parse_csv_as(const std::string& text, const std::string& file,
                      const std::vector<std::string>& columns,
                      const std::vector<std::string>& numeric) {
  CsvTable t = parse_csv(text, file);
  if (t.columns != columns) {
    std::string expected;
    for (const auto& c : columns) expected += (expected.empty() ? "" : ",") + c;
    fail(file, "line 1: expected the header " + expected);
  }
  std::vector<std::size_t> checked;
  for (const auto& name : numeric) checked.push_back(static_cast<std::size_t>(t.column(name)));
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    for (const std::size_t c : checked)
      if (!is_number_field(t.rows[r][c]))
        fail(file, "line " + std::to_string(r + 2) + ": " + t.columns[c] + " \"" +
                       t.rows[r][c].substr(0, 40) +
                       "\" is not a number (gbesim writes a number, inf, -inf or nothing)");
  return t;
}

CsvTable parse_scalars_csv(const std::string& text, const std::string& file) {
  return parse_csv_as(text, file, {"component", "name", "unit", "value"}, {"value"});
}

CsvTable parse_series_csv(const std::string& text, const std::string& file) {
  return parse_csv_as(text, file, {"time_s", "component", "name", "unit", "value"},
                      {"time_s", "value"});
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

const nlohmann::json& Results::record(std::size_t point) const {
  const auto found = records_.find(point);
  if (found != records_.end()) return found->second;
  static const nlohmann::json kNone;
  return kind == ResultsKind::run ? provenance : kNone;
}

const nlohmann::json& Results::config(std::size_t point) const {
  const auto cached = configs_.find(point);
  if (cached != configs_.end()) return cached->second;
  nlohmann::json& out = configs_[point];
  const auto& r = record(point);
  if (r.is_object() && r.contains("config") && r["config"].is_object()) out = r["config"];
  return out;
}

namespace {

// Run `run`'s record in a sweep directory: nullopt when there is none; a ResultsError when it is
// not a regular file, its seal is broken, it is not run `run`'s or it is not a complete run's.
std::optional<nlohmann::json> point_record(const std::filesystem::path& dir, std::size_t run) {
  const auto file = dir / "runs" / std::to_string(run) / "run.json";
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return std::nullopt;
  bool sealed = false;
  nlohmann::json record = read_record_file(file, &sealed);
  if (sealed && record.contains("run") &&
      !(record["run"].is_number_unsigned() && record["run"].get<std::size_t>() == run))
    fail(file, "run: expected " + std::to_string(run) + " (its place in the sweep), got " +
                   record["run"].dump());
  if (record.contains("config") && !record["config"].is_object())
    fail(file, "config: expected an object, got " + std::string(record["config"].type_name()));
  if (sealed && record.value("status", nlohmann::json()) != "complete")
    return std::nullopt;  // a run not finished says nothing of its point
  return record;
}

// How many points sweep.json says the sweep has, or the largest size_t when it does not say.
std::size_t recorded_points(const nlohmann::json& provenance,
                            const std::filesystem::path& record_file) {
  if (!provenance.contains("points")) return std::numeric_limits<std::size_t>::max();
  if (!provenance["points"].is_array())
    fail(record_file,
         "points: expected an array, got " + std::string(provenance["points"].type_name()));
  return provenance["points"].size();
}

// summary.csv's component column, once its columns are checked:
// point, <axes...>, component, name, unit, n, mean, ci95_half_width[, status]
std::size_t component_column(const CsvTable& summary, const std::filesystem::path& summary_file) {
  const int comp = summary.column("component");
  const std::vector<std::string> tail = {"component", "name", "unit",
                                         "n",         "mean", "ci95_half_width"};
  const bool tail_ok = comp >= 1 &&
                       static_cast<std::size_t>(comp) + tail.size() <= summary.columns.size() &&
                       std::equal(tail.begin(), tail.end(), summary.columns.begin() + comp);
  if (summary.column("point") != 0 || !tail_ok)
    fail(summary_file,
         "line 1: expected columns point, <axes>, component, name, unit, n, mean, "
         "ci95_half_width");
  return static_cast<std::size_t>(comp);
}

// Line i of summary.csv, checked: its point's swept values and one statistic of that point.
void read_summary_row(Results& r, const CsvTable& summary, std::size_t i, std::size_t comp,
                      std::size_t point_limit, const std::filesystem::path& summary_file) {
  const auto& row = summary.rows[i];
  const std::string line = "line " + std::to_string(i + 2) + ": ";
  const auto point_number = parse_number(row[0]);
  if (row[0].empty() || row[0].find_first_not_of("0123456789") != std::string::npos ||
      !point_number || *point_number >= static_cast<double>(point_limit))
    fail(summary_file, line + "point \"" + row[0].substr(0, 20) + "\": expected 0 .. " +
                           std::to_string(point_limit == 0 ? 0 : point_limit - 1));
  const auto n = row[comp + 3];
  if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 9)
    fail(summary_file, line + "n \"" + n.substr(0, 20) + "\" is not a count");
  for (const std::size_t c : {comp + 4, comp + 5})
    if (!is_number_field(row[c]))
      fail(summary_file, line + summary.columns[c] + " \"" + row[c].substr(0, 40) +
                             "\" is not a number (gbesim writes a number, inf, -inf or nothing)");
  const auto point = static_cast<std::size_t>(*point_number);
  const auto swept_end = row.begin() + static_cast<std::ptrdiff_t>(comp);
  if (point >= r.points.size()) r.points.resize(point + 1);
  if (r.points[point].empty())
    r.points[point].assign(row.begin() + 1, swept_end);
  else if (!std::equal(r.points[point].begin(), r.points[point].end(), row.begin() + 1))
    fail(summary_file,
         line + "point " + row[0] + " has other swept values than on an earlier line");
  Statistic s;
  s.mean = summary.number(i, "mean");
  s.ci95 = summary.number(i, "ci95_half_width");
  if (std::isnan(s.ci95)) s.ci95 = 0;
  s.n = std::stoi(n);
  s.unit = row[comp + 2];
  r.set(point, row[comp], row[comp + 1], s);
}

// Each point's record (its configuration, what its plant breaks): its first replication's that
// is intact, read and checked now. A damaged one is passed over for the next (the sweep left
// that run out of the summary too); a point whose every record is damaged is an error, never an
// answer from another point's configuration.
void read_point_records(Results& r, const std::filesystem::path& dir, std::size_t replications) {
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    std::optional<ResultsError> first_problem;
    for (std::size_t k = 0; k < replications; ++k) {
      const std::size_t run = p * replications + k;
      try {
        if (auto record = point_record(dir, run)) {
          if (p == 0)
            r.description = text_member(*record, dir / "runs" / std::to_string(run) / "run.json",
                                        "description");
          r.set_record(p, std::move(*record));
          first_problem.reset();
          break;
        }
      } catch (const ResultsError& e) {
        if (!first_problem) first_problem = e;
      }
    }
    if (first_problem) throw *first_problem;
  }
}

void load_sweep(Results& r, const std::filesystem::path& dir) {
  const auto record_file = dir / "sweep.json";
  r.kind = ResultsKind::sweep;
  r.provenance = read_record(record_file);
  r.name = text_member(r.provenance, record_file, "name");
  const auto replications =
      integer_member(r.provenance, record_file, "replications", 1, 1, 1'000'000);
  r.provenance["replications"] = replications;
  std::size_t point_limit = recorded_points(r.provenance, record_file);
  const auto summary_file = dir / "summary.csv";
  const auto summary = parse_csv(read_recorded_file(dir, "summary.csv", r.provenance, "sweep.json"),
                                 summary_file.string());
  const std::size_t comp = component_column(summary, summary_file);
  if (point_limit == std::numeric_limits<std::size_t>::max())
    point_limit = summary.rows.size();  // written by hand: at most a point a row
  if (point_limit > kMaxSweepRuns / static_cast<std::size_t>(replications))
    fail(record_file, fmt::format("{} points x {} replications: a sweep has at most {} runs",
                                  point_limit, replications, kMaxSweepRuns));
  r.axes.assign(summary.columns.begin() + 1,
                summary.columns.begin() + static_cast<std::ptrdiff_t>(comp));
  for (std::size_t i = 0; i < summary.rows.size(); ++i)
    read_summary_row(r, summary, i, comp, point_limit, summary_file);
  // A point with no complete run (an interrupted sweep) has no rows: empty values, which no
  // chart takes for a number.
  for (auto& p : r.points)
    if (p.empty()) p.assign(r.axes.size(), "");
  read_point_records(r, dir, static_cast<std::size_t>(replications));
}

void load_run(Results& r, const std::filesystem::path& dir) {
  const auto record_file = dir / "run.json";
  r.kind = ResultsKind::run;
  r.provenance = read_record(record_file);
  require_finished(r.provenance, record_file);
  r.name = text_member(r.provenance, record_file, "name");
  r.description = text_member(r.provenance, record_file, "description");
  if (r.provenance.contains("config") && !r.provenance["config"].is_object())
    fail(record_file,
         "config: expected an object, got " + std::string(r.provenance["config"].type_name()));
  r.points.resize(1);
  // A time series (docs/results.md), when the run recorded one.
  std::error_code ec;
  // A file the record lists must be there (a series.csv that went missing is not "no series").
  auto listed = [&](const char* name) {
    return r.provenance.contains("files") && r.provenance["files"].is_object() &&
           r.provenance["files"].contains(name);
  };
  if (listed("series.csv") ||
      std::filesystem::exists(std::filesystem::symlink_status(dir / "series.csv", ec)))
    r.tables["series"] =
        parse_series_csv(read_recorded_file(dir, "series.csv", r.provenance, "run.json"),
                         (dir / "series.csv").string());
  // Its events (docs/results.md), for the bus timeline: a trace longer than kMaxEventsBytes is
  // not drawn (trace a window of it).
  std::error_code size_error;
  if ((listed("events.csv") ||
       std::filesystem::exists(std::filesystem::symlink_status(dir / "events.csv", ec))) &&
      std::filesystem::file_size(dir / "events.csv", size_error) <= kMaxEventsBytes)
    r.tables["events"] =
        parse_csv_as(read_recorded_file(dir, "events.csv", r.provenance, "run.json"),
                     (dir / "events.csv").string(),
                     {"time_ps", "component", "event", "frame_id", "bytes", "detail"},
                     {"time_ps", "frame_id", "bytes"});
  const auto scalars =
      parse_scalars_csv(read_recorded_file(dir, "scalars.csv", r.provenance, "run.json"),
                        (dir / "scalars.csv").string());
  for (std::size_t i = 0; i < scalars.rows.size(); ++i) {
    Statistic s;
    s.mean = scalars.number(i, "value");
    s.n = 1;
    s.unit = scalars.at(i, "unit");
    r.set(0, scalars.at(i, "component"), scalars.at(i, "name"), s);
  }
}

void load_phy(Results& r, const std::filesystem::path& dir) {
  r.kind = ResultsKind::phy;
  r.provenance = read_record(dir / "phy.json");
  r.name = "phy";
  std::error_code ec;
  const nlohmann::json files = r.provenance.value("files", nlohmann::json::object());
  for (const char* stem : {"awgn", "coding_gain", "cable", "reach", "eye"}) {
    const std::string name = std::string(stem) + ".csv";
    // A table the record lists must be there, as any other present must be what it lists.
    if ((files.is_object() && files.contains(name)) ||
        std::filesystem::exists(std::filesystem::symlink_status(dir / name, ec)))
      r.tables[stem] =
          parse_csv(read_recorded_file(dir, name, r.provenance, "phy.json"), (dir / name).string());
  }
}

}  // namespace

Results load_results(const std::string& dir_text) {
  namespace fs = std::filesystem;
  const fs::path dir(dir_text);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ResultsError(dir_text + ": no such results directory");
  Results r;
  r.dir = dir_text;
  auto present = [&](const char* name) { return fs::exists(fs::symlink_status(dir / name, ec)); };
  if (present("sweep.json")) {
    // A running sweep rewrites summary.csv, then sweep.json with its check (an fsync apart): a
    // reader between the two renames sees them disagree, and reads them again, for up to two
    // seconds -- far longer than the writer takes from one rename to the next.
    constexpr int kTries = 40;
    constexpr auto kPause = std::chrono::milliseconds(50);
    for (int attempt = 0;; ++attempt) {
      try {
        load_sweep(r, dir);
        break;
      } catch (const ResultsError&) {
        const auto record = read_record_or_null(dir / "sweep.json");
        if (attempt + 1 >= kTries || !record.is_object() || !record.contains("status") ||
            record["status"] != "running")
          throw;
        std::this_thread::sleep_for(kPause);
        r = Results();
        r.dir = dir_text;
      }
    }
  } else if (present("run.json"))
    load_run(r, dir);
  else if (present("phy.json"))
    load_phy(r, dir);
  else
    throw ResultsError(dir_text +
                       ": not a results directory (no run.json, sweep.json or phy.json)");
  return r;
}

}  // namespace gbesim
