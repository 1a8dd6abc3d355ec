#include "analysis/half_duplex.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {

namespace {
constexpr std::int64_t kPreambleBits = 64;
}

double SingleSenderTimeline::efficiency(std::int64_t frame_bytes) const {
  return static_cast<double>(frames_per_period()) * 8.0 * static_cast<double>(frame_bytes) /
         static_cast<double>(period_bits);
}

SingleSenderTimeline single_sender_timeline(const SingleSenderSetup& s) {
  SingleSenderTimeline t;
  const std::int64_t frame_bits = 8 * s.frame_bytes;
  const bool extend = s.half_duplex && s.carrier_extension && frame_bits < s.slot_time_bits;
  // The first frame of a transmission: preamble, frame, extension to slotTime.
  std::int64_t end = kPreambleBits + (extend ? s.slot_time_bits : frame_bits);
  t.frame_end_bits.push_back(end);
  if (s.half_duplex && s.frame_bursting) {
    // Further frames follow a gap filled with extension, while they would start before
    // burstLimit bit times have passed since the burst began.
    while (end + s.ifg_bits < s.burst_limit_bits) {
      end += s.ifg_bits + kPreambleBits + frame_bits;
      t.frame_end_bits.push_back(end);
    }
  }
  t.period_bits = end + s.ifg_bits;  // our own gap after the transmission
  return t;
}

std::int64_t single_sender_frames_by(const SingleSenderSetup& s, std::int64_t duration_ps) {
  const SingleSenderTimeline t = single_sender_timeline(s);
  const std::int64_t bit_ps = 1'000'000 / s.rate_mbps;
  const std::int64_t period_ps = t.period_bits * bit_ps;
  const std::int64_t whole = duration_ps / period_ps;
  const std::int64_t rest = duration_ps - whole * period_ps;
  std::int64_t n = whole * t.frames_per_period();
  for (const std::int64_t end : t.frame_end_bits)
    if (end * bit_ps < rest) ++n;
  return n;
}

double metcalfe_boggs_efficiency(std::int64_t stations, double data_bits, double held_bits,
                                 double slot_bits) {
  const double q = static_cast<double>(stations);
  const double a = stations <= 1 ? 1.0 : std::pow(1.0 - 1.0 / q, q - 1.0);
  const double w = (1.0 - a) / a;
  return data_bits / (held_bits + w * slot_bits);
}

}  // namespace gbesim
