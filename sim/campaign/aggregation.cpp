#include "sim/campaign/aggregation.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <utility>

#include "analysis/answers.hpp"
#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "sim/campaign/results_sqlite.hpp"
#include "sim/campaign/shell_words.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

// What answers.txt holds (`full`: each answer, how it was found, and every combination) and what
// the sweep says of it on stdout (`brief`: the questions and answers).
struct AnswerTexts {
  std::string brief;
  std::string full;
};

AnswerTexts answer_texts(const std::vector<Answer>& found) {
  AnswerTexts t;
  for (const Answer& a : found) {
    std::string block = a.question + "\n";
    if (!a.table.empty()) block += table_text(a.table, "  ");
    for (const auto& line : a.lines) block += "  " + line + "\n";
    t.brief += block;
    t.full += block + "  (" + a.method + ")\n\n  per combination:\n";
    for (const auto& line : a.details) t.full += "  " + line + "\n";
    t.full += "\n";
  }
  return t;
}

// "--set a=1 --set b=2", or "no --set".
std::string sets_text(const std::vector<std::string>& sets) {
  std::string out;
  for (const auto& set : sets)
    out += (out.empty() ? "" : " ") + std::string("--set ") + shell_word(set);
  return out.empty() ? "no --set" : out;
}

// The --set options the sweep.json in `dir` records, when it records them.
std::optional<std::vector<std::string>> recorded_sets(const std::filesystem::path& dir) {
  const auto record = read_json_record(dir / "sweep.json", {"sets"});
  if (!record || !record->is_object() || !record->contains("sets") || !(*record)["sets"].is_array())
    return std::nullopt;
  std::vector<std::string> recorded;
  for (const auto& set : (*record)["sets"])
    if (set.is_string()) recorded.push_back(set.get<std::string>());
  return recorded;
}

}  // namespace

Aggregation::Aggregation(const SweepPlan& plan, const SweepRuns& runs, SweepRecord& record,
                         std::string name)
    : plan_(plan), runs_(runs), record_(record), name_(std::move(name)) {}

RunRecord Aggregation::record_of(std::size_t run) const {
  RunRecord r;
  r.run = run;
  r.point = plan_.point_of_run(run);
  r.replication = plan_.replication_of_run(run);
  r.seed = plan_.seed_of_run(run);
  r.swept_values = plan_.point_labels(r.point);
  r.status = runs_.status(run, &r.scalars);
  return r;
}

void Aggregation::write_tables() {
  summary_.clear();
  records_.clear();
  complete_ = 0;
  not_complete_.clear();
  for (std::size_t k = 0; k < plan_.run_count(); ++k) {
    RunRecord r = record_of(k);
    if (r.status == "complete")
      ++complete_;
    else
      not_complete_.push_back(k);
    records_.push_back(std::move(r));
  }
  record_.write_file("points.csv", points_csv(plan_.columns(), records_));
  summary_ = summary_rows(records_, plan_.replications);
  record_.write_file("summary.csv", summary_csv(plan_.columns(), summary_));
}

void Aggregation::write_sqlite() {
  SweepTables tables;
  tables.axes = plan_.columns();
  for (std::size_t p = 0; p < plan_.point_count(); ++p) {
    tables.point_labels.push_back(plan_.point_labels(p));
    tables.point_sets.push_back(plan_.point(p));
  }
  // Moving keeps the rows' pointers.
  tables.runs = std::move(records_);
  tables.summary = std::move(summary_);
  write_results_sqlite(runs_.sweep_dir(), tables);
  record_.record_file("results.sqlite");
}

std::string Aggregation::write_answers() {
  if (complete_ == 0) {
    record_.forget_answers();
    return "";
  }
  Results results;
  try {
    results = load_results(runs_.sweep_dir().string());
  } catch (const ResultsError& e) {
    record_.forget_answers();
    fmt::print(stderr, "warning: sweep {}: no answers stated: {}\n", name_, printable(e.what()));
    return "";
  }
  const auto found = answers(results);
  if (found.empty()) {
    // No rule answers this sweep: it says why, on stdout and in answers.txt.
    const std::string why = no_answer_reason(results);
    if (why.empty()) {
      record_.forget_answers();
      return "";
    }
    record_.write_file("answers.txt", "No stated answer: " + why + "\n");
    return "No stated answer: " + why + "\n";
  }
  const AnswerTexts texts = answer_texts(found);
  record_.write_file("answers.txt", texts.full);
  return texts.brief;
}

std::string Aggregation::final_status() const {
  return complete_ == plan_.run_count() ? "complete"
         : stop_requested()             ? "interrupted"
                                        : "incomplete";
}

std::string Aggregation::write_all() {
  write_tables();
  write_sqlite();
  record_.write(final_status(), complete_);
  const std::string said = write_answers();
  record_.write(final_status(), complete_);
  return said;
}

std::optional<std::string> aggregation_refusal(const SweepOptions& options, const SweepRuns& runs) {
  std::string command = "gbesim sweep " + shell_word(options.scenario_file) + " --aggregate";
  if (options.out_dir) command += " --out " + shell_word(options.out_dir->string());
  if (const auto recorded = recorded_sets(runs.sweep_dir());
      recorded && *recorded != options.sets) {
    std::string same = command;
    for (const auto& set : *recorded) same += " --set " + shell_word(set);
    return "this sweep was run with " + sets_text(*recorded) + " (sweep.json), not " +
           sets_text(options.sets) + ": nothing was changed; aggregate it with the same: " + same;
  }
  std::size_t complete = 0, stale = 0;
  for (std::size_t k = 0; k < runs.count(); ++k) {
    const RunState st = runs.state(k);
    complete += st.status == "complete";
    stale += st.status == "stale";
  }
  if (complete == 0 && stale > 0)
    return fmt::format(
        "none of the {} runs here was made with this configuration ({} are stale: the scenario "
        "changed, or its --set); nothing was changed (gbesim sweep {} --status says why)",
        runs.count(), stale, shell_word(options.scenario_file));
  return std::nullopt;
}

}  // namespace gbesim
