#include "sim/support/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace gbesim {

std::string format_duration_ps(Picoseconds ps) {
  const double v = static_cast<double>(ps);
  if (ps >= kPsPerSecond) return fmt::format("{:.3g} s", v / kPsPerSecond);
  if (ps >= kPsPerMs) return fmt::format("{:.3g} ms", v / kPsPerMs);
  if (ps >= kPsPerUs) return fmt::format("{:.3g} us", v / kPsPerUs);
  if (ps >= kPsPerNs) return fmt::format("{:.3g} ns", v / kPsPerNs);
  return fmt::format("{} ps", ps);
}

std::string format_wall_seconds(double seconds) {
  if (seconds < 60) return fmt::format("{:.0f}s", seconds);
  const auto s = static_cast<long>(seconds + 0.5);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

ProgressLine::ProgressLine(bool enabled, double interval_seconds)
    : enabled_(enabled),
      tty_(::isatty(STDERR_FILENO) != 0),
      interval_(interval_seconds),
      start_(Clock::now()),
      last_(start_) {}

double ProgressLine::seconds_since_start() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressLine::update(const std::string& text, bool force) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (!force && std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  if (tty_) {
    std::fprintf(stderr, "\r%s\033[K", text.c_str());
    pending_newline_ = true;
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  printed_ = true;
}

void ProgressLine::clear() {
  if (enabled_ && pending_newline_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    pending_newline_ = false;
  }
}

void ProgressLine::finish() {
  if (enabled_ && pending_newline_) {
    std::fprintf(stderr, "\n");
    pending_newline_ = false;
  }
}

std::string time_left_text(double elapsed_seconds, std::size_t done, std::size_t left) {
  if (done == 0 || left == 0) return "";
  return ", about " +
         format_wall_seconds(elapsed_seconds * static_cast<double>(left) /
                             static_cast<double>(done)) +
         " left";
}

}  // namespace gbesim
