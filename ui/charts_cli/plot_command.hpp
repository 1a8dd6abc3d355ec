#pragma once
// `gbesim plot RESULTS_DIR [-o OUT]`: the standard charts (ui/standard_charts) for whatever
// produced the results, offscreen, as PNG and SVG in OUT (default RESULTS_DIR/charts).

#include "sim/cli/chart_commands.hpp"

namespace gbesim {

// Exit code: 0, or 2 when the directory is not a results directory.
int run_plot(const PlotOptions& options);

}  // namespace gbesim
