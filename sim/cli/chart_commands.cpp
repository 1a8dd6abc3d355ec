#include "sim/cli/chart_commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

namespace gbesim {

ChartCommands add_chart_commands(CLI::App& app, PlotOptions& plot, ReportOptions& report) {
  ChartCommands c;
  c.plot = app.add_subcommand("plot", "the standard charts of a results directory (PNG, SVG)");
  c.plot->add_option("results", plot.results_dir, "a run's, a sweep's or gbesim phy's directory")
      ->required();
  c.plot_out =
      c.plot->add_option("-o,--out", plot.out_dir, "output directory (default RESULTS/charts)");
  c.plot->add_flag("--quiet", plot.quiet, "write the files, print nothing");

  c.report = app.add_subcommand("report", "one self-contained HTML report of results directories");
  c.report->add_option("results", report.results_dirs, "results directories")->required();
  c.report_out =
      c.report->add_option("-o,--out", report.out_file, "HTML file (default RESULTS/report.html)");
  c.report->add_flag("--quiet", report.quiet, "write the file, print nothing");
  return c;
}

std::vector<std::string> chart_command_arguments(const ChartCommands& commands,
                                                 const PlotOptions& plot,
                                                 const ReportOptions& report) {
  std::vector<std::string> a;
  if (commands.plot->parsed()) {
    a = {"plot", plot.results_dir};
    if (commands.plot_out->count() > 0) a.insert(a.end(), {"--out", plot.out_dir});
    if (plot.quiet) a.push_back("--quiet");
  } else {
    a = {"report"};
    a.insert(a.end(), report.results_dirs.begin(), report.results_dirs.end());
    if (commands.report_out->count() > 0) a.insert(a.end(), {"--out", report.out_file});
    if (report.quiet) a.push_back("--quiet");
  }
  return a;
}

int exec_chart_program(const std::string& self, const std::vector<std::string>& arguments) {
  const std::filesystem::path program = std::filesystem::path(self).parent_path() / "gbesim-charts";
  std::vector<std::string> words = {program.string()};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  std::cerr << "error: cannot start " << program.string() << " (" << std::strerror(errno)
            << "): charts and reports are drawn by gbesim-charts, built beside gbesim "
               "(cmake --build build)\n";
  return 2;
}

std::vector<Verb> add_chart_verbs(CLI::App& app, const std::string& self) {
  struct Line {
    PlotOptions plot;
    ReportOptions report;
    ChartCommands commands;
  };
  auto line = std::make_shared<Line>();
  line->commands = add_chart_commands(app, line->plot, line->report);
  auto run = [line, self] {
    for (const CLI::Option* out : {line->commands.plot_out, line->commands.report_out})
      check_out_option(out);
    return exec_chart_program(self,
                              chart_command_arguments(line->commands, line->plot, line->report));
  };
  return {{line->commands.plot, run}, {line->commands.report, run}};
}

}  // namespace gbesim
