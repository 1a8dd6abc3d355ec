#include "models/medium/bit_error_injector.hpp"

#include <cmath>
#include <limits>

namespace gbesim {

BitErrorInjector::BitErrorInjector(double ber, RngStream rng)
    : ber_(ber), log_keep_(std::log1p(-ber)), rng_(rng) {
  gap_ = draw_gap();
}

std::uint64_t BitErrorInjector::draw_gap() {
  constexpr auto kNever = std::numeric_limits<std::uint64_t>::max();
  if (ber_ <= 0) return kNever;
  if (ber_ >= 1) return 0;
  // Geometric on {0, 1, ...}: floor(log(U) / log(1 - p)), U uniform on (0, 1].
  const double u = 1.0 - rng_.uniform01();
  const double g = std::floor(std::log(u) / log_keep_);
  if (g >= 1.8e19) return kNever;
  return static_cast<std::uint64_t>(g);
}

std::uint64_t BitErrorInjector::corrupt(Frame& frame) {
  const std::uint64_t bits = frame.bytes.size() * 8;
  std::uint64_t position = 0;  // next bit of this frame not yet passed
  std::uint64_t flipped = 0;
  while (gap_ < bits - position) {
    position += gap_;  // this bit is in error
    frame.bytes[position / 8] ^= static_cast<std::uint8_t>(1U << (position % 8));
    ++flipped;
    ++position;
    gap_ = draw_gap();
  }
  gap_ -= bits - position;
  if (flipped > 0) frame.fcs_intact = false;
  return flipped;
}

}  // namespace gbesim
