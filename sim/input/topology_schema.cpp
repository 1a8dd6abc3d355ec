#include "sim/input/topology_schema.hpp"

#include <algorithm>
#include <unordered_set>

#include "models/topology/segment_rules.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {
namespace {

using schema::by_hand;
using schema::Entry;
using schema::Object;
using schema::Reader;

const std::vector<std::string> kKinds = {"dte", "repeater", "switch", "converter"};
const std::vector<std::string> kClasses = {"class_i", "class_ii", "class_ii_t4", "gigabit", "ten"};
const std::vector<std::string> kPhys = {"tx", "t4"};
const std::vector<std::string> kRates = {"10", "100", "1000"};

std::string join(const std::vector<std::string>& words) {
  return schema::key_list(words);
}

std::optional<std::string> choice(const Json& v, const std::string& path,
                                  const std::vector<std::string>& allowed, Reader& r) {
  if (!v.is_string() ||
      std::find(allowed.begin(), allowed.end(), v.get<std::string>()) == allowed.end()) {
    r.d.error(path, "expected one of " + join(allowed) + ", got " + describe_value(v) +
                        (v.is_string() ? suggestion(v.get<std::string>(), allowed) : ""));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<std::int64_t> rate(const Json& v, const std::string& path, Reader& r) {
  if (v.is_number_integer()) {
    const std::string s = std::to_string(v.get<std::int64_t>());
    if (std::find(kRates.begin(), kRates.end(), s) != kRates.end()) return std::stoll(s);
  }
  r.d.error(path, "expected 10, 100 or 1000 (Mb/s; half duplex exists at these speeds), got " +
                      describe_value(v));
  return std::nullopt;
}

// A name of letters, digits, _ - and . (a node's name is also a station's).
bool is_node_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// ---------------------------------------------------------------------------------------------
// media.<name>

Object<TopologyMedium> medium_object() {
  Object<TopologyMedium> o("a medium added to or changed in the media table");
  // The old per-speed round-trip form, refused with the conversion (described nowhere).
  auto old = by_hand<TopologyMedium>(
      "round_trip_bt_per_m", "", "", "", "",
      [](const Json&, const std::string& path, TopologyMedium&, Reader& r) {
        r.d.error(path,
                  "media rows give the one-way delay now: \"ns_per_m\" = BT per metre x 1000 / "
                  "(2 x Mb/s), e.g. 1.112 BT/m at 100 Mb/s is 5.56 ns/m (docs/medium.md)");
      },
      [](const TopologyMedium&) -> std::optional<Json> { return std::nullopt; });
  old.describe = [](const std::string&, std::vector<Entry>&) {};
  o.rows(medium_param_table(), &TopologyMedium::params).custom(std::move(old));
  return o;
}

// ---------------------------------------------------------------------------------------------
// nodes.<name>

// Which keys each kind of node takes besides "kind".
std::vector<std::string> keys_of(NodeKind k) {
  switch (k) {
    case NodeKind::dte:
      return {"kind", "phy", "rate_mbps", "delay_bt"};
    case NodeKind::repeater:
      return {"kind", "class", "rate_mbps", "delay_bt"};
    case NodeKind::bridge:
      return {"kind"};
    case NodeKind::converter:
      return {"kind", "rate_mbps", "delay_bt"};
  }
  return {};
}

Object<CablingNode> node_object() {
  Object<CablingNode> o("a station (dte), repeater, switch or media converter");
  o.custom(by_hand<CablingNode>(
               "kind", "choice", join(kKinds), "", "what the node is",
               [](const Json& v, const std::string& path, CablingNode& n, Reader& r) {
                 const auto k = choice(v, path, kKinds, r);
                 if (!k) return;
                 n.kind = *k == "dte"        ? NodeKind::dte
                          : *k == "repeater" ? NodeKind::repeater
                          : *k == "switch"   ? NodeKind::bridge
                                             : NodeKind::converter;
               },
               [](const CablingNode& n) -> std::optional<Json> { return node_kind_name(n.kind); }))
      .custom(by_hand<CablingNode>(
          "phy", "choice", join(kPhys), "",
          "a dte's PHY type for the DTE-pair delay at 100 Mb/s (default: the speed's)",
          [](const Json& v, const std::string& path, CablingNode& n, Reader& r) {
            if (auto p = choice(v, path, kPhys, r)) n.type = *p;
          },
          [](const CablingNode& n) -> std::optional<Json> {
            if (n.kind != NodeKind::dte || n.type.empty()) return std::nullopt;
            return n.type;
          }))
      .custom(by_hand<CablingNode>(
          "class", "choice", join(kClasses), "",
          "a repeater's class: class_i/class_ii at 100 Mb/s, gigabit at 1000, ten at 10",
          [](const Json& v, const std::string& path, CablingNode& n, Reader& r) {
            if (auto c = choice(v, path, kClasses, r)) n.type = *c;
          },
          [](const CablingNode& n) -> std::optional<Json> {
            if (n.kind != NodeKind::repeater) return std::nullopt;
            return n.type;
          }))
      .custom(by_hand<CablingNode>(
          "rate_mbps", "choice", "10 | 100 | 1000", "Mb/s",
          "the node's speed (default: its repeaters', or the plant's)",
          [](const Json& v, const std::string& path, CablingNode& n, Reader& r) {
            if (auto x = rate(v, path, r)) n.rate_mbps = *x;
          },
          [](const CablingNode& n) -> std::optional<Json> {
            if (n.rate_mbps == 0) return std::nullopt;
            return n.rate_mbps;
          }))
      .custom(by_hand<CablingNode>(
          "delay_bt", "number", "0 .. 100000", "bit times",
          "round-trip delay replacing the table's: a repeater's or converter's own, or a dte's "
          "share of the DTE-pair delay",
          [](const Json& v, const std::string& path, CablingNode& n, Reader& r) {
            if (auto x = schema::read_number(v, path, 0, 100000, "bit times", r.d)) n.delay_bt = *x;
          },
          [](const CablingNode& n) -> std::optional<Json> {
            if (!n.delay_bt) return std::nullopt;
            return *n.delay_bt;
          }))
      .require("kind", "missing \"kind\": one of " + join(kKinds))
      .check([](const Json& obj, const std::string& path, CablingNode& n, Reader& r) {
        if (!is_node_name(n.name))
          r.d.error(path, "a node name uses letters, digits, _ - and . only");
        if (!obj.contains("kind")) return;
        const std::vector<std::string> known = keys_of(n.kind);
        for (const char* key : {"phy", "class", "rate_mbps", "delay_bt"})
          if (obj.contains(key) && std::find(known.begin(), known.end(), key) == known.end())
            r.d.error(child_path(path, key), "does not apply to a " +
                                                 std::string(node_kind_name(n.kind)) +
                                                 " (its keys: " + join(known) + ")");
        if (n.kind == NodeKind::repeater && !obj.contains("class"))
          r.d.error(child_path(path, "class"),
                    "missing: the repeater's class, one of " + join(kClasses) +
                        " (class_i/class_ii at 100 Mb/s, gigabit at 1000, ten at 10)");
      });
  return o;
}

// ---------------------------------------------------------------------------------------------
// cables[i]

Object<Cable> cable_object() {
  Object<Cable> o("a cable segment between two nodes");
  o.custom(by_hand<Cable>(
               "between", "structured", "[node, node]", "", "the two nodes the cable joins",
               [](const Json& v, const std::string& path, Cable& c, Reader& r) {
                 if (!v.is_array() || v.size() != 2 || !v[0].is_string() || !v[1].is_string()) {
                   r.d.error(path, "expected two node names, [\"a\", \"b\"]");
                   return;
                 }
                 c.a = v[0].get<std::string>();
                 c.b = v[1].get<std::string>();
                 r.refer("node", c.a, index_path(path, 0));
                 r.refer("node", c.b, index_path(path, 1));
               },
               [](const Cable& c) -> std::optional<Json> {
                 return Json::array({c.a, c.b});
               }))
      .custom(by_hand<Cable>(
          "medium", "reference", "topology medium", "",
          "the medium, a row of the delay table (default cat5)",
          [](const Json& v, const std::string& path, Cable& c, Reader& r) {
            if (!v.is_string()) {
              schema::error_expected(r, path, "a medium name", v);
              return;
            }
            c.medium = v.get<std::string>();
            r.refer("topology medium", c.medium, path);
          },
          [](const Cable& c) -> std::optional<Json> { return c.medium; }))
      .custom(by_hand<Cable>(
          "pmd", "choice", join(segment_pmds()), "",
          "at 1000 Mb/s, the PHY the cable's ends run, for its segment limit (default: multimode "
          "fibre 1000base-sx, single-mode 1000base-lx, stp/twinax 1000base-cx, twisted pair "
          "1000base-t)",
          [](const Json& v, const std::string& path, Cable& c, Reader& r) {
            if (auto p = choice(v, path, segment_pmds(), r)) c.pmd = *p;
          },
          [](const Cable& c) -> std::optional<Json> {
            if (c.pmd.empty()) return std::nullopt;
            return c.pmd;
          }))
      .field("cable_m", &Cable::length_m,
             schema::number(0, 100000, "m", "the cable's length in metres"))
      // The old name, as links and collision domains never called it: read, and warned of.
      .custom(by_hand<Cable>(
          "length_m", "number", "0 .. 100000", "m",
          "the old name of cable_m: read the same, with a warning (rename it)",
          [](const Json& v, const std::string& path, Cable& c, Reader& r) {
            if (auto x = schema::read_number(v, path, 0, 100000, "m", r.d)) {
              c.length_m = *x;
              c.length_by_old_name = true;
            }
          },
          [](const Cable&) -> std::optional<Json> { return std::nullopt; }))
      .require("between", "missing \"between\": the two nodes the cable joins")
      .check([](const Json& obj, const std::string& path, Cable&, Reader& r) {
        if (obj.is_object() && obj.contains("cable_m") && obj.contains("length_m"))
          r.d.error(child_path(path, "length_m"),
                    "give the length once: \"length_m\" is the old name of \"cable_m\"");
        else if (obj.is_object() && !obj.contains("cable_m") && !obj.contains("length_m"))
          r.d.error(path, "missing \"cable_m\": the cable's length in metres");
      });
  return o;
}

// ---------------------------------------------------------------------------------------------
// The document

template <class F>
Object<TopologyDocument>::Field plant_number(std::string key, F CablingPlant::*member, double min,
                                             double max, std::string range, std::string doc) {
  const std::string unit = "bit times";
  return by_hand<TopologyDocument>(
      key, "number", std::move(range), unit, std::move(doc),
      [member, min, max, unit](const Json& v, const std::string& path, TopologyDocument& t,
                               Reader& r) {
        if (auto x = schema::read_number(v, path, min, max, unit, r.d)) t.plant.*member = *x;
      },
      [member](const TopologyDocument& t) -> std::optional<Json> {
        if constexpr (std::is_same_v<F, std::optional<double>>) {
          if (!(t.plant.*member)) return std::nullopt;
          return *(t.plant.*member);
        } else {
          return t.plant.*member;
        }
      });
}

const schema::MapOf<TopologyMedium>& media_schema() {
  static const auto element = medium_object();
  static const auto media = [] {
    schema::MapOf<TopologyMedium> m;
    m.element = element.node();
    m.name = &TopologyMedium::name;
    m.expected = "an object of media, {\"<medium>\": {\"ns_per_m\": X}}";
    m.doc = "media added to or changed in the delay table";
    return m;
  }();
  return media;
}

const schema::MapOf<CablingNode>& nodes_schema() {
  static const auto element = node_object();
  static const auto nodes = [] {
    schema::MapOf<CablingNode> m;
    m.element = element.node();
    m.name = &CablingNode::name;
    m.expected = "an object of nodes, e.g. {\"a\": {\"kind\": \"dte\"}}";
    m.doc = "the stations, repeaters, switches and media converters";
    return m;
  }();
  return nodes;
}

// "nodes": at least one, at most kMaxPlantNodes (refused before any is read).
Object<TopologyDocument>::Field nodes_field() {
  auto field = by_hand<TopologyDocument>(
      "nodes", "map", "{\"<node>\": {...}}", "", nodes_schema().doc,
      [](const Json& v, const std::string& path, TopologyDocument& t, Reader& r) {
        if (v.is_object() && v.empty()) {
          schema::error_expected(r, path, nodes_schema().expected, v);
          return;
        }
        if (v.is_object() && v.size() > kMaxPlantNodes) {
          r.d.error(path, "has " + std::to_string(v.size()) + " nodes; a plant takes at most " +
                              std::to_string(kMaxPlantNodes) +
                              " (its analysis takes seconds and about 0.5 GB at that size)");
          return;
        }
        nodes_schema().read(v, path, t.plant.nodes, r);
      },
      [](const TopologyDocument& t) -> std::optional<Json> {
        return nodes_schema().write(t.plant.nodes);
      });
  field.describe = [](const std::string& path, std::vector<Entry>& out) {
    nodes_schema().node().describe(path, out);
  };
  return field;
}

// "name": a results name, since it names the plant's results.
Object<TopologyDocument>::Field name_field() {
  return by_hand<TopologyDocument>(
      "name", "string", "letters, digits, _ - .", "",
      "the plant's name (required in a topology file; names its results)",
      [](const Json& v, const std::string& path, TopologyDocument& t, Reader& r) {
        if (!v.is_string()) {
          schema::error_expected(r, path, "a name of letters, digits, _ - and .", v);
        } else if (const auto problem = results_name_problem(v.get<std::string>())) {
          r.d.error(path, *problem);
        } else {
          t.plant.name = v.get<std::string>();
        }
      },
      [](const TopologyDocument& t) -> std::optional<Json> {
        if (t.plant.name.empty()) return std::nullopt;
        return t.plant.name;
      });
}

Object<TopologyDocument>::Field rate_field() {
  return by_hand<TopologyDocument>(
      "rate_mbps", "choice", "10 | 100 | 1000", "Mb/s",
      "the speed of domains that no repeater or node fixes",
      [](const Json& v, const std::string& path, TopologyDocument& t, Reader& r) {
        if (auto x = rate(v, path, r)) t.plant.rate_mbps = *x;
      },
      [](const TopologyDocument& t) -> std::optional<Json> { return t.plant.rate_mbps; });
}

// "cables", read into the plant.
schema::Node<CablingPlant> cables_node() {
  static const auto element = cable_object();
  static const schema::ListOf<Cable> cables(element.node(), "an array of cables",
                                            "the cable segments");
  schema::Node<CablingPlant> n;
  n.read = [](const Json& v, const std::string& path, CablingPlant& p, Reader& r) {
    cables.read(v, path, p.cables, r);
  };
  n.write = [](const CablingPlant& p) { return cables.write(p.cables); };
  n.describe = cables.node().describe;
  return n;
}

}  // namespace

const schema::Object<TopologyDocument>& topology_schema() {
  static const Object<TopologyDocument> o = [] {
    Object<TopologyDocument> s(
        "a cabling plant: its half-duplex collision domains and their path "
        "delay values (docs/topology.md)");
    s.custom(name_field())
        .field("description", &TopologyDocument::description, schema::text("what the plant is"))
        .written_if([](const TopologyDocument& t) { return !t.description.empty(); })
        .custom(rate_field())
        .custom(plant_number("margin_bt", &CablingPlant::margin_bt, 0, 1000, "0 .. 1000",
                             "a safety margin added to every path delay value"))
        .custom(plant_number("budget_bt", &CablingPlant::budget_bt, 1, 1e6, "1 .. 1000000",
                             "replaces the speed's round-trip budget (a \"what if\")"))
        .field("media", &TopologyDocument::media, media_schema().node())
        .written_if([](const TopologyDocument& t) { return !t.media.empty(); })
        .custom(nodes_field())
        .field("cables", &TopologyDocument::plant, cables_node())
        .require("nodes", "missing \"nodes\": the stations, repeaters, switches and converters")
        .require("cables", "missing \"cables\": the cable segments");
    return s;
  }();
  return o;
}

void read_topology_document(const Json& doc, const std::string& path, TopologyDocument& out,
                            Diagnostics& d, const std::map<std::string, MediumParams>* base_media) {
  Reader r(d);
  topology_schema().read(doc, path, out, r);
  if (base_media != nullptr)
    for (const auto& [name, params] : *base_media) out.plant.table.set_medium(name, params);
  for (const auto& m : out.media) out.plant.table.set_medium(m.name, m.params);
  std::vector<std::string> node_names;
  for (const auto& n : out.plant.nodes) node_names.push_back(n.name);
  const std::unordered_set<std::string> nodes(node_names.begin(), node_names.end());
  const std::vector<std::string> media = out.plant.table.media_names();
  const std::unordered_set<std::string> known_media(media.begin(), media.end());
  for (const auto& ref : r.references) {
    if (ref.kind == "node" && nodes.count(ref.name) == 0)
      d.error(ref.path, d.full()
                            ? std::string()
                            : "no node \"" + ref.name + "\"" + suggestion(ref.name, node_names));
    if (ref.kind == "topology medium" && known_media.count(ref.name) == 0)
      d.error(ref.path, d.full() ? std::string()
                                 : "expected one of " + join(media) + ", got \"" + ref.name + "\"" +
                                       suggestion(ref.name, media));
  }
}

}  // namespace gbesim
