#pragma once
// Time series (series.csv): every rate statistic (StatGroup::rate: throughputs, frame rates,
// utilisations and shares of time) recorded per interval of simulated time, as iperf -i or an
// OMNeT++ output vector gives. The value for an interval is the quantity the rate accumulated in
// it (bits, frames, busy time) over the interval's length; the last interval may be shorter
// (the run's end, or a stop).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/stats.hpp"
#include "models/common/time.hpp"
#include "sim/input/duration.hpp"  // parse_interval_ns, for the series interval

namespace gbesim {

class SeriesRecorder {
 public:
  SeriesRecorder(const StatRegistry& registry, Picoseconds interval_ps);

  // The end of the interval in progress: the runner stops the kernel there.
  Picoseconds next_ps() const { return last_ps_ + interval_ps_; }
  // Closes the interval ending at `now_ps` (a boundary, or the run's end; nothing when no time
  // has passed since the last one).
  void sample(Picoseconds now_ps);
  // time_s (the interval's end), component, name, unit, value.
  const std::string& csv() const { return text_; }
  std::size_t intervals() const { return intervals_; }

 private:
  struct Column {
    std::string component, name, unit;
  };
  const StatRegistry& registry_;
  Picoseconds interval_ps_;
  Picoseconds last_ps_ = 0;
  std::vector<Column> columns_;
  std::vector<double> last_accumulated_;  // value x elapsed seconds at last_ps_
  std::vector<double> values_;            // scratch
  std::string text_;
  std::size_t intervals_ = 0;
};

}  // namespace gbesim
