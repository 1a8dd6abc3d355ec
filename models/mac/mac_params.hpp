#pragma once

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// Parameters of one IEEE 802.3 Clause 4 MAC with its Clause 31 MAC Control (PAUSE).
struct MacParams {
  std::int64_t max_frame_bytes = 1518;
  std::int64_t ifg_bits = 96;
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
