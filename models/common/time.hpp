#pragma once
// Simulated time is integer picoseconds everywhere in the models. SystemC runs with a 1 ps
// resolution, so an sc_time's value() is exactly a count of picoseconds.

#include <cstdint>

#include <systemc>

namespace gbesim {

using Picoseconds = std::int64_t;

inline constexpr Picoseconds kPsPerNs = 1'000;
inline constexpr Picoseconds kPsPerUs = 1'000'000;
inline constexpr Picoseconds kPsPerMs = 1'000'000'000;
inline constexpr Picoseconds kPsPerSecond = 1'000'000'000'000;

// Must run before any sc_time is constructed; idempotent.
void init_time_resolution();

inline sc_core::sc_time to_sc_time(Picoseconds ps) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(ps));
}

// The kernel's clock read in place: sc_time_stamp() is the same value behind a library call, and
// the simulation context exists before any model does (sc_get_curr_simcontext() would check).
inline Picoseconds now_ps() {
  return static_cast<Picoseconds>(sc_core::sc_curr_simcontext->time_stamp().value());
}

// One bit time at a line rate given in Mb/s: 1e6 / rate ps. Exact for 10, 100, 1000 and
// 10000 Mb/s; other rates are rejected by the speed-mode table before they reach here.
constexpr Picoseconds bit_time_ps(std::int64_t rate_mbps) {
  return 1'000'000 / rate_mbps;
}

constexpr Picoseconds bits_to_ps(std::int64_t bits, std::int64_t rate_mbps) {
  return bits * bit_time_ps(rate_mbps);
}

constexpr Picoseconds bytes_to_ps(std::int64_t bytes, std::int64_t rate_mbps) {
  return bits_to_ps(bytes * 8, rate_mbps);
}

inline double ps_to_seconds(Picoseconds ps) {
  return static_cast<double>(ps) * 1e-12;
}

// The longest delay a model schedules: 2^62 ps (53 days), beyond any run. Durations computed in
// floating point (random gaps, rate-based spacing) are rounded once and clamped to [0, this].
inline constexpr Picoseconds kForeverPs = Picoseconds{1} << 62;
Picoseconds round_to_ps(double ps);

}  // namespace gbesim
