#include "models/topology/cabling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
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

constexpr std::size_t none = static_cast<std::size_t>(-1);
// Repeaters and converters per domain the analysis takes (it walks the inside from each).
constexpr std::size_t kMaxInner = 10'000;

// What a path's DTE-pair delay depends on at one end: a station's PHY type and its own share of
// the pair's delay, or a switch port (the speed's default PHY).
struct EndClass {
  bool dte = false;
  std::string phy;
  std::optional<double> delay_bt;
  bool operator<(const EndClass& o) const {
    return std::tie(dte, phy, delay_bt) < std::tie(o.dte, o.phy, o.delay_bt);
  }
};

struct PairDelay {
  double bt = 0;
  bool known = true;
  const DeviceDelay* row = nullptr;  // the table's row, when it gave the delay
};

// A repeater or media converter of the domain: the inside of its tree.
struct InnerNode {
  Vertex v = 0;
  double delay_bt = 0;
  bool known = true;
  bool repeater = false;
  int class_i = 0;
  int class_ii = 0;
  std::vector<std::pair<std::size_t, std::size_t>> next;  // (inner node, cable)
};

// An end station: a leaf of the domain's tree, on one cable to an inner node (or, in a domain
// without any, straight to the other station).
struct Leaf {
  Vertex v = 0;
  std::size_t cable = 0;
  std::size_t at = none;     // its inner node
  std::size_t group = none;  // its group (none when `at` is)
  std::size_t end_class = 0;
  double bt = 0;  // its cable's round-trip delay
  double m = 0;
};

// The stations on one inner node that are alike in all but their cable's length (end class,
// medium, station or switch port). A pair's figures grow with each end's cable, so the longest
// cable of a group stands for the whole group in every worst case.
struct Group {
  std::size_t at = 0;
  std::size_t end_class = 0;
  std::string medium;
  bool dte = false;
  double bt_per_m = 0;
  std::size_t top[2] = {none, none};  // the longest and second longest cable (leaf indices)
  // The group's own pair (its two longest): the path delay without the two station cables.
  bool self_set = false;
  bool self_known = true;
  double self_base_bt = 0;
  double self_base_m = 0;
};

// Sums along the path between two inner nodes, both included.
struct Span {
  double bt = 0;  // cables and device delays
  double m = 0;
  std::size_t segments = 0;
  int repeaters = 0;
  int class_i = 0;
  int class_ii = 0;
  bool known = true;
};

// How bad a pair is: an unknown path delay first (it cannot be shown to pass), then the larger
// PDV, then the longer cable.
struct Severity {
  bool known = true;
  double pdv = 0;
  double m = 0;
};
bool worse(const Severity& a, const Severity& b) {
  if (a.known != b.known) return !a.known;
  if (a.known && a.pdv != b.pdv) return a.pdv > b.pdv;
  if (a.m != b.m) return a.m > b.m;
  return a.pdv > b.pdv;
}

std::string repeater_rule_problem(std::int64_t rate, int repeaters, int class_i, int class_ii,
                                  std::size_t segments, double cable_m) {
  if (rate == 10 && (repeaters > 4 || segments > 5 || cable_m > 2500))
    return "5-4-3 rule (model 1): " + std::to_string(repeaters) + " repeaters, " +
           std::to_string(segments) + " segments, " + format_number(cable_m) +
           " m between two stations; at most 4, 5 and 2500 m";
  if (rate == 100 && (class_i > 1 || (class_i == 1 && class_ii > 0)))
    return "a Class I repeater must be the only repeater between two stations";
  if (rate == 100 && class_ii > 2)
    return std::to_string(class_ii) + " Class II repeaters between two stations; at most 2";
  if (rate == 1000 && repeaters > 1)
    return std::to_string(repeaters) +
           " repeaters between two stations; 1000 Mb/s allows one per domain";
  return "";
}

// The paths of one collision domain (a tree whose leaves are its end stations and whose inside is
// its repeaters and converters). Every pair's figures are sums along its path, so the worst pair,
// each station's worst partner, the repeater rules and the longest station cable follow from the
// paths between inner nodes (one walk of the inside from each) and, per group, the longest cable:
// O(stations + inner nodes^2 + groups^2) instead of a search per pair.
class DomainPaths {
 public:
  // `station_cable`: per cable, whether a station (dte) is at one end.
  DomainPaths(const CablingPlant& plant, const Graph& g, const std::vector<VertexInfo>& info,
              const std::vector<char>& station_cable, DomainReport& dom,
              std::set<std::string>& unconfirmed)
      : plant_(plant),
        g_(g),
        info_(info),
        station_cable_(station_cable),
        dom_(dom),
        unconfirmed_(unconfirmed) {}

  // `members`: the domain's vertices in order; `slot`: scratch, one entry per vertex, all none.
  // `bytes_left`: what listing pairs may still take (kMaxPairListingBytes over the analysis);
  // false, with nothing listed and dom.listed the estimate, when this domain's listing would take
  // more.
  bool analyse(const std::vector<Vertex>& members, std::vector<std::size_t>& slot, PairScope scope,
               double& bytes_left) {
    const bool listed = analyse_collected(members, slot, scope, bytes_left);
    for (Vertex v : members) slot[v] = none;
    return listed;
  }

 private:
  bool analyse_collected(const std::vector<Vertex>& members, std::vector<std::size_t>& slot,
                         PairScope scope, double& bytes_left) {
    if (!collect(members, slot)) return true;
    if (!inner_.empty()) {
      root_inside();
      index_ancestors();
      search();
    }
    // What the listing will take is known before it is built.
    dom_.every_pair = every_pair_listing();
    std::vector<std::pair<std::size_t, std::size_t>> rows;
    if (inner_.empty()) {
      if (leaves_.size() == 2) rows.emplace_back(0, 1);
    } else if (scope == PairScope::worst_per_station) {
      rows = worst_rows();
    }
    dom_.listed = scope == PairScope::every_pair ? dom_.every_pair : listing_of(rows);
    if (dom_.listed.bytes > bytes_left) return false;
    bytes_left -= dom_.listed.bytes;
    if (scope == PairScope::every_pair && !inner_.empty()) {
      for (std::size_t i = 0; i < leaves_.size(); ++i)
        for (std::size_t k = i + 1; k < leaves_.size(); ++k) rows.emplace_back(i, k);
    }
    report(rows);
    return true;
  }

