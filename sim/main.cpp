// gbesim: the command-line front end. Each room declares its verbs beside its code; this lists
// them and runs the one given. Bad input exits with code 2 and a message naming the file and
// JSON path; an interrupted run exits with 130 after writing what it has.

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <vector>

#include <systemc>

#include "gbesim_version.hpp"
#include "sim/campaign/campaign_verbs.hpp"
#include "sim/cli/chart_commands.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/verbs.hpp"
#include "sim/inspect/inspect_verbs.hpp"
#include "sim/run/run_verb.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/peak_memory.hpp"

namespace {

int cli(int argc, char** argv) {
  using namespace gbesim;
  CLI::App app{"gbesim - a cycle-accurate Gigabit Ethernet MAC/PHY simulator"};
  // The release, the exact source it was built from, and the simulation kernel it runs on.
  app.set_version_flag("--version", std::string("gbesim ") + kRelease + " (git " + kVersion +
                                        "), SystemC " + sc_core::sc_release());
  app.require_subcommand(1);
  const std::string self = self_path(argv[0]);
  std::vector<Verb> verbs = {add_run_verb(app),    add_sweep_verb(app, self),
                             add_params_verb(app), add_stats_verb(app),
                             add_events_verb(app), add_topology_verb(app)};
  for (Verb& chart : add_chart_verbs(app, self)) verbs.push_back(std::move(chart));
  verbs.push_back(add_phy_verb(app));
  verbs.push_back(add_validate_verb(app));
  verbs.push_back(add_bench_verb(app, self));

  if (const auto code = parse_command_line(app, argc, argv)) return *code;
  try {
    for (const Verb& verb : verbs)
      if (verb.command->parsed()) return verb.run();
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
  const int code = sc_core::sc_elab_and_sim(argc, argv);
  gbesim::report_peak_rss_if_asked();
  return code;
}
