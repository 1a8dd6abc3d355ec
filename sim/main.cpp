// gbesim: the command-line front end. Bad input exits with code 2 and a message naming the file
// and JSON path; an interrupted run exits with 130 after writing what it has.

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <systemc>

#include "gbesim_version.hpp"
#include "sim/campaign/bench.hpp"
#include "sim/campaign/slurm_options.hpp"
#include "sim/campaign/sweep.hpp"
#include "sim/cli/chart_commands.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/inspect/events_command.hpp"
#include "sim/inspect/params_command.hpp"
#include "sim/inspect/phy_command.hpp"
#include "sim/inspect/stats_command.hpp"
#include "sim/inspect/topology_command.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/series.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"

namespace {

// This executable, for spawning sweep and bench runs (argv[0] may be a bare name found on PATH).
std::string self_path(const char* argv0) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(argv0) : exe.string();
}

// Integer options take plain decimal digits: CLI11 would also read 0x10 or 1e3.
const CLI::Validator kDecimal(
    [](std::string& text) -> std::string {
      if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) return "";
      return "expected a non-negative decimal integer, got " + gbesim::printable(text);
    },
    "DECIMAL");

// The #SBATCH values, held to sbatch's grammar (sim/slurm_options) before a script is written.
const CLI::Validator kSlurmTime(
    [](std::string& text) { return gbesim::slurm_time_problem(text).value_or(""); }, "TIME");
const CLI::Validator kSlurmPartition(
    [](std::string& text) { return gbesim::slurm_partition_problem(text).value_or(""); },
    "PARTITION");