  double cable_bt(std::size_t c) const {
    const Cable& cable = plant_.cables[c];
    return cable.length_m * plant_.table.medium(cable.medium, dom_.rate_mbps)->round_trip_bt_per_m;
  }
  void note_row(Confidence c, const std::string& what) {
    if (c == Confidence::unconfirmed) unconfirmed_.insert(what);
  }

  // Inner nodes with their delays, leaves and their groups. False when the domain is not a tree
  // with its stations as leaves (a station with several cables: reported as a problem already).
  bool collect(const std::vector<Vertex>& members, std::vector<std::size_t>& slot) {
    collect_inner(members, slot);
    if (!collect_leaves(members, slot)) return false;
    for (std::size_t x = 0; x < inner_.size(); ++x) {
      for (auto [e, end] = boost::out_edges(inner_[x].v, g_); e != end; ++e) {
        const std::size_t y = slot[boost::target(*e, g_)];
        if (y != none && !info_[boost::target(*e, g_)].end_station)
          inner_[x].next.emplace_back(y, g_[*e].cable);
      }
    }
    groups_at_.assign(inner_.size(), {});
    for (std::size_t k = 0; k < groups_.size(); ++k) groups_at_[groups_[k].at].push_back(k);
    return true;
  }

  // The repeaters and converters, each with its slot and its delay.
  void collect_inner(const std::vector<Vertex>& members, std::vector<std::size_t>& slot) {
    const std::int64_t rate = dom_.rate_mbps;
    for (Vertex v : members) {
      if (info_[v].end_station) continue;
      slot[v] = inner_.size();
      InnerNode n;
      n.v = v;
      const CablingNode& node = plant_.nodes[info_[v].node];
      n.repeater = node.kind == NodeKind::repeater;
      n.class_i = n.repeater && node.type == "class_i" ? 1 : 0;
      n.class_ii = n.repeater && (node.type == "class_ii" || node.type == "class_ii_t4") ? 1 : 0;
      if (node.delay_bt) {
        n.delay_bt = *node.delay_bt;
      } else if (node.kind == NodeKind::converter) {
        n.known = false;
      } else if (const DeviceDelay* row = plant_.table.device(repeater_key(node.type), rate)) {
        note_row(row->confidence, node.type + " repeater delay");
        n.delay_bt = row->round_trip_bt;
      } else {
        n.known = false;
      }
      inner_.push_back(std::move(n));
    }
  }

  // The end stations, each on its one cable, with its end class and group.
  bool collect_leaves(const std::vector<Vertex>& members, const std::vector<std::size_t>& slot) {
    std::map<EndClass, std::size_t> classes;
    GroupIndex group_of;
    for (Vertex v : members) {
      if (!info_[v].end_station) continue;
      const auto degree = boost::out_degree(v, g_);
      if (degree == 0) continue;  // alone: it reaches no one
      if (degree > 1) {
        dom_.notes.push_back("paths not analysed: \"" + info_[v].label + "\" has " +
                             std::to_string(degree) + " cables");
        return false;
      }
      const Edge e = *boost::out_edges(v, g_).first;
      const Vertex other = boost::target(e, g_);
      const CablingNode& node = plant_.nodes[info_[v].node];
      Leaf leaf;
      leaf.v = v;
      leaf.cable = g_[e].cable;
      leaf.at = slot[other];
      leaf.bt = cable_bt(leaf.cable);
      leaf.m = plant_.cables[leaf.cable].length_m;
      EndClass ec;
      ec.dte = node.kind == NodeKind::dte;
      ec.phy = ec.dte && !node.type.empty() ? node.type : default_dte_phy(dom_.rate_mbps);
      if (ec.dte) ec.delay_bt = node.delay_bt;
      const auto [it, added] = classes.emplace(ec, end_classes_.size());
      if (added) end_classes_.push_back(ec);
      leaf.end_class = it->second;
      if (leaf.at != none) join_group(leaf, ec.dte, group_of);
      leaves_.push_back(leaf);
    }
    return true;
  }

  // Groups by (inner node, end class, medium, station or switch port).
  using GroupIndex = std::map<std::tuple<std::size_t, std::size_t, std::string, bool>, std::size_t>;

  // Puts a leaf (the next in leaves_) in its group, a new one when it is the first alike, and
  // keeps the group's two longest cables.
  void join_group(Leaf& leaf, bool dte, GroupIndex& group_of) {
    const std::string& medium = plant_.cables[leaf.cable].medium;
    const auto key = std::make_tuple(leaf.at, leaf.end_class, medium, dte);
    const auto [git, new_group] = group_of.emplace(key, groups_.size());
    if (new_group) {
      Group gr;
      gr.at = leaf.at;
      gr.end_class = leaf.end_class;
      gr.medium = medium;
      gr.dte = dte;
      gr.bt_per_m = plant_.table.medium(medium, dom_.rate_mbps)->round_trip_bt_per_m;
      groups_.push_back(std::move(gr));
    }
    leaf.group = git->second;
    Group& gr = groups_[leaf.group];
    const std::size_t index = leaves_.size();
    if (gr.top[0] == none || leaf.bt > leaves_[gr.top[0]].bt) {
      gr.top[1] = gr.top[0];
      gr.top[0] = index;
    } else if (gr.top[1] == none || leaf.bt > leaves_[gr.top[1]].bt) {
      gr.top[1] = index;
    }
  }

  const PairDelay& pair_delay(std::size_t a, std::size_t b) {
    const auto key = std::minmax(a, b);
    auto it = pair_delays_.find(key);
    if (it != pair_delays_.end()) return it->second;
    const EndClass& x = end_classes_[a];
    const EndClass& y = end_classes_[b];
    PairDelay p;
    if (x.dte && y.dte && x.delay_bt && y.delay_bt) {
      p.bt = *x.delay_bt + *y.delay_bt;
    } else if (const DeviceDelay* row =
                   plant_.table.device(dte_pair_key(x.phy, y.phy), dom_.rate_mbps)) {
      p.bt = row->round_trip_bt;
      p.row = row;
    } else {
      p.known = false;
    }
    return pair_delays_.emplace(key, p).first->second;
  }

