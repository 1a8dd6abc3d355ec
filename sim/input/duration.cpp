#include "sim/input/duration.hpp"

#include <cctype>

namespace gbesim {

std::optional<std::int64_t> parse_interval_ns(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0)
    ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  const std::int64_t n = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  std::int64_t scale = 0;
  if (unit.empty() || unit == "ns") scale = 1;
  if (unit == "us") scale = 1'000;
  if (unit == "ms") scale = 1'000'000;
  if (unit == "s") scale = 1'000'000'000;
  if (scale == 0 || n == 0 || n > (std::int64_t{1} << 50) / scale) return std::nullopt;
  return n * scale;
}

}  // namespace gbesim
