#include "sim/cli/verbs.hpp"

#include <filesystem>

#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {

const CLI::Validator& decimal() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) return "";
        return "expected a non-negative decimal integer, got " + printable(text);
      },
      "DECIMAL");
  return validator;
}

void check_out_option(const CLI::Option* option) {
  if (option->count() > 0) checked_out_option(option->as<std::string>(), option->get_name());
}

std::string self_path(const char* argv0) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(argv0) : exe.string();
}

}  // namespace gbesim
