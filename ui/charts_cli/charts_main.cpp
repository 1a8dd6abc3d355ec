// gbesim-charts: the chart commands (`plot`, `report`) with Qt Charts, apart from the simulation
// CLI so that a run does not load the GUI libraries. Users call them as `gbesim plot` and
// `gbesim report`, which start this program; it can also be run directly.

#include <CLI/CLI.hpp>

#include <iostream>

#include <nlohmann/json.hpp>

#include "gbesim_version.hpp"
#include "sim/cli/chart_commands.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "ui/charts_cli/plot_command.hpp"
#include "ui/charts_cli/report_command.hpp"

int main(int argc, char** argv) {
  using namespace gbesim;
  CLI::App app{"gbesim-charts - the charts and reports of gbesim results"};
  app.set_version_flag("--version",
                       std::string("gbesim-charts ") + kRelease + " (git " + kVersion + ")");
  app.require_subcommand(1);
  PlotOptions plot;
  ReportOptions report;
  const ChartCommands commands = add_chart_commands(app, plot, report);
  if (const auto code = parse_command_line(app, argc, argv)) return *code;
  try {
    for (auto* o : {commands.plot_out, commands.report_out})
      if (o->count() > 0) checked_out_option(o->as<std::string>(), o->get_name());
    if (commands.plot->parsed()) return run_plot(plot);
    return run_report(report);
  } catch (const nlohmann::json::exception& e) {
    // A record written by hand (unsealed) whose members have other types than gbesim writes:
    // bad input, with what the JSON library found.
    std::string dirs = plot.results_dir;
    for (const auto& d : report.results_dirs) dirs += (dirs.empty() ? "" : ", ") + d;
    std::cerr << "error: " << printable(dirs) << ": a record holds a member of another type "
              << "than gbesim writes (" << printable(e.what()) << ")\n";
    return 2;
  } catch (const std::exception&) {
    return report_failure(std::current_exception());
  }
}
