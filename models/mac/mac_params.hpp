#pragma once

#include <cstdint>

#include "models/common/param_table.hpp"

namespace gbesim {

enum class Duplex { full, half };
const ChoiceList<Duplex>& choice_list(Duplex);

// Parameters of one IEEE 802.3 Clause 4 MAC with its Clause 31 MAC Control (PAUSE).
struct MacParams {
  Duplex duplex = Duplex::full;
  std::int64_t max_frame_bytes = 1518;
  std::int64_t ifg_bits = 96;
  // Half duplex (CSMA/CD).
  std::int64_t ifg_part1_bits = 64;
  std::int64_t slot_time_bits = 0;  // 0: the rate's slotTime; resolved by the loader
  bool carrier_extension = true;
  bool frame_bursting = false;
  std::int64_t burst_limit_bits = 65536;
  std::int64_t attempt_limit = 16;
  std::int64_t backoff_limit = 10;
  std::int64_t jam_bits = 32;
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

}  // namespace gbesim
