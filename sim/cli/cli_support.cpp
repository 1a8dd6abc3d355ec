#include "sim/cli/cli_support.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace gbesim {
namespace {

// Numbers as CLI11 would read them: what strtod reads as NaN or an infinity (a finite number
// too large for a double reads as one) is refused; anything that is not a number at all is left
// to the option's own conversion and checks, which name what they expect.
std::string finite_number_problem(const std::string& text) {
  const char* start = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(start, &end);
  if (end == start || std::isfinite(value)) return "";
  return "expected a finite number, got " + text;
}

bool numeric_type(const std::string& type_name) {
  // The type name carries the validators' descriptions after a colon ("FLOAT:...").
  const std::string type = type_name.substr(0, type_name.find(':'));
  return type == "FLOAT" || type == "INT" || type == "UINT";
}

}  // namespace

void require_finite_numbers(CLI::App& app) {
  // Placed before the option's other checks (transform inserts at the front), so that the
  // message says what is wrong with NaN rather than a range that NaN seemed to meet.
  const CLI::Validator finite([](std::string& text) { return finite_number_problem(text); }, "");
  for (CLI::Option* option : app.get_options())
    if (numeric_type(option->get_type_name())) option->transform(finite);
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    require_finite_numbers(*command);
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  require_finite_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return std::nullopt;
}

}  // namespace gbesim
