#pragma once
// Analytic references written beside the simulated values (component "analysis" in
// scalars.csv), when the scenario is one the closed forms describe:
//  - exactly one enabled traffic source, saturated with a fixed frame size: the single-sender
//    timeline (analysis/half_duplex) in the sender's mode -- efficiency, frame rate, frames per
//    burst -- and the simulated efficiency minus it;
//  - two or more enabled saturated sources of one fixed size, all on one collision domain: the
//    Metcalfe-Boggs efficiency for that many stations and the domain's efficiency minus it.

#include <vector>

#include "models/common/stats.hpp"
#include "scenarios/scenario_config.hpp"

namespace gbesim {

std::vector<Scalar> analytic_scalars(const ScenarioConfig& config,
                                     const std::vector<Scalar>& simulated);

// For each host with a NIC whose path carries one fixed frame size (a peer sending saturated
// fixed-size frames to the NIC's station: receive; the host's bulk sender: transmit), component
// "analysis.<host>": the bus clocks per frame by part (analysis/pci_cycles), the bus ceiling and
// the wire ceiling in DA..FCS bit/s, the predicted throughput (the smaller), whether the bus is
// the bound, the predicted bus utilisation, and the simulated throughput minus the prediction.
std::vector<Scalar> nic_analytic_scalars(const ScenarioConfig& config,
                                         const std::vector<Scalar>& simulated);

// Totals over every station (component "network"): DA..FCS bits and payload bits sent OK per
// second, and DA..FCS bits delivered to the applications per second (a station served by a NIC
// delivers through its host's driver).
std::vector<Scalar> network_totals(const std::vector<Scalar>& simulated);

// Every row the run derives rather than a component records (network, analysis.*, and the
// runner's topology.domain<i> rows), for `gbesim stats`.
struct DerivedStatistic {
  std::string component;  // a pattern: "analysis.<host>", "topology.domain<i>"
  std::string name;
  std::string unit;
  std::string description;
};
std::vector<DerivedStatistic> derived_statistics();

}  // namespace gbesim
