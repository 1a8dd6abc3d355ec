#pragma once
// A station's traffic sources in the scenario schema: the traffic table's rows, frame-size
// distributions, scripts, and which keys each pattern takes.

#include <cstddef>
#include <string>
#include <vector>

#include "models/host/traffic_params.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {

// Every source is consulted at each decision of its MAC; no installation has thousands.
inline constexpr std::size_t kMaxTrafficSources = 256;

const schema::ListOf<TrafficParams>& traffic_list();

// The traffic keys every pattern takes, and those of one pattern.
const std::vector<std::string>& common_traffic_keys();
const std::vector<std::string>& pattern_keys(TrafficPattern pattern);

}  // namespace gbesim
