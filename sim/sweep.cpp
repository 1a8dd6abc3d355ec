#include "sim/sweep.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/diameter.hpp"
#include "analysis/results.hpp"
#include "analysis/sweep_summary.hpp"
#include "sim/atomic_file.hpp"
#include "sim/diagnostics.hpp"
#include "sim/json_input.hpp"
#include "sim/output_dir.hpp"
#include "sim/progress.hpp"
#include "sim/runner.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/stop_signal.hpp"

extern char** environ;

namespace gbesim {
namespace {

std::filesystem::path run_dir(const std::filesystem::path& dir, std::size_t run) {
  return dir / "runs" / std::to_string(run);
}

// A run is done if its run.json says complete and it ran the configuration we expect now.
bool run_complete(const std::filesystem::path& dir, const Json& expected_config) {
  const auto run = read_json_record(dir / "run.json");
  return run && run->is_object() && run->contains("status") && (*run)["status"] == "complete" &&
         run->contains("config") && (*run)["config"] == expected_config &&
         std::filesystem::is_regular_file(dir / "scalars.csv");
}

std::vector<RunScalar> read_scalars(const std::filesystem::path& file) {
  std::vector<RunScalar> out;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const auto f = split_csv_line(line);
    if (f.size() != 4) continue;
    RunScalar s{f[0], f[1], f[2], 0.0, f[3]};
    s.value = parse_number(f[3]).value_or(std::nan(""));  // empty: no value
    out.push_back(std::move(s));
  }
  return out;
}

// A run in its own process group, so that a Ctrl-C at the terminal reaches only the sweep, which
// passes one SIGINT on to each run (a second signal would make the run stop at once, without
// writing its interrupted record); and tied to the sweep: if the sweep dies, its runs stop
// (--parent-pid).
pid_t spawn_run(const SweepOptions& options, std::size_t run, const std::filesystem::path& dir) {
  // Not --quiet: the run's log.txt gets its progress lines and its summary.
  std::vector<std::string> args = {options.self,
                                   "run",
                                   options.scenario_file,
                                   "--point",
                                   std::to_string(run),
                                   "--out",
                                   dir.string(),
                                   "--parent-pid",
                                   std::to_string(::getpid())};
  for (const auto& s : options.sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = (dir / "log.txt").string();
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes, 0);
  // The stop signals start blocked: one that comes before the run has its handlers stays
  // pending until it does (and then stops it as one would), instead of killing it outright.
  sigset_t stops;
  sigemptyset(&stops);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  sigset_t defaults = stops;
  sigaddset(&defaults, SIGCHLD);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &stops);
  pid_t pid = 0;
  const int rc =
      posix_spawn(&pid, options.self.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) throw std::runtime_error("cannot start " + options.self + ": " + std::strerror(rc));
  return pid;
}

