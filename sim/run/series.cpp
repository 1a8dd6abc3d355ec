#include "sim/run/series.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <optional>

namespace gbesim {

SeriesRecorder::SeriesRecorder(const StatRegistry& registry, Picoseconds interval_ps)
    : registry_(registry), interval_ps_(interval_ps), text_("time_s,component,name,unit,value\n") {
  for (const StatGroup* g : registry_.groups())
    for (const auto& d : g->rate_descriptions())
      columns_.push_back({g->component(), d.name, d.unit});
  last_accumulated_.assign(columns_.size(), 0.0);
  values_.reserve(columns_.size());
}

namespace {

// Picoseconds as seconds, exactly (at most 12 decimals, trailing zeros dropped).
std::string seconds_text(Picoseconds ps) {
  std::string s = fmt::format("{}.{:012d}", ps / kPsPerSecond, ps % kPsPerSecond);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

void SeriesRecorder::sample(Picoseconds now_ps) {
  if (now_ps <= last_ps_) return;
  StatContext context;
  context.elapsed_ps = now_ps;
  values_.clear();
  for (const StatGroup* g : registry_.groups()) g->collect_rates(context, values_);
  const double seconds = static_cast<double>(now_ps) / static_cast<double>(kPsPerSecond);
  const double length = static_cast<double>(now_ps - last_ps_) / static_cast<double>(kPsPerSecond);
  const std::string time = seconds_text(now_ps);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    // The rate times the elapsed time is what it accumulated since the start.
    const double accumulated = values_[i] * seconds;
    const double value = (accumulated - last_accumulated_[i]) / length;
    last_accumulated_[i] = accumulated;
    // 12 significant digits: the differences of accumulated quantities carry rounding in the
    // last of double's 15-17.
    text_ += fmt::format("{},{},{},{},{:.12g}\n", time, columns_[i].component, columns_[i].name,
                         columns_[i].unit, value);
  }
  last_ps_ = now_ps;
  ++intervals_;
}

}  // namespace gbesim
