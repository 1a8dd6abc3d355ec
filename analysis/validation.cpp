#include "analysis/validation.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "analysis/statistics.hpp"
#include "analysis/sweep_summary.hpp"

namespace gbesim {
namespace {

std::string selector_text(const PointSelector& selector) {
  std::string out;
  for (const auto& [column, label] : selector)
    out += fmt::format("{}{}={}", out.empty() ? "" : ", ", column, label);
  return out.empty() ? "the scenario's only point" : out;
}

std::optional<double> reduce(const std::vector<double>& values, Reduce how) {
  if (values.empty()) return std::nullopt;
  switch (how) {
    case Reduce::sum: {
      double s = 0;
      for (double v : values) s += v;
      return s;
    }
    case Reduce::mean: {
      double s = 0;
      for (double v : values) s += v;
      return s / static_cast<double>(values.size());
    }
    case Reduce::max:
      return *std::max_element(values.begin(), values.end());
    case Reduce::min:
      return *std::min_element(values.begin(), values.end());
  }
  return std::nullopt;
}

// The simulated value at one point: nullopt when the point has no scalars or no component
// matching carries the name.
std::optional<double> value_at(const PointScalars* scalars, const SimulatedValue& v) {
  if (scalars == nullptr) return std::nullopt;
  std::vector<double> found;
  for (const auto& [key, value] : *scalars)
    if (key.second == v.name && ::fnmatch(v.component.c_str(), key.first.c_str(), 0) == 0)
      found.push_back(value);
  const auto r = reduce(found, v.reduce);
  if (!r) return std::nullopt;
  return *r * v.scale;
}

std::string shown(double v) {
  if (std::fabs(v) >= 100) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.3g}", v);
}

// A term's value and, when it has none, why.
struct TermValue {
  std::optional<double> value;
  std::string why_none;
};

TermValue term_value(const ClaimTerm& term, const SweepPoints& points,
                     const ScalarsOfPoint& scalars, const std::string& context) {
  if (term.number) return {term.number, ""};
  std::vector<double> values;
  for (std::size_t p : select_points(points, term.points, context)) {
    const auto v = value_at(scalars(p), term.simulated);
    if (!v)
      return {std::nullopt, fmt::format("no {} {} at point {} ({})", term.simulated.component,
                                        term.simulated.name, p, selector_text(term.points))};
    values.push_back(*v);
  }
  return {reduce(values, term.over), ""};
}

bool compare(double left, const std::string& op, double right) {
  if (op == "<=") return left <= right;
  if (op == ">=") return left >= right;
  if (op == "<") return left < right;
  return left > right;
}

ScoreRow row_of(const ValidationSource& source, const std::string& id, const char* kind,
                const std::string& where, const std::string& condition, ValidationRole role) {
  ScoreRow row;
  row.source = source.source;
  row.id = id;
  row.kind = kind;
  row.where = where;
  row.condition = condition;
  row.role = role;
  return row;
}

ScoreRow score_figure(const ValidationSource& source, const ValidationFigure& f,
                      const SweepPoints& points, const ScalarsOfPoint& scalars) {
  ScoreRow row = row_of(source, f.id, "figure", f.where, f.condition, f.role);
  row.quantity = f.quantity;
  row.unit = f.unit;
  row.measured = f.measured;
  row.tolerance_pct = f.tolerance_pct;
  const auto selected = select_points(points, f.point, source.file + ": " + f.id);
  const std::size_t p = selected.front();
  row.simulated = value_at(scalars(p), f.simulated);
  if (!row.simulated) {
    row.detail = scalars(p) == nullptr
                     ? fmt::format("point {} did not run", p)
                     : fmt::format("no scalar {} {}", f.simulated.component, f.simulated.name);
    return row;
  }
  double error = *row.simulated / f.measured - 1;
  if (f.relation == Relation::at_least && *row.simulated >= f.measured) error = 0;
  if (f.relation == Relation::at_most && *row.simulated <= f.measured) error = 0;
  row.error_pct = 100 * error;
  row.within = std::fabs(*row.error_pct) <= f.tolerance_pct + 1e-9;
  return row;
}

ScoreRow score_claim(const ValidationSource& source, const ValidationClaim& c,
                     const SweepPoints& points, const ScalarsOfPoint& scalars) {
  ScoreRow row = row_of(source, c.id, "claim", c.where, c.text, c.role);
  row.quantity = "claim";
  bool holds = true;
  for (const ClaimCheck& check : c.checks) {
    const std::string context = source.file + ": " + c.id;
    const TermValue l = term_value(check.left, points, scalars, context);
    const TermValue r = term_value(check.right, points, scalars, context);
    if (!row.detail.empty()) row.detail += "; ";
    if (!l.value || !r.value) {
      holds = false;
      row.detail += !l.value ? l.why_none : r.why_none;
      continue;
    }
    const bool ok = compare(*l.value, check.op, check.times * *r.value);
    holds = holds && ok;
    row.detail += fmt::format("{} {} {}{}: {}", shown(*l.value), check.op,
                              check.times == 1 ? "" : shown(check.times) + " x ", shown(*r.value),
                              ok ? "yes" : "no");
  }
  row.within = holds;
  return row;
}

}  // namespace

