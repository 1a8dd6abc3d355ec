#pragma once
// The 1000BASE-T receiver and environment as a user sets them, declared once: `gbesim phy`'s
// flags, a scenario's link_level.receiver block and phy.json's "receiver" record come from this
// table; apply() carries the values into the link model's PhyLinkParams.

#include <cstdint>

#include "models/common/param_table.hpp"
#include "models/phy/link_model.hpp"

namespace gbesim::phy {

struct PhyReceiverParams {
  std::int64_t echo_taps = 160;  // echo canceller span, symbols
  std::int64_t next_taps = 32;   // each NEXT canceller's span, symbols
  std::int64_t ffe_taps = 16;
  std::int64_t dfe_taps = 64;
  std::int64_t adc_bits = 8;  // 0: no quantisation
  double noise_dbm_per_hz = -140;
};

const ParamTable<PhyReceiverParams>& phy_receiver_param_table();

// `link` with the receiver's values.
void apply(const PhyReceiverParams& receiver, PhyLinkParams& link);

}  // namespace gbesim::phy
