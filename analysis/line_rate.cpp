#include "analysis/line_rate.hpp"

namespace gbesim {

namespace {
constexpr std::int64_t kPreambleSfdBits = 64;
constexpr std::int64_t kHeaderAndFcsBytes = 18;

std::int64_t slot_bits(std::int64_t frame_bytes, std::int64_t ifg_bits) {
  return kPreambleSfdBits + 8 * frame_bytes + ifg_bits;
}
}  // namespace

double line_rate_frames_per_second(std::int64_t rate_mbps, std::int64_t frame_bytes,
                                   std::int64_t ifg_bits) {
  return static_cast<double>(rate_mbps) * 1e6 /
         static_cast<double>(slot_bits(frame_bytes, ifg_bits));
}

std::int64_t frames_completed_by(std::int64_t rate_mbps, std::int64_t frame_bytes,
                                 std::int64_t duration_ps, std::int64_t ifg_bits) {
  const std::int64_t bit_ps = 1'000'000 / rate_mbps;
  const std::int64_t period = slot_bits(frame_bytes, ifg_bits) * bit_ps;
  const std::int64_t busy = (kPreambleSfdBits + 8 * frame_bytes) * bit_ps;
  if (duration_ps <= busy) return 0;
  return (duration_ps - 1 - busy) / period + 1;  // frame k ends at k * period + busy
}

double line_efficiency(std::int64_t frame_bytes, std::int64_t ifg_bits) {
  return 8.0 * static_cast<double>(frame_bytes) /
         static_cast<double>(slot_bits(frame_bytes, ifg_bits));
}

double payload_rate_bps(std::int64_t rate_mbps, std::int64_t frame_bytes, std::int64_t ifg_bits) {
  return line_rate_frames_per_second(rate_mbps, frame_bytes, ifg_bits) * 8.0 *
         static_cast<double>(frame_bytes - kHeaderAndFcsBytes);
}

}  // namespace gbesim