std::string role_name(ValidationRole role) {
  return role == ValidationRole::calibration ? "calibration" : "prediction";
}

std::vector<std::size_t> select_points(const SweepPoints& points, const PointSelector& selector,
                                       const std::string& context) {
  std::vector<std::size_t> out;
  std::vector<int> columns;
  for (const auto& entry : selector) {
    const auto it = std::find(points.columns.begin(), points.columns.end(), entry.first);
    if (it == points.columns.end())
      throw ValidationDataError(
          fmt::format("{}: the sweep has no column \"{}\"", context, entry.first));
    columns.push_back(static_cast<int>(it - points.columns.begin()));
  }
  for (std::size_t p = 0; p < points.labels.size(); ++p) {
    bool match = true;
    std::size_t i = 0;
    for (const auto& entry : selector)
      match = match && points.labels[p][columns[i++]] == entry.second;
    if (match) out.push_back(p);
  }
  if (out.empty())
    throw ValidationDataError(
        fmt::format("{}: no point of the sweep has {}", context, selector_text(selector)));
  return out;
}

std::vector<std::size_t> points_needed(const ValidationSource& source, const SweepPoints& points,
                                       bool quick_only) {
  std::set<std::size_t> needed;
  for (const ValidationFigure& f : source.figures) {
    if (quick_only && !f.quick) continue;
    const auto selected = select_points(points, f.point, source.file + ": " + f.id);
    if (selected.size() != 1)
      throw ValidationDataError(fmt::format("{}: {}: {} selects {} points, not one", source.file,
                                            f.id, selector_text(f.point), selected.size()));
    needed.insert(selected.front());
  }
  for (const ValidationClaim& c : source.claims) {
    if (quick_only && !c.quick) continue;
    for (const ClaimCheck& check : c.checks)
      for (const ClaimTerm* term : {&check.left, &check.right})
        if (!term->number)
          for (std::size_t p : select_points(points, term->points, source.file + ": " + c.id))
            needed.insert(p);
  }
  return {needed.begin(), needed.end()};
}

std::vector<ScoreRow> score_source(const ValidationSource& source, const SweepPoints& points,
                                   const ScalarsOfPoint& scalars, bool quick_only) {
  std::vector<ScoreRow> rows;
  for (const ValidationFigure& f : source.figures)
    if (!quick_only || f.quick) rows.push_back(score_figure(source, f, points, scalars));
  for (const ValidationClaim& c : source.claims)
    if (!quick_only || c.quick) rows.push_back(score_claim(source, c, points, scalars));
  return rows;
}

std::vector<ScoreTotals> score_totals(const std::vector<ScoreRow>& rows) {
  std::vector<ScoreTotals> totals;
  std::vector<std::vector<double>> errors;
  auto add = [&](std::size_t t, const ScoreRow& r) {
    ScoreTotals& s = totals[t];
    if (r.kind == "claim") {
      ++s.claims;
      s.claims_holding += r.within ? 1 : 0;
      return;
    }
    ++s.figures;
    s.figures_within += r.within ? 1 : 0;
    if (r.role != ValidationRole::prediction) return;
    ++s.predictions;
    s.predictions_within += r.within ? 1 : 0;
    if (r.error_pct) errors[t].push_back(std::fabs(*r.error_pct));
  };
  for (const ScoreRow& r : rows) {
    auto it = std::find_if(totals.begin(), totals.end(),
                           [&](const ScoreTotals& t) { return t.source == r.source; });
    if (it == totals.end()) {
      totals.emplace_back();
      totals.back().source = r.source;
      errors.emplace_back();
      it = totals.end() - 1;
    }
    add(static_cast<std::size_t>(it - totals.begin()), r);
  }
  totals.emplace_back();
  totals.back().source = "all";
  errors.emplace_back();
  for (const ScoreRow& r : rows) add(totals.size() - 1, r);
  for (std::size_t t = 0; t < totals.size(); ++t)
    if (!errors[t].empty()) totals[t].median_abs_prediction_error_pct = median(errors[t]);
  return totals;
}

