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

// What --help shows for an option's value, from CLI11's type name with its validators'
// descriptions ("INT:DECIMAL:INT in [0 - 1099511627776]"): the type ("INT"), a unit the value
// takes ("DURATION"), the choices of a short set ("{a,b,c}"), a range a person would type
// within ("INT in [1 - 99]"); no more.
std::string plain_value_name(const std::string& full) {
  const std::string type = full.substr(0, full.find(':'));
  if (full.find("DURATION") != std::string::npos) return "DURATION";
  const std::size_t set = full.find('{');
  if (set != std::string::npos) {
    const std::size_t end = full.find('}', set);
    if (end != std::string::npos && end - set < 48) return full.substr(set, end - set + 1);
    return type;
  }
  const std::size_t range = full.find(" in [");
  if (range != std::string::npos) {
    const std::size_t dash = full.find(" - ", range), close = full.find(']', range);
    if (dash != std::string::npos && close != std::string::npos) {
      const double low = std::strtod(full.c_str() + range + 5, nullptr);
      const double high = std::strtod(full.c_str() + dash + 3, nullptr);
      if (std::fabs(low) <= 1e5 && std::fabs(high) <= 1e5)
        return type + full.substr(range, close - range + 1);
    }
  }
  return type;
}

}  // namespace

void plain_help(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size() == 0) continue;  // a flag
    const std::string name = plain_value_name(option->get_type_name());
    try {  // CLI11 tells the number of validators only by throwing past the last
      for (int i = 0;; ++i) option->get_validator(i)->description("");
    } catch (const CLI::OptionNotFound&) {
    }
    option->type_name(name);
  }
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    plain_help(*command);
}

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
  require_finite_numbers(app);  // first: it knows the numeric options by their type names
  plain_help(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return std::nullopt;
}

}  // namespace gbesim
