#include "sim/campaign/sweep.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <system_error>
#include <utility>

#include "sim/campaign/aggregation.hpp"
#include "sim/campaign/run_state.hpp"
#include "sim/campaign/slurm_scripts.hpp"
#include "sim/campaign/sweep_loop.hpp"
#include "sim/campaign/sweep_record.hpp"
#include "sim/campaign/sweep_status.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

// The path of `axis` that covers a --set's `path` (the same path, or an object above it), or
// empty.
std::string covering_path(const SweepAxis& axis, const std::string& path) {
  for (const auto& axis_path : axis.paths)
    if (path_within(path, axis_path)) return axis_path;
  for (const auto& variant : axis.sets)
    for (const auto& [variant_path, value] : variant)
      if (path_within(path, variant_path)) return variant_path;
  return "";
}

// A --set of a path the sweep varies is replaced at the points that set it (a point applies
// after --set): said once, not left silent.
void warn_of_replaced_sets(const SweepOptions& options, const SweepPlan& plan) {
  for (const auto& set : options.sets) {
    const std::string path = set.substr(0, set.find('='));
    for (const SweepAxis& axis : plan.axes)
      if (const std::string covering = covering_path(axis, path); !covering.empty())
        fmt::print(stderr,
                   "warning: {}: --set {} is replaced by sweep axis \"{}\" at every point that "
                   "sets {} (a sweep point applies after --set; take the path out of the sweep to "
                   "use the --set value)\n",
                   options.scenario_file, set, axis.name, covering);
  }
}

// "I/N" of --shard, checked against the sweep's run count.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 0;
  RunBlock runs;
  std::string text() const { return fmt::format("{}/{}", index, count); }
};

Shard parse_shard(const std::string& text, std::size_t runs, const std::string& file) {
  std::size_t index = 0, count = 0;
  char slash = 0;
  std::istringstream in(text);
  std::string rest;
  const bool read =
      static_cast<bool>(in >> index >> slash >> count) && slash == '/' && !(in >> rest);
  std::string problem;
  if (!read || text.find_first_not_of("0123456789/") != std::string::npos)
    problem = "--shard \"" + text + "\": expected I/N, e.g. 3/8 (the third of 8 blocks)";
  else if (count < 1 || count > runs)
    problem =
        fmt::format("--shard {}: N must be 1 .. {} (the sweep has {} runs)", text, runs, runs);
  else if (index < 1 || index > count)
    problem = fmt::format("--shard {}: I must be 1 .. {}", text, count);
  if (!problem.empty()) {
    Diagnostics d(file);
    d.error("", problem);
    d.throw_if_any();
  }
  return {index, count, shard_block(runs, index, count)};
}

// What every mode but --list works on.
struct Sweep {
  const SweepOptions& options;
  const SweepPlan& plan;
  std::optional<Shard> shard;
  std::string name;
  SweepRuns runs;
  const std::filesystem::path& dir() const { return runs.sweep_dir(); }
};

// Every run's configuration as it would be resolved now (what a complete run must match);
// resolving them also checks every point before anything runs or is submitted.
std::vector<ConfigDigest> expected_configs(const SweepOptions& options, const SweepPlan& plan) {
  std::vector<ConfigDigest> expected;
  expected.reserve(plan.run_count());
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    LoadOptions o;
    o.sets = options.sets;
    o.run = k;
    expected.emplace_back(load_scenario(options.scenario_file, o).resolved);
  }
  ::malloc_trim(0);  // what resolving them took is given back before runs are forked
  return expected;
}

Sweep set_up(const SweepOptions& options, const SweepPlan& plan) {
  std::optional<Shard> shard;
  if (!options.shard.empty())
    shard = parse_shard(options.shard, plan.run_count(), options.scenario_file);
  LoadOptions load;
  load.sets = options.sets;
  std::string name = load_scenario(options.scenario_file, load).config.run.name;
  std::filesystem::path dir =
      options.out_dir ? *options.out_dir : std::filesystem::path("results") / name;
  // runs/ is the sweep's own: a link there would take its runs (and their removals) elsewhere.
  if (!real_directory_or_none(dir / "runs"))
    throw ScenarioError({{(dir / "runs").string(), "",
                          "is a link or not a directory; a sweep's runs/ is its own: nothing was "
                          "changed"}});
  return {options, plan, std::move(shard), std::move(name),
          SweepRuns(std::move(dir), expected_configs(options, plan))};
}

// One sweep (or --aggregate) per directory at a time, one process per shard; runs lock their own
// directories. A shard's directory is named by the numbers, not the text: "01/3" is the same
// shard as "1/3" (and the same lock). A directory that is not gbesim's keeps what is in it:
// nothing of these names is replaced. (runs/ holds directories of runs, each guarded as its own:
// a cluster's array tasks write them before any sweep here.)
OutputDirectory open_sweep_directory(const Sweep& sweep) {
  const std::string holder =
      fmt::format("gbesim sweep {}{} (pid {})", printable(sweep.options.scenario_file),
                  sweep.shard ? " --shard " + sweep.shard->text() : "", ::getpid());
  if (!sweep.shard)
    return OutputDirectory(
        sweep.dir(), holder,
        {"sweep.json", "points.csv", "summary.csv", "results.sqlite", "answers.txt"});
  std::error_code ec;
  std::filesystem::create_directories(sweep.dir() / "shards", ec);
  return OutputDirectory(
      sweep.dir() / "shards" / fmt::format("{}-of-{}", sweep.shard->index, sweep.shard->count),
      holder, {"shard.json"});
}

