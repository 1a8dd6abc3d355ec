#include "models/topology/cabling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/undirected_dfs.hpp>

#include "models/topology/segment_rules.hpp"

namespace gbesim {

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::dte:
      return "dte";
    case NodeKind::repeater:
      return "repeater";
    case NodeKind::bridge:
      return "switch";
    case NodeKind::converter:
      return "converter";
  }
  return "?";
}

const CablingNode* CablingPlant::find(const std::string& name) const {
  for (const auto& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

bool TopologyReport::pass() const {
  if (!problems.empty()) return false;
  return std::all_of(domains.begin(), domains.end(), [](const DomainReport& d) { return d.pass; });
}

namespace {

struct EdgeProperties {
  std::size_t cable = 0;
  double weight = 0;  // for the shortest paths; the reported sums are recomputed along the path
  boost::default_color_type color = boost::white_color;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                    boost::no_property, EdgeProperties>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// A vertex is a node, or one port of a switch (a switch splits into one vertex per cable).
struct VertexInfo {
  std::size_t node;
  std::string label;  // the node's name, or "<switch>:<neighbour>" for a port
  bool end_station;   // DTE or switch port
};

std::int64_t repeater_rate(const std::string& type) {
  if (type == "class_i" || type == "class_ii" || type == "class_ii_t4") return 100;
  if (type == "gigabit") return 1000;
  if (type == "ten") return 10;
  return 0;
}

std::string format_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Records the first cycle the depth-first search meets: a back edge closes it.
struct LoopFinder : boost::default_dfs_visitor {
  std::vector<Vertex>* parent;
  std::vector<Vertex>* loop;
  void tree_edge(Edge e, const Graph& g) const {
    (*parent)[boost::target(e, g)] = boost::source(e, g);
  }
  void back_edge(Edge e, const Graph& g) const {
    if (!loop->empty()) return;
    const Vertex from = boost::source(e, g);
    const Vertex to = boost::target(e, g);
    // `to` is an ancestor of `from` (or `from` itself, for a cable from a node to itself).
    loop->push_back(to);
    std::vector<Vertex> down;
    for (Vertex v = from; v != to; v = (*parent)[v]) down.push_back(v);
    loop->insert(loop->end(), down.rbegin(), down.rend());
    loop->push_back(to);
  }
};

// DomainReport::max_station_cable_m. Every pair's PDV is linear in L: PDV(L) = PDV - (its station
// cables' delay) + L x (the sum of their round-trip BT per metre), so the largest L keeping each
// pair within the budget is the smallest of (budget - the rest) / (that sum) over the pairs.
void station_cable_limit(const CablingPlant& plant, DomainReport& dom) {
  // Which cables have a station at one end, found once.
  std::set<std::string> dtes;
  for (const auto& n : plant.nodes)
    if (n.kind == NodeKind::dte) dtes.insert(n.name);
  std::vector<char> station_cable(plant.cables.size(), 0);
  for (const std::size_t c : dom.cables)
    station_cable[c] = dtes.count(plant.cables[c].a) + dtes.count(plant.cables[c].b) > 0;
  auto is_station_cable = [&](std::size_t c) { return station_cable[c] != 0; };
  std::optional<double> pdv_limit;
  for (const PathReport& p : dom.pairs) {
    if (!p.pdv_known) return;
    double per_m = 0;
    double station_bt = 0;
    for (const std::size_t c : p.cables) {
      if (!is_station_cable(c)) continue;
      const Cable& cable = plant.cables[c];
      const double bt_per_m = plant.table.medium(cable.medium, dom.rate_mbps)->round_trip_bt_per_m;
      per_m += bt_per_m;
      station_bt += cable.length_m * bt_per_m;
    }
    if (per_m <= 0) continue;
    const double l = (dom.budget_bt - (p.pdv_bt - station_bt)) / per_m;
    if (!pdv_limit || l < *pdv_limit) pdv_limit = l;
  }
  std::optional<double> segment_limit;
  for (const std::size_t c : dom.cables) {
    if (!is_station_cable(c)) continue;
    const Cable& cable = plant.cables[c];
    if (const SegmentRule* rule = segment_rule(dom.rate_mbps, cable.medium);
        rule != nullptr && (!segment_limit || rule->max_m < *segment_limit)) {
      segment_limit = rule->max_m;
      dom.max_station_cable_limit =
          rule->phy + " segment (" + format_number(rule->max_m) + " m of " + cable.medium + ")";
    }
  }
  if (!pdv_limit) return;
  dom.max_station_cable_pdv_m = std::max(0.0, *pdv_limit);
  dom.max_station_cable_segment_m = segment_limit;
  dom.max_station_cable_m = *dom.max_station_cable_pdv_m;
  if (segment_limit && *segment_limit < *dom.max_station_cable_m)
    dom.max_station_cable_m = *segment_limit;
  else
    dom.max_station_cable_limit = "path delay";
}

}  // namespace

TopologyReport analyse_topology(const CablingPlant& plant) {
  TopologyReport report;
  auto problem = [&report](std::string where, std::string message) {
    report.problems.push_back({std::move(where), std::move(message)});
  };
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < plant.nodes.size(); ++i) index[plant.nodes[i].name] = i;

  // Cables per node.
  std::vector<std::vector<std::size_t>> cables_of(plant.nodes.size());
  for (std::size_t c = 0; c < plant.cables.size(); ++c) {
    const Cable& cable = plant.cables[c];
    const auto a = index.find(cable.a);
    const auto b = index.find(cable.b);
    if (a == index.end() || b == index.end()) continue;  // the loader reports unknown names
    cables_of[a->second].push_back(c);
    if (b->second != a->second) cables_of[b->second].push_back(c);
  }
  for (std::size_t i = 0; i < plant.nodes.size(); ++i) {
    const CablingNode& n = plant.nodes[i];
    const std::string where = "nodes." + n.name;
    if (cables_of[i].empty()) problem(where, "\"" + n.name + "\" has no cables");
    if (n.kind == NodeKind::dte && cables_of[i].size() > 1)
      problem(where, "a station has one port, but \"" + n.name + "\" has " +
                         std::to_string(cables_of[i].size()) +
                         " cables; connect it to a repeater or a switch");
  }

  // Vertices: every node but switches, then one port per switch cable.
  Graph g;
  std::vector<VertexInfo> info;
  std::vector<Vertex> vertex_of(plant.nodes.size(), 0);
  std::map<std::pair<std::size_t, std::size_t>, Vertex> port_of;  // (switch, cable) -> vertex
  for (std::size_t i = 0; i < plant.nodes.size(); ++i) {
    const CablingNode& n = plant.nodes[i];
    if (n.kind == NodeKind::bridge) {
      for (std::size_t c : cables_of[i]) {
        const Cable& cable = plant.cables[c];
        const std::string other = cable.a == n.name ? cable.b : cable.a;
        port_of[{i, c}] = boost::add_vertex(g);
        info.push_back({i, n.name + ":" + other, true});
      }
    } else {
      vertex_of[i] = boost::add_vertex(g);
      info.push_back({i, n.name, n.kind == NodeKind::dte});
    }
  }
  auto vertex_for = [&](std::size_t node, std::size_t cable) {
    return plant.nodes[node].kind == NodeKind::bridge ? port_of.at({node, cable}) : vertex_of[node];
  };
  for (std::size_t c = 0; c < plant.cables.size(); ++c) {
    const Cable& cable = plant.cables[c];
    const auto a = index.find(cable.a);
    const auto b = index.find(cable.b);
    if (a == index.end() || b == index.end()) continue;
    if (plant.nodes[a->second].kind == NodeKind::bridge &&
        plant.nodes[b->second].kind == NodeKind::bridge && a->second == b->second) {
      problem("cables[" + std::to_string(c) + "]", "a cable from \"" + cable.a + "\" to itself");
      continue;
    }
    boost::add_edge(vertex_for(a->second, c), vertex_for(b->second, c), EdgeProperties{c, 0}, g);
  }

  bool looped = false;
  // Repeater loops: any cycle inside a collision domain (through switches there is none: ports
  // are separate vertices, and loops between switches are the spanning tree's business).
  {
    std::vector<Vertex> parent(boost::num_vertices(g));
    for (Vertex v = 0; v < parent.size(); ++v) parent[v] = v;
    std::vector<Vertex> loop;
    std::vector<boost::default_color_type> colors(boost::num_vertices(g));
    LoopFinder finder;
    finder.parent = &parent;
    finder.loop = &loop;
    boost::undirected_dfs(g, boost::visitor(finder)
                                 .vertex_color_map(boost::make_iterator_property_map(
                                     colors.begin(), boost::get(boost::vertex_index, g)))
                                 .edge_color_map(boost::get(&EdgeProperties::color, g)));
    looped = !loop.empty();
    if (!loop.empty()) {
      std::string names;
      for (std::size_t k = 0; k < loop.size(); ++k)
        names += (k > 0 ? " - " : "") + info[loop[k]].label;
      problem("nodes." + plant.nodes[info[loop.front()].node].name,
              "loop in a collision domain: " + names +
                  " (a repeated domain must be a tree; break the loop or put a switch in it)");
    }
  }
  if (looped) return report;

  // Collision domains.
  std::vector<int> component(boost::num_vertices(g));
  const int domains = boost::connected_components(
      g, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g)));
  for (int d = 0; d < domains; ++d) {
    DomainReport dom;
    std::vector<Vertex> ends;
    std::set<std::int64_t> rates;
    std::string rate_owner;
    for (Vertex v = 0; v < boost::num_vertices(g); ++v) {
      if (component[v] != d) continue;
      const CablingNode& n = plant.nodes[info[v].node];
      if (info[v].end_station) {
        ends.push_back(v);
        dom.stations.push_back(info[v].label);
      } else {
        dom.repeaters.push_back(info[v].label);
      }
      std::int64_t r = n.kind == NodeKind::repeater ? repeater_rate(n.type) : 0;
      if (n.rate_mbps != 0 && n.kind != NodeKind::bridge) {
        if (r != 0 && r != n.rate_mbps)
          problem("nodes." + n.name, "a " + n.type + " repeater runs at " + std::to_string(r) +
                                         " Mb/s, not " + std::to_string(n.rate_mbps));
        r = n.rate_mbps;
      }
      if (r != 0 && !rates.count(r)) {
        if (!rates.empty())
          problem("nodes." + n.name,
                  "\"" + n.name + "\" runs at " + std::to_string(r) + " Mb/s but \"" + rate_owner +
                      "\", in the same collision domain, at " + std::to_string(*rates.begin()) +
                      " Mb/s: a repeater cannot join speeds; put a switch between them");
        rates.insert(r);
        rate_owner = n.name;
      }
    }
    dom.rate_mbps = rates.empty() ? plant.rate_mbps : *rates.begin();
    const Budget* budget = plant.table.budget(dom.rate_mbps);
    if (budget == nullptr) {
      problem("", "no collision-domain budget for " + std::to_string(dom.rate_mbps) +
                      " Mb/s (half duplex exists at 10, 100 and 1000 Mb/s)");
      continue;
    }
    dom.budget_bt = plant.budget_bt.value_or(budget->budget_bt);
    std::set<std::string> unconfirmed;
    auto note_row = [&unconfirmed](Confidence c, const std::string& what) {
      if (c == Confidence::unconfirmed) unconfirmed.insert(what);
    };

    // Delays of the domain's devices and cables at its speed.
    auto node_delay = [&](Vertex v, bool* known) -> double {
      const CablingNode& n = plant.nodes[info[v].node];
      if (n.kind != NodeKind::repeater && n.kind != NodeKind::converter) return 0;
      if (n.delay_bt) return *n.delay_bt;
      if (n.kind == NodeKind::converter) {
        *known = false;
        return 0;
      }
      const DeviceDelay* row = plant.table.device(repeater_key(n.type), dom.rate_mbps);
      if (row == nullptr) {
        *known = false;
        return 0;
      }
      note_row(row->confidence, n.type + " repeater delay");
      return row->round_trip_bt;
    };
    bool cables_ok = true;
    for (auto [e, end] = boost::edges(g); e != end; ++e) {
      if (component[boost::source(*e, g)] != d) continue;
      const std::size_t c = g[*e].cable;
      dom.cables.push_back(c);
      const Cable& cable = plant.cables[c];
      const MediumDelay* m = plant.table.medium(cable.medium, dom.rate_mbps);
      if (m == nullptr) {
        problem("cables[" + std::to_string(c) + "].medium",
                "no delay for medium \"" + cable.medium + "\" at " + std::to_string(dom.rate_mbps) +
                    " Mb/s in the table; add it under \"media\"");
        cables_ok = false;
        continue;
      }
      note_row(m->confidence, cable.medium + " at " + std::to_string(dom.rate_mbps) + " Mb/s");
      if (const std::string p = segment_problem(dom.rate_mbps, cable.medium, cable.length_m);
          !p.empty()) {
        dom.segment_violations.push_back(
            {"cables[" + std::to_string(c) + "]", cable.a + " - " + cable.b + ": " + p});
        dom.pass = false;
      }
      bool known = true;
      g[*e].weight = cable.length_m * m->round_trip_bt_per_m +
                     0.5 * (node_delay(boost::source(*e, g), &known) +
                            node_delay(boost::target(*e, g), &known));
    }
    if (!cables_ok) continue;

    for (std::size_t i = 0; i < plant.nodes.size(); ++i) {
      const CablingNode& n = plant.nodes[i];
      if (n.kind == NodeKind::converter && !n.delay_bt && vertex_of[i] < component.size() &&
          component[vertex_of[i]] == d)
        problem("nodes." + n.name, "no delay is known for media converter \"" + n.name +
                                       "\": give \"delay_bt\" (round trip, from its datasheet)");
    }
    if (ends.size() < 2) {
      for (const auto& s : dom.stations)
        dom.notes.push_back("\"" + s + "\" reaches no other station");
    }

    // Every pair: the path (Dijkstra from each end station), then its PDV.
    for (std::size_t i = 0; i < ends.size(); ++i) {
      std::vector<Vertex> pred(boost::num_vertices(g));
      std::vector<double> dist(boost::num_vertices(g));
      boost::dijkstra_shortest_paths(g, ends[i],
                                     boost::weight_map(boost::get(&EdgeProperties::weight, g))
                                         .predecessor_map(boost::make_iterator_property_map(
                                             pred.begin(), boost::get(boost::vertex_index, g)))
                                         .distance_map(boost::make_iterator_property_map(
                                             dist.begin(), boost::get(boost::vertex_index, g))));
      for (std::size_t k = i + 1; k < ends.size(); ++k) {
        PathReport p;
        p.from = info[ends[i]].label;
        p.to = info[ends[k]].label;
        std::vector<Vertex> walk;
        for (Vertex v = ends[k];; v = pred[v]) {
          walk.push_back(v);
          if (v == ends[i] || pred[v] == v) break;
        }
        std::reverse(walk.begin(), walk.end());
        std::map<std::string, double> metres_by_medium;
        for (std::size_t s = 0; s < walk.size(); ++s) {
          p.path.push_back(info[walk[s]].label);
          if (s > 0) {
            const Edge e = boost::edge(walk[s - 1], walk[s], g).first;
            const Cable& cable = plant.cables[g[e].cable];
            p.cables.push_back(g[e].cable);
            p.cable_m += cable.length_m;
            p.cable_bt += cable.length_m *
                          plant.table.medium(cable.medium, dom.rate_mbps)->round_trip_bt_per_m;
            metres_by_medium[cable.medium] += cable.length_m;
          }
          if (s > 0 && s + 1 < walk.size()) {
            p.devices_bt += node_delay(walk[s], &p.pdv_known);
            const CablingNode& n = plant.nodes[info[walk[s]].node];
            if (n.kind == NodeKind::repeater) ++p.repeaters;
          }
        }
        // DTE pair: both ends' own shares if given, else the table's pair for their PHY types.
        const CablingNode& a = plant.nodes[info[ends[i]].node];
        const CablingNode& b = plant.nodes[info[ends[k]].node];
        if (a.delay_bt && b.delay_bt && a.kind == NodeKind::dte && b.kind == NodeKind::dte) {
          p.dte_pair_bt = *a.delay_bt + *b.delay_bt;
        } else {
          auto phy = [&](const CablingNode& n) {
            return n.kind == NodeKind::dte && !n.type.empty() ? n.type
                                                              : default_dte_phy(dom.rate_mbps);
          };
          const DeviceDelay* row = plant.table.device(dte_pair_key(phy(a), phy(b)), dom.rate_mbps);
          if (row == nullptr) {
            p.pdv_known = false;
          } else {
            p.dte_pair_bt = row->round_trip_bt;
            note_row(row->confidence,
                     "DTE pair delay at " + std::to_string(dom.rate_mbps) + " Mb/s");
          }
        }
        p.margin_bt = plant.margin_bt;
        p.pdv_bt = p.cable_bt + p.devices_bt + p.dte_pair_bt + p.margin_bt;

        // Repeater rules on the path (and, at 1000 Mb/s, in the domain).
        int class_i = 0;
        int class_ii = 0;
        for (std::size_t s = 1; s + 1 < walk.size(); ++s) {
          const CablingNode& n = plant.nodes[info[walk[s]].node];
          if (n.kind != NodeKind::repeater) continue;
          if (n.type == "class_i") ++class_i;
          if (n.type == "class_ii" || n.type == "class_ii_t4") ++class_ii;
        }
        if (dom.rate_mbps == 10 && (p.repeaters > 4 || p.cables.size() > 5 || p.cable_m > 2500)) {
          p.rule_problem = "5-4-3 rule (model 1): " + std::to_string(p.repeaters) + " repeaters, " +
                           std::to_string(p.cables.size()) + " segments, " +
                           format_number(p.cable_m) +
                           " m between two stations; at most 4, 5 and 2500 m";
        } else if (dom.rate_mbps == 100 && (class_i > 1 || (class_i == 1 && class_ii > 0))) {
          p.rule_problem = "a Class I repeater must be the only repeater between two stations";
        } else if (dom.rate_mbps == 100 && class_ii > 2) {
          p.rule_problem =
              std::to_string(class_ii) + " Class II repeaters between two stations; at most 2";
        } else if (dom.rate_mbps == 1000 && p.repeaters > 1) {
          p.rule_problem = std::to_string(p.repeaters) +
                           " repeaters between two stations; 1000 Mb/s allows one per domain";
        }
        p.pass = p.rule_problem.empty() && (!p.pdv_known || p.pdv_bt <= dom.budget_bt);
        if (!p.pass) dom.pass = false;
        dom.pairs.push_back(std::move(p));

        // The margin is spoken of in metres of the worst path's main medium.
        PathReport& stored = dom.pairs.back();
        const bool worse = !dom.worst ||
                           (stored.pdv_known && stored.pdv_bt > dom.pairs[*dom.worst].pdv_bt) ||
                           (!stored.pdv_known && stored.cable_m > dom.pairs[*dom.worst].cable_m);
        if (worse) {
          dom.worst = dom.pairs.size() - 1;
          std::string main;
          double most = -1;
          for (const auto& [medium, metres] : metres_by_medium) {
            if (metres > most) {
              most = metres;
              main = medium;
            }
          }
          dom.margin_medium = main;
        }
      }
    }
    if (dom.rate_mbps == 1000) {
      int repeaters = 0;
      for (const auto& r : dom.repeaters) {
        const CablingNode* n = plant.find(r);
        if (n != nullptr && n->kind == NodeKind::repeater) ++repeaters;
      }
      if (repeaters > 1) {
        dom.pass = false;
        dom.notes.push_back(std::to_string(repeaters) +
                            " repeaters in one 1000 Mb/s collision domain; 802.3 allows one");
      }
    }
    if (dom.worst) {
      const PathReport& w = dom.pairs[*dom.worst];
      dom.margin_bt = dom.budget_bt - w.pdv_bt;
      const MediumDelay* m = plant.table.medium(dom.margin_medium, dom.rate_mbps);
      dom.margin_m =
          m != nullptr && m->round_trip_bt_per_m > 0 ? dom.margin_bt / m->round_trip_bt_per_m : 0;
      if (!w.pdv_known)
        dom.notes.push_back("the path delay value is not computed: a device delay at " +
                            std::to_string(dom.rate_mbps) +
                            " Mb/s is not in the table (give \"delay_bt\"); the verdict rests on "
                            "the repeater rules");
    }
    station_cable_limit(plant, dom);
    for (const auto& u : unconfirmed) dom.notes.push_back("uses an UNCONFIRMED table value: " + u);
    report.domains.push_back(std::move(dom));
  }
  return report;
}

