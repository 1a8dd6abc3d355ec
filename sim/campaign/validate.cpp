#include "sim/campaign/validate.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "analysis/result_files.hpp"
#include "analysis/validation.hpp"
#include "gbesim_version.hpp"
#include "sim/campaign/sweep.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/input/schema.hpp"
#include "sim/input/sweep_plan.hpp"
#include "sim/input/validation_data.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

using schema::key_list;

// A source document's data with where its scenario comes from.
struct LoadedSource {
  std::string stem;  // the data file's name without .json: the source's directory
  ValidationSource data;
  std::string scenario_text;            // a built-in scenario's text, to be written out
  std::filesystem::path scenario_file;  // a user's scenario file, or where the copy goes
  SweepPoints points;                   // of the scenario's sweep
};

const std::string* builtin_scenario(const std::string& name) {
  for (const auto& [n, text] : builtin_scenarios())
    if (n == name) return &text;
  return nullptr;
}

std::vector<std::string> builtin_scenario_names() {
  std::vector<std::string> names;
  for (const auto& entry : builtin_scenarios()) names.push_back(entry.first);
  return names;
}

LoadedSource read_source(const std::string& stem, const std::string& file, const std::string& text,
                         bool builtin) {
  Diagnostics d(file);
  const Json doc = parse_document(text, d);
  d.throw_if_any();
  LoadedSource s;
  s.stem = stem;
  s.data = read_validation_source(doc, d);
  if (!d.empty()) d.throw_if_any();
  if (const std::string* scenario = builtin_scenario(s.data.scenario)) {
    s.scenario_text = *scenario;
  } else if (!builtin) {
    s.scenario_file = std::filesystem::path(file).parent_path() / s.data.scenario;
    if (!std::filesystem::is_regular_file(s.scenario_file))
      d.error("scenario", "\"" + s.data.scenario + "\" is neither a built-in scenario (" +
                              key_list(builtin_scenario_names()) + ") nor a file beside " + file +
                              suggestion(s.data.scenario, builtin_scenario_names()));
  } else {
    d.error("scenario", "no built-in scenario \"" + s.data.scenario + "\"" +
                            suggestion(s.data.scenario, builtin_scenario_names()));
  }
  d.throw_if_any();
  return s;
}

SweepPoints points_of(const SweepPlan& plan) {
  SweepPoints p;
  p.columns = plan.columns();
  for (std::size_t k = 0; k < plan.point_count(); ++k) p.labels.push_back(plan.point_labels(k));
  return p;
}

// The scenario's sweep points, and every selection of the source checked against them, before
// anything is written or run.
void check_against_scenario(LoadedSource& s, bool quick) {
  SweepPlan plan;
  if (s.scenario_text.empty()) {
    // A user's scenario: loaded whole, every point with the source's sets.
    LoadOptions load;
    load.sets = s.data.sets;
    plan = load_sweep_plan(s.scenario_file.string(), load);
  } else {
    Diagnostics scenario("scenarios/" + s.data.scenario + ".json");
    plan = read_sweep_plan(parse_document(s.scenario_text, scenario), scenario);
    scenario.throw_if_any();
  }
  s.points = points_of(plan);
  Diagnostics d(s.data.file);
  check_selectors(s.data, s.points, d);
  d.throw_if_any();
  try {
    points_needed(s.data, s.points, quick);
  } catch (const ValidationDataError& e) {
    throw ScenarioError({{s.data.file, "", e.what()}});
  }
}

std::vector<LoadedSource> load_sources(const ValidateOptions& o) {
  std::vector<LoadedSource> out;
  if (o.data_files.empty()) {
    for (const auto& [name, text] : builtin_validation_sources())
      out.push_back(read_source(name, "docs/validation/" + name + ".json", text, true));
    // In the order of the documents' names (000_, 001_, ...).
    std::stable_sort(out.begin(), out.end(), [](const LoadedSource& a, const LoadedSource& b) {
      return a.data.source < b.data.source;
    });
  } else {
    for (const std::string& file : o.data_files)
      out.push_back(read_source(std::filesystem::path(file).stem().string(), file,
                                read_json_file(file), false));
  }
  if (o.sources.empty()) return out;
  std::vector<std::string> stems;
  for (const auto& s : out) stems.push_back(s.stem);
  std::vector<LoadedSource> chosen;
  for (const std::string& want : o.sources) {
    const auto it =
        std::find_if(out.begin(), out.end(), [&](const LoadedSource& s) { return s.stem == want; });
    if (it == out.end())
      throw ScenarioError({{"--source", "",
                            "no source \"" + want + "\"; the sources: " + key_list(stems) +
                                suggestion(want, stems)}});
    chosen.push_back(*it);
  }
  return chosen;
}

