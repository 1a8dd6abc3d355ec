#pragma once
// Cable media and their propagation delay. One row per medium, each with its source; scenarios
// may override a row or add their own under "media".

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
