#pragma once
// `gbesim sweep`: every point x replication of a scenario's sweep, each as its own process
// (`gbesim run SCENARIO --point K`: SystemC allows one elaboration per process), -j at a time.
// Runs already complete with the same configuration are skipped, so a sweep resumes; the same
// --point K lets a cluster job array spread a sweep over machines, and a final `gbesim sweep`
// in the same directory aggregates. Writes sweep.json, runs/<K>/, points.csv and summary.csv.
// --shard I/N runs one block of the runs (a cluster task's share), --status tells what is
// complete, stale, failed or missing, --aggregate writes the sweep-wide files from what is
// complete (docs/cluster.md).
// run_sweep (sweep.cpp) is the command's steps; the parts are beside it: run_state (what a run's
// directory holds), sweep_status (--list, --status), sweep_loop (running the pending runs),
// sweep_children (the processes it forks), sweep_record (sweep.json), aggregation (points.csv,
// summary.csv, results.sqlite, answers.txt), slurm_scripts (--slurm), shell_words.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/campaign/run_state.hpp"

namespace gbesim {

struct SweepOptions {
  std::string scenario_file;
  std::vector<std::string> sets;
  int jobs = 1;
  std::optional<std::filesystem::path> out_dir;
  bool list_only = false;
  bool quiet = false;
  // --shard I/N: only the I-th (1 .. N) of N balanced blocks of consecutive runs, into the same
  // layout, without the sweep-wide files (a final --aggregate writes those).
  std::string shard;
  bool status_only = false;     // --status: what each run's directory holds; nothing runs
  bool json = false;            // --status --json
  bool aggregate_only = false;  // --aggregate: points.csv, summary.csv from what is complete
  // --slurm: write DIR/slurm/ (a job array of `slurm_tasks` shards and an aggregation job that
  // follows it) and say how to submit it; --submit also submits it through sbatch.
  bool slurm = false;
  int slurm_tasks = 0;  // 0: min(runs, 8)
  std::string slurm_partition;
  std::string slurm_time;
  int slurm_cpus_per_task = 1;
  bool slurm_submit = false;
  std::string self;  // path of the gbesim executable (the Slurm scripts run it)
  // How often a sweep aggregates what is complete while it runs (but not more than about a
  // tenth of the time): 3 s, or less for tests that want it to happen while they watch.
  int aggregate_every_ms = 3000;
};

int run_sweep(const SweepOptions& options);

// Some runs of a sweep, chosen by number: those not complete already run into the sweep's usual
// layout (options.out_dir), -j at a time, without the sweep-wide files -- what `gbesim validate`
// runs of each scenario. Returns what each chosen run's directory holds afterwards, with its
// scalars when complete (checked as --status checks them).
struct ChosenRun {
  std::size_t run = 0;
  RunState state;
  std::vector<RunScalar> scalars;
};
std::vector<ChosenRun> run_chosen(const SweepOptions& options,
                                  const std::vector<std::size_t>& runs);

}  // namespace gbesim
