#include "ui/charts_cli/plot_command.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/core.h>

#include "analysis/results.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/output_dir.hpp"
#include "ui/render.hpp"
#include "ui/standard_charts.hpp"
#include "ui/validation_charts.hpp"

namespace gbesim {

namespace {

// The standard charts of a results directory, or a validation directory's (an error: nullopt).
std::optional<std::vector<ui::StandardChart>> charts_of(const std::string& dir) {
  try {
    if (ui::is_validation_directory(dir))
      return ui::validation_charts(ui::read_validation_directory(dir));
    return ui::standard_charts(load_results(dir));
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

int run_plot(const PlotOptions& o) {
  // Charts render offscreen: no display is needed (or used).
  const ui::OffscreenApplication app;
  const auto made = charts_of(o.results_dir);
  if (!made) return 2;
  const auto& charts = *made;
  const std::filesystem::path out = o.out_dir.empty()
                                        ? std::filesystem::path(o.results_dir) / "charts"
                                        : std::filesystem::path(o.out_dir);
  if (charts.empty()) {
    std::cerr << "error: " << o.results_dir << ": no standard chart applies to these results\n";
    return 2;
  }
  // The charts' files replace only what an earlier plot here wrote.
  std::vector<std::string> names;
  for (const auto& c : charts)
    for (const char* ext : {".png", ".svg"}) names.push_back(c.name + ext);
  const OutputDirectory charts_dir(out, fmt::format("gbesim plot (pid {})", ::getpid()), names);
  for (const auto& c : charts) {
    const auto files = ui::chart_files(c.chart, c.annotate);
    const auto stem = out / c.name;
    write_file_atomically(stem.string() + ".png", files.png.toStdString());
    write_file_atomically(stem.string() + ".svg", files.svg.toStdString());
    if (!o.quiet) fmt::print("{}.png, {}.svg\n", stem.string(), stem.string());
  }
  if (!o.quiet) fmt::print("{} charts in {}/\n", charts.size(), out.string());
  return 0;
}

}  // namespace gbesim