namespace {

const std::vector<std::string> kScorecardColumns = {
    "source", "id",       "kind",      "role",      "where",         "condition", "quantity",
    "unit",   "measured", "simulated", "error_pct", "tolerance_pct", "within",    "detail"};

std::string optional_number(const std::optional<double>& v) {
  return v ? fmt::format("{:.6g}", *v) : "";
}

}  // namespace

std::string scorecard_csv(const std::vector<ScoreRow>& rows) {
  std::string out;
  for (std::size_t i = 0; i < kScorecardColumns.size(); ++i)
    out += (i ? "," : "") + kScorecardColumns[i];
  out += "\n";
  for (const ScoreRow& r : rows) {
    const std::vector<std::string> fields = {
        r.source,
        r.id,
        r.kind,
        role_name(r.role),
        r.where,
        r.condition,
        r.quantity,
        r.unit,
        optional_number(r.measured),
        optional_number(r.simulated),
        optional_number(r.error_pct),
        r.kind == "claim" ? "" : fmt::format("{:g}", r.tolerance_pct),
        r.within ? "yes" : "no",
        r.detail};
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += "\n";
  }
  return out;
}

std::string scorecard_text(const std::vector<ScoreRow>& rows) {
  std::string out;
  std::string source;
  for (const ScoreRow& r : rows) {
    if (r.source != source) {
      source = r.source;
      out += fmt::format("\n{}\n", source);
      out += fmt::format("  {:<28} {:<11} {:>9} {:>9} {:>8} {:>5}  {}\n", "figure", "role",
                         "measured", "simulated", "error", "tol", "condition");
    }
    if (r.kind == "claim") {
      out +=
          fmt::format("  {:<28} {:<11} {:>9} {:>9} {:>8} {:>5}  {} [{}]\n", r.id, role_name(r.role),
                      "", "", r.within ? "holds" : "FAILS", "", r.condition, r.detail);
      continue;
    }
    out += fmt::format("  {:<28} {:<11} {:>9} {:>9} {:>8} {:>5}  {}{}\n", r.id, role_name(r.role),
                       shown(*r.measured), r.simulated ? shown(*r.simulated) : "-",
                       r.error_pct ? fmt::format("{:+.1f}%", *r.error_pct) : "-",
                       fmt::format("{:g}%", r.tolerance_pct), r.within ? "" : "* ",
                       r.condition + (r.unit.empty() ? "" : " (" + r.unit + ")") +
                           (r.detail.empty() ? "" : ": " + r.detail));
  }
  out +=
      "\n  source                      figures within  predictions within  median |error|  claims "
      "holding\n";
  for (const ScoreTotals& t : score_totals(rows))
    out += fmt::format("  {:<28} {:>7} {:>6}  {:>11} {:>6}  {:>14}  {:>6} {:>7}\n", t.source,
                       t.figures, t.figures_within, t.predictions, t.predictions_within,
                       t.median_abs_prediction_error_pct
                           ? fmt::format("{:.1f}%", *t.median_abs_prediction_error_pct)
                           : "-",
                       t.claims, t.claims_holding);
  out += "  (* outside its tolerance; error = simulated / measured - 1)\n";
  return out;
}

