#pragma once

#include <cstdint>

#include "models/common/param_table.hpp"
#include "models/common/speed_modes.hpp"

namespace gbesim {

enum class Duplex { full, half };
const ChoiceList<Duplex>& choice_list(Duplex);

// Parameters of one IEEE 802.3 Clause 4 MAC with its Clause 31 MAC Control (PAUSE). The
// defaults are the standard's (speed_modes.hpp).
struct MacParams {
  Duplex duplex = Duplex::full;
  std::int64_t max_frame_bytes = kMaxBasicFrameBytes;
  std::int64_t ifg_bits = kInterFrameGapBits;
  // Half duplex (CSMA/CD).
  std::int64_t ifg_part1_bits = kInterFrameGapPart1Bits;
  std::int64_t slot_time_bits = 0;  // 0: the rate's slotTime (slot_time_bits_at)
  bool carrier_extension = true;
  bool frame_bursting = false;
  std::int64_t burst_limit_bits = kBurstLimitBits;
  std::int64_t attempt_limit = kAttemptLimit;
  std::int64_t backoff_limit = kBackoffLimit;
  std::int64_t jam_bits = kJamBits;
  bool retry_late_collisions = true;
  bool promiscuous = false;
  bool accept_multicast = true;
  std::int64_t tx_queue_frames = 256;
  bool pause_rx_enabled = true;
  bool pause_tx_enabled = false;
  std::int64_t pause_xoff_bytes = 49152;
  std::int64_t pause_xon_bytes = 16384;
  std::int64_t pause_quanta = 65535;
  bool pause_send_xon = true;
};

const ParamTable<MacParams>& mac_param_table();

// The slotTime a MAC with these parameters uses at `rate_mbps`: slot_time_bits, or when that is
// 0 the speed mode's (0 at a rate without half duplex).
std::int64_t slot_time_bits_at(const MacParams& params, std::int64_t rate_mbps);

}  // namespace gbesim