void print_list(const SweepPlan& plan) {
  fmt::print("{:>5} {:>6} {:>5} {:>12}  values\n", "run", "point", "rep", "seed");
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    std::string values;
    const auto columns = plan.columns();
    const auto labels = plan.point_labels(plan.point_of_run(k));
    for (std::size_t c = 0; c < columns.size(); ++c)
      values += (values.empty() ? "" : "  ") + printable(columns[c]) + "=" + printable(labels[c]);
    fmt::print("{:>5} {:>6} {:>5} {:>12}  {}\n", k, plan.point_of_run(k),
               plan.replication_of_run(k), plan.seed_of_run(k), values);
  }
  fmt::print("{} points x {} replications = {} runs\n", plan.point_count(), plan.replications,
             plan.run_count());
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  install_stop_handlers();
  LoadOptions load;
  load.sets = options.sets;
  const SweepPlan plan = load_sweep_plan(options.scenario_file, load);
  if (options.list_only) {
    print_list(plan);
    return 0;
  }
  const LoadedScenario base = load_scenario(options.scenario_file, load);
  // One sweep per directory at a time; its runs lock their own directories.
  const OutputDirectory out(
      options.out_dir ? *options.out_dir : std::filesystem::path("results") / base.config.run.name,
      fmt::format("gbesim sweep {} (pid {})", printable(options.scenario_file), ::getpid()));
  const std::filesystem::path& dir = out.path();
  std::error_code ec;
  std::filesystem::create_directories(dir / "runs", ec);
  if (ec)
    throw ScenarioError({{dir.string(), "", "cannot create the runs directory: " + ec.message()}});

  // The plan, for people and for tools; its status follows the sweep.
  Json description;
  description["scenario_file"] = options.scenario_file;
  description["name"] = base.config.run.name;
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
  auto write_description = [&](const std::string& status, std::size_t complete) {
    description["status"] = status;
    description["runs_complete"] = complete;
    write_file_atomically(dir / "sweep.json", dump_json(description, 2) + "\n");
  };

  // What is still to run.
  std::vector<Json> expected(plan.run_count());
  std::vector<std::size_t> pending;
  std::size_t skipped = 0;
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    LoadOptions o = load;
    o.run = k;
    expected[k] = load_scenario(options.scenario_file, o).resolved;
    if (run_complete(run_dir(dir, k), expected[k])) {
      ++skipped;
    } else {
      pending.push_back(k);
    }
  }

  write_description("running", skipped);

  ProgressLine progress(!options.quiet);
  std::map<pid_t, std::size_t> running;
  std::set<std::size_t> failed;
  std::size_t next = 0;
  std::size_t done = 0;
  bool forwarded = false;
  const std::string name = base.config.run.name;
  auto status = [&] {
    return fmt::format("sweep {}: {}/{} runs done ({} running, {} failed, {} already complete)",
                       name, done + skipped, plan.run_count(), running.size(), failed.size(),
                       skipped);
  };
  // A run's status, for points.csv: complete, or why not.
  auto run_status = [&](std::size_t k) -> std::string {
    if (run_complete(run_dir(dir, k), expected[k])) return "complete";
    if (failed.count(k)) return "failed";
    const auto run = read_json_record(run_dir(dir, k) / "run.json");
    if (!run || !run->is_object()) return "missing";
    const Json status = run->contains("status") ? (*run)["status"] : Json();
    return status == "interrupted" ? "interrupted" : status == "complete" ? "stale" : "missing";
  };
  std::size_t complete = 0;
  // Aggregate every complete run into points.csv and summary.csv: at the end, and every few
  // seconds while the sweep runs, so that charts (gbesim-gui) can follow it.
  auto aggregate = [&] {
    std::vector<RunRecord> records;
    complete = 0;
    for (std::size_t k = 0; k < plan.run_count(); ++k) {
      RunRecord r;
      r.run = k;
      r.point = plan.point_of_run(k);
      r.replication = plan.replication_of_run(k);
      r.seed = plan.seed_of_run(k);
      r.swept_values = plan.point_labels(r.point);
      r.status = run_status(k);
      if (r.status == "complete") {
        r.scalars = read_scalars(run_dir(dir, k) / "scalars.csv");
        ++complete;
      }
      records.push_back(std::move(r));
    }
    write_file_atomically(dir / "points.csv", points_csv(plan.columns(), records));
    write_file_atomically(dir / "summary.csv",
                          summary_csv(plan.columns(), records, plan.replications));
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
  auto last_aggregate = std::chrono::steady_clock::now();
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
      running[spawn_run(options, k, run_dir(dir, k))] = k;
    }
    if (stop_requested() && !forwarded) continue;  // pass the stop on before waiting
    if (stop_requested() && running.empty()) break;
    if (std::chrono::steady_clock::now() - last_aggregate > std::chrono::seconds(3)) {
      aggregate();
      last_aggregate = std::chrono::steady_clock::now();
    }
    // Sleep until a run ends or a signal comes; neither can slip in after the checks above.
    if (!reaped && !running.empty()) wait_for_wake();
  }
  progress.update(status(), true);
  progress.finish();

  aggregate();
  const bool all_complete = complete == plan.run_count();
  write_description(all_complete       ? "complete"
                    : stop_requested() ? "interrupted"
                                       : "incomplete",
                    complete);

  // A diameter sweep states its answer: the legal length per cable beside the simulated first
  // failure (analysis/diameter), on stdout and in answers.txt.
  std::string answers;
  const auto columns = plan.columns();
  if (complete > 0 && std::any_of(columns.begin(), columns.end(), is_diameter_axis)) {
    const Results results = load_results(dir.string());
    const auto rows = diameter_answers(results);
    if (!rows.empty()) {
      for (const auto& line : diameter_summary(rows)) answers += line + "\n";
      answers += "\nper combination:\n";
      for (const auto& a : rows) answers += diameter_answer_text(a) + "\n";
      write_file_atomically(dir / "answers.txt", answers);
    }
  }
  if (!options.quiet) {
    fmt::print(
        "sweep {}: {} of {} runs complete; results: {}/ (points.csv, summary.csv, {}runs/)\n", name,
        complete, plan.run_count(), dir.string(), answers.empty() ? "" : "answers.txt, ");
    if (!answers.empty()) fmt::print("{}", answers.substr(0, answers.find("\nper combination:")));
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