  // Parents towards inner node 0, for the path between two inner nodes.
  void root_inside() {
    parent_.assign(inner_.size(), none);
    parent_cable_.assign(inner_.size(), none);
    depth_.assign(inner_.size(), 0);
    std::vector<std::size_t> queue{0};
    std::vector<char> seen(inner_.size(), 0);
    seen[0] = 1;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::size_t n = queue[q];
      for (const auto& [next, cable] : inner_[n].next) {
        if (seen[next]) continue;
        seen[next] = 1;
        parent_[next] = n;
        parent_cable_[next] = cable;
        depth_[next] = depth_[n] + 1;
        queue.push_back(next);
      }
    }
    order_ = std::move(queue);
  }

  // The inner nodes and cables from x to y, both nodes included.
  void inside_path(std::size_t x, std::size_t y, std::vector<std::size_t>& nodes,
                   std::vector<std::size_t>& cables) const {
    std::vector<std::size_t> up_nodes;
    std::vector<std::size_t> up_cables;
    std::vector<std::size_t> down_nodes;
    std::vector<std::size_t> down_cables;
    while (depth_[x] > depth_[y]) {
      up_nodes.push_back(x);
      up_cables.push_back(parent_cable_[x]);
      x = parent_[x];
    }
    while (depth_[y] > depth_[x]) {
      down_nodes.push_back(y);
      down_cables.push_back(parent_cable_[y]);
      y = parent_[y];
    }
    while (x != y) {
      up_nodes.push_back(x);
      up_cables.push_back(parent_cable_[x]);
      x = parent_[x];
      down_nodes.push_back(y);
      down_cables.push_back(parent_cable_[y]);
      y = parent_[y];
    }
    nodes.insert(nodes.end(), up_nodes.begin(), up_nodes.end());
    nodes.push_back(x);
    nodes.insert(nodes.end(), down_nodes.rbegin(), down_nodes.rend());
    cables.insert(cables.end(), up_cables.begin(), up_cables.end());
    cables.insert(cables.end(), down_cables.rbegin(), down_cables.rend());
  }

  // Ancestors of every inner node by powers of two (up_[k][x]: 2^k levels up, the root above
  // itself), and the text of the names from the root down to each, for the sizes of paths.
  void index_ancestors() {
    up_.assign(1, std::vector<std::size_t>(inner_.size()));
    text_from_root_.assign(inner_.size(), 0);
    std::size_t deepest = 0;
    for (const std::size_t n : order_) {
      const std::size_t p = parent_[n] == none ? n : parent_[n];
      up_[0][n] = p;
      text_from_root_[n] = (p == n ? 0 : text_from_root_[p]) + name_bytes(inner_[n].v);
      deepest = std::max(deepest, depth_[n]);
    }
    while ((std::size_t{1} << up_.size()) <= deepest) {
      const std::vector<std::size_t>& half = up_.back();
      std::vector<std::size_t> next(inner_.size());
      for (std::size_t n = 0; n < inner_.size(); ++n) next[n] = half[half[n]];
      up_.push_back(std::move(next));
    }
  }

  // The inner node where the paths from x and y to the root meet.
  std::size_t meet(std::size_t x, std::size_t y) const {
    if (depth_[x] < depth_[y]) std::swap(x, y);
    for (std::size_t k = up_.size(); k-- > 0;)
      if (depth_[x] - depth_[y] >= (std::size_t{1} << k)) x = up_[k][x];
    if (x == y) return x;
    for (std::size_t k = up_.size(); k-- > 0;) {
      if (up_[k][x] != up_[k][y]) {
        x = up_[k][x];
        y = up_[k][y];
      }
    }
    return up_[0][x];
  }

  // A name in a listed path: its text and " > " in the CSV.
  double name_bytes(Vertex v) const { return static_cast<double>(info_[v].label.size()) + 3; }

  // A listing's size from its rows, its path names and their text: per pair its PathReport, its
  // place in the report's sorted order and its CSV row without the path; per name a std::string,
  // a cable index and what their vectors hold spare; the names' text three times (in memory, in
  // the CSV and in that text's spare room as it grows). Measured peaks of `gbesim topology
  // --every-pair` are within 20% of it (1,124,250 pairs of 5 names: 773 MB, estimate 930; 179,700
  // pairs of 53 names: 743 MB, estimate 730).
  static PairListing listing(double pairs, double path_nodes, double text) {
    constexpr double kPairBytes = sizeof(PathReport) + 300;
    constexpr double kNameBytes = sizeof(std::string) + sizeof(std::size_t) + 8;
    return {pairs, path_nodes, pairs * kPairBytes + path_nodes * kNameBytes + 3 * text};
  }

  PairListing listing_of(const std::vector<std::pair<std::size_t, std::size_t>>& rows) const {
    double nodes = 0;
    double text = 0;
    for (const auto& [i, k] : rows) {
      const Leaf& a = leaves_[i];
      const Leaf& b = leaves_[k];
      nodes += 2;
      text += name_bytes(a.v) + name_bytes(b.v);
      if (a.at == none) continue;
      const std::size_t m = meet(a.at, b.at);
      nodes += static_cast<double>(depth_[a.at] + depth_[b.at] - 2 * depth_[m] + 1);
      text += text_from_root_[a.at] + text_from_root_[b.at] - 2 * text_from_root_[m] +
              name_bytes(inner_[m].v);
    }
    return listing(static_cast<double>(rows.size()), nodes, text);
  }

  // Every pair's listing, in time linear in the domain: a pair's path crosses inner node x unless
  // both stations lie in one part of the tree without x (a subtree below it, or the rest above);
  // a station is an end of every pair it is in.
  PairListing every_pair_listing() const {
    const double l = static_cast<double>(leaves_.size());
    const double pairs = l * (l - 1) / 2;
    auto pairs_of = [](double n) { return n * (n - 1) / 2; };
    double nodes = 2 * pairs;
    double text = 0;
    for (const Leaf& leaf : leaves_) text += name_bytes(leaf.v) * (l - 1);
    if (inner_.empty()) return listing(pairs, nodes, text);
    std::vector<double> below(inner_.size(), 0);  // stations in the subtree of each inner node
    for (const Leaf& leaf : leaves_) below[leaf.at] += 1;
    std::vector<double> apart(inner_.size(), 0);  // pairs within one subtree below each node
    for (std::size_t q = order_.size(); q-- > 0;) {
      const std::size_t n = order_[q];
      if (parent_[n] == none) continue;
      below[parent_[n]] += below[n];
      apart[parent_[n]] += pairs_of(below[n]);
    }
    for (std::size_t n = 0; n < inner_.size(); ++n) {
      const double through = pairs - apart[n] - pairs_of(l - below[n]);
      nodes += through;
      text += through * name_bytes(inner_[n].v);
    }
    return listing(pairs, nodes, text);
  }

  // Walks the inside once from every inner node and weighs every pair of groups by the pair of
  // their longest cables: each group's worst partner outside it, the repeater rules on every path
  // and the longest station cable the path delays allow.
  void search() {
    const std::size_t count = inner_.size();
    std::vector<Span> span(count);
    std::vector<std::size_t> from(count);
    std::vector<std::size_t> stack;
    partner_.assign(groups_.size(), Offer{});
    const double margin = plant_.margin_bt;
    for (std::size_t x = 0; x < count; ++x) {
      if (groups_at_[x].empty()) continue;
      auto node_span = [this](const Span& before, std::size_t n) {
        Span s = before;
        s.bt += inner_[n].delay_bt;
        s.known = s.known && inner_[n].known;
        s.repeaters += inner_[n].repeater ? 1 : 0;
        s.class_i += inner_[n].class_i;
        s.class_ii += inner_[n].class_ii;
        return s;
      };
      span[x] = node_span(Span{}, x);
      from[x] = none;
      stack.assign(1, x);
      while (!stack.empty()) {
        const std::size_t n = stack.back();
        stack.pop_back();
        for (const auto& [next, cable] : inner_[n].next) {
          if (next == from[n]) continue;
          from[next] = n;
          Span s = span[n];
          s.bt += cable_bt(cable);
          s.m += plant_.cables[cable].length_m;
          ++s.segments;
          span[next] = node_span(s, next);
          stack.push_back(next);
        }
      }
      for (std::size_t y = x; y < count; ++y) {
        for (const std::size_t g : groups_at_[x]) {
          for (const std::size_t h : groups_at_[y]) {
            if (x == y && h < g) continue;
            weigh(g, h, span[y], margin);
          }
        }
      }
    }
  }

  struct Offer {
    Severity s;
    std::size_t leaf = none;
  };
  static void offer(Offer& o, const Severity& s, std::size_t leaf) {
    if (o.leaf == none || worse(s, o.s)) {
      o.s = s;
      o.leaf = leaf;
    }
  }

  void weigh(std::size_t g, std::size_t h, const Span& span, double margin) {
    Group& a = groups_[g];
    const Group& b = groups_[h];
    const std::size_t u = a.top[0];
    const std::size_t v = g == h ? a.top[1] : b.top[0];
    if (v == none) return;
    const PairDelay& pd = pair_delay(a.end_class, b.end_class);
    if (pd.row != nullptr)
      note_row(pd.row->confidence, "DTE pair delay at " + std::to_string(dom_.rate_mbps) + " Mb/s");
    const bool known = span.known && pd.known;
    const double base_bt = span.bt + pd.bt + margin;
    const Leaf& lu = leaves_[u];
    const Leaf& lv = leaves_[v];
    const double cable_m = span.m + lu.m + lv.m;
    if (g == h) {
      a.self_set = true;
      a.self_known = known;
      a.self_base_bt = base_bt;
      a.self_base_m = span.m;
    } else {
      offer(partner_[g], Severity{known, base_bt + lv.bt, span.m + lv.m}, v);
      offer(partner_[h], Severity{known, base_bt + lu.bt, span.m + lu.m}, u);
    }
    any_unknown_ = any_unknown_ || !known;
    if (known && (worst_known_.first == none || base_bt + lu.bt + lv.bt > worst_known_pdv_)) {
      worst_known_pdv_ = base_bt + lu.bt + lv.bt;
      worst_known_ = {std::min(u, v), std::max(u, v)};
    }
    const std::string rule = repeater_rule_problem(dom_.rate_mbps, span.repeaters, span.class_i,
                                                   span.class_ii, span.segments + 2, cable_m);
    if (!rule.empty()) {
      ++rule_breaches_;
      if (rule_examples_.size() < max_rule_examples)
        rule_examples_.emplace_back(std::min(u, v), std::max(u, v));
    }
    // The longest station cable: the pair's PDV with its station cables at L is linear in L.
    const double per_m = (a.dte ? a.bt_per_m : 0) + (b.dte ? b.bt_per_m : 0);
    if (per_m <= 0) return;
    if (!known) {
      station_bound_unknown_ = true;
      return;
    }
    const double rest = base_bt + (a.dte ? 0 : lu.bt) + (b.dte ? 0 : lv.bt);
    const double l = (dom_.budget_bt - rest) / per_m;
    if (bound_pair_.first == none || l < bound_) {
      bound_ = l;
      bound_pair_ = {std::min(u, v), std::max(u, v)};
    }
  }

  // Each station's worst partner, each pair once (the earlier station first), the worst pair
  // whose delay is known, then one example of every repeater rule broken.
  std::vector<std::pair<std::size_t, std::size_t>> worst_rows() const {
    std::vector<std::pair<std::size_t, std::size_t>> rows;
    std::set<std::pair<std::size_t, std::size_t>> listed;
    auto add = [&](std::size_t a, std::size_t b) {
      const auto row = std::minmax(a, b);
      if (listed.insert(row).second) rows.push_back(row);
    };
    for (std::size_t i = 0; i < leaves_.size(); ++i) {
      if (leaves_[i].group == none) continue;
      const Group& gr = groups_[leaves_[i].group];
      Offer best = partner_[leaves_[i].group];
      if (gr.self_set) {
        const std::size_t t = gr.top[0] == i ? gr.top[1] : gr.top[0];
        offer(
            best,
            Severity{gr.self_known, gr.self_base_bt + leaves_[t].bt, gr.self_base_m + leaves_[t].m},
            t);
      }
      if (best.leaf != none) add(i, best.leaf);
    }
    // Where some paths' delays are not known, the worst known one still decides the verdict.
    if (any_unknown_ && worst_known_.first != none) add(worst_known_.first, worst_known_.second);
    for (const auto& [a, b] : rule_examples_) add(a, b);
    return rows;
  }

  PathReport path_report(std::size_t i, std::size_t k) {
    const Leaf& a = leaves_[i];
    const Leaf& b = leaves_[k];
    std::vector<std::size_t> inside;
    std::vector<std::size_t> cables{a.cable};
    if (a.at != none) inside_path(a.at, b.at, inside, cables);
    if (a.at != none) cables.push_back(b.cable);
    PathReport p;
    p.from = info_[a.v].label;
    p.to = info_[b.v].label;
    p.path.push_back(p.from);
    for (const std::size_t n : inside) p.path.push_back(info_[inner_[n].v].label);
    p.path.push_back(p.to);
    p.cables = cables;
    int class_i = 0;
    int class_ii = 0;
    for (const std::size_t c : cables) {
      p.cable_m += plant_.cables[c].length_m;
      p.cable_bt += cable_bt(c);
    }
    for (const std::size_t n : inside) {
      p.devices_bt += inner_[n].delay_bt;
      p.pdv_known = p.pdv_known && inner_[n].known;
      p.repeaters += inner_[n].repeater ? 1 : 0;
      class_i += inner_[n].class_i;
      class_ii += inner_[n].class_ii;
    }
    const PairDelay& pd = pair_delay(a.end_class, b.end_class);
    p.dte_pair_bt = pd.bt;
    p.pdv_known = p.pdv_known && pd.known;
    if (pd.row != nullptr)
      note_row(pd.row->confidence, "DTE pair delay at " + std::to_string(dom_.rate_mbps) + " Mb/s");
    p.margin_bt = plant_.margin_bt;
    p.pdv_bt = p.cable_bt + p.devices_bt + p.dte_pair_bt + p.margin_bt;
    p.rule_problem = repeater_rule_problem(dom_.rate_mbps, p.repeaters, class_i, class_ii,
                                           p.cables.size(), p.cable_m);
    p.pass = p.rule_problem.empty() && (!p.pdv_known || p.pdv_bt <= dom_.budget_bt);
    return p;
  }

  // The longest station cable one pair allows: (budget - the rest of its PDV) / (its station
  // cables' round-trip BT per metre); none when it has no station cable.
  std::optional<double> station_bound(const PathReport& p) const {
    double per_m = 0;
    double station_bt = 0;
    for (const std::size_t c : p.cables) {
      const Cable& cable = plant_.cables[c];
      if (!is_station_cable(c)) continue;
      const double bt_per_m =
          plant_.table.medium(cable.medium, dom_.rate_mbps)->round_trip_bt_per_m;
      per_m += bt_per_m;
      station_bt += cable.length_m * bt_per_m;
    }
    if (per_m <= 0) return std::nullopt;
    return (dom_.budget_bt - (p.pdv_bt - station_bt)) / per_m;
  }
  bool is_station_cable(std::size_t c) const { return station_cable_[c] != 0; }

  void report(const std::vector<std::pair<std::size_t, std::size_t>>& rows) {
    for (const auto& [i, k] : rows) {
      dom_.pairs.push_back(path_report(i, k));
      if (!dom_.pairs.back().pass) dom_.pass = false;
    }
    for (std::size_t r = 0; r < dom_.pairs.size(); ++r) {
      const PathReport& p = dom_.pairs[r];
      if (!dom_.worst ||
          worse(Severity{p.pdv_known, p.pdv_bt, p.cable_m},
                Severity{dom_.pairs[*dom_.worst].pdv_known, dom_.pairs[*dom_.worst].pdv_bt,
                         dom_.pairs[*dom_.worst].cable_m}))
        dom_.worst = r;
    }
    // Rule breaches past the listed examples still fail the domain.
    if (rule_breaches_ > 0) dom_.pass = false;
    if (rule_breaches_ > rule_examples_.size())
      dom_.notes.push_back(std::to_string(rule_breaches_) +
                           " kinds of path break a repeater rule; the first " +
                           std::to_string(rule_examples_.size()) + " are listed");
    if (dom_.worst) {
      // The margin is spoken of in metres of the worst path's main medium.
      const PathReport& w = dom_.pairs[*dom_.worst];
      std::map<std::string, double> metres_by_medium;
      for (const std::size_t c : w.cables)
        metres_by_medium[plant_.cables[c].medium] += plant_.cables[c].length_m;
      double most = -1;
      for (const auto& [medium, metres] : metres_by_medium) {
        if (metres > most) {
          most = metres;
          dom_.margin_medium = medium;
        }
      }
    }
    // The longest station cable: the pair found by the search, its figure recomputed along its
    // path (as every reported figure is); a domain without inner nodes has its one pair.
    std::optional<double> pdv_limit;
    if (inner_.empty()) {
      if (dom_.pairs.size() == 1 && dom_.pairs[0].pdv_known)
        pdv_limit = station_bound(dom_.pairs[0]);
    } else if (!station_bound_unknown_ && bound_pair_.first != none) {
      pdv_limit = station_bound(path_report(bound_pair_.first, bound_pair_.second));
    }
    std::optional<double> segment_limit;
    for (const std::size_t c : dom_.cables) {
      if (!is_station_cable(c)) continue;
      const Cable& cable = plant_.cables[c];
      if (const SegmentRule* rule = segment_rule(dom_.rate_mbps, cable.medium, cable.pmd);
          rule != nullptr && (!segment_limit || rule->max_m < *segment_limit)) {
        segment_limit = rule->max_m;
        dom_.max_station_cable_limit =
            rule->phy + " segment (" + format_number(rule->max_m) + " m of " + cable.medium + ")";
      }
    }
    if (!pdv_limit) {
      dom_.max_station_cable_limit.clear();
      return;
    }
    dom_.max_station_cable_pdv_m = std::max(0.0, *pdv_limit);
    dom_.max_station_cable_segment_m = segment_limit;
    dom_.max_station_cable_m = *dom_.max_station_cable_pdv_m;
    if (segment_limit && *segment_limit < *dom_.max_station_cable_m)
      dom_.max_station_cable_m = *segment_limit;
    else
      dom_.max_station_cable_limit = "path delay";
  }

  static constexpr std::size_t max_rule_examples = 100;

  const CablingPlant& plant_;
  const Graph& g_;
  const std::vector<VertexInfo>& info_;
  const std::vector<char>& station_cable_;
  DomainReport& dom_;
  std::set<std::string>& unconfirmed_;
  std::vector<InnerNode> inner_;
  std::vector<Leaf> leaves_;
  std::vector<EndClass> end_classes_;
  std::vector<Group> groups_;
  std::vector<std::vector<std::size_t>> groups_at_;
  std::map<std::pair<std::size_t, std::size_t>, PairDelay> pair_delays_;
  std::vector<std::size_t> parent_;
  std::vector<std::size_t> parent_cable_;
  std::vector<std::size_t> depth_;
  std::vector<std::size_t> order_;  // inner nodes, each after its parent
  std::vector<std::vector<std::size_t>> up_;
  std::vector<double> text_from_root_;
  std::vector<Offer> partner_;
  std::vector<std::pair<std::size_t, std::size_t>> rule_examples_;
  std::size_t rule_breaches_ = 0;
  std::pair<std::size_t, std::size_t> worst_known_{none, none};
  double worst_known_pdv_ = 0;
  bool any_unknown_ = false;
  double bound_ = 0;
  std::pair<std::size_t, std::size_t> bound_pair_{none, none};
  bool station_bound_unknown_ = false;
};

