#pragma once
// SIGINT, SIGTERM and SIGHUP for people. While a simulation (or a sweep's runs) can stop cleanly,
// the first signal asks it to, and the caller writes what it has with status `interrupted`.
// Before that point (loading, elaborating) there is nothing to save, and after a first request a
// second signal means "now": the process removes its temporary files and exits with 130 at once.

#include <filesystem>
#include <string>

namespace gbesim {

// Installs the handlers (and unblocks these signals, which a sweep blocks in the runs it starts
// until they get here).
void install_stop_handlers();
// From now on the first signal only requests a stop (the caller polls stop_requested()).
void allow_clean_stop();
bool stop_requested();

// For a process waiting on its children: SIGCHLD, like a stop request, wakes wait_for_wake().
// Nothing is missed between a check and the wait (the handlers write to a pipe it polls).
void watch_children();
// In a child forked to run one of a sweep's runs: forget the sweep's wake pipe and stop state
// (the run installs its own handlers).
void forget_inherited_stop_state();
// The record a process leaves when a second signal ends it at once (a sweep's sweep.json saying
// `interrupted`): `text` is written beside `path` and renamed over it, with async-signal-safe
// calls only. Replaces the one set before; an empty path sets none.
void set_record_for_hard_stop(const std::filesystem::path& path, const std::string& text);
// A child that must end before that record is written (a sweep's aggregator, which writes the
// same record): a hard stop sends it SIGTERM and waits for it first. 0: none.
void set_child_to_end_on_hard_stop(int pid);
void wait_for_wake();

}  // namespace gbesim
