#include "analysis/comparisons.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>

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
  // late collisions appear against the PDV edge (the topology report's longest station cable
  // the path delay allows).
  const int length_axis = r.axis("topology.cables[*].length_m");
  if (length_axis >= 0) {
    std::map<std::vector<std::string>, std::vector<std::size_t>> groups;
    for (std::size_t p = 0; p < r.points.size(); ++p) {
      auto key = r.points[p];
      key.erase(key.begin() + length_axis);
      groups[key].push_back(p);
    }
    for (const auto& [key, pts] : groups) {
      double first = NAN;
      std::size_t at = pts.front();
      for (std::size_t p : pts) {
        const double len = parse_number(r.points[p][static_cast<std::size_t>(length_axis)])
                               .value_or(std::numeric_limits<double>::quiet_NaN());
        if (std::isnan(len)) continue;
        const auto late = r.value(p, "domain0", "late_collisions_per_1000_frames");
        if (late && late->mean > 0 && !(len >= first)) {
          first = len;
          at = p;
        }
      }
      // The longest station cable the path delay allows (results before it existed: the
      // longest legal path, halved, which is the same for a symmetric star).
      const auto station = r.value(pts.front(), "topology.domain0", "max_station_cable_pdv");
      const auto path = r.value(pts.front(), "topology.domain0", "max_legal_path_cable");
      if ((!station && !path) || std::isnan(first)) continue;
      Comparison c;
      c.point = at;
      c.quantity = "first cable length with late collisions vs PDV edge (m per station)";
      c.unit = "m";
      c.simulated = first;
      c.analytic = station ? station->mean : path->mean / 2;
      c.difference = c.simulated - c.analytic;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace gbesim
