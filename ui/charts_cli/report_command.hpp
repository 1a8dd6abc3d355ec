#pragma once
// `gbesim report RESULTS_DIR... [-o report.html]`: one self-contained HTML file (charts embedded
// as PNG data) with, per results directory: the scenario's name and description, provenance
// (version, seeds, runs, wall time), the standard charts (ui/standard_charts), simulated against
// analytic values (analysis/comparisons), key tables, and the parameters as run. Written
// atomically; the path is printed.

#include "sim/cli/chart_commands.hpp"

namespace gbesim {

// Exit code: 0, or 2 when a directory is not a results directory.
int run_report(const ReportOptions& options);

}  // namespace gbesim