// "2.4 GB", "310.0 MB".
std::string size_text(double bytes) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  if (bytes >= 1e9)
    s << bytes / 1e9 << " GB";
  else
    s << bytes / 1e6 << " MB";
  return s.str();
}

std::string count_text(double n) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(0);
  s << n;
  return s.str();
}

// Why a domain's pairs are not listed: the listing's estimate and the way round.
std::string listing_problem(std::size_t domain, const DomainReport& dom, PairScope scope) {
  const PairListing& l = dom.listed;
  const bool every = scope == PairScope::every_pair;
  return "collision domain " + std::to_string(domain) + ": listing " +
         (every ? "every pair of its stations" : "each station's worst pair") +
         " would take about " + size_text(l.bytes) + " (" + count_text(l.pairs) + " pairs, " +
         count_text(l.path_nodes) + " names along their paths); an analysis lists at most " +
         size_text(kMaxPairListingBytes) +
         (every ? " (each station's worst pair is listed without asking for every pair)"
                : " (paths this long cross more repeaters than any repeater rule allows: check "
                  "the plant in smaller parts)");
}

}  // namespace

std::optional<double> longest_legal_length(const CablingPlant& plant,
                                           const std::vector<std::size_t>& cables,
                                           std::size_t domain) {
  // Far past any cable a plant can have: the varied cables' delays dominate every path they
  // are on.
  constexpr double kFar = 1e7;
  constexpr int kMostSteps = 1000;  // each step leaves a path for good: a bound, never reached
  std::vector<char> varied(plant.cables.size(), 0);
  for (const std::size_t c : cables)
    if (c < plant.cables.size()) varied[c] = 1;
  CablingPlant at = plant;
  double length = kFar;
  for (int step = 0; step < kMostSteps; ++step) {
    for (std::size_t c = 0; c < at.cables.size(); ++c)
      if (varied[c]) at.cables[c].length_m = length;
    const TopologyReport report = analyse_topology(at);
    if (domain >= report.domains.size()) return std::nullopt;
    const DomainReport& dom = report.domains[domain];
    if (!dom.worst) return std::nullopt;
    const PathReport& worst = dom.pairs[*dom.worst];
    if (!worst.pdv_known) return std::nullopt;
    // A millionth of a bit time: the rounding of sums of delays, not a figure of the plant.
    constexpr double kToleranceBt = 1e-6;
    if (worst.pdv_bt <= dom.budget_bt + kToleranceBt)
      return step == 0 ? std::nullopt : std::optional(length);
    double per_m = 0;
    for (const std::size_t c : worst.cables)
      if (varied[c])
        per_m += at.table.medium(at.cables[c].medium, dom.rate_mbps)->round_trip_bt_per_m;
    if (per_m <= 0) return 0.0;  // over the budget whatever the varied cables' length
    const double fixed = worst.pdv_bt - per_m * length;
    const double crossing = (dom.budget_bt - fixed) / per_m;
    if (crossing <= 0) return 0.0;
    if (step > 0 && std::abs(crossing - length) <= 1e-9 * length) return crossing;
    length = crossing;
  }
  return length;
}

