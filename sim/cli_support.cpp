#include "sim/cli_support.hpp"

#include <iostream>

#include "sim/diagnostics.hpp"

namespace gbesim {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return std::nullopt;
}

int report_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ScenarioError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << "\n";
    return 1;
  }
}

}  // namespace gbesim
