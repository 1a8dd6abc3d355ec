// `gbesim validate` through the binary, on a user's own measurement file and scenario: the
// figures' simulated values are the runs' own scalars, the scorecard and validation.csv say the
// same, a second validation resumes (runs nothing), --check names a regression (exit 1), and a
// bad measurement file is refused with its path and a did-you-mean before anything runs (exit 2).
// Every test waits for the command to end, never for a time.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

const char* kSweep = R"({"name": "frames", "description": "", "duration_ns": 100000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"stations.a.traffic[0].frame_bytes": [64, 512, 1518]}})";

// Two figures (one calibration, one prediction) and a claim, at the 512- and 1518-byte points.
std::string measurements(double measured_512, double measured_1518) {
  return fmt::format(R"({{
  "source": "lab-notes.txt", "title": "our own lab", "scenario": "frames.json",
  "figures": [
    {{"id": "frames-512", "where": "run 1", "condition": "512-byte frames", "quantity": "frames",
      "point": {{"stations.a.traffic[0].frame_bytes": "512"}}, "measured": {}, "unit": "frames",
      "simulated": {{"component": "a.mac", "name": "frames_transmitted_ok"}},
      "tolerance_pct": 5, "role": "calibration", "quick": true}},
    {{"id": "frames-1518", "where": "run 2", "condition": "1518-byte frames", "quantity": "frames",
      "point": {{"stations.a.traffic[0].frame_bytes": "1518"}}, "measured": {}, "unit": "frames",
      "simulated": {{"component": "a.mac", "name": "frames_transmitted_ok"}},
      "tolerance_pct": 5, "role": "prediction"}}],
  "claims": [
    {{"id": "small-frames-more", "where": "run 3", "text": "more 512-byte frames than 1518-byte ones",
      "role": "prediction",
      "checks": [{{"left": {{"points": {{"stations.a.traffic[0].frame_bytes": "512"}},
                            "simulated": {{"component": "a.mac", "name": "frames_transmitted_ok"}}}},
                  "op": ">", "right": {{"points": {{"stations.a.traffic[0].frame_bytes": "1518"}},
                            "simulated": {{"component": "a.mac", "name": "frames_transmitted_ok"}}}}}}]}}]}})",
                     measured_512, measured_1518);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// frames_transmitted_ok of a.mac in a run's scalars.csv.
double frames_sent(const std::filesystem::path& run) {
  for (const auto& row : read_csv(run / "scalars.csv"))
    if (row.size() == 4 && row[0] == "a.mac" && row[1] == "frames_transmitted_ok")
      return std::stod(row[3]);
  return -1;
}

