#pragma once
// A results directory as the charts and the report see it: one run (run.json + scalars.csv), a
// sweep (sweep.json + summary.csv: per point and scalar, mean and 95 % CI over replications), or
// the link-level PHY's (phy.json + awgn.csv / cable.csv / reach.csv / eye.csv / coding_gain.csv).
// Pure C++: no Qt here.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gbesim {

enum class ResultsKind { run, sweep, phy };

struct Statistic {
  double mean = 0;
  double ci95 = 0;  // half-width; 0 with one replication
  int n = 0;
  std::string unit;
};

// A CSV file as rows of named fields.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;  // -1 when absent
  std::string at(std::size_t row, const std::string& name) const;
  double number(std::size_t row, const std::string& name) const;  // NaN when absent or empty
};

class Results {
 public:
  ResultsKind kind = ResultsKind::run;
  std::string dir;
  std::string name;           // the scenario's (or "phy")
  std::string description;    // the scenario's, when recorded
  nlohmann::json provenance;  // run.json, sweep.json or phy.json as written
  // Sweep: the axes (swept paths or variant axes) and each point's value on each, as text.
  std::vector<std::string> axes;
  std::vector<std::vector<std::string>> points;
  // PHY: its CSV files by stem ("cable", "reach", "eye", "awgn", "coding_gain"); a run: "series"
  // (series.csv) and "events" (events.csv, up to kMaxEventsBytes), when it recorded them.
  std::map<std::string, CsvTable> tables;

  // A scalar at a point (a run has one point, 0).
  std::optional<Statistic> value(std::size_t point, const std::string& component,
                                 const std::string& name) const;
  // The index of an axis, or -1.
  int axis(const std::string& name) const;
  // Points whose value on each given axis is the given one.
  std::vector<std::size_t> where(
      const std::vector<std::pair<std::string, std::string>>& fixed) const;
  // The distinct values of an axis in first-seen order.
  std::vector<std::string> values_of(const std::string& axis) const;
  // The resolved scenario a point ran (run.json's `config`: a run's own, a sweep point's first
  // replication's); null when not recorded (results written by hand, a PHY directory). Each
  // point's file is read once.
  const nlohmann::json& config(std::size_t point) const;
  // The whole run.json of that run (null when there is none or it cannot be read).
  const nlohmann::json& record(std::size_t point) const;

  // Every component that has a value at some point.
  std::vector<std::string> components() const;
  // Every (component, name) value() was asked for: what charts and comparisons read by name.
  const std::set<std::pair<std::string, std::string>>& asked() const { return asked_; }

  // Every value, by (point, component, name).
  const std::map<std::tuple<std::size_t, std::string, std::string>, Statistic>& statistics() const {
    return stats_;
  }
  void set_record(std::size_t point, nlohmann::json record) { records_[point] = std::move(record); }
  void set(std::size_t point, const std::string& component, const std::string& name, Statistic s) {
    stats_[{point, component, name}] = std::move(s);
  }

 private:
  std::map<std::tuple<std::size_t, std::string, std::string>, Statistic> stats_;
  mutable std::set<std::pair<std::string, std::string>> asked_;
  mutable std::map<std::size_t, nlohmann::json> configs_;
  mutable std::map<std::size_t, nlohmann::json> records_;
};

inline constexpr std::uint64_t kMaxEventsBytes = std::uint64_t{16} << 20;

CsvTable read_csv_file(const std::string& file);
// CSV text read as untrusted input: a header, then rows of as many fields as it has, no NUL or
// other control byte (binary data). Throws ResultsError "FILE: line N: ...".
CsvTable parse_csv(const std::string& text, const std::string& file);
// Whether a field holds what gbesim writes for a number: nothing (no value), inf, -inf or a
// finite decimal number ("nan", hexadecimal and "1e999" are not).
bool is_number_field(const std::string& text);
// A table whose header must be `columns` and whose `numeric` columns hold number fields.
CsvTable parse_csv_as(const std::string& text, const std::string& file,
                      const std::vector<std::string>& columns,
                      const std::vector<std::string>& numeric);
// scalars.csv (component,name,unit,value) and series.csv (time_s,component,name,unit,value).
CsvTable parse_scalars_csv(const std::string& text, const std::string& file);
CsvTable parse_series_csv(const std::string& text, const std::string& file);
// An axis by its last path segment: "hosts.h.nic.profile" -> "profile"; of a linked axis
// ("a.frame_bytes, b.frame_bytes") the first path's.
std::string axis_short_name(const std::string& axis);
// The whole text as a number, or nullopt ("" or "64/1518 7:3" are not numbers).
std::optional<double> parse_number(const std::string& text);
// Reads a results directory as untrusted input (analysis/result_files): only regular files,
// checked against the sizes and CRC-32s its record lists, every CSV and JSON member validated.
// Throws ResultsError naming the file (and line or key) and what was wrong.
Results load_results(const std::string& dir);

}  // namespace gbesim
