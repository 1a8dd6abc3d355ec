#pragma once

// What both command-line programs (gbesim, gbesim-charts) do the same way around their commands.

#include <CLI/CLI.hpp>

#include <optional>

namespace gbesim {

// Parses the command line: nullopt to go on, else the exit code (0 after --help or --version,
// 2 for bad usage, with CLI11's message printed).
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace gbesim
