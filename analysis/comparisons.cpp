#include "analysis/comparisons.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "analysis/diameter.hpp"

namespace gbesim {

std::vector<Comparison> comparisons(const Results& r) {
  std::vector<Comparison> out;
  // Components named analysis.<host> (the NIC paths) present anywhere.
  std::set<std::string> hosts;
  for (const auto& key : r.components())
    if (key.rfind("analysis.", 0) == 0 && key.rfind("analysis.link", 0) != 0) hosts.insert(key);
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    auto pair = [&](const std::string& component, const std::string& analytic,
                    const std::string& difference, const std::string& quantity) {
      const auto a = r.value(p, component, analytic);
      const auto d = r.value(p, component, difference);
      if (!a || !d) return;
      Comparison c;
      c.point = p;
      c.quantity = quantity;
      c.unit = a->unit;
      c.analytic = a->mean;
      c.difference = d->mean;
      c.simulated = a->mean + d->mean;
      c.ci95 = d->ci95;
      out.push_back(c);
    };
    pair("analysis", "single_sender_efficiency", "efficiency_difference",
         "single-sender efficiency");
    pair("analysis", "metcalfe_boggs_efficiency", "metcalfe_boggs_difference",
         "Metcalfe-Boggs efficiency");
    for (const auto& h : hosts) {
      const std::string host = h.substr(std::string("analysis.").size());
      pair(h, "rx_predicted_throughput", "rx_throughput_difference",
           host + " receive throughput vs PCI ceiling");
      pair(h, "tx_predicted_throughput", "tx_throughput_difference",
           host + " transmit throughput vs PCI ceiling");
    }
  }
  // Diameter sweeps: per combination of the other axes, the first swept cable length at which
  // a frame is lost to a collision its sender did not handle (analysis/diameter) against the
  // longest station cable the path delay allows.
  for (const DiameterAnswer& a : diameter_answers(r)) {
    if (!a.legal_pdv_m || !a.first_failing_m) continue;
    Comparison c;
    c.point = a.point;
    c.quantity = "first cable length with collision losses vs PDV edge (m per station)";
    c.unit = "m";
    c.simulated = *a.first_failing_m;
    c.analytic = *a.legal_pdv_m;
    c.difference = c.simulated - c.analytic;
    out.push_back(c);
  }
  return out;
}

}  // namespace gbesim
