#include "sim/run/run_verb.hpp"

#include <memory>
#include <string>
#include <vector>

#include "sim/run/runner.hpp"
#include "sim/run/series.hpp"

namespace gbesim {

const CLI::Validator& duration() {
  static const CLI::Validator validator(
      [](std::string& text) {
        return parse_interval_ns(text) ? std::string()
                                       : "expected a duration such as 1s, 100ms, 250us, 500ns "
                                         "or a number of ns (at least 1 ns), got \"" +
                                             text + "\"";
      },
      "DURATION");
  return validator;
}

namespace {

// The command line's text, before it becomes RunOptions.
struct RunLine {
  RunOptions run;
  std::string out_dir;
  std::int64_t seed = 0;
  std::int64_t point = 0;
  std::int64_t chunk_ns = 0;
  std::int64_t parent_pid = 0;
  std::vector<std::string> traces;
  std::string series;
  CLI::Option* out = nullptr;
  CLI::Option* seed_given = nullptr;
  CLI::Option* point_given = nullptr;
  CLI::Option* chunk_given = nullptr;
  CLI::Option* parent_given = nullptr;
};

void declare(CLI::App* cmd, RunLine& l) {
  cmd->add_option("scenario", l.run.scenario_file, "scenario JSON file")->required();
  cmd->add_option("--set", l.run.load.sets, "override a parameter: path=value (repeatable)");
  l.out = cmd->add_option("-o,--out", l.out_dir, "results directory (default results/<name>)");
  l.seed_given = cmd->add_option("--seed", l.seed, "run seed (default: the scenario's)")
                     ->check(decimal())
                     ->check(CLI::Range(std::int64_t{0}, (std::int64_t{1} << 53) - 1));
  l.point_given = cmd->add_option("--point", l.point, "run K of the scenario's sweep")
                      ->check(decimal())
                      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  cmd->add_option("--trace", l.traces,
                  "events, pcap, pcapng, vcd (comma-separated), each with optional filters: "
                  "pcap:stations=a,b  events:from=1ms,to=2ms  events:components=h.nic,h.pci "
                  "pcapng:ts=start (stamp at the first preamble bit)")
      ->delimiter(',');
  cmd->add_flag("--quiet", l.run.quiet, "no progress and no summary");
  // --series 1s: the scenario key series_interval_ns, as a --set.
  cmd->add_option("--series", l.series,
                  "record every rate per interval into series.csv (e.g. 1s, 100ms)")
      ->check(duration());
  l.chunk_given = cmd->add_option("--chunk-ns", l.chunk_ns, "fixed kernel chunk (testing)")
                      ->check(decimal())
                      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 50))
                      ->group("");  // hidden
  l.parent_given = cmd->add_option("--parent-pid", l.parent_pid, "end with this process (sweeps)")
                       ->check(decimal())
                       ->group("");  // hidden
}

int run(RunLine& l) {
  check_out_option(l.out);
  RunOptions& run = l.run;
  if (l.out->count() > 0) run.out_dir = l.out_dir;
  if (*l.parent_given) run.parent_pid = l.parent_pid;
  if (*l.seed_given) run.load.seed = l.seed;
  if (*l.point_given) run.load.run = static_cast<std::size_t>(l.point);
  if (*l.chunk_given) run.chunk_ns = l.chunk_ns;
  run.trace_filters = parse_traces(l.traces);
  for (const auto& [kind, filter] : run.trace_filters) run.traces.insert(kind);
  if (!l.series.empty())
    run.load.sets.push_back("series_interval_ns=" + std::to_string(*parse_interval_ns(l.series)));
  return run_simulation(run);
}

}  // namespace

Verb add_run_verb(CLI::App& app) {
  auto line = std::make_shared<RunLine>();
  CLI::App* cmd = app.add_subcommand("run", "run one simulation of a scenario");
  declare(cmd, *line);
  return {cmd, [line] { return run(*line); }};
}

}  // namespace gbesim
