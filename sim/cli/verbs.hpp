#pragma once
// A verb of a command-line program: its subcommand and what runs it once the command line is
// parsed. Each room declares its own verbs beside its code (add_run_verb, add_sweep_verb, ...);
// main.cpp only lists them and runs the one that was given.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace gbesim {

struct Verb {
  CLI::App* command = nullptr;
  std::function<int()> run;  // the exit code
};

// Integer options take plain decimal digits: CLI11 would also read 0x10 or 1e3.
const CLI::Validator& decimal();

// An --out that was given must not be empty (an unset shell variable), not "the default"; a
// ScenarioError (exit code 2) otherwise. Call once the command line is parsed.
void check_out_option(const CLI::Option* option);

// This executable, for starting sweep runs, bench runs and gbesim-charts (argv[0] may be a bare
// name found on PATH).
std::string self_path(const char* argv0);

}  // namespace gbesim
