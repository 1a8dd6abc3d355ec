#pragma once
// A cabling plant as a graph (Boost.Graph): stations (DTEs), repeaters, switches and media
// converters joined by cable segments. Switches bound collision domains: each switch port is an
// end station of the domain on its side. A domain is a tree (a loop is an error) whose leaves are
// its end stations; every path's IEEE path delay value
//   PDV = sum of cable delays + sum of repeater (and converter) delays + DTE-pair delay + margin
// is a sum along the tree, so the analysis finds the worst pair, each station's worst partner,
// the repeater-count rules on every path and the longest legal station cable from the paths
// between repeaters and, per repeater, the longest cable of each kind of station: linear in
// stations (and quadratic only in repeaters per domain), not a search per pair. It reports the
// margin against the budget (in bit times and in metres of cable) and structural problems
// (repeater loops, stations that reach no one, speeds that cannot meet) with the node or cable
// they concern. Pure C++: no SystemC.
// Every cable is also held to its PHY's segment limit (models/topology/segment_rules).
// Does not model: the path variability value (inter-frame gap shrinkage), Clause 13's
// 10 Mb/s segment delays (10 Mb/s is judged by the 5-4-3 rule unless delays are given), Clause 29
// model 1's tables, or loops between switches (the spanning tree's business).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/topology/delay_table.hpp"

namespace gbesim {

enum class NodeKind { dte, repeater, bridge, converter };  // bridge: a switch or bridge
const char* node_kind_name(NodeKind k);                    // "dte", "repeater", "switch", ...

struct CablingNode {
  std::string name;
  NodeKind kind = NodeKind::dte;
  // DTE: its PHY type for the DTE-pair delay ("tx" or "t4" at 100 Mb/s; empty = the speed's
  // default). Repeater: its class ("class_i", "class_ii", "class_ii_t4" at 100 Mb/s, "gigabit"
  // at 1000, "ten" at 10).
  std::string type;
  std::int64_t rate_mbps = 0;  // 0: from its repeaters, or the plant's default
  // Round-trip delay in bit times, replacing the table's: a repeater's or converter's own delay,
  // or a DTE's share of the DTE-pair delay (the pair is then the sum of both ends' shares).
  std::optional<double> delay_bt;
};

struct Cable {
  std::string a;
  std::string b;
  std::string medium = "cat5";
  double length_m = 0;
  std::string pmd;                  // at 1000 Mb/s, "1000base-lx" ...; "" for the medium's default
  bool length_by_old_name = false;  // given as "length_m", the old name of "cable_m"
};

struct CablingPlant {
  std::string name;
  std::int64_t rate_mbps = 100;     // domains without repeaters or explicit speeds
  double margin_bt = 0;             // added to every PDV (802.3 allows up to the budget's max)
  std::optional<double> budget_bt;  // replaces the speed's budget (a "what if")
  std::vector<CablingNode> nodes;
  std::vector<Cable> cables;
  DelayTable table = DelayTable::standard();

