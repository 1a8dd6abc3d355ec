// Scoring a simulation against published measurements (analysis/validation) and reading the
// measurement files (sim/input/validation_data): errors and tolerances by hand, bounds, sums over
// components, claims, the totals' median, the committed scorecard's regressions, and every kind
// of bad data file named by its JSON path.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/result_files.hpp"
#include "analysis/validation.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/validation_data.hpp"

namespace gbesim {
namespace {

SweepPoints two_boards() {
  SweepPoints p;
  p.columns = {"nic", "direction"};
  p.labels = {{"Intel", "receive"}, {"Intel", "send"}, {"LG", "receive"}, {"LG", "send"}};
  return p;
}

ValidationFigure figure(const std::string& id, PointSelector point, double measured,
                        double tolerance, ValidationRole role = ValidationRole::prediction) {
  ValidationFigure f;
  f.id = id;
  f.point = std::move(point);
  f.quantity = "throughput";
  f.measured = measured;
  f.unit = "Mb/s";
  f.simulated = {"pc.stack_c*", "receive_throughput", 1e-6, Reduce::sum};
  f.tolerance_pct = tolerance;
  f.role = role;
  return f;
}

// Point p receives 100 * (p + 1) Mb/s over two streams (60 % and 40 %), at a CPU of 10 * (p + 1)
// %.
std::map<std::size_t, PointScalars> scalars_of_points() {
  std::map<std::size_t, PointScalars> all;
  for (std::size_t p = 0; p < 4; ++p) {
    const double total = 100e6 * static_cast<double>(p + 1);
    all[p][{"pc.stack_c1", "receive_throughput"}] = 0.6 * total;
    all[p][{"pc.stack_c2", "receive_throughput"}] = 0.4 * total;
    all[p][{"pc.stack_c2", "send_throughput"}] = 1e9;  // another name: not summed
    all[p][{"pc.driver", "cpu_utilisation"}] = 0.1 * static_cast<double>(p + 1);
  }
  return all;
}

ScalarsOfPoint lookup(const std::map<std::size_t, PointScalars>& all) {
  return [&all](std::size_t p) -> const PointScalars* {
    const auto it = all.find(p);
    return it == all.end() ? nullptr : &it->second;
  };
}

TEST(ValidationScoring, AFiguresErrorIsSimulatedOverMeasuredAndItsToleranceIsRelative) {
  ValidationSource s;
  s.source = "doc.txt";
  // LG receive is point 2: 300 Mb/s, summed over both streams.
  s.figures = {figure("lg-rx", {{"nic", "LG"}, {"direction", "receive"}}, 375, 20),
               figure("lg-rx-tight", {{"nic", "LG"}, {"direction", "receive"}}, 375, 19.9)};
  const auto all = scalars_of_points();
  const auto rows = score_source(s, two_boards(), lookup(all), false);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(*rows[0].simulated, 300.0);
  EXPECT_NEAR(*rows[0].error_pct, -20.0, 1e-12);
  EXPECT_TRUE(rows[0].within);
  EXPECT_FALSE(rows[1].within);
}

TEST(ValidationScoring, ABoundIsMetOnItsSideAndMissedByItsShortfall) {
  ValidationSource s;
  s.source = "doc.txt";
  ValidationFigure above =
      figure("cpu-above-25", {{"nic", "LG"}, {"direction", "receive"}}, 25, 25);
  above.simulated = {"pc.driver", "cpu_utilisation", 100, Reduce::sum};  // 30 %
  above.relation = Relation::at_least;
  ValidationFigure above_far = above;
  above_far.id = "cpu-above-40";
  above_far.measured = 40;  // 30 is 25 % short
  ValidationFigure below = above;
  below.id = "cpu-below-20";
  below.relation = Relation::at_most;
  below.measured = 20;  // 30 is 50 % over
  s.figures = {above, above_far, below};
  const auto all = scalars_of_points();
  const auto rows = score_source(s, two_boards(), lookup(all), false);
  EXPECT_DOUBLE_EQ(*rows[0].error_pct, 0.0);
  EXPECT_TRUE(rows[0].within);
  EXPECT_NEAR(*rows[1].error_pct, -25.0, 1e-9);
  EXPECT_TRUE(rows[1].within);
  EXPECT_NEAR(*rows[2].error_pct, 50.0, 1e-9);
  EXPECT_FALSE(rows[2].within);
}

TEST(ValidationScoring, APointThatDidNotRunHasNoValueAndIsNotWithin) {
  ValidationSource s;
  s.source = "doc.txt";
  s.figures = {figure("intel-tx", {{"nic", "Intel"}, {"direction", "send"}}, 200, 20)};
  std::map<std::size_t, PointScalars> none;
  const auto rows = score_source(s, two_boards(), lookup(none), false);
  EXPECT_FALSE(rows[0].simulated.has_value());
  EXPECT_FALSE(rows[0].within);
  EXPECT_EQ(rows[0].detail, "point 1 did not run");
}

TEST(ValidationScoring, AClaimHoldsOnlyWhenEveryCheckHolds) {
  ValidationSource s;
  s.source = "doc.txt";
  ClaimTerm lg_rx{std::nullopt,
                  {{"nic", "LG"}, {"direction", "receive"}},
                  {"pc.stack_c*", "receive_throughput", 1e-6, Reduce::sum},
                  Reduce::mean};
  ClaimTerm intel_rx = lg_rx;
  intel_rx.points = {{"nic", "Intel"}, {"direction", "receive"}};
  ClaimTerm every_receive = lg_rx;
  every_receive.points = {{"direction", "receive"}};
  every_receive.over = Reduce::max;
  ValidationClaim order;
  order.id = "lg-3x-intel";
  order.text = "LG receives at least 3 x what the Intel does";
  order.checks = {{lg_rx, ">=", intel_rx, 3.0}};  // 300 >= 3 x 100
  ValidationClaim bound = order;
  bound.id = "never-above-250";
  ClaimTerm limit;
  limit.number = 250;
  bound.checks = {{intel_rx, "<=", limit, 1.0}, {every_receive, "<=", limit, 1.0}};  // 300 > 250
  s.claims = {order, bound};
  const auto all = scalars_of_points();
  const auto rows = score_source(s, two_boards(), lookup(all), false);
  EXPECT_TRUE(rows[0].within);
  EXPECT_EQ(rows[0].detail, "300 >= 3 x 100: yes");
  EXPECT_FALSE(rows[1].within);
  EXPECT_EQ(rows[1].detail, "100 <= 250: yes; 300 <= 250: no");
}

TEST(ValidationScoring, ASelectionOfNoPointIsAnErrorNamingIt) {
  try {
    select_points(two_boards(), {{"nic", "Genius"}}, "doc.json: genius-rx");
    FAIL() << "no error";
  } catch (const ValidationDataError& e) {
    EXPECT_STREQ(e.what(), "doc.json: genius-rx: no point of the sweep has nic=Genius");
  }
  EXPECT_EQ(select_points(two_boards(), {{"direction", "send"}}, "x"),
            (std::vector<std::size_t>{1, 3}));
}

// A figure's row of a scorecard: measured 100, simulated 100 + error.
ScoreRow error_row(const std::string& source, const std::string& id, double error,
                   ValidationRole role) {
  ScoreRow r;
  r.source = source;
  r.id = id;
  r.kind = "figure";
  r.role = role;
  r.measured = 100;
  r.simulated = 100 + error;
  r.error_pct = error;
  r.tolerance_pct = 20;
  r.within = std::fabs(error) <= 20;
  return r;
}

TEST(ValidationScoring, TheTotalsGiveTheMedianAbsoluteErrorOfThePredictionsOnly) {
  std::vector<ScoreRow> rows;
  auto row = [](const std::string& source, double error, ValidationRole role) {
    return error_row(source, "", error, role);
  };
  rows = {row("a", -10, ValidationRole::prediction), row("a", 30, ValidationRole::prediction),
          row("a", 25, ValidationRole::prediction), row("a", 90, ValidationRole::calibration),
          row("b", -2, ValidationRole::prediction)};
  ScoreRow claim;
  claim.source = "b";
  claim.kind = "claim";
  claim.within = true;
  rows.push_back(claim);
  const auto totals = score_totals(rows);
  ASSERT_EQ(totals.size(), 3u);
  EXPECT_EQ(totals[0].source, "a");
  EXPECT_EQ(totals[0].figures, 4u);
  EXPECT_EQ(totals[0].predictions, 3u);
  EXPECT_EQ(totals[0].predictions_within, 1u);
  EXPECT_DOUBLE_EQ(*totals[0].median_abs_prediction_error_pct, 25.0);
  EXPECT_EQ(totals[1].claims_holding, 1u);
  EXPECT_EQ(totals[2].source, "all");
  EXPECT_DOUBLE_EQ(*totals[2].median_abs_prediction_error_pct, 17.5);  // 2, 10, 25, 30
}

TEST(ValidationScoring, ThePredictionsThatGotWorseThanTheCommittedScorecardAreRegressions) {
  auto row = [](const std::string& id, double error, ValidationRole role) {
    return error_row("doc.txt", id, error, role);
  };
  ScoreRow claim;
  claim.source = "doc.txt";
  claim.id = "order";
  claim.kind = "claim";
  claim.within = true;
  const std::vector<ScoreRow> committed = {row("a", -10, ValidationRole::prediction),
                                           row("b", 5, ValidationRole::prediction),
                                           row("c", 1, ValidationRole::calibration), claim};
  const std::string csv = scorecard_csv(committed);
  std::vector<ScoreRow> now = {row("a", -11.9, ValidationRole::prediction),
                               row("b", -7.5, ValidationRole::prediction),
                               row("c", 40, ValidationRole::calibration), claim};
  now[3].within = false;
  now[3].detail = "1 >= 2: no";
  const auto regressions = scorecard_regressions(csv, "validation.csv", now, 2);
  ASSERT_EQ(regressions.size(), 2u);
  EXPECT_EQ(regressions[0], "doc.txt b: error -7.5 % was +5.0 % (more than 2 points worse)");
  EXPECT_EQ(regressions[1], "doc.txt order: held, now fails (1 >= 2: no)");
  EXPECT_TRUE(scorecard_regressions(csv, "validation.csv", committed, 2).empty());
}

TEST(ValidationScoring, ADamagedCommittedScorecardIsRefusedNamingItsLine) {
  EXPECT_THROW(scorecard_regressions("source,id\nx,y\n", "old.csv", {}, 2), ResultsError);
  std::string csv = scorecard_csv({});
  csv += "doc.txt,a,figure,prediction,w,c,q,u,100,90,ten,20,yes,\n";
  try {
    scorecard_regressions(csv, "old.csv", {}, 2);
    FAIL() << "no error";
  } catch (const ResultsError& e) {
    EXPECT_NE(std::string(e.what()).find("old.csv: line 2"), std::string::npos) << e.what();
  }
}

ValidationSource read(const std::string& text, std::vector<std::string>& errors) {
  Diagnostics d("m.json");
  const Json doc = parse_document(text, d);
  ValidationSource s = read_validation_source(doc, d);
  try {
    d.throw_if_any();
  } catch (const ScenarioError& e) {
    for (const auto& item : e.diagnostics()) errors.push_back(item.path + ": " + item.message);
  }
  return s;
}

TEST(ValidationData, AGoodFileIsReadWhole) {
  std::vector<std::string> errors;
  const ValidationSource s = read(R"({
    "source": "doc.txt", "title": "t", "scenario": "nic-review-2003",
    "figures": [{"id": "a", "where": "table 1", "condition": "c", "point": {"nic": "LG", "size": 1024},
                 "quantity": "throughput", "measured": 439, "unit": "Mb/s", "relation": "at_least",
                 "simulated": {"component": "pc.driver", "name": "app_receive_throughput", "scale": 1e-6},
                 "tolerance_pct": 20, "role": "prediction", "quick": true}],
    "claims": [{"id": "b", "where": "w", "text": "t", "role": "prediction",
                "checks": [{"left": {"points": {"nic": "LG"}, "simulated": {"component": "x", "name": "y"},
                            "over": "max"}, "op": "<=", "right": 600}]}]})",
                                  errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(s.figures.size(), 1u);
  EXPECT_EQ(s.figures[0].point.at("size"), "1024");
  EXPECT_EQ(s.figures[0].relation, Relation::at_least);
  EXPECT_TRUE(s.figures[0].quick);
  EXPECT_DOUBLE_EQ(s.figures[0].simulated.scale, 1e-6);
  ASSERT_EQ(s.claims[0].checks.size(), 1u);
  EXPECT_EQ(*s.claims[0].checks[0].right.number, 600);
  EXPECT_EQ(s.claims[0].checks[0].left.over, Reduce::max);
}

TEST(ValidationData, EveryMistakeIsNamedByItsPathWithADidYouMean) {
  std::vector<std::string> errors;
  read(R"({
    "source": "doc.txt", "title": "t", "scenario": "s",
    "figures": [{"id": "a", "where": "w", "condition": "c", "quantity": "q", "measured": -1,
                 "unit": "u", "simulated": {"component": "c", "name": "n", "reduce": "avg"},
                 "role": "predicton", "tolerance": 5},
                {"id": "a", "where": "w", "condition": "c", "quantity": "q", "measured": 1,
                 "unit": "u", "simulated": {"component": "c", "name": "n"}}],
    "claims": [{"id": "b", "where": "w", "text": "t", "role": "prediction",
                "checks": [{"left": 1, "op": "=>", "right": 2}]}]})",
       errors);
  const std::vector<std::string> expected = {
      "figures[0].tolerance: unknown key; did you mean \"tolerance_pct\"? (known here: id, where, "
      "condition, how, point, quantity, measured, unit, relation, simulated, tolerance_pct, role, "
      "quick)",
      "figures[0].measured: expected a positive finite number, got -1 (an integer)",
      "figures[0].simulated.reduce: expected sum | mean | max | min, got \"avg\" (a string)",
      "figures[0].role: expected calibration | prediction, got \"predicton\" (a string); did you "
      "mean \"prediction\"?",
      "figures[1].role: missing: calibration or prediction",
      "claims[0].checks[0].op: expected <= | >= | < | >, got \"=>\"",
      "figures[1].id: id \"a\" is used twice in this file"};
  for (const std::string& e : expected)
    EXPECT_NE(std::find(errors.begin(), errors.end(), e), errors.end())
        << e << " not in " << ::testing::PrintToString(errors);
  EXPECT_EQ(errors.size(), expected.size()) << ::testing::PrintToString(errors);
}

