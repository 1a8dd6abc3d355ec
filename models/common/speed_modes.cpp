#include "models/common/speed_modes.hpp"

#include <algorithm>

namespace gbesim {

const std::vector<SpeedMode>& speed_modes() {
  // slotTime: IEEE 802.3-2008 4.4.2; 4096 bit times at 1000 Mb/s (Seifert, Table 4.2).
  // burstLimit: 65 536 bits, 802.3 4.4.2 as transcribed in the Clause 4 Pascal model.
  static const std::vector<SpeedMode> table = {
      {10, bit_time_ps(10), 512, 0, true, "IEEE 802.3-2008 4.4.2 (10 Mb/s column)"},
      {100, bit_time_ps(100), 512, 0, true, "IEEE 802.3-2008 4.4.2 (100 Mb/s column)"},
      {1000, bit_time_ps(1000), 4096, kBurstLimitBits, true,
       "IEEE 802.3-2008 4.4.2 (1000 Mb/s column)"},
      {10000, bit_time_ps(10000), 0, 0, false, "IEEE 802.3-2008 4.4.2 (10 Gb/s: full duplex only)"},
  };
  return table;
}

std::optional<SpeedMode> find_speed_mode(std::int64_t rate_mbps) {
  const auto& table = speed_modes();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const SpeedMode& m) { return m.rate_mbps == rate_mbps; });
  if (it == table.end()) return std::nullopt;
  return *it;
}

std::string speed_mode_list() {
  std::string out;
  for (const auto& m : speed_modes()) {
    if (!out.empty()) out += ", ";
    out += std::to_string(m.rate_mbps);
  }
  return out;
}

}  // namespace gbesim
