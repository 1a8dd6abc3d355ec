#include "sim/campaign/sweep.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/answers.hpp"
#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "analysis/sweep_summary.hpp"
#include "gbesim_version.hpp"
#include "sim/campaign/results_sqlite.hpp"
#include "sim/campaign/run_state.hpp"
#include "sim/campaign/shell_words.hpp"
#include "sim/campaign/slurm_scripts.hpp"
#include "sim/campaign/sweep_children.hpp"
#include "sim/campaign/sweep_status.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/run/runner.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/progress.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

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

// "--set a=1 --set b=2", or "no --set".
std::string sets_text(const std::vector<std::string>& sets) {
  std::string out;
  for (const auto& set : sets)
    out += (out.empty() ? "" : " ") + std::string("--set ") + shell_word(set);
  return out.empty() ? "no --set" : out;
}

// Why `--aggregate` must leave DIR as it is, or nullopt: the sweep recorded there (sweep.json)
// was run with other --set options, or none of its runs was made with this configuration (every
// row would be stale, and good files would be replaced by empty ones).
std::optional<std::string> aggregation_refusal(
    const SweepOptions& options, const SweepPlan& plan, const std::filesystem::path& dir,
    const std::function<RunState(std::size_t)>& state_of) {
  std::string command = "gbesim sweep " + shell_word(options.scenario_file) + " --aggregate";
  if (options.out_dir) command += " --out " + shell_word(options.out_dir->string());
  if (const auto record = read_json_record(dir / "sweep.json", {"sets"});
      record && record->is_object() && record->contains("sets") && (*record)["sets"].is_array()) {
    std::vector<std::string> recorded;
    for (const auto& set : (*record)["sets"])
      if (set.is_string()) recorded.push_back(set.get<std::string>());
    if (recorded != options.sets) {
      std::string same = command;
      for (const auto& set : recorded) same += " --set " + shell_word(set);
      return "this sweep was run with " + sets_text(recorded) + " (sweep.json), not " +
             sets_text(options.sets) + ": nothing was changed; aggregate it with the same: " + same;
    }
  }
  std::size_t complete = 0, stale = 0;
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    const RunState st = state_of(k);
    complete += st.status == "complete";
    stale += st.status == "stale";
  }
  if (complete == 0 && stale > 0)
    return fmt::format(
        "none of the {} runs here was made with this configuration ({} are stale: the scenario "
        "changed, or its --set); nothing was changed (gbesim sweep {} --status says why)",
        plan.run_count(), stale, shell_word(options.scenario_file));
  return std::nullopt;
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  install_stop_handlers();
  LoadOptions load;
  load.sets = options.sets;
  const SweepPlan plan = load_sweep_plan(options.scenario_file, load);
  // A --set of a path the sweep varies is replaced at the points that set it (a point applies
  // after --set): said once, not left silent.
  for (const auto& set : options.sets) {
    const std::string path = set.substr(0, set.find('='));
    for (const SweepAxis& axis : plan.axes) {
      // The axis's path that covers the --set's (the same path, or an object above it).
      std::string covering;
      for (const auto& axis_path : axis.paths)
        if (covering.empty() && path_within(path, axis_path)) covering = axis_path;
      for (const auto& variant : axis.sets)
        for (const auto& [variant_path, value] : variant)
          if (covering.empty() && path_within(path, variant_path)) covering = variant_path;
      if (!covering.empty())
        fmt::print(stderr,
                   "warning: {}: --set {} is replaced by sweep axis \"{}\" at every point that "
                   "sets {} (a sweep point applies after --set; take the path out of the sweep to "
                   "use the --set value)\n",
                   options.scenario_file, set, axis.name, covering);
    }
  }
  if (options.list_only) {
    print_list(plan);
    return 0;
  }
  const std::optional<Shard> shard =
      options.shard.empty() ? std::nullopt
                            : std::optional<Shard>(parse_shard(options.shard, plan.run_count(),
                                                               options.scenario_file));
  const LoadedScenario base = load_scenario(options.scenario_file, load);
  const std::string name = base.config.run.name;
  const std::filesystem::path sweep_dir =
      options.out_dir ? *options.out_dir : std::filesystem::path("results") / name;
  // runs/ is the sweep's own: a link there would take its runs (and their removals) elsewhere.
  if (!real_directory_or_none(sweep_dir / "runs"))
    throw ScenarioError({{(sweep_dir / "runs").string(), "",
                          "is a link or not a directory; a sweep's runs/ is its own: nothing was "
                          "changed"}});
  // Every run's configuration as it would be resolved now (what a complete run must match);
  // resolving them also checks every point before anything runs or is submitted.
  std::vector<ConfigDigest> expected;
  expected.reserve(plan.run_count());
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    LoadOptions o = load;
    o.run = k;
    expected.emplace_back(load_scenario(options.scenario_file, o).resolved);
  }
  ::malloc_trim(0);  // what resolving them took is given back before runs are forked
  const SweepRuns runs(sweep_dir, std::move(expected));
  auto state_of = [&](std::size_t k, std::vector<RunScalar>* scalars = nullptr) {
    return runs.state(k, scalars);
  };

  if (options.status_only) return print_status(plan, runs, name, options.json);
  if (options.slurm) return write_slurm(options, plan, name, sweep_dir);

  // One sweep (or --aggregate) per directory at a time, one process per shard; runs lock their
  // own directories.
  std::error_code ec;
  const std::string holder =
      fmt::format("gbesim sweep {}{} (pid {})", printable(options.scenario_file),
                  shard ? " --shard " + shard->text() : "", ::getpid());
  if (shard) std::filesystem::create_directories(sweep_dir / "shards", ec);
  // Named by the numbers, not the text: "01/3" is the same shard as "1/3" (and the same lock).
  // A directory that is not gbesim's keeps what is in it: nothing of these names is replaced.
  // (runs/ holds directories of runs, each guarded as its own: a cluster's array tasks write
  // them before any sweep here.)
  const OutputDirectory out(
      shard ? sweep_dir / "shards" / fmt::format("{}-of-{}", shard->index, shard->count)
            : sweep_dir,
      holder,
      shard ? std::vector<std::string>{"shard.json"}
            : std::vector<std::string>{"sweep.json", "points.csv", "summary.csv", "results.sqlite",
                                       "answers.txt"});
  const std::filesystem::path& dir = sweep_dir;
  std::filesystem::create_directories(dir / "runs", ec);
  if (ec)
    throw ScenarioError({{dir.string(), "", "cannot create the runs directory: " + ec.message()}});

  // The plan, for people and for tools; its status follows the sweep.
  const pid_t sweep_pid = ::getpid();
  Json description;
  description["scenario_file"] = options.scenario_file;
  description["name"] = name;
  description["sets"] = options.sets;
  description["replications"] = plan.replications;
  description["runs"] = plan.run_count();
  Json points = Json::array();
  for (std::size_t p = 0; p < plan.point_count(); ++p) {
    Json values = Json::object();
    for (const auto& [path, v] : plan.point(p)) values[path] = v;
    points.push_back(values);
  }
  description["points"] = points;
  // The files an earlier sweep here wrote keep their checks while they are as it wrote them:
  // until this one aggregates, readers check them against those.
  description["files"] = Json::object();
  if (!shard)
    if (const auto earlier = read_record_or_null(dir / "sweep.json");
        earlier.is_object() && earlier.contains("files") && earlier["files"].is_object())
      for (const auto& [file, check] : earlier["files"].items())
        if (!recorded_file_problem(dir, file, earlier["files"], "sweep.json"))
          description["files"][file] = Json::parse(check.dump());
  // sweep.json with the sizes and CRC-32s of the sweep-wide files as last written (readers check
  // them); and the record a second signal leaves if it ends this process at once.
  auto write_description = [&](const std::string& status, std::size_t complete) {
    if (shard) return;  // the sweep-wide files are --aggregate's
    description["status"] = status;
    description["runs_complete"] = complete;
    write_file_atomically(dir / "sweep.json", seal_record(dump_json(description, 2)));
    // Only the sweep's own process leaves a record when stopped at once (not a child forked to
    // aggregate), and only while the sweep runs.
    if (::getpid() != sweep_pid) return;
    if (status != "running") {
      set_record_for_hard_stop({}, "");
      return;
    }
    Json stopped = description;
    stopped["status"] = "interrupted";
    stopped["note"] =
        "stopped at once by a second signal: points.csv and summary.csv, if there are any, are "
        "from the last aggregation; gbesim sweep " +
        options.scenario_file + " --aggregate brings them up to date";
    set_record_for_hard_stop(dir / "sweep.json", seal_record(dump_json(stopped, 2)));
  };
  // What a child that aggregated in the background wrote, from the sealed sweep.json it left:
  // this process's record (and the one a hard stop leaves) vouches for those files from now on.
  auto adopt_aggregation = [&](std::size_t runs_complete) {
    const auto written = read_record_or_null(dir / "sweep.json");
    if (!written.is_object() || !written.contains("files") || !written["files"].is_object()) return;
    description["files"] = Json::parse(written["files"].dump());
    write_description("running", runs_complete);
  };
  auto write_recorded = [&](const std::string& file, const std::string& text) {
    write_file_atomically(dir / file, text);
    description["files"][file] = file_check_json(check_of_text(text));
  };

  std::set<std::size_t> failed;
  // A run's status, for points.csv: complete (with its scalars, when asked), or why not.
  auto run_status = [&](std::size_t k, std::vector<RunScalar>* scalars = nullptr) -> std::string {
    if (failed.count(k)) return "failed";
    return state_of(k, scalars).status;
  };
  std::size_t complete = 0;
  // Aggregate every complete run into points.csv and summary.csv: at the end, and every few
  // seconds while the sweep runs, so that charts (gbesim-gui) can follow it.
  std::vector<std::size_t> not_complete;
  std::vector<RunRecord> records;   // as the last aggregation found them
  std::vector<SummaryRow> summary;  // their summary (pointing into them)
  auto aggregate = [&] {
    if (shard) return;
    summary.clear();
    records.clear();
    complete = 0;
    not_complete.clear();
    for (std::size_t k = 0; k < plan.run_count(); ++k) {
      RunRecord r;
      r.run = k;
      r.point = plan.point_of_run(k);
      r.replication = plan.replication_of_run(k);
      r.seed = plan.seed_of_run(k);
      r.swept_values = plan.point_labels(r.point);
      r.status = run_status(k, &r.scalars);
      if (r.status == "complete")
        ++complete;
      else
        not_complete.push_back(k);
      records.push_back(std::move(r));
    }
    write_recorded("points.csv", points_csv(plan.columns(), records));
    summary = summary_rows(records, plan.replications);
    write_recorded("summary.csv", summary_csv(plan.columns(), summary));
  };
  // A sweep states its answers (analysis/answers: diameter, carrier extension, PCI ceilings),
  // the questions and answers on stdout, with how they were found and every combination in
  // answers.txt. Returns the stdout part.
  // The same records as one SQLite file (sim/results_sqlite), at the end of the sweep.
  auto write_sqlite = [&] {
    if (shard) return;
    SweepTables tables;
    tables.axes = plan.columns();
    for (std::size_t p = 0; p < plan.point_count(); ++p) {
      tables.point_labels.push_back(plan.point_labels(p));
      tables.point_sets.push_back(plan.point(p));
    }
    // Their last use: moved, not copied (870 scalars a run in large sweeps); moving keeps the
    // rows' pointers.
    tables.runs = std::move(records);
    tables.summary = std::move(summary);
    write_results_sqlite(dir, tables);
    description["files"]["results.sqlite"] = file_check_json(check_of_file(dir / "results.sqlite"));
  };
  // An answers.txt of earlier results must not stay beside these.
  auto drop_answers = [&] {
    std::error_code ec;
    std::filesystem::remove(dir / "answers.txt", ec);
    description["files"].erase("answers.txt");
  };
  auto write_answers = [&]() -> std::string {
    if (complete == 0) {
      drop_answers();
      return "";
    }
    Results results;
    try {
      results = load_results(dir.string());
    } catch (const ResultsError& e) {
      drop_answers();
      fmt::print(stderr, "warning: sweep {}: no answers stated: {}\n", name, printable(e.what()));
      return "";
    }
    const auto found = answers(results);
    if (found.empty()) {
      // No rule answers this sweep: it says why, on stdout and in answers.txt.
      const std::string why = no_answer_reason(results);
      if (why.empty()) {
        drop_answers();
        return "";
      }
      write_recorded("answers.txt", "No stated answer: " + why + "\n");
      return "No stated answer: " + why + "\n";
    }
    std::string brief, full;
    for (const Answer& a : found) {
      std::string block = a.question + "\n";
      for (const auto& line : a.lines) block += "  " + line + "\n";
      brief += block;
      full += block + "  (" + a.method + ")\n\n  per combination:\n";
      for (const auto& line : a.details) full += "  " + line + "\n";
      full += "\n";
    }
    write_recorded("answers.txt", full);
    return brief;
  };
  if (options.aggregate_only) {
    if (const auto refusal = aggregation_refusal(options, plan, dir, state_of))
      throw ScenarioError({{dir.string(), "", *refusal}});
    aggregate();
    write_sqlite();
    const bool all = complete == plan.run_count();
    write_description(all ? "complete" : "incomplete", complete);
    const std::string said = write_answers();
    write_description(all ? "complete" : "incomplete", complete);
    if (!options.quiet) fmt::print("{}", said);
    if (!options.quiet)
      fmt::print(
          "sweep {}: aggregated {} of {} runs; results: {}/ (points.csv, summary.csv, "
          "results.sqlite)\n",
          name, complete, plan.run_count(), dir.string());
    if (!all)
      fmt::print(
          stderr,
          "sweep {}: {} of {} runs are not complete: runs {} (gbesim sweep {} --status says why)\n",
          name, not_complete.size(), plan.run_count(), run_ranges(not_complete),
          printable(options.scenario_file));
    return all ? 0 : 1;
  }

  // What is still to run, and why a run that has been there before is run again.
  const std::size_t first_run = shard ? shard->runs.first : 0;
  const std::size_t end_run = shard ? shard->runs.last : plan.run_count();
  std::vector<std::size_t> pending;
  std::vector<std::string> redo;
  std::size_t skipped = 0;
  for (std::size_t k = first_run; k < end_run; ++k) {
    const RunState st = state_of(k);
    if (st.status == "complete") {
      ++skipped;
      continue;
    }
    pending.push_back(k);
    if (st.status == "running")
      redo.push_back(
          fmt::format("run {}: another process is writing it: waiting, then running it", k));
    else if (st.status != "missing" || !st.why.empty())
      redo.push_back(fmt::format("run {}: running it again: {}{}", k, st.status,
                                 st.why.empty() ? "" : " (" + st.why + ")"));
  }
  if (!options.quiet) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < std::min(redo.size(), kShown); ++i)
      fmt::print(stderr, "{}\n", redo[i]);
    if (redo.size() > kShown)
      fmt::print(stderr, "... and {} more run again (gbesim sweep {} --status lists them)\n",
                 redo.size() - kShown, printable(options.scenario_file));
  }
  // A run's directory that is a link (or a file) is not gbesim's: nothing is run into it.
  std::vector<std::size_t> not_directories;
  for (const std::size_t k : pending)
    if (!real_directory_or_none(run_dir(dir, k))) not_directories.push_back(k);
  if (!not_directories.empty())
    throw ScenarioError(
        {{(dir / "runs").string(), "",
          "runs " + run_ranges(not_directories) +
              ": a link or a file where a run's directory goes; a sweep runs only into "
              "directories of its own: nothing was run"}});
  write_description("running", skipped);

  ProgressLine progress(!options.quiet);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  std::size_t done = 0;
  bool forwarded = false;
  const std::string label = shard ? fmt::format("sweep {} shard {} (runs {}-{})", name,
                                                shard->text(), first_run, end_run - 1)
                                  : "sweep " + name;
  auto status = [&] {
    // The time left from the pace so far: runs ended here per second of wall time (with -j N
    // that counts N at once), over the runs still to end. Not before one has ended.
    const std::size_t ended = done + failed.size();
    const std::size_t left = pending.size() - std::min(pending.size(), ended);
    const std::string eta =
        stop_requested() ? "" : time_left_text(progress.seconds_since_start(), ended, left);
    return fmt::format("{}: {}/{} runs done ({} running, {} failed, {} already complete){}", label,
                       done + skipped, end_run - first_run, running.size(), failed.size(), skipped,
                       eta);
  };
  auto last_aggregate = std::chrono::steady_clock::now();
  auto aggregation_started = last_aggregate;
  const std::chrono::steady_clock::duration every =
      std::chrono::milliseconds(options.aggregate_every_ms);
  std::chrono::steady_clock::duration aggregate_interval = every;
  pid_t aggregator = 0;  // the child aggregating now, if any
  // A child that writes points.csv, summary.csv and its sweep.json, and ends.
  auto aggregate_in_background = [&] {
    return start_aggregator(
        name, [&] { aggregate(); }, [&] { write_description("running", complete); });
  };
  watch_children();
  allow_clean_stop();
  // Reaps every run that has ended. A run that ends with 130 (or dies of SIGINT/SIGTERM) after
  // the sweep passed on a stop was interrupted; anything else but 0 failed, even a 130 nobody
  // here asked for.
  auto reap = [&] {
    bool any = false;
    int wstatus = 0;
    pid_t pid = 0;
    while ((pid = ::waitpid(-1, &wstatus, WNOHANG)) > 0) {
      if (pid == aggregator) {
        aggregator = 0;
        set_child_to_end_on_hard_stop(0);
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) adopt_aggregation(done + skipped);
        last_aggregate = std::chrono::steady_clock::now();
        aggregate_interval = std::max(every, 10 * (last_aggregate - aggregation_started));
        continue;
      }
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      const std::size_t k = it->second;
      running.erase(it);
      any = true;
      const bool exited = WIFEXITED(wstatus);
      const int code = exited ? WEXITSTATUS(wstatus) : -1;
      const bool stopped =
          forwarded && (code == 130 ||
                        (!exited && (WTERMSIG(wstatus) == SIGINT || WTERMSIG(wstatus) == SIGTERM)));
      if (code == 0) {
        ++done;
      } else if (!stopped) {
        failed.insert(k);
      }
      progress.update(status());
    }
    return any;
  };
  while (next < pending.size() || !running.empty()) {
    const bool reaped = reap();
    if (stop_requested() && !forwarded) {
      for (const auto& [pid, run] : running) ::kill(pid, SIGINT);
      forwarded = true;
    }
    while (!stop_requested() && next < pending.size() &&
           static_cast<int>(running.size()) < options.jobs) {
      const std::size_t k = pending[next++];
      std::filesystem::create_directories(run_dir(dir, k), ec);
      // A run of an earlier sweep that was killed may still be stopping in this directory.
      if (const auto holder = wait_until_unlocked(run_dir(dir, k)); holder && !options.quiet)
        fmt::print(stderr, "run {}: waited for {} to stop\n", k, printable(*holder));
      if (stop_requested()) break;
      clear_run_directory(run_dir(dir, k));
      running[start_run(options, k, run_dir(dir, k))] = k;
    }
    if (stop_requested() && !forwarded) continue;  // pass the stop on before waiting
    if (stop_requested() && running.empty()) break;
    // Every 3 s (or less often when aggregating takes long: about a tenth of the time), in
    // the background: a child process aggregates what is complete, while runs go on starting
    // here, and this process does not grow (the runs forked from it are copies of it, and what
    // it holds would count in their peak memory, run.json peak_rss_kib).
    if (!shard && aggregator == 0 && !stop_requested() &&
        std::chrono::steady_clock::now() - last_aggregate >= aggregate_interval) {
      aggregation_started = std::chrono::steady_clock::now();
      aggregator = aggregate_in_background();
    }
    // Sleep until a run ends or a signal comes; neither can slip in after the checks above.
    if (!reaped && !running.empty()) wait_for_wake();
  }
  // The last aggregation is this process's, after any in the background has ended (so that
  // it cannot overwrite the final files with older ones).
  if (aggregator != 0) {
    int wstatus = 0;
    while (::waitpid(aggregator, &wstatus, 0) < 0 && errno == EINTR) {
    }
    aggregator = 0;
    set_child_to_end_on_hard_stop(0);
  }
  progress.update(status(), true);
  progress.finish();

  if (shard) {
    std::vector<std::size_t> incomplete;
    for (std::size_t k = first_run; k < end_run; ++k)
      if (run_status(k) != "complete") incomplete.push_back(k);
    Json record;
    record["shard"] = shard->text();
    record["first_run"] = first_run;
    record["last_run"] = end_run - 1;
    record["runs_complete"] = end_run - first_run - incomplete.size();
    record["runs_not_complete"] = incomplete;
    record["status"] = incomplete.empty() ? "complete"
                       : stop_requested() ? "interrupted"
                                          : "incomplete";
    write_file_atomically(out.path() / "shard.json", dump_json(record, 2) + "\n");
    if (!options.quiet)
      fmt::print("{}: {} of {} runs complete; results: {}/runs/\n", label,
                 end_run - first_run - incomplete.size(), end_run - first_run, dir.string());
    for (std::size_t k : failed)
      fmt::print(stderr, "run {} failed; see {}\n", k, (run_dir(dir, k) / "log.txt").string());
    if (stop_requested()) return 130;
    return incomplete.empty() ? 0 : 1;
  }

  aggregate();
  write_sqlite();
  const bool all_complete = complete == plan.run_count();
  write_description(all_complete       ? "complete"
                    : stop_requested() ? "interrupted"
                                       : "incomplete",
                    complete);

  const std::string said = write_answers();
  write_description(all_complete       ? "complete"
                    : stop_requested() ? "interrupted"
                                       : "incomplete",
                    complete);
  if (!options.quiet) {
    fmt::print(
        "sweep {}: {} of {} runs complete; results: {}/ (points.csv, summary.csv, results.sqlite, "
        "{}runs/)\n",
        name, complete, plan.run_count(), dir.string(), said.empty() ? "" : "answers.txt, ");
    fmt::print("{}", said);
  }
  for (std::size_t k : failed)
    fmt::print(stderr, "run {} failed; see {}\n", k, (run_dir(dir, k) / "log.txt").string());
  if (stop_requested()) return 130;
  if (!all_complete && failed.empty())
    fmt::print(stderr, "sweep {}: {} of {} runs are not complete (see points.csv)\n", name,
               plan.run_count() - complete, plan.run_count());
  return all_complete ? 0 : 1;
}

}  // namespace gbesim
