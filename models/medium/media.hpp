#pragma once
// Cable media and their propagation delay, for links and for collision domains given by cable
// lengths. One row per medium, each with its source; scenarios may override a row or add their
// own under "media". Every built-in row is the same nominal 5.0 ns/m (about 0.67 c), an
// assumption. Domains derived from a "topology" block use models/topology/delay_table instead.
// Does not model: anything of a medium but a fixed one-way delay per metre -- no attenuation,
// bandwidth, length limits, pair-to-pair skew, or dependence on speed or frequency.

#include <string>
#include <vector>

#include "models/common/param_table.hpp"

namespace gbesim {

struct MediumParams {
  double ns_per_m = 5.0;
};

const ParamTable<MediumParams>& medium_param_table();

struct MediumRow {
  std::string name;
  MediumParams params;
  std::string source;
};

const std::vector<MediumRow>& builtin_media();

}  // namespace gbesim