// A point's scalars: the mean over its complete replications of each value written.
std::map<std::size_t, PointScalars> scalars_by_point(const SweepPlan& plan,
                                                     const std::vector<ChosenRun>& runs) {
  std::map<std::size_t, std::map<std::pair<std::string, std::string>, std::vector<double>>> all;
  for (const ChosenRun& r : runs) {
    if (r.state.status != "complete") continue;
    auto& point = all[plan.point_of_run(r.run)];
    for (const RunScalar& s : r.scalars)
      if (!s.text.empty()) point[{s.component, s.name}].push_back(s.value);
  }
  std::map<std::size_t, PointScalars> out;
  for (const auto& [point, values] : all)
    for (const auto& [key, samples] : values) {
      double sum = 0;
      for (double v : samples) sum += v;
      out[point][key] = sum / static_cast<double>(samples.size());
    }
  return out;
}

// Runs what one source needs and scores it.
std::vector<ScoreRow> validate_source(const ValidateOptions& o, const LoadedSource& source,
                                      const std::filesystem::path& dir) {
  SweepOptions sweep;
  sweep.scenario_file = source.scenario_file.string();
  sweep.sets = source.data.sets;
  sweep.jobs = o.jobs;
  sweep.out_dir = dir / source.stem;
  sweep.quiet = o.quiet;
  LoadOptions load;
  load.sets = sweep.sets;
  const SweepPlan plan = load_sweep_plan(sweep.scenario_file, load);
  const SweepPoints points = points_of(plan);
  if (points.columns != source.points.columns || points.labels != source.points.labels)
    throw ScenarioError({{source.data.file, "sets",
                          "the --set overrides change the scenario's sweep; a source's sets may "
                          "change its runs, not which points there are"}});
  std::vector<std::size_t> runs;
  for (std::size_t p : points_needed(source.data, points, o.quick))
    for (std::int64_t r = 0; r < plan.replications; ++r)
      runs.push_back(p * static_cast<std::size_t>(plan.replications) + static_cast<std::size_t>(r));
  if (!o.quiet)
    fmt::print(stderr, "validate {}: {} runs of {}\n", source.stem, runs.size(),
               source.data.scenario);
  const auto chosen = run_chosen(sweep, runs);
  const auto scalars = scalars_by_point(plan, chosen);
  try {
    return score_source(
        source.data, points,
        [&](std::size_t p) -> const PointScalars* {
          const auto it = scalars.find(p);
          return it == scalars.end() ? nullptr : &it->second;
        },
        o.quick);
  } catch (const ValidationDataError& e) {
    throw ScenarioError({{source.data.file, "", e.what()}});
  }
}

int list_sources(const std::vector<LoadedSource>& sources) {
  for (const LoadedSource& s : sources) {
    fmt::print("{}: {} ({}; scenario {})\n", s.stem, s.data.title, s.data.source, s.data.scenario);
    for (const ValidationFigure& f : s.data.figures)
      fmt::print("  {:<30} {:<11} {}{} {} {}: {}{}\n", f.id, role_name(f.role),
                 f.quick ? "quick " : "", f.measured, f.unit, f.quantity, f.condition,
                 f.how.empty() ? "" : "\n      simulated as: " + f.how);
    for (const ValidationClaim& c : s.data.claims)
      fmt::print("  {:<30} {:<11} {}claim: {}{}\n", c.id, role_name(c.role),
                 c.quick ? "quick " : "", c.text,
                 c.how.empty() ? "" : "\n      checked as: " + c.how);
  }
  return 0;
}

std::vector<std::string> names_written(const std::vector<LoadedSource>& sources) {
  std::vector<std::string> names = {"validation.csv", "scorecard.txt", "validation.json",
                                    "scenarios"};
  for (const LoadedSource& s : sources) names.push_back(s.stem);
  return names;
}

