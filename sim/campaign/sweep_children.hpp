#pragma once
// The processes a sweep forks, and what each does until it exits: a run, which does what
// `gbesim run SCENARIO --point K --out DIR/runs/K` would (the same function) in a copy of the
// sweep, without loading the program again; and an aggregator, which writes the sweep-wide files
// from what is complete while the runs go on. When to start them and what their ends mean is the
// sweep's (sweep_loop).

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

#include "sim/campaign/sweep.hpp"

namespace gbesim {

// Starts run K into `dir` (its log.txt takes the run's output) and returns its process id;
// throws std::runtime_error when it cannot be started. The run has its own process group, so
// that a Ctrl-C at the terminal reaches only the sweep, which passes one SIGINT on to each run (a
// second signal would make the run stop at once, without writing its interrupted record); and it
// is tied to the sweep: if the sweep dies, its runs stop (PR_SET_PDEATHSIG, as
// `gbesim run --parent-pid`).
pid_t start_run(const SweepOptions& options, std::size_t run, const std::filesystem::path& dir);

// Starts a child that runs `aggregate`, then `record` while the sweep is still its parent (a
// sweep stopped at once leaves its own record, which the child's must not replace), and exits 0,
// or 1 after a warning naming sweep `name` when either throws. It is stopped by a signal (Ctrl-C
// reaches it with the sweep's process group) or when the sweep dies, without leaving a temporary
// file; a hard stop of the sweep ends it first. Returns its process id, or 0 when it cannot be
// started (the next try will).
pid_t start_aggregator(const std::string& name, const std::function<void()>& aggregate,
                       const std::function<void()>& record);

}  // namespace gbesim