TEST(ValidationData, ASelectorIsCheckedAgainstTheSweepsColumnsAndLabels) {
  ValidationSource s;
  s.figures = {figure("a", {{"nics", "LG"}}, 1, 1), figure("b", {{"nic", "Intl"}}, 1, 1)};
  Diagnostics d("m.json");
  check_selectors(s, two_boards(), d);
  try {
    d.throw_if_any();
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    ASSERT_EQ(e.diagnostics().size(), 2u);
    EXPECT_EQ(e.diagnostics()[0].path, "figures[0].point.nics");
    EXPECT_EQ(e.diagnostics()[0].message,
              "the scenario's sweep has no such column; its columns: nic | direction; did you "
              "mean \"nic\"?");
    EXPECT_EQ(e.diagnostics()[1].message,
              "no point has \"Intl\"; the column holds Intel | LG; did you mean \"Intel\"?");
  }
}

TEST(ValidationData, EveryBuiltInSourceReadsAndNamesABuiltInScenario) {
  ASSERT_GE(builtin_validation_sources().size(), 4u);
  for (const auto& [name, text] : builtin_validation_sources()) {
    std::vector<std::string> errors;
    const ValidationSource s = read(text, errors);
    EXPECT_TRUE(errors.empty()) << name << ": " << ::testing::PrintToString(errors);
    bool found = false;
    for (const auto& scenario : builtin_scenarios()) found = found || scenario.first == s.scenario;
    EXPECT_TRUE(found) << name << ": " << s.scenario;
  }
}

}  // namespace
}  // namespace gbesim