void make_runs_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "runs", ec);
  if (ec)
    throw ScenarioError({{dir.string(), "", "cannot create the runs directory: " + ec.message()}});
}

// `gbesim sweep --aggregate`: the sweep-wide files from what is complete; runs nothing.
int aggregate_only(const Sweep& sweep) {
  const SweepOptions& options = sweep.options;
  SweepRecord record(options, sweep.plan, sweep.name, sweep.dir());
  Aggregation aggregation(sweep.plan, sweep.runs, record, sweep.name);
  if (const auto refusal = aggregation_refusal(options, sweep.runs))
    throw ScenarioError({{sweep.dir().string(), "", *refusal}});
  const std::string said = aggregation.write_all();
  const std::size_t runs = sweep.plan.run_count();
  const bool all = aggregation.complete() == runs;
  if (!options.quiet) fmt::print("{}", said);
  if (!options.quiet)
    fmt::print(
        "sweep {}: aggregated {} of {} runs; results: {}/ (points.csv, summary.csv, "
        "results.sqlite)\n",
        sweep.name, aggregation.complete(), runs, sweep.dir().string());
  if (!all)
    fmt::print(
        stderr,
        "sweep {}: {} of {} runs are not complete: runs {} (gbesim sweep {} --status says why)\n",
        sweep.name, aggregation.not_complete().size(), runs, run_ranges(aggregation.not_complete()),
        printable(options.scenario_file));
  return all ? 0 : 1;
}

// The runs of `range` not complete yet, and in `redo` why each that has been there before is
// run again.
PendingRuns pending_runs(const SweepRuns& runs, RunBlock range, std::vector<std::string>& redo) {
  PendingRuns pending;
  pending.in_range = range.last - range.first;
  for (std::size_t k = range.first; k < range.last; ++k) {
    const RunState st = runs.state(k);
    if (st.status == "complete") {
      ++pending.skipped;
      continue;
    }
    pending.runs.push_back(k);
    if (st.status == "running")
      redo.push_back(
          fmt::format("run {}: another process is writing it: waiting, then running it", k));
    else if (st.status != "missing" || !st.why.empty())
      redo.push_back(fmt::format("run {}: running it again: {}{}", k, st.status,
                                 st.why.empty() ? "" : " (" + st.why + ")"));
  }
  return pending;
}

void say_why_run_again(const SweepOptions& options, const std::vector<std::string>& redo) {
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < std::min(redo.size(), kShown); ++i)
    fmt::print(stderr, "{}\n", redo[i]);
  if (redo.size() > kShown)
    fmt::print(stderr, "... and {} more run again (gbesim sweep {} --status lists them)\n",
               redo.size() - kShown, printable(options.scenario_file));
}

// A run's directory that is a link (or a file) is not gbesim's: nothing is run into it.
void refuse_runs_into_links(const SweepRuns& runs, const std::vector<std::size_t>& pending) {
  std::vector<std::size_t> not_directories;
  for (const std::size_t k : pending)
    if (!real_directory_or_none(runs.dir(k))) not_directories.push_back(k);
  if (!not_directories.empty())
    throw ScenarioError(
        {{(runs.sweep_dir() / "runs").string(), "",
          "runs " + run_ranges(not_directories) +
              ": a link or a file where a run's directory goes; a sweep runs only into "
              "directories of its own: nothing was run"}});
}

// What is still to run in `range`, said and checked before anything runs.
PendingRuns what_to_run(const Sweep& sweep, RunBlock range) {
  std::vector<std::string> redo;
  PendingRuns pending = pending_runs(sweep.runs, range, redo);
  if (!sweep.options.quiet) say_why_run_again(sweep.options, redo);
  refuse_runs_into_links(sweep.runs, pending.runs);
  return pending;
}

void say_which_failed(const SweepRuns& runs) {
  for (std::size_t k : runs.failed())
    fmt::print(stderr, "run {} failed; see {}\n", k, (runs.dir(k) / "log.txt").string());
}

// DIR/shards/I-of-N/shard.json: the shard's runs and which are not complete.
void write_shard_record(const Shard& shard, const std::filesystem::path& dir,
                        const std::vector<std::size_t>& incomplete) {
  Json record;
  record["shard"] = shard.text();
  record["first_run"] = shard.runs.first;
  record["last_run"] = shard.runs.last - 1;
  record["runs_complete"] = shard.runs.last - shard.runs.first - incomplete.size();
  record["runs_not_complete"] = incomplete;
  record["status"] = incomplete.empty() ? "complete"
                     : stop_requested() ? "interrupted"
                                        : "incomplete";
  write_file_atomically(dir / "shard.json", dump_json(record, 2) + "\n");
}

