#pragma once
// The `run` verb's options (gbesim run SCENARIO [--set ...] [--out DIR] [--seed N] [--point K]
// [--trace ...] [--series 1s] [--quiet]), declared beside the run they start.

#include <CLI/CLI.hpp>

#include "sim/cli/verbs.hpp"

namespace gbesim {

Verb add_run_verb(CLI::App& app);

// "1s", "100ms", "250us", "500ns" or a number of ns, as a validator of --series options.
const CLI::Validator& duration();

}  // namespace gbesim
