#pragma once
// Progress on stderr about every two seconds of wall time: one updating line on a terminal,
// plain lines otherwise.

#include <chrono>
#include <cstdio>
#include <string>

#include "models/common/time.hpp"

namespace gbesim {

std::string format_duration_ps(Picoseconds ps);   // "12.5 ms"
std::string format_wall_seconds(double seconds);  // "1m05s"

class ProgressLine {
 public:
  ProgressLine(bool enabled, double interval_seconds = 2.0);
  // Prints `text` if the interval has passed since the last print (or if forced).
  void update(const std::string& text, bool force = false);
  // Ends an updating line so that later output starts on a fresh line.
  void finish();
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
