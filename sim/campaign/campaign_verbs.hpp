#pragma once
// The verbs of campaigns of runs, declared beside the code they start: `sweep` (every point x
// replication, shards, --status, --aggregate, --slurm), `validate` (the scorecard against the
// source documents' measurements) and `bench` (speed and memory). `self`:
// this executable, which they start again for their runs.

#include <CLI/CLI.hpp>

#include <string>

#include "sim/cli/verbs.hpp"

namespace gbesim {

Verb add_sweep_verb(CLI::App& app, const std::string& self);
Verb add_validate_verb(CLI::App& app);
Verb add_bench_verb(CLI::App& app, const std::string& self);

}  // namespace gbesim
