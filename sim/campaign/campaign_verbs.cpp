#include "sim/campaign/campaign_verbs.hpp"

#include <memory>
#include <vector>

#include "sim/campaign/bench.hpp"
#include "sim/campaign/slurm_options.hpp"
#include "sim/campaign/sweep.hpp"
#include "sim/campaign/validate.hpp"
#include "sim/run/run_verb.hpp"
#include "sim/run/series.hpp"

namespace gbesim {
namespace {

// The #SBATCH values, held to sbatch's grammar (slurm_options) before a script is written.
const CLI::Validator& slurm_time() {
  static const CLI::Validator v(
      [](std::string& text) { return slurm_time_problem(text).value_or(""); }, "TIME");
  return v;
}

const CLI::Validator& slurm_partition() {
  static const CLI::Validator v(
      [](std::string& text) { return slurm_partition_problem(text).value_or(""); }, "PARTITION");
  return v;
}

struct SweepLine {
  SweepOptions sweep;
  std::string out_dir;
  std::string series;
  CLI::Option* out = nullptr;
};

// What a sweep does besides running every run: --list, --status, --aggregate, --shard.
void declare_sweep_modes(CLI::App* cmd, SweepLine& l, CLI::Option* slurm) {
  SweepOptions& s = l.sweep;
  cmd->add_flag("--list", s.list_only, "list the runs and exit");
  auto* shard =
      cmd->add_option("--shard", s.shard,
                      "run only block I of N (I/N, e.g. 3/8) of the runs: a cluster task's share; "
                      "--aggregate writes the sweep-wide files afterwards");
  auto* status = cmd->add_flag(
      "--status", s.status_only,
      "how many runs are complete, running, stale, damaged, interrupted, failed or missing, and "
      "why; runs nothing (exit 0 when all are complete, 1 otherwise)");
  cmd->add_flag("--json", s.json, "--status as JSON")->needs(status);
  auto* aggregate = cmd->add_flag(
      "--aggregate", s.aggregate_only,
      "write points.csv and summary.csv from the complete runs; runs nothing (exit 1 naming the "
      "runs that are not complete)");
  status->excludes(aggregate);
  slurm->excludes(status);
  slurm->excludes(aggregate);
  shard->excludes(status);
  shard->excludes(slurm);
  shard->excludes(aggregate);
}

// --slurm and what only it reads.
CLI::Option* declare_slurm(CLI::App* cmd, SweepOptions& s) {
  auto* slurm = cmd->add_flag(
      "--slurm", s.slurm,
      "write a Slurm job array of shards and an aggregation job after it into DIR/slurm/ and "
      "say how to submit them (docs/cluster.md)");
  cmd->add_option("--tasks", s.slurm_tasks, "--slurm: array tasks (default min(runs, 8))")
      ->check(decimal())
      ->check(CLI::Range(1, 100000))
      ->needs(slurm);
  cmd->add_option("--partition", s.slurm_partition,
                  "--slurm: the partition (or several, comma-separated)")
      ->check(slurm_partition())
      ->needs(slurm);
  cmd->add_option("--time", s.slurm_time,
                  "--slurm: each task's time limit, in sbatch's forms (e.g. 90, 1:00:00, 2-12)")
      ->check(slurm_time())
      ->needs(slurm);
  cmd->add_option("--cpus-per-task", s.slurm_cpus_per_task,
                  "--slurm: CPUs per task, the runs each task runs at once (default 1)")
      ->check(decimal())
      ->check(CLI::Range(1, 256))
      ->needs(slurm);
  cmd->add_flag("--submit", s.slurm_submit, "--slurm: also submit it (sbatch)")->needs(slurm);
  return slurm;
}

void declare_sweep(CLI::App* cmd, SweepLine& l) {
  SweepOptions& s = l.sweep;
  cmd->add_option("scenario", s.scenario_file, "scenario JSON file")->required();
  cmd->add_option("-j,--jobs", s.jobs, "runs in parallel (default 1)")
      ->check(decimal())
      ->check(CLI::Range(1, 256));
  l.out = cmd->add_option("-o,--out", l.out_dir, "sweep directory (default results/<name>)");
  cmd->add_option("--set", s.sets, "override a parameter: path=value (repeatable)");
  cmd->add_flag("--quiet", s.quiet, "no progress");
  cmd->add_option("--aggregate-every-ms", s.aggregate_every_ms,
                  "aggregate while running this often (testing)")
      ->check(decimal())
      ->check(CLI::Range(0, 3600000))
      ->group("");  // hidden
  declare_sweep_modes(cmd, l, declare_slurm(cmd, s));
  cmd->add_option("--series", l.series,
                  "every run records its rates per interval into series.csv (e.g. 1s)")
      ->check(duration());
}

struct BenchLine {
  BenchOptions bench;
  CLI::Option* sweep_scenario = nullptr;
};

void declare_bench(CLI::App* cmd, BenchLine& l) {
  BenchOptions& b = l.bench;
  cmd->add_option("--runs", b.runs, "runs per case; the median is reported")
      ->check(decimal())
      ->check(CLI::Range(1, 99));
  cmd->add_option("--duration-ms", b.duration_ms, "simulated time per run")
      ->check(decimal())
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--cases", b.cases,
                  "only these cases (a, b, b', c = the whole half-duplex curve, c2 .. c1024, e, "
                  "f, k, m, s, w, g, h, p, i, j), comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"a", "b", "b'", "c", "c2", "c8", "c32", "c128", "c512", "c1024", "e",
                             "f", "k", "m",  "s", "w",  "g",  "h",   "p",    "i",    "j"}));
  l.sweep_scenario =
      cmd->add_option("--sweep-scenario", b.sweep_scenario,
                      "the sweep case (w) times: gbesim sweep FILE -j 2 (default "
                      "scenarios/carrier-extension-waste.json, from the project's directory)");
}

