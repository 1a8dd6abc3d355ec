#include "sim/input/scenario_schema.hpp"

#include <algorithm>
#include <cmath>

#include "models/common/speed_modes.hpp"
#include "sim/input/host_schema.hpp"
#include "sim/input/profiles.hpp"
#include "sim/input/topology_loader.hpp"
#include "sim/input/topology_schema.hpp"
#include "sim/input/traffic_schema.hpp"
#include "sim/support/file_names.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {

using schema::by_hand;
using schema::Entry;
using schema::error_expected;
using schema::ListOf;
using schema::MapOf;
using schema::Node;
using schema::Object;
using schema::Reader;

namespace {

// ---------------------------------------------------------------------------------------------
// Stations

Node<MacAddress> address_node() {
  return schema::structured<MacAddress>(
      "\"02:00:00:00:00:01\"", "the station's unicast MAC address (default 02:00:00:00:00:<n>)",
      [](const Json& v, const std::string& path, MacAddress& out, Reader& r) {
        const auto a = v.is_string() ? MacAddress::parse(v.get<std::string>()) : std::nullopt;
        if (!a) return error_expected(r, path, "a MAC address like \"02:00:00:00:00:01\"", v);
        if (a->is_multicast())
          return r.d.error(path, "a station address must be unicast (first octet even)");
        out = *a;
      },
      [](const MacAddress& a) { return Json(a.to_string()); });
}

const Object<StationConfig>& station_object() {
  static const Object<StationConfig> o = [] {
    Object<StationConfig> s("a station: its MAC, what it receives into and what it sends");
    s.field("address", &StationConfig::address, address_node())
        .field("mac", &StationConfig::mac, schema::table(mac_param_table()))
        .field("sink", &StationConfig::sink, schema::table(sink_param_table()))
        .field("traffic", &StationConfig::traffic, traffic_list().node())
        .check([](const Json&, const std::string& path, StationConfig& st, Reader& r) {
          if (st.name == "broadcast") r.d.error(path, "\"broadcast\" is reserved as a destination");
          if (const auto problem = station_file_name_problem(st.name)) r.d.error(path, *problem);
        });
    return s;
  }();
  return o;
}

const MapOf<StationConfig>& station_map() {
  static const MapOf<StationConfig> m{
      station_object().node(),
      &StationConfig::name,
      "a non-empty object of stations",
      "station names are identifiers (letters, digits, _, not starting with a digit)",
      "the stations, by name",
      nullptr};
  return m;
}

// ---------------------------------------------------------------------------------------------
// Links and collision domains

const Object<LinkConfig>& link_object() {
  static const Object<LinkConfig> o = [] {
    Object<LinkConfig> l(link_param_table().doc());
    Object<LinkConfig>::Field between;
    between.key = "between";
    between.read = [](const Json& v, const std::string& path, LinkConfig& out, Reader& r) {
      if (!v.is_array() || v.size() != 2 || !v[0].is_string() || !v[1].is_string())
        return error_expected(r, path,
                              "[\"<station or switch:port>\", \"<station or switch:port>\"]", v);
      out.a = v[0].get<std::string>();
      out.b = v[1].get<std::string>();
      if (out.a == out.b)
        return r.d.error(path, "a link joins two different ends, not \"" + out.a + "\" to itself");
      r.refer("endpoint", out.a, index_path(path, 0));
      r.refer("endpoint", out.b, index_path(path, 1));
    };
    between.write = [](const LinkConfig& v) -> std::optional<Json> { return Json{v.a, v.b}; };
    between.describe = [](const std::string& path, std::vector<Entry>& out) {
      Entry e;
      e.path = path;
      e.type = "reference";
      e.range = "[station or switch:port, station or switch:port]";
      e.doc =
          "the two ends the cable joins: stations, or switch ports as \"<switch>:<n>\" "
          "(numbered from 1)";
      out.push_back(std::move(e));
    };
    l.custom(std::move(between))
        .rows(link_param_table(), &LinkConfig::params)
        .check([](const Json& obj, const std::string& path, LinkConfig&, Reader& r) {
          if (!obj.contains("between"))
            error_expected(r, child_path(path, "between"), "[\"<station>\", \"<station>\"]",
                           Json());
        });
    return l;
  }();
  return o;
}

const ListOf<LinkConfig>& link_list() {
  static const ListOf<LinkConfig> l{link_object().node(), "an array of links",
                                    "full-duplex (or two half-duplex MACs') cables"};
  return l;
}

const ListOf<std::string>& domain_station_list() {
  static const ListOf<std::string> l{schema::reference("endpoint",
                                                       "a station (or a half-duplex switch port "
                                                       "\"<switch>:<n>\") on the shared medium"),
                                     "an array of at least two station names",
                                     "the stations sharing the medium", 2};
  return l;
}

void read_cable_lengths(const Json& v, const std::string& path, DomainConfig& dom, Reader& r) {
  if (dom.stations.size() < 2) return;
  if (!v.is_object())
    return error_expected(r, path, "{\"<station>\": metres, ...} for every station of the domain",
                          v);
  for (const auto& item : v.items())
    if (std::find(dom.stations.begin(), dom.stations.end(), item.key()) == dom.stations.end())
      r.d.error(child_path(path, item.key()),
                "not a station of this domain" + suggestion(item.key(), dom.stations));
  for (const auto& s : dom.stations) {
    if (!v.contains(s)) {
      r.d.error(path, "missing the cable length of station \"" + s + "\"");
      dom.cable_m.push_back(0);
    } else {
      dom.cable_m.push_back(
          schema::read_number(v[s], child_path(path, s), 0, 100'000, "m", r.d).value_or(0.0));
    }
  }
}

void read_delay_matrix(const Json& m, const std::string& path, DomainConfig& dom, Reader& r) {
  const std::size_t n = dom.stations.size();
  if (n < 2) return;
  if (!m.is_array() || m.size() != n)
    return error_expected(
        r, path,
        "a " + std::to_string(n) + " x " + std::to_string(n) + " array (one row per station)", m);
  for (std::size_t row = 0; row < n; ++row) {
    if (!m[row].is_array() || m[row].size() != n) {
      error_expected(r, index_path(path, row), std::to_string(n) + " delays", m[row]);
      continue;
    }
    std::vector<double> out;
    for (std::size_t k = 0; k < n; ++k)
      out.push_back(
          schema::read_number(m[row][k], index_path(index_path(path, row), k), 0, 1e9, "ns", r.d)
              .value_or(0.0));
    dom.delay_ns.push_back(std::move(out));
  }
}

// A domain gives either cables to a central repeater or a one-way delay matrix, and the
// repeater's and the PHYs' delays only with cables.
void check_domain_delays(const Json& obj, const std::string& path, DomainConfig& dom, Reader& r) {
  dom.origin = path;
  if (dom.stations.size() < 2) return;
  const bool cables = obj.contains("cable_m");
  const bool matrix = obj.contains("delay_ns");
  if (cables == matrix)
    r.d.error(path,
              "give either \"cable_m\" (each station's cable to a central repeater) or "
              "\"delay_ns\" (a one-way delay matrix), not " +
                  std::string(cables ? "both" : "neither"));
  for (const char* key : {"repeater_round_trip_bt", "dte_pair_round_trip_bt"})
    if (matrix && obj.contains(key))
      r.d.error(child_path(path, key),
                "applies to \"cable_m\" domains; a delay_ns matrix already holds every "
                "delay");
}

Json write_domain(const Object<DomainConfig>&, const DomainConfig& dom) {
  Json out = Json::object();
  out["stations"] = dom.stations;
  out["rate_mbps"] = dom.rate_mbps;
  if (dom.delay_ns.empty()) {
    out["medium"] = dom.medium;
    Json cable = Json::object();
    for (std::size_t i = 0; i < dom.stations.size() && i < dom.cable_m.size(); ++i)
      cable.get_ref<Json::object_t&>().emplace_back(dom.stations[i], dom.cable_m[i]);
    out["cable_m"] = cable;
    out["repeater_round_trip_bt"] = dom.repeater_round_trip_bt;
    out["dte_pair_round_trip_bt"] = dom.dte_pair_round_trip_bt;
  } else {
    out["delay_ns"] = dom.delay_ns;
  }
  return out;
}

const Object<DomainConfig>& domain_object() {
  static const Object<DomainConfig> o = [] {
    Object<DomainConfig> d(
        "a half-duplex collision domain: stations on a shared medium, with cable lengths to a "
        "central repeater or a one-way delay matrix");
    d.field("stations", &DomainConfig::stations, domain_station_list().node())
        .field("medium", &DomainConfig::medium,
               schema::reference("medium", "the cables' medium, a row of the media table"))
        .field("rate_mbps", &DomainConfig::rate_mbps,
               schema::integer(0, 1000, "Mb/s",
                               "the domain's rate (10, 100, 1000); 0 = a member switch port's, "
                               "else the run's rate_mbps"))
        .custom(by_hand<DomainConfig>(
            "cable_m", "structured", "{\"<station>\": metres, ...}", "m",
            "each station's cable to the central repeater", read_cable_lengths,
            [](const DomainConfig&) -> std::optional<Json> { return std::nullopt; }))
        .field("repeater_round_trip_bt", &DomainConfig::repeater_round_trip_bt,
               schema::number(0, 1e6, "bit times",
                              "the central repeater's round-trip delay, as 802.3's tables give "
                              "it (cable_m domains; 976 for a gigabit repeater, 92 Class II)"))
        .field("dte_pair_round_trip_bt", &DomainConfig::dte_pair_round_trip_bt,
               schema::number(0, 1e6, "bit times",
                              "both stations' PHY delays, round trip (cable_m domains; default: "
                              "the delay table's DTE pair at the run's speed, 864 at 1000 Mb/s, "
                              "100 at 100 Mb/s, 0 at 10 Mb/s)"))
        .custom([] {
          // The old one-way key, refused with the conversion (described nowhere).
          auto old = by_hand<DomainConfig>(
              "repeater_delay_ns", "", "", "", "",
              [](const Json&, const std::string& path, DomainConfig&, Reader& r) {
                r.d.error(path,
                          "device delays are round trips in bit times now, as in 802.3's tables: "
                          "\"repeater_round_trip_bt\" = one-way ns x 2 x Mb/s / 1000 (976 for a "
                          "gigabit repeater); the stations' own PHY delays are "
                          "\"dte_pair_round_trip_bt\" (docs/medium.md)");
              },
              [](const DomainConfig&) -> std::optional<Json> { return std::nullopt; });
          old.describe = [](const std::string&, std::vector<Entry>&) {};
          return old;
        }())
        .custom(by_hand<DomainConfig>(
            "delay_ns", "structured", "[[ns, ...], ...] (one row per station)", "ns",
            "one-way delays [from][to], in the order of stations", read_delay_matrix,
            [](const DomainConfig&) -> std::optional<Json> { return std::nullopt; }))
        .check(check_domain_delays)
        .writer(write_domain);
    return d;
  }();
  return o;
}

const ListOf<DomainConfig>& domain_list() {
  static const ListOf<DomainConfig> l{domain_object().node(), "an array of collision domains",
                                      "half-duplex shared media"};
  return l;
}

// ---------------------------------------------------------------------------------------------
// Switches

void read_port_groups(const Json& v, const std::string& path, SwitchConfig& sw, Reader& r) {
  const std::string form =
      "[{\"count\": n, \"rate_mbps\": 10 | 100 | 1000 | 10000, \"duplex\": "
      "\"full\" | \"half\"}, ...]";
  const std::size_t errors_before = r.d.count();
  struct Mark {
    Reader& r;
    SwitchConfig& sw;
    std::size_t before;
    ~Mark() { sw.ports_refused = sw.ports_refused || r.d.count() > before; }
  } mark{r, sw, errors_before};
  if (!v.is_array() || v.empty()) return error_expected(r, path, "a non-empty array " + form, v);
  sw.groups.clear();
  std::int64_t total = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = index_path(path, i);
    if (!v[i].is_object()) {
      error_expected(r, at, "{\"count\": n, \"rate_mbps\": ...}", v[i]);
      continue;
    }
    SwitchPortGroup g;
    for (const auto& item : v[i].items()) {
      const std::string key_at = child_path(at, item.key());
      if (item.key() == "count") {
        g.count = schema::read_integer(item.value(), key_at, 1, 4096, "ports", r.d).value_or(1);
      } else if (item.key() == "rate_mbps") {
        const auto rate = schema::read_integer(item.value(), key_at, 10, 10000, "Mb/s", r.d);
        if (rate && !find_speed_mode(*rate))
          r.d.error(key_at, "no speed mode " + std::to_string(*rate) + " Mb/s; expected one of " +
                                speed_mode_list());
        g.rate_mbps = rate.value_or(1000);
      } else if (item.key() == "duplex") {
        const auto d = choice_list(Duplex{}).find(
            item.value().is_string() ? item.value().get<std::string>() : "");
        if (!d)
          error_expected(r, key_at, "\"full\" or \"half\"", item.value());
        else
          g.duplex = *d;
      } else {
        r.d.error(key_at, "unknown key \"" + item.key() + "\"" +
                              suggestion(item.key(), {"count", "rate_mbps", "duplex"}) +
                              " (expected count, rate_mbps, duplex)");
      }
    }
    total += g.count;
    sw.groups.push_back(g);
  }
  if (total > 4096) r.d.error(path, std::to_string(total) + " ports; a switch has at most 4096");
}

const Object<SwitchConfig>& switch_object() {
  static const Object<SwitchConfig> o = [] {
    Object<SwitchConfig> s(switch_param_table().doc());
    s.custom(by_hand<SwitchConfig>(
                 "profile", "reference", profile_choices(builtin_switch_profiles()), "",
                 "a switch profile (ports, fabric, buffers, with sources) applied before the keys "
                 "beside it: a built-in model or a .json file relative to the scenario "
                 "(docs/switch.md)",
                 [](const Json& v, const std::string& path, SwitchConfig& sw, Reader& r) {
                   const ProfileKind kind{
                       "switch",
                       builtin_switch_profiles(),
                       "",
                       {"name", "description", "model"},
                       {{"switch", [&](const Json& values, const std::string& at, Reader& pr) {
                           // The port groups are a field of the block; the rest are parameters.
                           Json params = values;
                           if (params.contains("ports")) {
                             read_port_groups(params["ports"], child_path(at, "ports"), sw, pr);
                             params.erase("ports");
                           }
                           schema::table(switch_param_table()).read(params, at, sw.params, pr);
                         }}}};
                   const std::size_t errors_before = r.d.count();
                   apply_profile(kind, v, path, r.d);
                   // A refused profile is the one error: its missing ports are not blamed too.
                   if (r.d.count() > errors_before && sw.groups.empty()) sw.ports_refused = true;
                 },
                 [](const SwitchConfig&) -> std::optional<Json> { return std::nullopt; }))
        .rows(switch_param_table(), &SwitchConfig::params)
        .field("mac", &SwitchConfig::mac, schema::table(mac_param_table()))
        .custom(by_hand<SwitchConfig>(
            "ports", "structured",
            "[{\"count\": n, \"rate_mbps\": Mb/s, \"duplex\": \"full\" | \"half\"}, ...]", "",
            "the ports, in groups numbered on from 1 (links name them \"<switch>:<n>\")",
            read_port_groups,
            [](const SwitchConfig& sw) -> std::optional<Json> {
              Json out = Json::array();
              for (const auto& g : sw.groups)
                out.push_back({{"count", g.count},
                               {"rate_mbps", g.rate_mbps},
                               {"duplex", choice_name(g.duplex)}});
              return out;
            }))
        .check([](const Json& obj, const std::string& path, SwitchConfig& sw, Reader& r) {
          if (!obj.contains("ports") && sw.groups.empty() && !sw.ports_refused)
            error_expected(r, child_path(path, "ports"),
                           "[{\"count\": n, \"rate_mbps\": Mb/s}, ...]", Json());
        });
    return s;
  }();
  return o;
}

const MapOf<SwitchConfig>& switch_map() {
  static const MapOf<SwitchConfig> m{
      switch_object().node(),
      &SwitchConfig::name,
      "an object {\"<switch name>\": {\"ports\": [...], ...}}",
      "switch names are identifiers (letters, digits, _, not starting with a digit)",
      "switches, by name: ports, buffers, learning, fabric",
      nullptr};
  return m;
}

// ---------------------------------------------------------------------------------------------
// The link-level sweep

const std::vector<std::string>& cable_categories() {
  static const std::vector<std::string> c = {"cat5", "cat5e", "cat6"};
  return c;
}

void read_cables(const Json& v, const std::string& path, ScenarioConfig::LinkLevelSweep& s,
                 Reader& r) {
  const auto& categories = cable_categories();
  if (!v.is_array() || v.empty())
    return error_expected(
        r, path, "a non-empty array of categories (" + schema::key_list(categories) + ")", v);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string name = v[i].is_string() ? v[i].get<std::string>() : dump_json(v[i]);
    if (std::find(categories.begin(), categories.end(), name) == categories.end())
      r.d.error(index_path(path, i),
                "expected one of " + schema::key_list(categories) + ", got " +
                    (v[i].is_string() ? "\"" + name + "\"" : describe_value(v[i])) +
                    suggestion(name, categories));
    else
      s.cables.push_back(name);
  }
}

const Object<ScenarioConfig::LinkLevelSweep>& link_level_object() {
  using S = ScenarioConfig::LinkLevelSweep;
  static const ListOf<double> lengths{schema::number(0, 1000, "m", "a cable length"),
                                      "a non-empty array of lengths in metres",
                                      "cable lengths to analyse", 1};
  static const Object<S> o = [] {
    Object<S> l("the 1000BASE-T link-level sweep `gbesim phy --scenario` runs (a run ignores it)");
    l.custom(by_hand<S>("cables", "list", "cat5 | cat5e | cat6", "",
                        "cable categories (default: all three)", read_cables,
                        [](const S& s) -> std::optional<Json> { return Json(s.cables); }))
        .field("lengths_m", &S::lengths_m, lengths.node())
        .custom(by_hand<S>(
            "mc_symbols", "number", "0 .. 1e+08", "symbols",
            "Monte Carlo symbols per point (0: analysis only)",
            [](const Json& v, const std::string& path, S& s, Reader& r) {
              if (auto x = schema::read_number(v, path, 0, 1e8, "symbols", r.d))
                s.mc_symbols = static_cast<std::int64_t>(*x);
            },
            [](const S& s) -> std::optional<Json> { return Json(s.mc_symbols); }))
        .field("eye_length_m", &S::eye_length_m,
               schema::number(0, 1000, "m", "the cable length of the eye diagram"))
        .field("receiver", &S::receiver, schema::table(phy::phy_receiver_param_table()))
        .check([](const Json&, const std::string&, S& s, Reader&) {
          if (s.cables.empty()) s.cables = cable_categories();
        });
    return l;
  }();
  return o;
}

// ---------------------------------------------------------------------------------------------
// The document

template <class C>
typename Object<ScenarioConfig>::Field collection(
    std::string key, const C& c, std::vector<typename C::Element> ScenarioConfig::*member) {
  typename Object<ScenarioConfig>::Field f;
  f.key = std::move(key);
  f.read = [&c, member](const Json& v, const std::string& path, ScenarioConfig& out, Reader& r) {
    c.read(v, path, out.*member, r);
  };
  f.write = [&c, member](const ScenarioConfig& v) -> std::optional<Json> {
    return c.write(v.*member);
  };
  f.describe = c.node().describe;
  return f;
}

void read_media(const Json& v, const std::string& path, ScenarioConfig& c, Reader& r) {
  if (!v.is_object())
    return error_expected(r, path, "an object {\"<medium>\": {\"ns_per_m\": X}}", v);
  static const Node<MediumParams> row = schema::table(medium_param_table());
  for (const auto& item : v.items()) {
    const std::string at = child_path(path, item.key());
    if (!schema::is_identifier(item.key()))
      r.d.error(at, "medium names are identifiers (letters, digits, _)");
    MediumParams& m = c.media[item.key()];
    // A changed delay is the user's figure unless the row says where it comes from.
    if (item.value().is_object() && item.value().contains("ns_per_m")) {
      m.basis = MediumBasis::budget;
      m.source = "user";
      m.confidence = MediumConfidence::user;
    }
    row.read(item.value(), at, m, r);
  }
}

Json write_media(const ScenarioConfig& c) {
  Json out = Json::object();
  for (const auto& [name, params] : c.media)
    out.get_ref<Json::object_t&>().emplace_back(name,
                                                schema::write_rows(medium_param_table(), params));
  return out;
}

Entry sweep_entry(const std::string& path) {
  Entry e;
  e.path = path;
  if (path == "sweep") {
    e.type = "map";
    e.doc =
        "the sweep plan: one axis per key, the last varying fastest (docs/scenarios.md, Paths, "
        "`--set` and sweeps)";
  } else {
    e.type = "structured";
    e.range =
        "key \"<path>\" or \"<path>, <path>\" -> [values...]; or key <axis name> -> "
        "[{\"label\": L, \"set\": {\"<path>\": value, ...}}, ...]; or key exclude -> "
        "[{\"<column>\": entry or [entries], ...}, ...]";
    e.doc =
        "an axis: the values a path (or several paths together) takes, or labelled variants; "
        "exclude: combinations of columns that are not points";
  }
  return e;
}

void check_document(const Json& doc, const std::string&, ScenarioConfig& c, Reader& r) {
  if (doc.contains("name") && doc["name"].is_string())
    if (const auto problem = results_name_problem(c.run.name)) r.d.error("name", *problem);
  if (doc.contains("rate_mbps") && !find_speed_mode(c.run.rate_mbps))
    r.d.error("rate_mbps", "no speed mode " + std::to_string(c.run.rate_mbps) +
                               " Mb/s; expected one of " + speed_mode_list());
  if (!doc.contains("stations")) {
    if (!doc.contains("hosts"))
      r.d.error("", "missing \"stations\": {\"<name>\": {\"traffic\": [...]}, ...}");
  } else if (doc["stations"].is_object() && doc["stations"].empty() && c.hosts.empty()) {
    error_expected(r, "stations", "a non-empty object of stations", doc["stations"]);
  }
}

}  // namespace

