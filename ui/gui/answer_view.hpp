#pragma once
// What the desktop app's Answer pane shows for a results directory, as the report words it: the
// warnings the runs recorded, then each answer -- its question, its table where it is a table,
// its sentences and how it was found -- or why the sweep states none. A run no answer reads
// shows the summary the simulator printed, when the app ran it.

#include <QString>

#include "analysis/results.hpp"

namespace gbesim::ui {

// `run_output`: what the child `gbesim` printed on stdout for this directory (empty if unknown).
QString answer_html(const Results& results, const QString& run_output);

}  // namespace gbesim::ui