int cli(int argc, char** argv) {
  using namespace gbesim;
  CLI::App app{"gbesim - a cycle-accurate Gigabit Ethernet MAC/PHY simulator"};
  app.set_version_flag("--version", std::string(kVersion));
  app.require_subcommand(1);

  RunOptions run;
  std::string out_dir;
  std::int64_t seed = 0;
  std::int64_t point = 0;
  std::vector<std::string> traces;
  auto* run_cmd = app.add_subcommand("run", "run one simulation of a scenario");
  run_cmd->add_option("scenario", run.scenario_file, "scenario JSON file")->required();
  run_cmd->add_option("--set", run.load.sets, "override a parameter: path=value (repeatable)");
  auto* out_opt =
      run_cmd->add_option("--out", out_dir, "results directory (default results/<name>)");
  auto* seed_opt = run_cmd->add_option("--seed", seed, "run seed (default: the scenario's)")
                       ->check(kDecimal)
                       ->check(CLI::Range(std::int64_t{0}, (std::int64_t{1} << 53) - 1));
  auto* point_opt = run_cmd->add_option("--point", point, "run K of the scenario's sweep")
                        ->check(kDecimal)
                        ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  run_cmd
      ->add_option("--trace", traces,
                   "events, pcap, pcapng, vcd (comma-separated), each with optional filters: "
                   "pcap:stations=a,b  events:from=1ms,to=2ms  pcapng:ts=start (stamp at the "
                   "first preamble bit)")
      ->delimiter(',');
  run_cmd->add_flag("--quiet", run.quiet, "no progress and no summary");
  // --series 1s: the scenario key series_interval_ns, as a --set.
  const CLI::Validator interval_check(
      [](std::string& text) {
        return parse_interval_ns(text) ? std::string()
                                       : "expected a duration such as 1s, 100ms, 250us, 500ns "
                                         "or a number of ns (at least 1 ns), got \"" +
                                             text + "\"";
      },
      "DURATION");
  std::string run_series;
  run_cmd
      ->add_option("--series", run_series,
                   "record every rate per interval into series.csv (e.g. 1s, 100ms)")
      ->check(interval_check);
  std::int64_t chunk_ns = 0;
  auto* chunk_opt = run_cmd->add_option("--chunk-ns", chunk_ns, "fixed kernel chunk (testing)")
                        ->check(kDecimal)
                        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 50));
  chunk_opt->group("");  // hidden
  std::int64_t parent_pid = 0;
  auto* parent_opt =
      run_cmd->add_option("--parent-pid", parent_pid, "end with this process (sweeps)")
          ->check(kDecimal);
  parent_opt->group("");  // hidden

  SweepOptions sweep;
  std::string sweep_out;
  auto* sweep_cmd = app.add_subcommand("sweep", "run every point x replication of a sweep");
  sweep_cmd->add_option("scenario", sweep.scenario_file, "scenario JSON file")->required();
  sweep_cmd->add_option("-j,--jobs", sweep.jobs, "runs in parallel (default 1)")
      ->check(kDecimal)
      ->check(CLI::Range(1, 256));
  auto* sweep_out_opt =
      sweep_cmd->add_option("--out", sweep_out, "sweep directory (default results/<name>)");
  sweep_cmd->add_option("--set", sweep.sets, "override a parameter: path=value (repeatable)");
  sweep_cmd->add_flag("--list", sweep.list_only, "list the runs and exit");
  sweep_cmd->add_flag("--quiet", sweep.quiet, "no progress");
  sweep_cmd
      ->add_option("--aggregate-every-ms", sweep.aggregate_every_ms,
                   "aggregate while running this often (testing)")
      ->check(kDecimal)
      ->check(CLI::Range(0, 3600000))
      ->group("");  // hidden
  auto* shard_opt = sweep_cmd->add_option(
      "--shard", sweep.shard,
      "run only block I of N (I/N, e.g. 3/8) of the runs: a cluster task's share; "
      "--aggregate writes the sweep-wide files afterwards");
  auto* status_flag = sweep_cmd->add_flag(
      "--status", sweep.status_only,
      "how many runs are complete, running, stale, interrupted, failed or missing, and why; runs "
      "nothing (exit 0 when all are complete, 1 otherwise)");
  sweep_cmd->add_flag("--json", sweep.json, "--status as JSON")->needs(status_flag);
  auto* aggregate_flag = sweep_cmd->add_flag(
      "--aggregate", sweep.aggregate_only,
      "write points.csv and summary.csv from the complete runs; runs nothing (exit 1 naming the "
      "runs that are not complete)");
  auto* slurm_flag = sweep_cmd->add_flag(
      "--slurm", sweep.slurm,
      "write a Slurm job array of shards and an aggregation job after it into DIR/slurm/ and "
      "say how to submit them (docs/cluster.md)");
  sweep_cmd->add_option("--tasks", sweep.slurm_tasks, "--slurm: array tasks (default min(runs, 8))")
      ->check(kDecimal)
      ->check(CLI::Range(1, 100000))
      ->needs(slurm_flag);
  sweep_cmd
      ->add_option("--partition", sweep.slurm_partition,
                   "--slurm: the partition (or several, comma-separated)")
      ->check(kSlurmPartition)
      ->needs(slurm_flag);
  sweep_cmd
      ->add_option("--time", sweep.slurm_time,
                   "--slurm: each task's time limit, in sbatch's forms (e.g. 90, 1:00:00, 2-12)")
      ->check(kSlurmTime)
      ->needs(slurm_flag);
  sweep_cmd
      ->add_option("--cpus-per-task", sweep.slurm_cpus_per_task,
                   "--slurm: CPUs per task, the runs each task runs at once (default 1)")
      ->check(kDecimal)
      ->check(CLI::Range(1, 256))
      ->needs(slurm_flag);
  sweep_cmd->add_flag("--submit", sweep.slurm_submit, "--slurm: also submit it (sbatch)")
      ->needs(slurm_flag);
  status_flag->excludes(aggregate_flag);
  slurm_flag->excludes(status_flag);
  slurm_flag->excludes(aggregate_flag);
  shard_opt->excludes(status_flag);
  shard_opt->excludes(slurm_flag);
  shard_opt->excludes(aggregate_flag);
  std::string sweep_series;
  sweep_cmd
      ->add_option("--series", sweep_series,
                   "every run records its rates per interval into series.csv (e.g. 1s)")
      ->check(interval_check);

  auto* params_cmd = app.add_subcommand("params", "list every model parameter");
  bool params_as_json = false;
  params_cmd->add_flag("--json", params_as_json, "as JSON (for the desktop app)");
  bool params_as_markdown = false;
  params_cmd->add_flag("--markdown", params_as_markdown,
                       "as the Markdown reference docs/scenarios.md carries");

  StatsOptions stats;
  auto* stats_cmd = app.add_subcommand(
      "stats", "every statistic a scenario's components record: name, unit, description");
  stats_cmd->add_option("scenario", stats.scenario_file,
                        "a scenario (default: one of every kind of component)");
  stats_cmd->add_flag("--json", stats.json, "as JSON");
  EventsOptions events;
  auto* events_cmd = app.add_subcommand(
      "events", "every event and traced state variable each model reports, and what it means");
  events_cmd->add_flag("--json", events.json, "as JSON");
  events_cmd->add_flag("--markdown", events.markdown, "as the tables a model page carries");
  events_cmd->add_option("--model", events.models,
                         "only this model: mac, nic, pci, ... (repeatable)");

  TopologyOptions topology;
  auto* topology_cmd = app.add_subcommand(
      "topology", "check a cabling plant's collision domains (exit 0 pass, 1 fail, 2 bad input)");
  topology_cmd->add_option("file", topology.file, "topology JSON file")->required();
  auto* topology_out_opt = topology_cmd->add_option("--out", topology.out_dir,
                                                    "output directory (default results/<name>)");
  topology_cmd->add_flag("--quiet", topology.quiet, "write the files, print nothing");
  topology_cmd->add_flag("--every-pair", topology.every_pair,
                         "list every pair of stations in topology_pairs.csv, not each station's "
                         "worst (refused, with its size, beyond 2 GB)");

  PlotOptions plot;
  ReportOptions report;
  const ChartCommands charts = add_chart_commands(app, plot, report);

  BenchOptions bench;
  PhyOptions phy;
  auto* phy_cmd = app.add_subcommand(
      "phy", "1000BASE-T link level: SNR, margin and BER vs cable length; AWGN error rates");
  auto* phy_out =
      phy_cmd->add_option("--out", phy.out_dir, "output directory (default results/phy)");
  auto* phy_pmd =
      phy_cmd
          ->add_option("--pmd", phy.pmds,
                       "1000BASE-X link check instead: 1000base-sx, 1000base-lx or 1000base-cx "
                       "(power budget, margin per length, reach per fibre; --lengths in metres)")
          ->delimiter(',');
  // What only the 1000BASE-T link reads: given with --pmd, it would be silently ignored.
  std::vector<CLI::Option*> twisted_pair_only;
  twisted_pair_only.push_back(phy_cmd->add_option(
      "--scenario", phy.scenario_file, "take the sweep from this scenario's \"link_level\" block"));
  twisted_pair_only.push_back(
      phy_cmd->add_option("--channel", phy.channel, "awgn, cable or both (default)")
          ->check(CLI::IsMember({"awgn", "cable", "both"})));
  twisted_pair_only.push_back(
      phy_cmd->add_option("--cable", phy.cables, "cable categories (default cat5,cat5e,cat6)")
          ->delimiter(',')
          ->check(CLI::IsMember({"cat5", "cat5e", "cat6"})));
  phy_cmd->add_option("--lengths", phy.lengths_m, "cable lengths in metres (default 0,10,...,200)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1000.0));
  twisted_pair_only.push_back(
      phy_cmd
          ->add_option("--mc-symbols", phy.mc_symbols,
                       "Monte Carlo 4D symbols per cable point (0: none; default 20000)")
          ->check(kDecimal)
          ->check(CLI::Range(std::int64_t{0}, std::int64_t{100'000'000})));
  twisted_pair_only.push_back(
      phy_cmd->add_option("--eye-length", phy.eye_length_m, "cable length of the eye diagrams (m)")
          ->check(CLI::Range(0.0, 1000.0)));
  // The receiver's flags come from its parameter table: --echo-taps, --adc-bits, ...
  std::vector<std::pair<std::string, CLI::Option*>> receiver_flags;
  for (const auto& e : phy::phy_receiver_param_table().entries()) {
    std::string flag = "--" + e.info.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    const std::string help = fmt::format("{} ({}, default {})", e.info.doc, e.info.unit,
                                         format_param_value(e.info.default_value));
    CLI::Option* option = nullptr;
    if (e.info.type == ParamType::integer) {
      option =
          phy_cmd
              ->add_option_function<std::int64_t>(
                  flag, [&phy, &e](std::int64_t v) { e.set(phy.receiver, ParamValue(v)); }, help)
              ->check(kDecimal)
              ->check(CLI::Range(static_cast<std::int64_t>(e.info.min),
                                 static_cast<std::int64_t>(e.info.max)));
    } else {
      option = phy_cmd
                   ->add_option_function<double>(
                       flag, [&phy, &e](double v) { e.set(phy.receiver, ParamValue(v)); }, help)
                   ->check(CLI::Range(e.info.min, e.info.max));
    }
    receiver_flags.emplace_back(e.info.key, option);
    twisted_pair_only.push_back(option);
  }
  twisted_pair_only.push_back(
      phy_cmd->add_option("--sigma", phy.sigmas, "noise standard deviations per dimension")
          ->delimiter(',')
          ->check(CLI::Range(0.01, 10.0)));
  twisted_pair_only.push_back(
      phy_cmd->add_option("--symbols", phy.symbols, "4D symbols per noise level")
          ->check(kDecimal)
          ->check(CLI::Range(1000, 100'000'000)));
  twisted_pair_only.push_back(phy_cmd->add_option("--seed", phy.seed, "seed")
                                  ->check(kDecimal)
                                  ->check(CLI::Range(0, 1 << 30)));
  for (CLI::Option* option : twisted_pair_only) option->excludes(phy_pmd);
  phy_cmd->add_flag("--quiet", phy.quiet, "write the files, print nothing");
  // What only the 1000BASE-X check reads.
  phy_cmd
      ->add_option("--fibre", phy.fibres,
                   "fibre types for --pmd (default: every one the PMD runs on): "
                   "mmf-62.5-160, mmf-62.5-200, mmf-50-400, mmf-50-500, smf-9, stp-150")
      ->delimiter(',')
      ->needs(phy_pmd);
  phy_cmd
      ->add_option("--connection-loss-db", phy.connection_loss_db,
                   "connections and splices for --pmd (default the standard's 1.5 dB)")
      ->check(CLI::Range(0.0, 50.0))
      ->needs(phy_pmd);
  phy_cmd
      ->add_option("--tx-min-dbm", phy.tx_min_dbm,
                   "a transceiver's minimum launch power for --pmd (default the standard's)")
      ->needs(phy_pmd);
  auto* bench_cmd = app.add_subcommand("bench", "measure simulation speed and memory");
  bench_cmd->add_option("--runs", bench.runs, "runs per case; the median is reported")
      ->check(kDecimal)
      ->check(CLI::Range(1, 99));
  bench_cmd->add_option("--duration-ms", bench.duration_ms, "simulated time per run")
      ->check(kDecimal)
      ->check(CLI::Range(1, 100000));
  bench_cmd
      ->add_option("--cases", bench.cases,
                   "only these cases (a, b, b', c = the whole half-duplex curve, c2 .. c1024, e, "
                   "f, k, s, w, g, h, p, i, j), comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"a", "b", "b'", "c", "c2", "c8", "c32", "c128", "c512", "c1024",
                             "e", "f", "k",  "s", "w",  "g",  "h",   "p",    "i",    "j"}));
  auto* sweep_scenario_opt = bench_cmd->add_option(
      "--sweep-scenario", bench.sweep_scenario,
      "the sweep case (w) times: gbesim sweep FILE -j 2 (default "
      "scenarios/carrier-extension-waste.json, from the project's directory)");

  if (const auto code = parse_command_line(app, argc, argv)) return *code;

  try {
    // An empty --out is a mistake (an unset shell variable), not "the default".
    for (auto* o :
         {out_opt, sweep_out_opt, topology_out_opt, charts.plot_out, charts.report_out, phy_out})
      if (o->count() > 0) checked_out_option(o->as<std::string>(), o->get_name());
    if (run_cmd->parsed()) {
      if (out_opt->count() > 0) run.out_dir = out_dir;
      if (*parent_opt) run.parent_pid = parent_pid;
      if (*seed_opt) run.load.seed = seed;
      if (*point_opt) run.load.run = static_cast<std::size_t>(point);
      if (*chunk_opt) run.chunk_ns = chunk_ns;
      run.trace_filters = parse_traces(traces);
      for (const auto& [kind, filter] : run.trace_filters) run.traces.insert(kind);
      if (!run_series.empty())
        run.load.sets.push_back("series_interval_ns=" +
                                std::to_string(*parse_interval_ns(run_series)));
      return run_simulation(run);
    }
    if (sweep_cmd->parsed()) {
      if (sweep_out_opt->count() > 0) sweep.out_dir = sweep_out;
      sweep.self = self_path(argv[0]);
      if (!sweep_series.empty())
        sweep.sets.push_back("series_interval_ns=" +
                             std::to_string(*parse_interval_ns(sweep_series)));
      return run_sweep(sweep);
    }
    if (topology_cmd->parsed()) return run_topology(topology);
    // Charts are drawn by gbesim-charts, so that this program links no GUI library.
    if (charts.plot->parsed() || charts.report->parsed())
      return exec_chart_program(self_path(argv[0]), chart_command_arguments(charts, plot, report));
    if (phy_cmd->parsed()) {
      phy.out_given = phy_out->count() > 0;
      for (const auto& [key, option] : receiver_flags)
        if (option->count() > 0) phy.receiver_given.push_back(key);
      return run_phy(phy);
    }
    if (stats_cmd->parsed()) {
      fmt::print("{}", stats_listing(stats));
      return 0;
    }
    if (events_cmd->parsed()) {
      fmt::print("{}", events_listing(events));
      return 0;
    }
    if (params_cmd->parsed()) {
      fmt::print("{}", params_as_json       ? params_json()
                       : params_as_markdown ? params_markdown()
                                            : params_text());
      return 0;
    }
    if (bench_cmd->parsed()) {
      bench.self = self_path(argv[0]);
      bench.sweep_scenario_given = sweep_scenario_opt->count() > 0;
      return run_bench(bench);
    }
  } catch (const std::exception&) {
    return report_failure(std::current_exception());
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  return cli(argc, argv);
}

int main(int argc, char** argv) {
  // SystemC prints a banner when its kernel starts unless told not to.
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