namespace {

// One analysis of a plant: the plant as a graph (a vertex per node, a switch split into one per
// cable), checked for repeater loops, then each collision domain (a connected part of the graph)
// checked and its paths analysed, in the plant's order. Each step adds what it finds wrong to
// the report's problems.
class TopologyAnalysis {
 public:
  TopologyAnalysis(const CablingPlant& plant, PairScope scope) : plant_(plant), scope_(scope) {}

  TopologyReport run() {
    index_nodes();
    collect_cables();
    check_node_cables();
    build_graph();
    if (find_repeater_loop()) return std::move(report_);
    analyse_domains();
    return std::move(report_);
  }

 private:
  void problem(std::string where, std::string message) {
    report_.problems.push_back({std::move(where), std::move(message)});
  }

  void index_nodes() {
    index_.reserve(plant_.nodes.size());
    for (std::size_t i = 0; i < plant_.nodes.size(); ++i) index_.emplace(plant_.nodes[i].name, i);
  }

  // A cable's two nodes, or nullopt when either name is unknown (the loader reports those).
  std::optional<std::pair<std::size_t, std::size_t>> ends_of(const Cable& cable) const {
    const auto a = index_.find(cable.a);
    const auto b = index_.find(cable.b);
    if (a == index_.end() || b == index_.end()) return std::nullopt;
    return std::pair(a->second, b->second);
  }

