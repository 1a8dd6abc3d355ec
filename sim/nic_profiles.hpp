#pragma once
// NIC profiles: data files with a value and a source (or "assumption") for every field they set.
// The built-in ones (models/nic/profiles/*.json) are compiled in; a scenario may name one of
// them or give the path of its own file (ending in .json, relative to the scenario).

#include <string>
#include <utility>
#include <vector>

#include "scenarios/scenario_config.hpp"
#include "sim/diagnostics.hpp"
#include "sim/json_input.hpp"

namespace gbesim {

// name -> JSON text, sorted by name.
const std::vector<std::pair<std::string, std::string>>& builtin_nic_profiles();

}  // namespace gbesim
