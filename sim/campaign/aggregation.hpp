#pragma once
// A sweep's sweep-wide files, from its complete runs (docs/results.md "Sweeps"): points.csv and
// summary.csv (at the end, and every few seconds while it runs, so that charts can follow it),
// results.sqlite and answers.txt (at the end, and by --aggregate), each with its check in
// sweep.json; and why --aggregate must leave a directory as it is.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sweep_summary.hpp"
#include "sim/campaign/run_state.hpp"
#include "sim/campaign/sweep.hpp"
#include "sim/campaign/sweep_record.hpp"
#include "sim/input/sweep_plan.hpp"

namespace gbesim {

class Aggregation {
 public:
  // Sweep `name`'s files go into runs.sweep_dir(), their checks into `record`.
  Aggregation(const SweepPlan& plan, const SweepRuns& runs, SweepRecord& record, std::string name);

  // points.csv and summary.csv from every run as it is now (a complete run's scalars read once,
  // from the text its check was made on).
  void write_tables();
  // results.sqlite from the runs write_tables read: their last use (moved, not copied: 870
  // scalars a run in large sweeps).
  void write_sqlite();
  // The sweep's answers (analysis/answers: diameter, carrier extension, PCI ceilings): the
  // questions and answers, with how they were found and every combination, in answers.txt.
  // Returns the part for stdout (empty: none).
  std::string write_answers();
  // Every sweep-wide file, in this order: points.csv, summary.csv, results.sqlite, sweep.json,
  // answers.txt, and sweep.json again with answers.txt's check; the status is complete,
  // interrupted (a stop was asked) or incomplete. Returns write_answers's part for stdout.
  std::string write_all();

  const std::string& name() const { return name_; }
  std::size_t complete() const { return complete_; }
  const std::vector<std::size_t>& not_complete() const { return not_complete_; }

 private:
  RunRecord record_of(std::size_t run) const;
  std::string final_status() const;

  const SweepPlan& plan_;
  const SweepRuns& runs_;
  SweepRecord& record_;
  std::string name_;
  std::size_t complete_ = 0;
  std::vector<std::size_t> not_complete_;
  std::vector<RunRecord> records_;   // as the last write_tables found them
  std::vector<SummaryRow> summary_;  // their summary (pointing into them)
};

// Why `--aggregate` must leave the sweep's directory as it is, or nullopt: the sweep recorded
// there (sweep.json) was run with other --set options, or none of its runs was made with this
// configuration (every row would be stale, and good files would be replaced by empty ones).
std::optional<std::string> aggregation_refusal(const SweepOptions& options, const SweepRuns& runs);

}  // namespace gbesim
