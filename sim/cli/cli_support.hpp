#pragma once

// What both command-line programs (gbesim, gbesim-charts) do the same way around their commands.

#include <CLI/CLI.hpp>

#include <optional>

namespace gbesim {

// Parses the command line: nullopt to go on, else the exit code (0 after --help or --version,
// 2 for bad usage, with CLI11's message printed). Every numeric option of every command must be
// finite (require_finite_numbers), whoever declared it.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// Refuses "nan", "inf", "-inf", "infinity" and numbers beyond a double ("1e999") in every option
// of `app` and its subcommands whose type is a number (CLI11's FLOAT, INT, UINT, also in lists).
// CLI11 reads them as doubles, and its Range lets NaN through (every comparison with NaN is
// false), so without this `--lengths nan` reached the models.
void require_finite_numbers(CLI::App& app);

// Shows each option's value in --help as a person reads it ("INT", "DURATION", "{a,b,c}",
// "INT in [1 - 99]") instead of CLI11's chain of validator descriptions, in `app` and its
// subcommands. The validators still check; only what help prints changes.
void plain_help(CLI::App& app);

}  // namespace gbesim