  // Cables per node, and which cables have a station at one end.
  void collect_cables() {
    cables_of_.assign(plant_.nodes.size(), {});
    station_cable_.assign(plant_.cables.size(), 0);
    for (std::size_t c = 0; c < plant_.cables.size(); ++c) {
      const auto ends = ends_of(plant_.cables[c]);
      if (!ends) continue;
      const auto [a, b] = *ends;
      cables_of_[a].push_back(c);
      if (b != a) cables_of_[b].push_back(c);
      station_cable_[c] =
          plant_.nodes[a].kind == NodeKind::dte || plant_.nodes[b].kind == NodeKind::dte;
    }
  }

  void check_node_cables() {
    for (std::size_t i = 0; i < plant_.nodes.size(); ++i) {
      const CablingNode& n = plant_.nodes[i];
      const std::string where = "nodes." + n.name;
      if (cables_of_[i].empty()) problem(where, "\"" + n.name + "\" has no cables");
      if (n.kind == NodeKind::dte && cables_of_[i].size() > 1)
        problem(where, "a station has one port, but \"" + n.name + "\" has " +
                           std::to_string(cables_of_[i].size()) +
                           " cables; connect it to a repeater or a switch");
    }
  }

  // Vertices: every node but switches, then one port per switch cable; an edge per cable.
  void build_graph() {
    std::vector<Vertex> vertex_of(plant_.nodes.size(), 0);
    std::map<std::pair<std::size_t, std::size_t>, Vertex> port_of;  // (switch, cable) -> vertex
    for (std::size_t i = 0; i < plant_.nodes.size(); ++i) {
      const CablingNode& n = plant_.nodes[i];
      if (n.kind == NodeKind::bridge) {
        for (std::size_t c : cables_of_[i]) {
          const Cable& cable = plant_.cables[c];
          const std::string other = cable.a == n.name ? cable.b : cable.a;
          port_of[{i, c}] = boost::add_vertex(g_);
          info_.push_back({i, n.name + ":" + other, true});
        }
      } else {
        vertex_of[i] = boost::add_vertex(g_);
        info_.push_back({i, n.name, n.kind == NodeKind::dte});
      }
    }
    auto vertex_for = [&](std::size_t node, std::size_t cable) {
      return plant_.nodes[node].kind == NodeKind::bridge ? port_of.at({node, cable})
                                                         : vertex_of[node];
    };
    for (std::size_t c = 0; c < plant_.cables.size(); ++c) {
      const Cable& cable = plant_.cables[c];
      const auto ends = ends_of(cable);
      if (!ends) continue;
      const auto [a, b] = *ends;
      if (plant_.nodes[a].kind == NodeKind::bridge && plant_.nodes[b].kind == NodeKind::bridge &&
          a == b) {
        problem("cables[" + std::to_string(c) + "]", "a cable from \"" + cable.a + "\" to itself");
        continue;
      }
      boost::add_edge(vertex_for(a, c), vertex_for(b, c), EdgeProperties{c}, g_);
    }
  }

