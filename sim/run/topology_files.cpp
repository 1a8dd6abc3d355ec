#include "sim/run/topology_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

namespace gbesim {
namespace {

std::string path_text(const std::vector<std::string>& path) {
  std::string s;
  for (std::size_t i = 0; i < path.size(); ++i) s += (i > 0 ? " > " : "") + path[i];
  return s;
}

// Names, the first 20 of a long list and how many more.
std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t shown = 20;
  if (names.size() <= shown + 4) return fmt::to_string(fmt::join(names, ", "));
  return fmt::format("{}, ... and {} more", fmt::join(names.begin(), names.begin() + shown, ", "),
                     names.size() - shown);
}

std::string verdict(bool pass) {
  return pass ? "PASS" : "FAIL";
}

}  // namespace

std::string topology_report_text(const LoadedTopology& topology, std::size_t max_pairs) {
  const CablingPlant& plant = topology.plant;
  const TopologyReport& report = topology.report;
  std::string out =
      fmt::format("topology {} ({}): {} collision domain{}, {} nodes, {} cables\n", plant.name,
                  topology.file, report.domains.size(), report.domains.size() == 1 ? "" : "s",
                  plant.nodes.size(), plant.cables.size());
  for (std::size_t d = 0; d < report.domains.size(); ++d) {
    const DomainReport& dom = report.domains[d];
    const Budget* budget = plant.table.budget(dom.rate_mbps);
    const std::string margin =
        plant.margin_bt > 0 || budget == nullptr || budget->max_margin_bt <= 0
            ? fmt::format("margin term {:g} BT", plant.margin_bt)
            : fmt::format("margin term 0 BT (none added; 802.3 allows up to {:g} BT: margin_bt)",
                          budget->max_margin_bt);
    out += fmt::format("\ndomain {}: {} Mb/s, budget {:g} BT, {}; stations: {}", d, dom.rate_mbps,
                       dom.budget_bt, margin, name_list(dom.stations));
    if (!dom.repeaters.empty()) out += fmt::format("; repeaters: {}", name_list(dom.repeaters));
    out += "\n";
    // The worst pairs first (largest PDV, then longest cable).
    std::vector<std::size_t> order(dom.pairs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&dom](std::size_t a, std::size_t b) {
      const PathReport& x = dom.pairs[a];
      const PathReport& y = dom.pairs[b];
      return x.pdv_bt != y.pdv_bt ? x.pdv_bt > y.pdv_bt : x.cable_m > y.cable_m;
    });
    if (!order.empty()) {
      out += fmt::format("  {:<24} {:>9} {:>9} {:>10} {:>9} {:>9} {:>4}  {:<7} {}\n", "pair",
                         "cable m", "cable BT", "repeat. BT", "DTEs BT", "PDV BT", "rep", "verdict",
                         "path");
    }
    for (std::size_t k = 0; k < order.size() && k < max_pairs; ++k) {
      const PathReport& p = dom.pairs[order[k]];
      out += fmt::format("  {:<24} {:>9.2f} {:>9.2f} {:>10.2f} {:>9.2f} {:>9} {:>4}  {:<7} {}\n",
                         p.from + " - " + p.to, p.cable_m, p.cable_bt, p.devices_bt, p.dte_pair_bt,
                         p.pdv_known ? fmt::format("{:.2f}", p.pdv_bt) : "n/a", p.repeaters,
                         verdict(p.pass), path_text(p.path));
      if (!p.rule_problem.empty()) out += "      repeater rule: " + p.rule_problem + "\n";
    }
    if (order.size() > max_pairs)
      out += fmt::format("  ... {} more pairs (all in topology_pairs.csv)\n",
                         order.size() - max_pairs);
    if (topology.scope == PairScope::worst_per_station && dom.stations.size() > 2)
      out += "  (each station's worst pair; every pair with --every-pair)\n";
    if (dom.worst) {
      const PathReport& w = dom.pairs[*dom.worst];
      if (w.pdv_known) {
        out += fmt::format(
            "  worst path: {} - {}, PDV {:.2f} of {:g} BT: margin {:.2f} BT = {:.2f} m of {} -> "
            "{}\n",
            w.from, w.to, w.pdv_bt, dom.budget_bt, dom.margin_bt, dom.margin_m, dom.margin_medium,
            verdict(dom.pass));
      } else {
        out += fmt::format("  worst path: {} - {}, {:.1f} m of cable -> {}\n", w.from, w.to,
                           w.cable_m, verdict(dom.pass));
      }
    } else {
      out += fmt::format("  no pair of stations -> {}\n", verdict(dom.pass));
    }
    if (dom.max_station_cable_m) {
      out += fmt::format("  longest station cable: {:.2f} m, limited by {}",
                         *dom.max_station_cable_m, dom.max_station_cable_limit);
      if (dom.max_station_cable_limit != "path delay")
        out += fmt::format(" (the path delay alone allows {:.2f} m)", *dom.max_station_cable_pdv_m);
      out += " -- every cable with a station at one end at that length, the others as they are\n";
    }
    for (const auto& v : dom.segment_violations)
      out += "  segment too long: " + v.where + " " + v.message + "\n";
    for (const auto& note : dom.notes) out += "  note: " + note + "\n";
  }
  out +=
      fmt::format("\nverdict: {}\n", report.pass() ? "PASS (every collision domain is within its "
                                                     "budget and every segment within its limit)"
                                                   : "FAIL");
  return out;
}

std::string topology_pairs_csv(const TopologyReport& report) {
  std::string out =
      "domain,rate_mbps,from,to,cable_m,cable_bt,repeaters_bt,dte_pair_bt,margin_bt,pdv_bt,"
      "budget_bt,repeaters,verdict,rule_problem,path\n";
  for (std::size_t d = 0; d < report.domains.size(); ++d) {
    const DomainReport& dom = report.domains[d];
    for (const auto& p : dom.pairs) {
      out += fmt::format("{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{},{:g},{},{},\"{}\",{}\n",
                         d, dom.rate_mbps, p.from, p.to, p.cable_m, p.cable_bt, p.devices_bt,
                         p.dte_pair_bt, p.margin_bt,
                         p.pdv_known ? fmt::format("{:.3f}", p.pdv_bt) : "", dom.budget_bt,
                         p.repeaters, verdict(p.pass), p.rule_problem, path_text(p.path));
    }
  }
  return out;
}

}  // namespace gbesim
