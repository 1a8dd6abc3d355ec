#pragma once
// Progress on stderr about every two seconds of wall time: one updating line on a terminal,
// plain lines otherwise.

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "models/common/time.hpp"

namespace gbesim {

std::string format_duration_ps(Picoseconds ps);   // "12.5 ms"
std::string format_wall_seconds(double seconds);  // "1m05s"

// ", about 1m05s left" from the pace so far (`done` items took `elapsed_seconds` of wall time,
// `left` are still to do); empty before the first is done or when none is left.
std::string time_left_text(double elapsed_seconds, std::size_t done, std::size_t left);

// A number for a summary line that may have no value: fmt::format("{:>8.2f}", Shown{x}) gives
// "    1.50", "       -" when x has no value (NaN), and "     inf" / "    -inf".
struct Shown {
  double value;
};

class ProgressLine {
 public:
  ProgressLine(bool enabled, double interval_seconds = 2.0);
  // Prints `text` if the interval has passed since the last print (or if forced).
  void update(const std::string& text, bool force = false);
  // Ends an updating line so that later output starts on a fresh line.
  void finish();
  // Erases an updating line, so that other output takes its place (the next update redraws it).
  void clear();
  double seconds_since_start() const;

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool tty_;
  double interval_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool printed_ = false;
  bool pending_newline_ = false;
};

}  // namespace gbesim

template <>
struct fmt::formatter<gbesim::Shown> {
  std::string spec;
  auto parse(format_parse_context& ctx) {
    auto it = ctx.begin();
    while (it != ctx.end() && *it != '}') spec.push_back(*it++);
    return it;
  }
  template <class FormatContext>
  auto format(const gbesim::Shown& s, FormatContext& ctx) const {
    if (std::isfinite(s.value))
      return fmt::format_to(ctx.out(), fmt::runtime("{:" + spec + "}"), s.value);
    // Keep the fill, alignment and width; drop the precision and type.
    const std::string width = spec.substr(0, spec.find_first_of(".eEfFgG%"));
    const char* text = std::isnan(s.value) ? "-" : s.value > 0 ? "inf" : "-inf";
    return fmt::format_to(ctx.out(), fmt::runtime("{:" + width + "}"), text);
  }
};