std::string topology_dot(const CablingPlant& plant, const TopologyReport& report) {
  std::ostringstream out;
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  };
  std::set<std::size_t> worst_cables;
  std::map<std::size_t, bool> worst_pass;
  std::map<std::string, std::size_t> domain_of_node;
  for (std::size_t d = 0; d < report.domains.size(); ++d) {
    const DomainReport& dom = report.domains[d];
    for (const auto& s : dom.stations) domain_of_node[s] = d;
    for (const auto& r : dom.repeaters) domain_of_node[r] = d;
    if (!dom.worst) continue;
    for (std::size_t c : dom.pairs[*dom.worst].cables) {
      worst_cables.insert(c);
      worst_pass[c] = dom.pass;
    }
  }
  out << "graph " << quoted(plant.name) << " {\n";
  out << "  label=" << quoted(plant.name + (report.pass() ? ": PASS" : ": FAIL")) << ";\n";
  out << "  node [fontname=\"Helvetica\"]; edge [fontname=\"Helvetica\", fontsize=10];\n";
  auto shape = [](NodeKind k) {
    switch (k) {
      case NodeKind::dte:
        return "box";
      case NodeKind::repeater:
        return "ellipse";
      case NodeKind::bridge:
        return "box3d";
      case NodeKind::converter:
        return "hexagon";
    }
    return "box";
  };
  for (std::size_t d = 0; d < report.domains.size(); ++d) {
    const DomainReport& dom = report.domains[d];
    out << "  subgraph " << quoted("cluster_domain" + std::to_string(d)) << " {\n";
    std::ostringstream label;
    label << "collision domain " << d << ", " << dom.rate_mbps << " Mb/s";
    if (dom.worst)
      label << ", worst PDV " << dom.pairs[*dom.worst].pdv_bt << " of " << dom.budget_bt << " BT";
    label << (dom.pass ? ", PASS" : ", FAIL");
    out << "    label=" << quoted(label.str()) << "; style=dashed;\n";
    for (const auto& n : plant.nodes) {
      if (n.kind == NodeKind::bridge) continue;
      auto it = domain_of_node.find(n.name);
      if (it == domain_of_node.end() || it->second != d) continue;
      std::string text = n.name;
      if (n.kind == NodeKind::repeater) text += "\\n" + n.type;
      out << "    " << quoted(n.name) << " [shape=" << shape(n.kind) << ", label=\"" << text
          << "\"];\n";
    }
    out << "  }\n";
  }
  for (const auto& n : plant.nodes)
    if (n.kind == NodeKind::bridge)
      out << "  " << quoted(n.name) << " [shape=" << shape(n.kind) << "];\n";
  for (std::size_t c = 0; c < plant.cables.size(); ++c) {
    const Cable& cable = plant.cables[c];
    std::ostringstream label;
    label << cable.length_m << " m " << cable.medium;
    out << "  " << quoted(cable.a) << " -- " << quoted(cable.b)
        << " [label=" << quoted(label.str());
    if (worst_cables.count(c))
      out << ", penwidth=3, color=" << (worst_pass[c] ? "darkgreen" : "red");
    out << "];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace gbesim
