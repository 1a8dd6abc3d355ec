#pragma once
// Hosts in the scenario schema: the PCI bus and bridge, generic DMA masters, the NIC (with its
// profile) and the driver's CPU, the raw sender, the application and its transport.

#include "scenarios/scenario_config.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {

const schema::MapOf<HostConfig>& host_map();

}  // namespace gbesim
