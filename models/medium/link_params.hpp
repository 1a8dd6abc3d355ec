#pragma once

#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// One full-duplex point-to-point cable between two stations.
struct LinkParams {
  double cable_m = 1.0;
  std::string medium = "cat5e";
  double ber = 0.0;
};

const ParamTable<LinkParams>& link_param_table();

}  // namespace gbesim
