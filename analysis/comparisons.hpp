#pragma once
// Simulated against analytic, per point of a results directory, from the analytic references
// the runner writes beside the simulated values (component "analysis..."):
//  - one saturated sender: its efficiency against the single-sender timeline
//    (analysis.single_sender_efficiency, analysis.efficiency_difference);
//  - several on one collision domain: the domain's efficiency against Metcalfe-Boggs
//    (analysis.metcalfe_boggs_efficiency, analysis.metcalfe_boggs_difference);
//  - a NIC path carrying one frame size: delivered (or sent) throughput against the per-frame
//    PCI cycle accounting's ceiling (analysis.<host> rx_/tx_predicted_throughput and
//    rx_/tx_throughput_difference).
//  - a diameter sweep (axis topology.cables[*].cable_m): per combination of the other axes, the
//    first swept length with frames lost to late or unnoticed collisions against the longest
//    station cable the path delay allows (analysis/diameter) -- the swept step bounds how close
//    they can be.
// The difference is simulated - analytic (as the runner computed it, where it did).

#include <string>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

struct Comparison {
  std::size_t point = 0;
  std::string quantity;
  std::string unit;
  double simulated = 0;
  double analytic = 0;
  double difference = 0;  // simulated - analytic
  double ci95 = 0;        // of the difference, over replications
};

std::vector<Comparison> comparisons(const Results& results);

}  // namespace gbesim