TEST(Validate, AUsersMeasurementsAreScoredOnTheRunsOwnScalarsAndResume) {
  const auto dir = fresh_directory("validate-user");
  write_text(dir / "frames.json", kSweep);
  write_text(dir / "lab.json", measurements(1000, 1000));
  const auto first = run_gbesim({"validate", "--data", "lab.json", "--out", "v", "-j", "2"}, dir);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // Points 1 (512 B) and 2 (1518 B) ran; point 0 (64 B) is needed by nothing.
  EXPECT_FALSE(std::filesystem::exists(dir / "v/lab/runs/0"));
  const double n512 = frames_sent(dir / "v/lab/runs/1");
  const double n1518 = frames_sent(dir / "v/lab/runs/2");
  ASSERT_GT(n1518, 0);
  ASSERT_GT(n512, n1518);
  const auto rows = read_csv(dir / "v/validation.csv");
  ASSERT_EQ(rows.size(), 4u);  // the header, two figures, the claim
  EXPECT_EQ(rows[1][1], "frames-512");
  EXPECT_EQ(std::stod(rows[1][9]), n512);
  EXPECT_NEAR(std::stod(rows[1][10]), 100 * (n512 / 1000 - 1), 1e-3);
  EXPECT_EQ(rows[3][2], "claim");
  EXPECT_EQ(rows[3][12], "yes");
  EXPECT_TRUE(contains(read_text(dir / "v/scorecard.txt"), "small-frames-more"));
  EXPECT_TRUE(contains(first.output, "lab-notes.txt"));

  // Its charts and report: simulated against measured, the rows, the claim.
  const auto plot = run_gbesim({"plot", "v", "-o", "charts"}, dir);
  EXPECT_EQ(plot.exit_code, 0) << plot.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "charts/validation-lab-notes-frames.png"));
  const auto report = run_gbesim({"report", "v", "-o", "report.html"}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string html = read_text(dir / "report.html");
  EXPECT_TRUE(contains(html, "Validation against the source documents"));
  EXPECT_TRUE(contains(html, "<td>frames-1518</td><td>prediction</td>"));
  EXPECT_TRUE(contains(html, "claim: more 512-byte frames than 1518-byte ones"));

  // A scorecard changed since validate wrote it is refused, naming it (exit 2).
  std::filesystem::copy(dir / "v", dir / "copy", std::filesystem::copy_options::recursive);
  write_text(dir / "copy/validation.csv", read_text(dir / "copy/validation.csv") + "\n");
  const auto tampered = run_gbesim({"plot", "copy", "-o", "charts2"}, dir);
  EXPECT_EQ(tampered.exit_code, 2) << tampered.output;
  EXPECT_TRUE(contains(tampered.output, "validation.csv")) << tampered.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "charts2"));

  // Again: every run is complete, so nothing runs; the same scorecard.
  const auto again = run_gbesim(
      {"validate", "--data", "lab.json", "--out", "v", "--check", "v/validation.csv"}, dir);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "no prediction worse than v/validation.csv"));
  EXPECT_TRUE(contains(again.output, "2/2 runs done (0 running, 0 failed, 2 already complete)"))
      << again.output;

  // Measurements that make the prediction's error 10 points worse than the committed scorecard.
  write_text(dir / "committed.csv", read_text(dir / "v/validation.csv"));
  write_text(dir / "lab.json", measurements(1000, n1518 / 1.1));
  write_text(dir / "committed-good.json", measurements(1000, n1518));
  ASSERT_EQ(run_gbesim({"validate", "--data", "committed-good.json", "--out", "c"}, dir).exit_code,
            0);
  const auto worse = run_gbesim(
      {"validate", "--data", "lab.json", "--out", "v", "--check", "c/validation.csv"}, dir);
  EXPECT_EQ(worse.exit_code, 1) << worse.output;
  EXPECT_TRUE(contains(worse.output,
                       "regression: lab-notes.txt frames-1518: error +10.0 % was "
                       "+0.0 % (more than 2 points worse)"))
      << worse.output;
}

TEST(Validate, ABadMeasurementFileIsRefusedWithItsPathBeforeAnythingRuns) {
  const auto dir = fresh_directory("validate-bad");
  write_text(dir / "frames.json", kSweep);
  std::string bad = measurements(1000, 1000);
  const std::string role = "\"role\": \"prediction\"}]";
  bad.replace(bad.find(role), role.size(), "\"role\": \"predicton\"}]");
  write_text(dir / "lab.json", bad);
  const auto r = run_gbesim({"validate", "--data", "lab.json", "--out", "v"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "lab.json: figures[1].role: expected calibration | prediction, "
                       "got \"predicton\" (a string); did you mean \"prediction\"?"))
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "v"));

  std::string wrong_label = measurements(1000, 1000);
  wrong_label.replace(wrong_label.find("\"1518\"}, \"measured\""), 6, "\"1519\"");
  write_text(dir / "lab.json", wrong_label);
  const auto r2 = run_gbesim({"validate", "--data", "lab.json", "--out", "v2"}, dir);
  EXPECT_EQ(r2.exit_code, 2) << r2.output;
  EXPECT_TRUE(contains(r2.output,
                       "figures[1].point.stations.a.traffic[0].frame_bytes: no point "
                       "has \"1519\"; the column holds 64 | 512 | 1518; did you mean "
                       "\"1518\"?"))
      << r2.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "v2"));

  // Sets the scenario refuses: every point is loaded with them before anything is written.
  std::string bad_sets = measurements(1000, 1000);
  bad_sets.replace(bad_sets.find("\"figures\""), 0,
                   "\"sets\": [\"stations.a.mac.ifg_bit=96\"], \"sets_why\": \"a typo\", ");
  write_text(dir / "lab.json", bad_sets);
  const auto r4 = run_gbesim({"validate", "--data", "lab.json", "--out", "v4"}, dir);
  EXPECT_EQ(r4.exit_code, 2) << r4.output;
  EXPECT_TRUE(
      contains(r4.output, "stations.a.mac.ifg_bit: unknown key; did you mean \"ifg_bits\"?"))
      << r4.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "v4"));

  const auto r3 = run_gbesim({"validate", "--source", "nic-reviw-2003", "--out", "v3"}, dir);
  EXPECT_EQ(r3.exit_code, 2) << r3.output;
  EXPECT_TRUE(contains(r3.output, "did you mean \"nic-review-2003\"?")) << r3.output;
}

}  // namespace
}  // namespace gbesim