  // Repeater loops: any cycle inside a collision domain (through switches there is none: ports
  // are separate vertices, and loops between switches are the spanning tree's business). True,
  // with the first loop a problem, when there is one.
  bool find_repeater_loop() {
    std::vector<Vertex> parent(boost::num_vertices(g_));
    for (Vertex v = 0; v < parent.size(); ++v) parent[v] = v;
    std::vector<Vertex> loop;
    std::vector<boost::default_color_type> colors(boost::num_vertices(g_));
    LoopFinder finder;
    finder.parent = &parent;
    finder.loop = &loop;
    boost::undirected_dfs(g_, boost::visitor(finder)
                                  .vertex_color_map(boost::make_iterator_property_map(
                                      colors.begin(), boost::get(boost::vertex_index, g_)))
                                  .edge_color_map(boost::get(&EdgeProperties::color, g_)));
    if (loop.empty()) return false;
    std::string names;
    for (std::size_t k = 0; k < loop.size(); ++k)
      names += (k > 0 ? " - " : "") + info_[loop[k]].label;
    problem("nodes." + plant_.nodes[info_[loop.front()].node].name,
            "loop in a collision domain: " + names +
                " (a repeated domain must be a tree; break the loop or put a switch in it)");
    return true;
  }

  // Collision domains, each with its vertices and cables (found once, in order).
  void analyse_domains() {
    std::vector<int> component(boost::num_vertices(g_));
    const int domains = boost::connected_components(
        g_,
        boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g_)));
    std::vector<std::vector<Vertex>> members(static_cast<std::size_t>(domains));
    for (Vertex v = 0; v < boost::num_vertices(g_); ++v) members[component[v]].push_back(v);
    std::vector<std::vector<std::size_t>> domain_cables(static_cast<std::size_t>(domains));
    for (auto [e, end] = boost::edges(g_); e != end; ++e)
      domain_cables[component[boost::source(*e, g_)]].push_back(g_[*e].cable);
    slot_.assign(boost::num_vertices(g_), none);
    listing_bytes_left_ = kMaxPairListingBytes;
    for (int d = 0; d < domains; ++d) {
      std::sort(domain_cables[d].begin(), domain_cables[d].end());
      analyse_domain(members[d], domain_cables[d]);
    }
  }

  // One collision domain, added to the report unless a problem stops its analysis.
  void analyse_domain(const std::vector<Vertex>& members, const std::vector<std::size_t>& cables) {
    DomainReport dom;
    const int repeaters = list_members(members, dom);
    const Budget* budget = plant_.table.budget(dom.rate_mbps);
    if (budget == nullptr) {
      problem("", "no collision-domain budget for " + std::to_string(dom.rate_mbps) +
                      " Mb/s (half duplex exists at 10, 100 and 1000 Mb/s)");
      return;
    }
    dom.budget_bt = plant_.budget_bt.value_or(budget->budget_bt);
    std::set<std::string> unconfirmed;
    if (!check_domain_cables(cables, dom, unconfirmed)) return;
    for (const Vertex v : members) {
      const CablingNode& n = plant_.nodes[info_[v].node];
      if (n.kind == NodeKind::converter && !n.delay_bt)
        problem("nodes." + n.name, "no delay is known for media converter \"" + n.name +
                                       "\": give \"delay_bt\" (round trip, from its datasheet)");
    }
    if (dom.stations.size() < 2) {
      for (const auto& s : dom.stations)
        dom.notes.push_back("\"" + s + "\" reaches no other station");
    }
    if (const std::size_t inner = members.size() - dom.stations.size(); inner > kMaxInner) {
      problem("", "collision domain " + std::to_string(report_.domains.size()) + " has " +
                      std::to_string(inner) + " repeaters and converters; the analysis takes at " +
                      "most " + std::to_string(kMaxInner) + " per domain (its time grows with " +
                      "their square; real domains have a few)");
      return;
    }
    if (!DomainPaths(plant_, g_, info_, station_cable_, dom, unconfirmed)
             .analyse(members, slot_, scope_, listing_bytes_left_)) {
      problem("", listing_problem(report_.domains.size(), dom, scope_));
      return;
    }
    conclude_domain(repeaters, unconfirmed, dom);
    report_.domains.push_back(std::move(dom));
  }

  // The domain's stations and repeaters by name, and its speed: the one its repeaters and nodes
  // run at (a problem when they differ), else the plant's. Returns how many repeaters it has.
  int list_members(const std::vector<Vertex>& members, DomainReport& dom) {
    std::set<std::int64_t> rates;
    std::string rate_owner;
    int repeaters = 0;
    for (const Vertex v : members) {
      const CablingNode& n = plant_.nodes[info_[v].node];
      if (info_[v].end_station)
        dom.stations.push_back(info_[v].label);
      else
        dom.repeaters.push_back(info_[v].label);
      if (n.kind == NodeKind::repeater) ++repeaters;
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
    dom.rate_mbps = rates.empty() ? plant_.rate_mbps : *rates.begin();
    return repeaters;
  }

  // The domain's cables at its speed, each held to its segment limit. False when a cable's
  // medium or PMD is unusable there (a problem each).
  bool check_domain_cables(const std::vector<std::size_t>& cables, DomainReport& dom,
                           std::set<std::string>& unconfirmed) {
    bool cables_ok = true;
    for (const std::size_t c : cables) {
      dom.cables.push_back(c);
      const Cable& cable = plant_.cables[c];
      const MediumDelay* m = plant_.table.medium(cable.medium, dom.rate_mbps);
      if (m == nullptr) {
        problem("cables[" + std::to_string(c) + "].medium",
                "no delay for medium \"" + cable.medium + "\" at " + std::to_string(dom.rate_mbps) +
                    " Mb/s in the table; add it under \"media\"");
        cables_ok = false;
        continue;
      }
      if (m->confidence == Confidence::unconfirmed)
        unconfirmed.insert(cable.medium + " at " + std::to_string(dom.rate_mbps) + " Mb/s");
      if (const std::string p = pmd_problem(dom.rate_mbps, cable.medium, cable.pmd); !p.empty()) {
        problem("cables[" + std::to_string(c) + "].pmd", p);
        cables_ok = false;
        continue;
      }
      if (const std::string p =
              segment_problem(dom.rate_mbps, cable.medium, cable.length_m, cable.pmd);
          !p.empty()) {
        dom.segment_violations.push_back(
            {"cables[" + std::to_string(c) + "]", cable.a + " - " + cable.b + ": " + p});
        dom.pass = false;
      }
    }
    return cables_ok;
  }

  // What follows from the analysed paths: the one-repeater rule at 1000 Mb/s, the margin in
  // metres, and notes on what the verdict rests on.
  void conclude_domain(int repeaters, const std::set<std::string>& unconfirmed,
                       DomainReport& dom) const {
    if (dom.rate_mbps == 1000 && repeaters > 1) {
      dom.pass = false;
      dom.notes.push_back(std::to_string(repeaters) +
                          " repeaters in one 1000 Mb/s collision domain; 802.3 allows one");
    }
    if (dom.worst) {
      const PathReport& w = dom.pairs[*dom.worst];
      dom.margin_bt = dom.budget_bt - w.pdv_bt;
      const MediumDelay* m = plant_.table.medium(dom.margin_medium, dom.rate_mbps);
      dom.margin_m =
          m != nullptr && m->round_trip_bt_per_m > 0 ? dom.margin_bt / m->round_trip_bt_per_m : 0;
      if (!w.pdv_known)
        dom.notes.push_back("the path delay value is not computed: a device delay at " +
                            std::to_string(dom.rate_mbps) +
                            " Mb/s is not in the table (give \"delay_bt\"); the verdict rests on "
                            "the repeater rules");
    }
    for (const auto& u : unconfirmed) dom.notes.push_back("uses an UNCONFIRMED table value: " + u);
  }

  const CablingPlant& plant_;
  const PairScope scope_;
  TopologyReport report_;
  std::unordered_map<std::string, std::size_t> index_;  // node by name
  std::vector<std::vector<std::size_t>> cables_of_;     // per node
  std::vector<char> station_cable_;                     // per cable: a station at one end
  Graph g_;
  std::vector<VertexInfo> info_;
  std::vector<std::size_t> slot_;  // DomainPaths' scratch, one per vertex
  double listing_bytes_left_ = 0;
};

}  // namespace

