#pragma once

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// One full-duplex point-to-point cable between two stations.
struct LinkParams {
  double cable_m = 1.0;
  std::int64_t rate_mbps = 0;  // 0: the switch port's, or the run's
  std::string medium = "cat5e";
  double ber = 0.0;
  // "ideal": the link carries bits with `ber`; "1000base-t": the bit-error rate comes from the
  // link-level PHY model for this medium (cat5, cat5e, cat6) and length (models/phy/link_model).
  std::string phy = "ideal";
  double phy_noise_dbm_per_hz = -140.0;
  double phy_tx_latency_ns = 0.0;
  double phy_rx_latency_ns = 0.0;
};

const ParamTable<LinkParams>& link_param_table();

}  // namespace gbesim
