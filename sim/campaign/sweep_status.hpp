#pragma once
// What `gbesim sweep --list` and `--status` print: the plan's runs, and what each run's directory
// holds now (runs/<K>/, read by run_state). They run nothing and write nothing.

#include <string>

#include "sim/campaign/run_state.hpp"
#include "sim/input/sweep_plan.hpp"

namespace gbesim {

// `--list`: every run with its point, replication, seed and swept values, then the count.
void print_list(const SweepPlan& plan);

// `--status [--json]`: how many runs are in each state, then every run that is not complete and
// why (the missing ones as ranges). Exit 0 when all are complete, 1 otherwise.
int print_status(const SweepPlan& plan, const SweepRuns& runs, const std::string& name,
                 bool as_json);

}  // namespace gbesim