TopologyReport analyse_topology(const CablingPlant& plant, PairScope scope) {
  return TopologyAnalysis(plant, scope).run();
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
  // Each domain's nodes, in the plant's order.
  std::vector<std::vector<const CablingNode*>> nodes_of(report.domains.size());
  for (const auto& n : plant.nodes) {
    if (n.kind == NodeKind::bridge) continue;
    const auto it = domain_of_node.find(n.name);
    if (it != domain_of_node.end()) nodes_of[it->second].push_back(&n);
  }
  for (std::size_t d = 0; d < report.domains.size(); ++d) {
    const DomainReport& dom = report.domains[d];
    out << "  subgraph " << quoted("cluster_domain" + std::to_string(d)) << " {\n";
    std::ostringstream label;
    label << "collision domain " << d << ", " << dom.rate_mbps << " Mb/s";
    if (dom.worst)
      label << ", worst PDV " << dom.pairs[*dom.worst].pdv_bt << " of " << dom.budget_bt << " BT";
    label << (dom.pass ? ", PASS" : ", FAIL");
    out << "    label=" << quoted(label.str()) << "; style=dashed;\n";
    for (const CablingNode* n : nodes_of[d]) {
      std::string text = n->name;
      if (n->kind == NodeKind::repeater) text += "\\n" + n->type;
      out << "    " << quoted(n->name) << " [shape=" << shape(n->kind) << ", label=\"" << text
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
    if (!cable.pmd.empty()) label << " " << cable.pmd;
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
