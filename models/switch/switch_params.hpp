#pragma once
// Parameters of an Ethernet switch (models/switch/switch.hpp) and of its ports.

#include <cstdint>

#include "models/common/param_table.hpp"
#include "models/mac/mac_params.hpp"

namespace gbesim {

enum class SwitchMode { store_and_forward, cut_through };
const ChoiceList<SwitchMode>& choice_list(SwitchMode);

struct SwitchParams {
  SwitchMode mode = SwitchMode::store_and_forward;
  std::int64_t cut_through_bytes = 14;  // DA, SA, length/type; 64 = fragment-free
  double forwarding_latency_ns = 0;     // lookup + fabric transit, once per frame
  std::int64_t fabric_mbps = 0;         // 0: non-blocking
  std::int64_t port_buffer_bytes = 131072;
  std::int64_t port_buffer_frames = 1024;
  std::int64_t shared_buffer_bytes = 0;
  std::int64_t address_table_entries = 8192;
  double aging_s = 300;  // 802.1D default ageing time
  std::int64_t priority_queues = 1;
};

const ParamTable<SwitchParams>& switch_param_table();

// One port: its line rate and duplex (a half-duplex port joins a collision domain).
struct SwitchPortParams {
  std::int64_t rate_mbps = 1000;
  Duplex duplex = Duplex::full;
};

}  // namespace gbesim