  const CablingNode* find(const std::string& name) const;
};

// A problem found in the plant; `where` is "nodes.<name>" or "cables[<i>]" (a JSON path of the
// topology block), or empty for the plant as a whole.
struct TopologyProblem {
  std::string where;
  std::string message;
};

struct PathReport {
  std::string from;
  std::string to;
  std::vector<std::string> path;    // node names, from .. to (switch ports as "<switch>")
  std::vector<std::size_t> cables;  // cable indices along the path
  double cable_m = 0;
  double cable_bt = 0;
  double devices_bt = 0;  // repeaters and converters
  double dte_pair_bt = 0;
  double margin_bt = 0;
  double pdv_bt = 0;
  bool pdv_known = true;  // false when a delay is not in the table (10 Mb/s devices)
  int repeaters = 0;
  std::string rule_problem;  // empty when the repeater rules hold
  bool pass = true;
};

// Which pairs a domain report lists (DomainReport::pairs).
enum class PairScope {
  worst_per_station,  // each station's worst path (to its partner with the largest PDV), each pair
                      // once, and one example of every kind of path that breaks a repeater rule
  every_pair,         // every pair of stations (quadratic: for plants a run simulates)
};

// What a listing of pairs (DomainReport::pairs) holds, known before it is built: each pair's
// path is kept in memory as names and cable indices, and written as text (topology_pairs.csv).
// Every pair of a domain is quadratic in its stations and each path as long as the repeaters it
// crosses: 1,024 stations on a chain of 3,071 repeaters make 523,776 paths of about 1,000 names.
struct PairListing {
  double pairs = 0;
  double path_nodes = 0;  // names over all paths, both stations included
  double bytes = 0;       // in memory and as CSV text, estimated
};

// The most a listing of pairs may take, over all domains of one analysis: every pair of a domain
// of about 2,000 stations (2,000,000 pairs of short paths), far more than anyone reads as a table,
// and little enough to build in memory on any machine gbesim runs on. An analysis that would list
// more lists nothing and reports a problem with its estimate; a plant's own worst pairs stay
// within it unless its paths cross more repeaters than any repeater rule allows.
inline constexpr double kMaxPairListingBytes = 2e9;

struct DomainReport {
  std::int64_t rate_mbps = 100;
  double budget_bt = 0;
  std::vector<std::string> stations;   // end stations: DTEs and switch ports ("sw[to x]")
  std::vector<std::string> repeaters;  // repeaters and converters
  std::vector<std::size_t> cables;
  std::vector<PathReport> pairs;     // as the analysis's PairScope says; the earlier station first
  PairListing listed;                // what `pairs` holds
  PairListing every_pair;            // what listing every pair would hold (whatever the scope)
  std::optional<std::size_t> worst;  // index into pairs: the domain's worst pair
  double margin_bt = 0;              // budget - worst PDV
  double margin_m = 0;               // the same in metres of the worst path's main medium
  std::string margin_medium;
  // The answer to "how long may each station's cable be?": the longest length L such that, with
  // every cable that has a station (dte) at one end set to L and every other cable as it is,
  // every pair's PDV stays within the budget (max_station_cable_pdv_m) and every station cable
  // within its segment limit (max_station_cable_segment_m); max_station_cable_m is the smaller.
  // Unset when the domain has no such cable or a path delay value is not known.
  std::optional<double> max_station_cable_m;
  std::optional<double> max_station_cable_pdv_m;
  std::optional<double> max_station_cable_segment_m;
  std::string max_station_cable_limit;  // "path delay" or "1000BASE-T segment (100 m)"
  bool pass = true;
  // Cables longer than their PHY's segment limit (models/topology/segment_rules): `where` is
  // "cables[<i>]"; each fails the domain.
  std::vector<TopologyProblem> segment_violations;
  std::vector<std::string> notes;  // unconfirmed rows used, stations reaching no one, ...
};

struct TopologyReport {
  std::vector<DomainReport> domains;
  std::vector<TopologyProblem> problems;  // errors: the report is not valid while any exist
  bool pass() const;
};

// Lists the pairs `scope` asks for in each domain; a domain whose listing would take the analysis
// beyond kMaxPairListingBytes lists nothing and is left out, with a problem giving the estimate.
TopologyReport analyse_topology(const CablingPlant& plant,
                                PairScope scope = PairScope::worst_per_station);

// The answer to "how long may these cables be?" for a set of cables varied together (a sweep's
// cable-length axis): the longest length L such that, with every cable of `cables` at L and the
// others as they are, every pair of domain `domain` stays within the budget. Exact: PDV is a
// maximum of lines in L (each path's delays plus its varied cables' round-trip BT per metre
// times L), so starting far above the edge, the worst path's own crossing of the budget is a
// bound that the worst path there improves, until the worst path crosses at its own bound.
// 0 when no length is legal (the other delays alone exceed the budget); nullopt when none of
// the cables is on a path of the domain, or a delay there is not known.
std::optional<double> longest_legal_length(const CablingPlant& plant,
                                           const std::vector<std::size_t>& cables,
                                           std::size_t domain);

// Graphviz DOT of the plant: one cluster per collision domain, each cable labelled with its length
// and medium, the worst path of every domain drawn thick and red (green when it passes).
std::string topology_dot(const CablingPlant& plant, const TopologyReport& report);

}  // namespace gbesim