int finish_shard(const Sweep& sweep, const OutputDirectory& out, const std::string& label) {
  const RunBlock range = sweep.shard->runs;
  std::vector<std::size_t> incomplete;
  for (std::size_t k = range.first; k < range.last; ++k)
    if (sweep.runs.status(k) != "complete") incomplete.push_back(k);
  write_shard_record(*sweep.shard, out.path(), incomplete);
  const std::size_t in_range = range.last - range.first;
  if (!sweep.options.quiet)
    fmt::print("{}: {} of {} runs complete; results: {}/runs/\n", label,
               in_range - incomplete.size(), in_range, sweep.dir().string());
  say_which_failed(sweep.runs);
  if (stop_requested()) return 130;
  return incomplete.empty() ? 0 : 1;
}

// `gbesim sweep --shard I/N`: its block of runs, into the sweep's usual layout, without the
// sweep-wide files (a final --aggregate writes those).
int run_shard(Sweep& sweep, const OutputDirectory& out) {
  const Shard& shard = *sweep.shard;
  const PendingRuns pending = what_to_run(sweep, shard.runs);
  const std::string label = fmt::format("sweep {} shard {} (runs {}-{})", sweep.name, shard.text(),
                                        shard.runs.first, shard.runs.last - 1);
  run_pending(sweep.options, sweep.runs, pending, label, nullptr, nullptr);
  return finish_shard(sweep, out, label);
}

int finish_sweep(const Sweep& sweep, Aggregation& aggregation) {
  const std::string said = aggregation.write_all();
  const std::size_t runs = sweep.plan.run_count();
  const std::size_t complete = aggregation.complete();
  if (!sweep.options.quiet) {
    fmt::print(
        "sweep {}: {} of {} runs complete; results: {}/ (points.csv, summary.csv, results.sqlite, "
        "{}runs/)\n",
        sweep.name, complete, runs, sweep.dir().string(), said.empty() ? "" : "answers.txt, ");
    fmt::print("{}", said);
  }
  say_which_failed(sweep.runs);
  if (stop_requested()) return 130;
  if (complete != runs && sweep.runs.failed().empty())
    fmt::print(stderr, "sweep {}: {} of {} runs are not complete (see points.csv)\n", sweep.name,
               runs - complete, runs);
  return complete == runs ? 0 : 1;
}

// Every run not complete yet, then the sweep-wide files (sweep.json says `running` meanwhile).
int run_whole_sweep(Sweep& sweep) {
  SweepRecord record(sweep.options, sweep.plan, sweep.name, sweep.dir());
  Aggregation aggregation(sweep.plan, sweep.runs, record, sweep.name);
  const PendingRuns pending = what_to_run(sweep, {0, sweep.plan.run_count()});
  record.write("running", pending.skipped);
  run_pending(sweep.options, sweep.runs, pending, "sweep " + sweep.name, &aggregation, &record);
  return finish_sweep(sweep, aggregation);
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  install_stop_handlers();
  LoadOptions load;
  load.sets = options.sets;
  const SweepPlan plan = load_sweep_plan(options.scenario_file, load);
  warn_of_replaced_sets(options, plan);
  if (options.list_only) {
    print_list(plan);
    return 0;
  }
  Sweep sweep = set_up(options, plan);
  if (options.status_only) return print_status(plan, sweep.runs, sweep.name, options.json);
  if (options.slurm) return write_slurm(options, plan, sweep.name, sweep.dir());
  const OutputDirectory out = open_sweep_directory(sweep);
  make_runs_directory(sweep.dir());
  if (options.aggregate_only) return aggregate_only(sweep);
  if (sweep.shard) return run_shard(sweep, out);
  return run_whole_sweep(sweep);
}

std::vector<ChosenRun> run_chosen(const SweepOptions& options,
                                  const std::vector<std::size_t>& chosen) {
  LoadOptions load;
  load.sets = options.sets;
  const SweepPlan plan = load_sweep_plan(options.scenario_file, load);
  Sweep sweep = set_up(options, plan);
  const OutputDirectory out = open_sweep_directory(sweep);
  make_runs_directory(sweep.dir());
  PendingRuns pending;
  std::vector<std::string> redo;
  for (const std::size_t k : chosen) {
    const PendingRuns one = pending_runs(sweep.runs, {k, k + 1}, redo);
    pending.runs.insert(pending.runs.end(), one.runs.begin(), one.runs.end());
    pending.skipped += one.skipped;
    ++pending.in_range;
  }
  if (!options.quiet) say_why_run_again(options, redo);
  refuse_runs_into_links(sweep.runs, pending.runs);
  run_pending(options, sweep.runs, pending, "runs of " + sweep.name, nullptr, nullptr);
  say_which_failed(sweep.runs);
  std::vector<ChosenRun> result;
  for (const std::size_t k : chosen) {
    ChosenRun r;
    r.run = k;
    r.state = sweep.runs.state(k, &r.scalars);
    if (sweep.runs.failed().count(k) != 0) r.state.status = "failed";
    result.push_back(std::move(r));
  }
  return result;
}

}  // namespace gbesim