std::vector<ScoreRow> read_scorecard(const std::string& csv, const std::string& file) {
  const CsvTable table = parse_csv_as(csv, file, kScorecardColumns,
                                      {"measured", "simulated", "error_pct", "tolerance_pct"});
  auto optional_value = [&](std::size_t i, const char* column) -> std::optional<double> {
    const double v = table.number(i, column);
    if (std::isnan(v)) return std::nullopt;
    return v;
  };
  std::vector<ScoreRow> rows;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto bad = [&](const char* column, const char* expected) {
      return ResultsError(fmt::format("{}: line {}: {}: expected {}, got \"{}\"", file, i + 2,
                                      column, expected, table.at(i, column)));
    };
    ScoreRow r;
    r.source = table.at(i, "source");
    r.id = table.at(i, "id");
    r.kind = table.at(i, "kind");
    if (r.kind != "figure" && r.kind != "claim") throw bad("kind", "figure or claim");
    const std::string role = table.at(i, "role");
    if (role != "calibration" && role != "prediction")
      throw bad("role", "calibration or prediction");
    r.role = role == "calibration" ? ValidationRole::calibration : ValidationRole::prediction;
    r.where = table.at(i, "where");
    r.condition = table.at(i, "condition");
    r.quantity = table.at(i, "quantity");
    r.unit = table.at(i, "unit");
    r.measured = optional_value(i, "measured");
    r.simulated = optional_value(i, "simulated");
    r.error_pct = optional_value(i, "error_pct");
    r.tolerance_pct = optional_value(i, "tolerance_pct").value_or(0);
    const std::string within = table.at(i, "within");
    if (within != "yes" && within != "no") throw bad("within", "yes or no");
    r.within = within == "yes";
    r.detail = table.at(i, "detail");
    if (r.kind == "figure" && !r.measured) throw bad("measured", "a number for a figure");
    rows.push_back(std::move(r));
  }
  return rows;
}

namespace {

std::string markdown_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string totals_markdown(const std::vector<ScoreRow>& rows) {
  std::string out =
      "| source | figures | within tolerance | predictions | within tolerance | median \\|error\\| "
      "of the predictions | claims | holding |\n|---|---|---|---|---|---|---|---|\n";
  for (const ScoreTotals& t : score_totals(rows))
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", t.source, t.figures,
                       t.figures_within, t.predictions, t.predictions_within,
                       t.median_abs_prediction_error_pct
                           ? fmt::format("{:.1f} %", *t.median_abs_prediction_error_pct)
                           : "-",
                       t.claims, t.claims_holding);
  return out;
}

}  // namespace

std::string scorecard_markdown(const std::vector<ScoreRow>& rows, bool totals_only) {
  std::string out = totals_markdown(rows);
  if (totals_only) return out;
  std::string source;
  for (const ScoreRow& r : rows) {
    if (r.source != source) {
      source = r.source;
      out += fmt::format(
          "\n#### {}\n\n| row | role | conditions | measured | simulated | error | tolerance | "
          "within |\n|---|---|---|---|---|---|---|---|\n",
          source);
    }
    if (r.kind == "claim") {
      out += fmt::format("| {} | {} | claim: {} ({}) | | | | | {} |\n", r.id, role_name(r.role),
                         markdown_cell(r.condition), markdown_cell(r.detail),
                         r.within ? "holds" : "**fails**");
      continue;
    }
    out += fmt::format("| {} | {} | {} | {} {} | {} | {} | {:g} % | {} |\n", r.id,
                       role_name(r.role), markdown_cell(r.condition), shown(*r.measured),
                       markdown_cell(r.unit), r.simulated ? shown(*r.simulated) : "-",
                       r.error_pct ? fmt::format("{:+.1f} %", *r.error_pct) : "-", r.tolerance_pct,
                       r.within ? "yes" : "**no**");
  }
  return out;
}

std::vector<std::string> scorecard_regressions(const std::string& committed_csv,
                                               const std::string& committed_file,
                                               const std::vector<ScoreRow>& now,
                                               double allowed_points) {
  std::vector<std::string> out;
  for (const ScoreRow& before : read_scorecard(committed_csv, committed_file)) {
    const auto it = std::find_if(now.begin(), now.end(), [&](const ScoreRow& r) {
      return r.source == before.source && r.id == before.id;
    });
    if (it == now.end() || it->role != ValidationRole::prediction) continue;
    if (it->kind == "claim") {
      if (before.within && !it->within)
        out.push_back(
            fmt::format("{} {}: held, now fails ({})", before.source, before.id, it->detail));
      continue;
    }
    if (!before.error_pct) continue;
    if (!it->error_pct) {
      out.push_back(fmt::format("{} {}: had an error of {:+.1f} %, now no value ({})",
                                before.source, before.id, *before.error_pct, it->detail));
      continue;
    }
    if (std::fabs(*it->error_pct) > std::fabs(*before.error_pct) + allowed_points)
      out.push_back(
          fmt::format("{} {}: error {:+.1f} % was {:+.1f} % (more than {:g} points worse)",
                      before.source, before.id, *it->error_pct, *before.error_pct, allowed_points));
  }
  return out;
}

}  // namespace gbesim