// Built-in scenarios are written beside the runs (DIR/scenarios/<name>.json): the runs read
// them from there, and they show what was run.
void write_scenario_copies(std::vector<LoadedSource>& sources, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "scenarios", ec);
  if (ec)
    throw ScenarioError({{(dir / "scenarios").string(), "", "cannot create: " + ec.message()}});
  for (LoadedSource& s : sources) {
    if (s.scenario_text.empty()) continue;
    s.scenario_file = dir / "scenarios" / (s.data.scenario + ".json");
    write_file_atomically(s.scenario_file, s.scenario_text);
  }
}

// The committed scorecard's text, read and checked before anything runs (a bad file is bad
// input: exit 2).
std::string committed_scorecard(const ValidateOptions& o) {
  if (o.check_file.empty()) return "";
  try {
    std::string text = read_result_file(o.check_file);
    scorecard_regressions(text, o.check_file, {}, o.allowed_points);
    return text;
  } catch (const ResultsError& e) {
    throw ScenarioError({{"--check", "", e.what()}});
  }
}

int check_against(const ValidateOptions& o, const std::string& committed,
                  const std::vector<ScoreRow>& rows) {
  const auto regressions = scorecard_regressions(committed, o.check_file, rows, o.allowed_points);
  for (const std::string& r : regressions) fmt::print(stderr, "regression: {}\n", r);
  if (!regressions.empty()) {
    fmt::print(stderr, "validate: {} prediction(s) worse than {} by more than {:g} points\n",
               regressions.size(), o.check_file, o.allowed_points);
    return 1;
  }
  if (!o.quiet) fmt::print("validate: no prediction worse than {}\n", o.check_file);
  return 0;
}

int print_markdown(const ValidateOptions& o) {
  try {
    fmt::print("{}",
               scorecard_markdown(read_scorecard(read_result_file(o.markdown_of), o.markdown_of),
                                  o.totals_only));
  } catch (const ResultsError& e) {
    throw ScenarioError({{"--markdown", "", e.what()}});
  }
  return 0;
}

}  // namespace

// DIR/validation.json, sealed: what was validated, by which version, and the size and CRC-32 of
// each file written, so that plot and report read them as untrusted input.
void write_record(const std::filesystem::path& dir, const std::vector<LoadedSource>& sources,
                  const ValidateOptions& o) {
  Json record;
  record["kind"] = "validation";
  record["version"] = kVersion;
  record["quick"] = o.quick;
  record["sources"] = Json::array();
  for (const LoadedSource& s : sources)
    record["sources"].push_back(
        {{"name", s.stem}, {"source", s.data.source}, {"scenario", s.data.scenario}});
  record["files"] = checks_of_files(dir, {"validation.csv", "scorecard.txt"});
  write_file_atomically(dir / "validation.json", seal_record(dump_json(record, 2)));
}

int run_validate(const ValidateOptions& options) {
  if (!options.markdown_of.empty()) return print_markdown(options);
  install_stop_handlers();
  std::vector<LoadedSource> sources = load_sources(options);
  if (options.list_only) return list_sources(sources);
  for (LoadedSource& s : sources) check_against_scenario(s, options.quick);
  const std::string committed = committed_scorecard(options);
  const std::filesystem::path dir =
      options.out_dir ? *options.out_dir : std::filesystem::path("results") / "validation";
  const OutputDirectory out(dir, fmt::format("gbesim validate (pid {})", ::getpid()),
                            names_written(sources));
  write_scenario_copies(sources, dir);
  std::vector<ScoreRow> rows;
  for (const LoadedSource& s : sources) {
    const auto scored = validate_source(options, s, dir);
    rows.insert(rows.end(), scored.begin(), scored.end());
    if (stop_requested()) return 130;
  }
  write_file_atomically(dir / "validation.csv", scorecard_csv(rows));
  const std::string text = scorecard_text(rows);
  write_file_atomically(dir / "scorecard.txt", text);
  write_record(dir, sources, options);
  fmt::print("{}\nvalidate: {} (validation.csv, scorecard.txt, validation.json)\n", text,
             dir.string());
  const bool all_ran = std::none_of(rows.begin(), rows.end(), [](const ScoreRow& r) {
    return r.kind == "figure" && !r.simulated;
  });
  if (!options.check_file.empty()) {
    const int code = check_against(options, committed, rows);
    if (code != 0) return code;
  }
  return all_ran ? 0 : 1;
}

}  // namespace gbesim
