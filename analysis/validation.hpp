#pragma once
// The published measurements of the project's source documents as data (docs/validation/*.json,
// one file per document) and how a simulation is scored against them. Each figure names the
// sweep point of a shipped scenario that stands for its conditions and the scalar that is its
// simulated value; each claim of a text (a bound, an order, a trend) is a list of checks over
// such values. Every figure and claim carries its role: a *calibration* row may have been fitted
// (docs/validation.md lists what was fitted to which), a *prediction* row never was.
//
// The error of a figure is simulated / measured - 1; a figure given as a bound ("more than 55 %")
// has error 0 on the right side of it. Pure C++ over parsed JSON and run scalars: what runs the
// points is `gbesim validate` (sim/campaign/validate); the data files are read by
// sim/input/validation_data.

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gbesim {

enum class ValidationRole { calibration, prediction };
enum class Relation { about, at_least, at_most };
enum class Reduce { sum, mean, max, min };

// A simulated value: `name` of every component matching `component` ("pc.driver", or a glob with
// `*` such as "host_b*.stack_a*"), combined by `reduce`, times `scale` (into the measured unit).
struct SimulatedValue {
  std::string component;
  std::string name;
  double scale = 1;
  Reduce reduce = Reduce::sum;
};

// A selection of sweep points by their entries in points.csv's columns: a variant axis by its
// name and a label, a swept path by the path and the value as text.
using PointSelector = std::map<std::string, std::string>;

struct ValidationFigure {
  std::string id;
  std::string where;      // the table, figure or paragraph of the document
  std::string condition;  // the conditions in words
  std::string how;        // how the scenario stands for them, when that needs saying
  PointSelector point;    // exactly one point (empty: a scenario without a sweep)
  std::string quantity;   // throughput, cpu, aggregate, ...
  double measured = 0;
  std::string unit;
  Relation relation = Relation::about;
  SimulatedValue simulated;
  double tolerance_pct = 20;
  ValidationRole role = ValidationRole::prediction;
  bool quick = false;
};

// One side of a check: the simulated value over every point the selector matches, combined by
// `over`; or a plain number.
struct ClaimTerm {
  std::optional<double> number;
  PointSelector points;
  SimulatedValue simulated;
  Reduce over = Reduce::mean;
};

struct ClaimCheck {
  ClaimTerm left;
  std::string op;  // <=, >=, <, >
  ClaimTerm right;
  double times = 1;  // left op times * right
};

struct ValidationClaim {
  std::string id;
  std::string where;
  std::string text;
  std::string how;  // how the checks stand for the text, when that needs saying
  std::vector<ClaimCheck> checks;
  ValidationRole role = ValidationRole::prediction;
  bool quick = false;
};

struct ValidationSource {
  std::string file;    // where it was read from, for messages
  std::string source;  // the document's file name
  std::string title;
  std::string scenario;  // scenarios/<scenario>.json
  std::vector<std::string> sets;
  std::string sets_why;
  std::vector<ValidationFigure> figures;
  std::vector<ValidationClaim> claims;
};

// A selection that matches no point, a figure's selection that matches several.
class ValidationDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The points of a scenario's sweep as validation sees them: points.csv's columns and each
// point's entries in them.
struct SweepPoints {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> labels;
};

// The points a selector matches (every column it names agrees); throws ValidationDataError
// naming `context` and the selection when it matches none (the reader of the data files checks
// each column and label against the plan first, with a did-you-mean).
std::vector<std::size_t> select_points(const SweepPoints& points, const PointSelector& selector,
                                       const std::string& context);

// Every point a source needs (all rows, or only its quick rows), each once, in order.
std::vector<std::size_t> points_needed(const ValidationSource& source, const SweepPoints& points,
                                       bool quick_only);

// A run's scalars by component and name.
using PointScalars = std::map<std::pair<std::string, std::string>, double>;
// The scalars of a point, or null when it has none (not run, failed).
using ScalarsOfPoint = std::function<const PointScalars*(std::size_t point)>;

// One row of the scorecard.
struct ScoreRow {
  std::string source;  // the document's file name
  std::string id;
  std::string kind;  // figure or claim
  std::string where;
  std::string condition;  // a figure's conditions, a claim's text
  std::string quantity;
  std::string unit;
  ValidationRole role = ValidationRole::prediction;
  std::optional<double> measured;   // figures
  std::optional<double> simulated;  // figures; none when the point did not run
  std::optional<double> error_pct;  // figures: simulated / measured - 1, in %
  double tolerance_pct = 0;
  bool within = false;  // a figure within its tolerance, a claim holding
  std::string detail;   // a claim: each check's values; a figure: why it has no value
};

std::vector<ScoreRow> score_source(const ValidationSource& source, const SweepPoints& points,
                                   const ScalarsOfPoint& scalars, bool quick_only);

// Per source and in all: rows, how many within tolerance or holding, and the median absolute
// error of the prediction figures.
struct ScoreTotals {
  std::string source;
  std::size_t figures = 0;
  std::size_t figures_within = 0;
  std::size_t predictions = 0;
  std::size_t predictions_within = 0;
  std::size_t claims = 0;
  std::size_t claims_holding = 0;
  std::optional<double> median_abs_prediction_error_pct;
};
std::vector<ScoreTotals> score_totals(const std::vector<ScoreRow>& rows);  // last: "all"

// validation.csv: one row per figure or claim.
std::string scorecard_csv(const std::vector<ScoreRow>& rows);
// The scorecard as a table for a terminal, then the totals.
std::string scorecard_text(const std::vector<ScoreRow>& rows);

// A scorecard written by scorecard_csv, read back as untrusted input; throws ResultsError naming
// the file and line.
std::vector<ScoreRow> read_scorecard(const std::string& csv, const std::string& file);
// Markdown for docs/validation.md: per source a table of its figures and claims; with
// `totals_only`, only the totals (for the README).
std::string scorecard_markdown(const std::vector<ScoreRow>& rows, bool totals_only);

// A committed scorecard (validation.csv, read as untrusted input) against a new one: each
// prediction figure whose absolute error grew by more than `allowed_points` percentage points,
// each claim that held and no longer does, each row of the committed one missing from the new
// one only when `require_all`. Empty when nothing regressed. Throws ResultsError for a damaged
// file.
std::vector<std::string> scorecard_regressions(const std::string& committed_csv,
                                               const std::string& committed_file,
                                               const std::vector<ScoreRow>& now,
                                               double allowed_points);

std::string role_name(ValidationRole role);

}  // namespace gbesim