namespace {

using ScenarioField = Object<ScenarioConfig>::Field;

// Every station starts from the scenario-wide mac and sink blocks and a numbered address.
ScenarioField stations_field() {
  ScenarioField stations = collection("stations", station_map(), &ScenarioConfig::stations);
  stations.read = [](const Json& v, const std::string& path, ScenarioConfig& c, Reader& r) {
    MapOf<StationConfig> m = station_map();
    m.seed = [&c](StationConfig& st, std::size_t i) {
      st.mac = c.default_mac;
      st.sink = c.default_sink;
      st.address = MacAddress::for_station(static_cast<std::uint32_t>(i + 1));
    };
    m.read(v, path, c.stations, r);
  };
  return stations;
}

// Every switch's ports start from the scenario-wide mac block.
ScenarioField switches_field() {
  ScenarioField switches = collection("switches", switch_map(), &ScenarioConfig::switches);
  switches.read = [](const Json& v, const std::string& path, ScenarioConfig& c, Reader& r) {
    MapOf<SwitchConfig> m = switch_map();
    m.seed = [&c](SwitchConfig& sw, std::size_t) { sw.mac = c.default_mac; };
    m.read(v, path, c.switches, r);
  };
  return switches;
}

// Domains derived from the topology block are written as that block.
ScenarioField domains_field() {
  ScenarioField domains = collection("collision_domains", domain_list(), &ScenarioConfig::domains);
  domains.write = [](const ScenarioConfig& c) -> std::optional<Json> {
    Json out = Json::array();
    for (const auto& d : c.domains)
      if (!d.from_topology) out.push_back(domain_object().write(d));
    if (out.empty()) return std::nullopt;
    return out;
  };
  return domains;
}

ScenarioField link_level_field() {
  ScenarioField link_level;
  link_level.key = "link_level";
  link_level.read = [](const Json& v, const std::string& path, ScenarioConfig& c, Reader& r) {
    link_level_object().read(v, path, c.link_level.emplace(), r);
  };
  link_level.write = [](const ScenarioConfig& c) -> std::optional<Json> {
    if (!c.link_level) return std::nullopt;
    return link_level_object().write(*c.link_level);
  };
  link_level.describe = link_level_object().node().describe;
  return link_level;
}

// The sweep plan is read on its own (sim/input/sweep_plan.cpp): here it is a known key.
ScenarioField sweep_field() {
  ScenarioField sweep;
  sweep.key = "sweep";
  sweep.read = [](const Json&, const std::string&, ScenarioConfig&, Reader&) {};
  sweep.write = [](const ScenarioConfig&) -> std::optional<Json> { return std::nullopt; };
  sweep.describe = [](const std::string& path, std::vector<Entry>& out) {
    out.push_back(sweep_entry(path));
    out.push_back(sweep_entry(path + ".*"));
  };
  return sweep;
}

ScenarioField media_field() {
  ScenarioField media = by_hand<ScenarioConfig>(
      "media", "map", "{\"<medium>\": {...}}", "",
      "the media table: built-in rows, changed or added to", read_media, write_media);
  media.describe = [describe = media.describe](const std::string& path, std::vector<Entry>& out) {
    describe(path, out);
    schema::describe_rows(medium_param_table(), child_path(path, "*"), out);
  };
  return media;
}

// The topology block is read once the stations are known (resolve_topology) and written as
// resolved there, every default spelled out; it is described by its own schema.
ScenarioField topology_field() {
  ScenarioField topology = by_hand<ScenarioConfig>(
      "topology", "object", "", "", topology_schema().doc(),
      [](const Json&, const std::string&, ScenarioConfig&, Reader&) {},
      [](const ScenarioConfig& c) -> std::optional<Json> {
        if (!c.topology) return std::nullopt;
        return c.topology->resolved;
      });
  topology.describe = [](const std::string& path, std::vector<Entry>& out) {
    topology_schema().describe(path, out);
  };
  return topology;
}

}  // namespace

