#pragma once
// NIC profiles: data files with a value and a source (or "assumption") for every field they set.
// The built-in ones (models/nic/profiles/*.json) are compiled in; a scenario may name one of
// them or give the path of its own file (ending in .json, relative to the scenario).

#include <string>
#include <utility>
#include <vector>

#include "scenarios/scenario_config.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

// name -> JSON text, sorted by name.
const std::vector<std::pair<std::string, std::string>>& builtin_nic_profiles();

// What a profile sets: the NIC's bus side, its bus master, and its driver's costs.
struct NicProfileTargets {
  NicParams& nic;
  PciMasterParams& master;
  DriverParams& driver;
};

// Applies a profile's values. `ref` is a built-in profile's name or a path ending in .json
// (relative to the scenario's directory, d.file()); errors in the profile name its file. A
// board's profile may name its chip's ("chip": "natsemi-dp83821"), applied first.
void apply_nic_profile(const Json& ref, const std::string& at, const NicProfileTargets& to,
                       Diagnostics& d);

}  // namespace gbesim