struct ValidateLine {
  ValidateOptions validate;
  std::string out_dir;
  CLI::Option* out = nullptr;
};

void declare_validate(CLI::App* cmd, ValidateLine& l) {
  ValidateOptions& v = l.validate;
  cmd->add_option("--data", v.data_files,
                  "score against these measurement files (docs/validation.md's shape) instead of "
                  "the built-in sources (repeatable)");
  cmd->add_option("--source", v.sources,
                  "only this source (e.g. nic-review-2003; repeatable; --list names them)");
  cmd->add_flag("--quick", v.quick, "only the rows marked quick (a few runs per source)");
  cmd->add_option("-j,--jobs", v.jobs, "runs in parallel (default 1)")
      ->check(decimal())
      ->check(CLI::Range(1, 256));
  l.out = cmd->add_option("-o,--out", l.out_dir, "results directory (default results/validation)");
  cmd->add_option("--check", v.check_file,
                  "compare with a committed validation.csv: exit 1 when a prediction's error grew "
                  "by more than --allowed-points or a claim no longer holds");
  cmd->add_option("--allowed-points", v.allowed_points,
                  "--check: how many percentage points a prediction's error may grow (default 2)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_flag("--list", v.list_only, "list the sources, their figures and claims; run nothing");
  auto* markdown =
      cmd->add_option("--markdown", v.markdown_of,
                      "print a validation.csv as docs/validation.md's tables; run nothing");
  cmd->add_flag("--totals", v.totals_only, "--markdown: only the totals")->needs(markdown);
  cmd->add_flag("--quiet", v.quiet, "no progress");
}

}  // namespace

Verb add_validate_verb(CLI::App& app) {
  auto line = std::make_shared<ValidateLine>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "score the model against the source documents' published measurements");
  declare_validate(cmd, *line);
  return {cmd, [line] {
            check_out_option(line->out);
            if (line->out->count() > 0) line->validate.out_dir = line->out_dir;
            return run_validate(line->validate);
          }};
}

Verb add_sweep_verb(CLI::App& app, const std::string& self) {
  auto line = std::make_shared<SweepLine>();
  line->sweep.self = self;
  CLI::App* cmd = app.add_subcommand("sweep", "run every point x replication of a sweep");
  declare_sweep(cmd, *line);
  return {cmd, [line] {
            check_out_option(line->out);
            SweepOptions& s = line->sweep;
            if (line->out->count() > 0) s.out_dir = line->out_dir;
            if (!line->series.empty())
              s.sets.push_back("series_interval_ns=" +
                               std::to_string(*parse_interval_ns(line->series)));
            return run_sweep(s);
          }};
}

Verb add_bench_verb(CLI::App& app, const std::string& self) {
  auto line = std::make_shared<BenchLine>();
  line->bench.self = self;
  CLI::App* cmd = app.add_subcommand("bench", "measure simulation speed and memory");
  declare_bench(cmd, *line);
  return {cmd, [line] {
            line->bench.sweep_scenario_given = line->sweep_scenario->count() > 0;
            return run_bench(line->bench);
          }};
}

}  // namespace gbesim
