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
