#pragma once
// Closed forms for half-duplex Ethernet (derived here from the 802.3 rules, then checked against
// docs/references.md, Validation 2 by the tests):
//  - one saturated sender, no contention: the exact repeating timeline with or without carrier
//    extension and frame bursting, hence frames/s and efficiency;
//  - many always-ready stations: the Metcalfe-Boggs (1976) slotted idealisation.

#include <cstdint>
#include <vector>

namespace gbesim {

struct SingleSenderSetup {
  std::int64_t rate_mbps = 1000;
  std::int64_t frame_bytes = 64;  // DA..FCS
  bool half_duplex = true;        // false: full duplex (no extension, no bursting)
  std::int64_t slot_time_bits = 4096;
  bool carrier_extension = true;
  bool frame_bursting = false;
  std::int64_t burst_limit_bits = 65536;
  std::int64_t ifg_bits = 96;
};

// One period of the sender's repeating timeline: one transmission (one frame, or one burst).
struct SingleSenderTimeline {
  std::int64_t period_bits = 0;              // first preamble bit to the next one
  std::vector<std::int64_t> frame_end_bits;  // last bit (extension included) of each frame
  std::int64_t frames_per_period() const {
    return static_cast<std::int64_t>(frame_end_bits.size());
  }
  double efficiency(std::int64_t frame_bytes) const;  // DA..FCS bits over line capacity
};

SingleSenderTimeline single_sender_timeline(const SingleSenderSetup& setup);
// Frames whose last bit (extension included) has left before `duration_ps` (the run covers
// [0, duration)), the first starting at 0.
std::int64_t single_sender_frames_by(const SingleSenderSetup& setup, std::int64_t duration_ps);

// Metcalfe & Boggs (1976): with Q always-ready stations, A = (1 - 1/Q)^(Q-1) is the chance one
// station acquires a contention slot and W = (1 - A)/A the mean number of slots lost per
// acquisition. Their efficiency (P/C) / (P/C + W T) is the share of time carrying packets; here
// the packet is what one acquisition sends (one frame, or one burst): `held_bits` of medium time
// (preamble, extension and the gap included) carrying `data_bits` of DA..FCS, so
// efficiency = data / (held + W slot), all in bit times. Q = 1 gives the single-sender value.
double metcalfe_boggs_efficiency(std::int64_t stations, double data_bits, double held_bits,
                                 double slot_bits);

}  // namespace gbesim
