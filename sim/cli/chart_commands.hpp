#pragma once

// The chart commands, `plot` and `report`, as both executables declare them: the simulation CLI
// (gbesim, which links no GUI or chart library and hands these commands to gbesim-charts) and
// gbesim-charts itself (Qt Charts). One declaration, so their options cannot drift apart.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "sim/cli/verbs.hpp"

namespace gbesim {

// `gbesim plot RESULTS_DIR [-o OUT]` (ui/charts_cli/plot_command).
struct PlotOptions {
  std::string results_dir;
  std::string out_dir;  // empty: <results_dir>/charts
  bool quiet = false;
};

// `gbesim report RESULTS_DIR... [-o report.html]` (ui/charts_cli/report_command).
struct ReportOptions {
  std::vector<std::string> results_dirs;
  std::string out_file;  // empty: <first results dir>/report.html
  bool quiet = false;
};

struct ChartCommands {
  CLI::App* plot = nullptr;
  CLI::App* report = nullptr;
  CLI::Option* plot_out = nullptr;
  CLI::Option* report_out = nullptr;
};

ChartCommands add_chart_commands(CLI::App& app, PlotOptions& plot, ReportOptions& report);

// The arguments that give gbesim-charts the same command: {"plot", dir, "-o", out, "--quiet"}.
std::vector<std::string> chart_command_arguments(const ChartCommands& commands,
                                                 const PlotOptions& plot,
                                                 const ReportOptions& report);

// Replaces this process with gbesim-charts (found beside `self`) running `arguments`. Returns
// only if it cannot: then it has printed why, and the caller exits 2.
int exec_chart_program(const std::string& self, const std::vector<std::string>& arguments);

// The chart commands as gbesim's verbs: each hands its command line to gbesim-charts, so that
// gbesim links no GUI or chart library.
std::vector<Verb> add_chart_verbs(CLI::App& app, const std::string& self);

}  // namespace gbesim
