#include "sim/campaign/slurm_options.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// At most this many digits in a field: more would overflow Slurm's minute count, and no time
// limit needs them.
constexpr std::size_t kMaxFieldDigits = 9;

bool digits(const std::string& s) {
  return !s.empty() && s.size() <= kMaxFieldDigits &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split(const std::string& s, char at) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == at) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

bool partition_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

}  // namespace

std::optional<std::string> slurm_time_problem(const std::string& text) {
  const std::string expected =
      "expected a Slurm time limit: minutes, minutes:seconds, hours:minutes:seconds, days-hours, "
      "days-hours:minutes, days-hours:minutes:seconds, UNLIMITED or INFINITE (e.g. 90, 1:30:00, "
      "2-12), got \"" +
      printable(text) + "\"";
  if (upper(text) == "UNLIMITED" || upper(text) == "INFINITE") return std::nullopt;
  const auto dash = split(text, '-');
  if (dash.size() > 2) return expected;
  const auto clock = split(dash.back(), ':');
  const bool fields_ok = std::all_of(clock.begin(), clock.end(), digits);
  if (!fields_ok || (dash.size() == 2 && !digits(dash[0]))) return expected;
  // Without days: minutes, minutes:seconds or hours:minutes:seconds; with them: hours, then at
  // most minutes and seconds.
  if (clock.size() > 3) return expected;
  return std::nullopt;
}

std::optional<std::string> slurm_partition_problem(const std::string& text) {
  const std::string expected =
      "expected partition names separated by commas, each of letters, digits, '_', '-' and '.' "
      "(e.g. batch or short,long), got \"" +
      printable(text) + "\"";
  for (const auto& name : split(text, ','))
    if (name.empty() || !std::all_of(name.begin(), name.end(), partition_character))
      return expected;
  return std::nullopt;
}

}  // namespace gbesim
