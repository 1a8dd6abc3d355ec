#pragma once
// Closed forms for a saturated full-duplex Ethernet link (IEEE 802.3: 8 bytes of preamble+SFD
// and a 96-bit inter-frame gap around every frame).

#include <cstdint>

namespace gbesim {

// Frames per second of `frame_bytes` (DA..FCS) frames back to back at `rate_mbps`.
double line_rate_frames_per_second(std::int64_t rate_mbps, std::int64_t frame_bytes,
                                   std::int64_t ifg_bits = 96);
// Frames whose last bit has left before `duration_ps` (a run covers [0, duration)), the first
// starting at 0: an exact count.
std::int64_t frames_completed_by(std::int64_t rate_mbps, std::int64_t frame_bytes,
                                 std::int64_t duration_ps, std::int64_t ifg_bits = 96);
// DA..FCS bits per second over line capacity.
double line_efficiency(std::int64_t frame_bytes, std::int64_t ifg_bits = 96);
// MAC client data bits per second at line rate (payload = frame - 18 header/FCS bytes).
double payload_rate_bps(std::int64_t rate_mbps, std::int64_t frame_bytes,
                        std::int64_t ifg_bits = 96);

}  // namespace gbesim
