#include "sim/run/runner.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <memory>

#include "analysis/result_files.hpp"
#include "scenarios/network.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/schema.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/results.hpp"
#include "sim/run/series.hpp"
#include "sim/run/summary.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

// A run started by a sweep ends with the sweep: SIGTERM when the parent dies (it then stops
// cleanly like any SIGTERM).
void end_with_parent(std::int64_t parent_pid) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != static_cast<pid_t>(parent_pid))
    throw std::runtime_error("the sweep that started this run (pid " + std::to_string(parent_pid) +
                             ") has ended");
}

// The scenario, loaded and checked with everything the command line asks of it: a sweep it does
// not run is still checked, its trace filters name what it has, a large trace is said first.
LoadedScenario load_and_check(const RunOptions& options) {
  LoadedScenario scenario = load_scenario(options.scenario_file, options.load);
  if (!options.load.run && !scenario.plan.axes.empty()) {
    // The sweep is not run here, but a mistake in it is still a mistake: found now, not when
    // the sweep is started.
    check_sweep_axes(options.scenario_file, options.load);
    if (!options.quiet)
      fmt::print(stderr,
                 "note: {}: gbesim run runs the base scenario, not its sweep ({} points): "
                 "--point K runs one of them, gbesim sweep all\n",
                 scenario.file, scenario.plan.point_count());
  }
  check_trace_names(scenario, options);
  // A trace that will be large is said before it is written, with the way to make it smaller.
  if (!options.quiet)
    if (const auto w = large_trace_warning(scenario, options))
      fmt::print(stderr, "warning: {}: {}\n", scenario.file, *w);
  return scenario;
}

// Everything written when the simulation ends: traces, series, scalars, flows, the topology
// files, and run.json last (sealed), so that it marks a directory whose files are all there.
std::vector<Scalar> write_results(const LoadedScenario& scenario, const RunOptions& options,
                                  Network& network, SimContext& context, const Outcome& outcome,
                                  const RunChecks& checks, Traces& traces,
                                  const SeriesRecorder* series,
                                  const std::vector<std::string>& outputs,
                                  const std::filesystem::path& dir) {
  std::vector<Scalar> scalars = result_scalars(scenario, network, context, outcome, checks);
  if (checks.plant) write_topology_files(dir, *checks.plant);
  traces.commit();
  if (series) write_file_atomically(dir / "series.csv", series->csv());
  write_file_atomically(dir / "scalars.csv", scalars_csv(scalars));
  const std::string flows = flows_csv(scalars);
  if (!flows.empty()) write_file_atomically(dir / "flows.csv", flows);
  const Json run =
      run_record(scenario, options, context, outcome, checks, outputs, !flows.empty(), series, dir);
  write_file_atomically(dir / "run.json", seal_record(dump_json(run, 2)));
  return scalars;
}

}  // namespace

int run_simulation(const RunOptions& options) {
  install_stop_handlers();
  if (options.parent_pid) end_with_parent(*options.parent_pid);
  const LoadedScenario scenario = load_and_check(options);
  init_time_resolution();
  // The kernel's informational messages (e.g. the VCD timescale it chose) are not for users.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  SimContext context(static_cast<std::uint64_t>(scenario.config.run.seed));
  const auto perturbation = order_perturbation_if_asked();
  Network network(scenario.config, context);
  check_event_components(options, network, scenario.file);

  // The directory is checked and locked once the input is known good, before anything is
  // simulated.
  const std::vector<std::string> outputs = output_files(options, scenario.config);
  const OutputDirectory out(
      options.out_dir ? *options.out_dir : default_out_dir(scenario),
      fmt::format("gbesim run {} (pid {})", printable(options.scenario_file), ::getpid()),
      names_written(outputs));
  const RunChecks checks = check_run(scenario);
  if (!options.quiet) print_warnings(scenario, checks);
  prepare_outputs(out, scenario, outputs);
  Traces traces(options, network, out.path());

  allow_clean_stop();
  const auto& run = scenario.config.run;
  std::unique_ptr<SeriesRecorder> series;
  if (run.series_interval_ns > 0)
    series = std::make_unique<SeriesRecorder>(context.stats, run.series_interval_ns * kPsPerNs);
  // Every observer is connected: links whose receiver nothing watches may deliver late.
  network.deliver_late();
  const Outcome outcome = simulate(run.duration_ns * kPsPerNs, run.warmup_ns * kPsPerNs,
                                   context.stats, options, run.name, series.get(), network);
  const std::vector<Scalar> scalars =
      write_results(scenario, options, network, context, outcome, checks, traces, series.get(),
                    outputs, out.path());
  if (!options.quiet)
    print_summary(scenario, network, scalars, outcome, out.path(), names_written(outputs));
  return outcome.interrupted ? 130 : 0;
}

}  // namespace gbesim