const Object<ScenarioConfig>& scenario_schema() {
  static const Object<ScenarioConfig> o = [] {
    Object<ScenarioConfig> s("a scenario");
    s.rows(run_param_table(), &ScenarioConfig::run)
        .custom(media_field())
        .field("mac", &ScenarioConfig::default_mac, schema::table(mac_param_table()))
        .written_if([](const ScenarioConfig&) { return false; })
        .field("sink", &ScenarioConfig::default_sink, schema::table(sink_param_table()))
        .written_if([](const ScenarioConfig&) { return false; })
        .custom(stations_field())
        .written_if([](const ScenarioConfig& c) { return !c.stations.empty() || c.hosts.empty(); })
        .custom(collection("links", link_list(), &ScenarioConfig::links))
        .custom(domains_field())
        .custom(topology_field())
        .custom(collection("hosts", host_map(), &ScenarioConfig::hosts))
        .written_if([](const ScenarioConfig& c) { return !c.hosts.empty(); })
        .custom(switches_field())
        .written_if([](const ScenarioConfig& c) { return !c.switches.empty(); })
        .custom(link_level_field())
        .custom(sweep_field())
        .require("name", "missing \"name\"")
        .require("description", "missing \"description\"")
        .check(check_document);
    return s;
  }();
  return o;
}

std::vector<Entry> scenario_entries() {
  std::vector<Entry> out;
  scenario_schema().describe("", out);
  return out;
}

}  // namespace gbesim
