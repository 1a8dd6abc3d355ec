#include "sim/scenario_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

#include "models/common/speed_modes.hpp"
#include "models/phy/link_model.hpp"
#include "sim/diagnostics.hpp"
#include "sim/json_input.hpp"
#include "sim/nic_profiles.hpp"
#include "sim/output_dir.hpp"
#include "sim/topology_loader.hpp"

namespace gbesim {
namespace {

constexpr std::size_t kMaxTrafficSources = 256;
constexpr std::size_t kMaxStations = 10'000;

// ---------------------------------------------------------------------------------------------
// Reading JSON text

std::string value_text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : dump_json(v);
}

// ---------------------------------------------------------------------------------------------
// Values

std::string range_phrase(const ParamInfo& info) {
  std::string out = info.range_text();
  if (!info.unit.empty()) out += " " + info.unit;
  return out;
}

std::optional<ParamValue> convert(const Json& v, const ParamInfo& info, const std::string& path,
                                  Diagnostics& d) {
  switch (info.type) {
    case ParamType::integer: {
      std::int64_t x = 0;
      if (v.is_number_unsigned() && v.get<std::uint64_t>() > 9'000'000'000'000'000'000ULL) {
        d.error(path, "expected an integer in " + range_phrase(info) + ", got " + dump_json(v));
        return std::nullopt;
      } else if (v.is_number_integer()) {
        x = v.get<std::int64_t>();
      } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
                 std::floor(v.get<double>()) == v.get<double>() &&
                 std::fabs(v.get<double>()) < 9.0e15) {
        x = static_cast<std::int64_t>(v.get<double>());
      } else {
        d.error(path,
                "expected an integer in " + range_phrase(info) + ", got " + describe_value(v));
        return std::nullopt;
      }
      if (static_cast<double>(x) < info.min || static_cast<double>(x) > info.max) {
        d.error(path,
                "expected an integer in " + range_phrase(info) + ", got " + std::to_string(x));
        return std::nullopt;
      }
      return ParamValue(x);
    }
    case ParamType::real: {
      if (!v.is_number()) {
        d.error(path, "expected a number in " + range_phrase(info) + ", got " + describe_value(v));
        return std::nullopt;
      }
      const double x = v.get<double>();
      if (!(x >= info.min && x <= info.max)) {
        d.error(path, "expected a number in " + range_phrase(info) + ", got " + dump_json(v));
        return std::nullopt;
      }
      return ParamValue(x);
    }
    case ParamType::boolean:
      if (!v.is_boolean()) {
        d.error(path, "expected true or false, got " + describe_value(v));
        return std::nullopt;
      }
      return ParamValue(v.get<bool>());
    case ParamType::text:
      if (!v.is_string()) {
        d.error(path, "expected a string, got " + describe_value(v));
        return std::nullopt;
      }
      return ParamValue(v.get<std::string>());
    case ParamType::choice: {
      if (!v.is_string()) {
        d.error(path, "expected one of " + info.range_text() + ", got " + describe_value(v));
        return std::nullopt;
      }
      const std::string s = v.get<std::string>();
      if (std::find(info.choices.begin(), info.choices.end(), s) == info.choices.end()) {
        d.error(path,
                "\"" + s + "\" is not one of " + info.range_text() + suggestion(s, info.choices));
        return std::nullopt;
      }
      return ParamValue(s);
    }
    case ParamType::structured:
      break;
  }
  return std::nullopt;
}

std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// Reads the keys of `obj` that `table` declares into `out`. Keys in `extra` are left to the
// caller; any other key is an error with a suggestion.
template <class P>
void read_table(const Json& obj, const std::string& path, const ParamTable<P>& table, P& out,
                Diagnostics& d, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> known = table.keys();
  known.insert(known.end(), extra.begin(), extra.end());
  if (!obj.is_object()) {
    d.error(path, "expected an object with keys from: " + key_list(known) + "; got " +
                      describe_value(obj));
    return;
  }
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (std::find(extra.begin(), extra.end(), key) != extra.end()) continue;
    const auto* entry = table.find(key);
    if (entry == nullptr) {
      d.error(child_path(path, key), d.full() ? std::string()
                                              : "unknown key" + suggestion(key, known) +
                                                    " (known here: " + key_list(known) + ")");
      continue;
    }
    if (entry->info.type == ParamType::structured) continue;
    if (auto v = convert(item.value(), entry->info, child_path(path, key), d)) entry->set(out, *v);
  }
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<std::int64_t> read_integer(const Json& v, const std::string& path, std::int64_t min,
                                         std::int64_t max, const std::string& unit,
                                         Diagnostics& d) {
  ParamInfo info;
  info.type = ParamType::integer;
  info.min = static_cast<double>(min);
  info.max = static_cast<double>(max);
  info.unit = unit;
  if (auto x = convert(v, info, path, d)) return std::get<std::int64_t>(*x);
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Traffic

std::optional<FrameSizeSpec> read_frame_size(const Json& v, const std::string& path,
                                             Diagnostics& d) {
  const std::int64_t big = kMaxJumboFrameBytes + kQTagBytes;
  if (v.is_number()) {
    if (auto x = read_integer(v, path, 1, big, "bytes", d)) return FrameSizeSpec::fixed(*x);
    return std::nullopt;
  }
  const std::string grammar =
      "a size in bytes, {\"uniform\": [lo, hi]} or {\"mix\": [{\"bytes\": N, \"weight\": W}, ...]}";
  if (!v.is_object() || v.size() != 1) {
    d.error(path, "expected " + grammar + ", got " + describe_value(v));
    return std::nullopt;
  }
  const std::string kind = v.begin().key();
  const Json& body = v.begin().value();
  const std::string here = child_path(path, kind);
  if (kind == "uniform") {
    if (!body.is_array() || body.size() != 2) {
      d.error(here, "expected [lo, hi], got " + describe_value(body));
      return std::nullopt;
    }
    auto lo = read_integer(body[0], index_path(here, 0), 1, big, "bytes", d);
    auto hi = read_integer(body[1], index_path(here, 1), 1, big, "bytes", d);
    if (!lo || !hi) return std::nullopt;
    if (*lo > *hi) {
      d.error(here,
              "lo (" + std::to_string(*lo) + ") is larger than hi (" + std::to_string(*hi) + ")");
      return std::nullopt;
    }
    return FrameSizeSpec::uniform(*lo, *hi);
  }
  if (kind == "mix") {
    if (!body.is_array() || body.empty()) {
      d.error(here, "expected a non-empty array of {\"bytes\": N, \"weight\": W}, got " +
                        describe_value(body));
      return std::nullopt;
    }
    std::vector<FrameSizeSpec::Choice> choices;
    bool ok = true;
    for (std::size_t i = 0; i < body.size(); ++i) {
      const std::string at = index_path(here, i);
      const Json& c = body[i];
      if (!c.is_object() || !c.contains("bytes") || !c.contains("weight")) {
        d.error(at, "expected {\"bytes\": N, \"weight\": W}, got " + describe_value(c));
        ok = false;
        continue;
      }
      for (const auto& item : c.items()) {
        if (item.key() != "bytes" && item.key() != "weight") {
          d.error(child_path(at, item.key()), "unknown key" +
                                                  suggestion(item.key(), {"bytes", "weight"}) +
                                                  " (known here: bytes, weight)");
          ok = false;
        }
      }
      auto bytes = read_integer(c["bytes"], child_path(at, "bytes"), 1, big, "bytes", d);
      const Json& w = c["weight"];
      if (!w.is_number() || !(w.get<double>() > 0) || !std::isfinite(w.get<double>())) {
        d.error(child_path(at, "weight"), "expected a positive number, got " + describe_value(w));
        ok = false;
      }
      if (!bytes) ok = false;
      if (ok) choices.push_back({*bytes, w.get<double>()});
    }
    if (!ok) return std::nullopt;
    double total = 0;
    for (const auto& c : choices) total += c.weight;
    if (!std::isfinite(total)) {
      d.error(here, "the weights add up to more than a double can hold; scale them down");
      return std::nullopt;
    }
    return FrameSizeSpec::weighted(std::move(choices));
  }
  d.error(path, "unknown frame size form \"" + kind + "\"" + suggestion(kind, {"uniform", "mix"}) +
                    "; expected " + grammar);
  return std::nullopt;
}

std::vector<ScriptEntry> read_script(const Json& v, const std::string& path, Diagnostics& d) {
  std::vector<ScriptEntry> out;
  if (!v.is_array()) {
    d.error(path, "expected an array of {\"at_ns\": T, \"bytes\": N}, got " + describe_value(v));
    return out;
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = index_path(path, i);
    const Json& e = v[i];
    if (!e.is_object()) {
      d.error(at, "expected {\"at_ns\": T, \"bytes\": N}, got " + describe_value(e));
      continue;
    }
    ScriptEntry entry;
    bool ok = true;
    for (const auto& item : e.items()) {
      if (item.key() != "at_ns" && item.key() != "bytes") {
        d.error(child_path(at, item.key()), "unknown key" +
                                                suggestion(item.key(), {"at_ns", "bytes"}) +
                                                " (known here: at_ns, bytes)");
        ok = false;
      }
    }
    for (const char* key : {"at_ns", "bytes"}) {
      if (!e.contains(key)) {
        d.error(at, std::string("missing \"") + key + "\"");
        ok = false;
      }
    }
    if (!ok) continue;
    auto t = read_integer(e["at_ns"], child_path(at, "at_ns"), 0, 1LL << 50, "ns", d);
    auto b = read_integer(e["bytes"], child_path(at, "bytes"), 1, kMaxJumboFrameBytes + kQTagBytes,
                          "bytes", d);
    if (t && b) out.push_back({*t, *b});
  }
  return out;
}

// Which traffic keys each pattern uses, beyond the common ones.
const std::vector<std::string>& pattern_keys(const std::string& pattern) {
  static const std::vector<std::string> saturated = {"frame_bytes"};
  static const std::vector<std::string> poisson = {"frame_bytes", "load_bps", "load"};
  static const std::vector<std::string> on_off = {"frame_bytes", "peak_load_bps", "on_ns", "off_ns",
                                                  "periods"};
  static const std::vector<std::string> script = {"script"};
  if (pattern == "poisson") return poisson;
  if (pattern == "on_off") return on_off;
  if (pattern == "script") return script;
  return saturated;
}

const std::vector<std::string>& common_traffic_keys() {
  static const std::vector<std::string> keys = {"pattern", "to",    "enabled", "start_ns",
                                                "stop_ns", "count", "vlan_id", "vlan_pcp"};
  return keys;
}

std::string patterns_using(const std::string& key) {
  std::string out;
  for (const auto& p : traffic_patterns()) {
    const auto& keys = pattern_keys(p);
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      out += (out.empty() ? "" : ", ") + p;
  }
  return out;
}

// line_bps converts a load given as a fraction of the line rate.
TrafficParams read_traffic(const Json& obj, const std::string& path, double line_bps,
                           Diagnostics& d) {
  TrafficParams t;
  read_table(obj, path, traffic_param_table(), t, d);
  if (!obj.is_object()) return t;
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (traffic_param_table().find(key) == nullptr) continue;  // reported by read_table
    const auto& common = common_traffic_keys();
    const auto& own = pattern_keys(t.pattern);
    if (std::find(common.begin(), common.end(), key) == common.end() &&
        std::find(own.begin(), own.end(), key) == own.end()) {
      d.error(child_path(path, key), "applies only to pattern " + patterns_using(key) +
                                         "; this source's pattern is \"" + t.pattern + "\"");
    }
  }
  if (!obj.contains("to")) d.error(path, "missing \"to\" (a station name or \"broadcast\")");
  if (obj.contains("frame_bytes")) {
    if (auto spec = read_frame_size(obj["frame_bytes"], child_path(path, "frame_bytes"), d))
      t.frame_bytes = *spec;
  }
  if (obj.contains("script")) t.script = read_script(obj["script"], child_path(path, "script"), d);

  if (t.load > 0 && obj.contains("load_bps"))
    d.error(child_path(path, "load"),
            "give load (a fraction of the line rate) or load_bps, not both");
  else if (t.load > 0)
    t.load_bps = t.load * line_bps;
  t.load = 0;  // from here on the load is load_bps
  if (t.pattern == "poisson" && !(t.load_bps > 0))
    d.error(child_path(path, "load_bps"), "pattern \"poisson\" needs load_bps > 0 (or load > 0)");
  if (t.pattern == "on_off") {
    if (!(t.peak_load_bps > 0))
      d.error(child_path(path, "peak_load_bps"), "pattern \"on_off\" needs peak_load_bps > 0");
  }
  if (t.pattern == "script" && t.script.empty() && !obj.contains("script"))
    d.error(path, "pattern \"script\" needs a \"script\": [{\"at_ns\": T, \"bytes\": N}, ...]");
  if (t.stop_ns >= 0 && t.stop_ns < t.start_ns)
    d.error(child_path(path, "stop_ns"), "stop_ns (" + std::to_string(t.stop_ns) +
                                             ") is before start_ns (" + std::to_string(t.start_ns) +
                                             ")");
  return t;
}

// ---------------------------------------------------------------------------------------------
// The document

const std::vector<std::string>& top_level_blocks() {
  static const std::vector<std::string> keys = {
      "mac",      "sink",  "media", "stations",  "links", "collision_domains",
      "topology", "hosts", "sweep", "link_level"};
  return keys;
}

std::optional<double> read_number(const Json& v, const std::string& path, double min, double max,
                                  const std::string& unit, Diagnostics& d) {
  ParamInfo info;
  info.type = ParamType::real;
  info.min = min;
  info.max = max;
  info.unit = unit;
  if (auto x = convert(v, info, path, d)) return std::get<double>(*x);
  return std::nullopt;
}

// The "link_level" block: {"cables": [...], "lengths_m": [...], "mc_symbols": N,
// "eye_length_m": M}.
void read_link_level(const Json& doc, ScenarioConfig& c, Diagnostics& d) {
  if (!doc.contains("link_level")) return;
  const Json& block = doc["link_level"];
  const std::vector<std::string> keys = {"cables", "lengths_m", "mc_symbols", "eye_length_m"};
  if (!block.is_object()) {
    d.error("link_level", "expected an object with keys from: " + key_list(keys) + "; got " +
                              describe_value(block));
    return;
  }
  ScenarioConfig::LinkLevelSweep s;
  const std::vector<std::string> categories = {"cat5", "cat5e", "cat6"};
  for (const auto& item : block.items()) {
    const std::string at = child_path("link_level", item.key());
    const Json& v = item.value();
    if (item.key() == "cables") {
      if (!v.is_array() || v.empty()) {
        d.error(at, "expected a non-empty array of categories (" + key_list(categories) +
                        "), got " + describe_value(v));
        continue;
      }
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string name = v[i].is_string() ? v[i].get<std::string>() : dump_json(v[i]);
        if (std::find(categories.begin(), categories.end(), name) == categories.end())
          d.error(index_path(at, i),
                  "expected one of " + key_list(categories) + ", got " +
                      (v[i].is_string() ? "\"" + name + "\"" : describe_value(v[i])) +
                      suggestion(name, categories));
        else
          s.cables.push_back(name);
      }
    } else if (item.key() == "lengths_m") {
      if (!v.is_array() || v.empty()) {
        d.error(at, "expected a non-empty array of lengths in metres, got " + describe_value(v));
        continue;
      }
      for (std::size_t i = 0; i < v.size(); ++i)
        if (auto x = read_number(v[i], index_path(at, i), 0, 1000, "m", d))
          s.lengths_m.push_back(*x);
    } else if (item.key() == "mc_symbols") {
      if (auto x = read_number(v, at, 0, 1e8, "symbols", d))
        s.mc_symbols = static_cast<std::int64_t>(*x);
    } else if (item.key() == "eye_length_m") {
      if (auto x = read_number(v, at, 0, 1000, "m", d)) s.eye_length_m = *x;
    } else {
      d.error(at, "unknown key" + suggestion(item.key(), keys) + " (known here: " + key_list(keys) +
                      ")");
    }
  }
  if (s.cables.empty()) s.cables = categories;
  c.link_level = s;
}

void read_domains(const Json& doc, ScenarioConfig& c, const std::vector<std::string>& station_names,
                  const std::vector<std::string>& media_names, std::set<std::string>& attached,
                  Diagnostics& d) {
  if (!doc.contains("collision_domains")) return;
  const Json& domains = doc["collision_domains"];
  if (!domains.is_array()) {
    d.error("collision_domains",
            "expected an array of collision domains, got " + describe_value(domains));
    return;
  }
  static const std::vector<std::string> keys = {"stations", "medium", "cable_m",
                                                "repeater_delay_ns", "delay_ns"};
  for (std::size_t i = 0; i < domains.size(); ++i) {
    const std::string path = index_path("collision_domains", i);
    const Json& obj = domains[i];
    if (!obj.is_object()) {
      d.error(path, "expected an object with keys from: " + key_list(keys) + "; got " +
                        describe_value(obj));
      continue;
    }
    DomainConfig dom;
    for (const auto& item : obj.items()) {
      if (std::find(keys.begin(), keys.end(), item.key()) == keys.end())
        d.error(child_path(path, item.key()), "unknown key" + suggestion(item.key(), keys) +
                                                  " (known here: " + key_list(keys) + ")");
    }
    // Stations.
    const Json& members = obj.contains("stations") ? obj["stations"] : Json();
    const std::string at = child_path(path, "stations");
    if (!members.is_array() || members.size() < 2) {
      d.error(at,
              "expected an array of at least two station names, got " + describe_value(members));
      continue;
    }
    bool ok = true;
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::string where = index_path(at, k);
      if (!members[k].is_string()) {
        d.error(where, "expected a station name, got " + describe_value(members[k]));
        ok = false;
        continue;
      }
      const std::string who = members[k].get<std::string>();
      if (c.find_station(who) == nullptr) {
        d.error(where, "no station \"" + who + "\"" + suggestion(who, station_names) +
                           " (stations: " + key_list(station_names) + ")");
        ok = false;
      } else if (!attached.insert(who).second) {
        d.error(where,
                "station \"" + who + "\" is already on a link or domain; a station has one port");
        ok = false;
      }
      dom.stations.push_back(who);
    }
    // Delays: cable lengths to a repeater, or a matrix.
    const bool cables = obj.contains("cable_m");
    const bool matrix = obj.contains("delay_ns");
    if (cables == matrix) {
      d.error(path,
              "give either \"cable_m\" (each station's cable to a central repeater) or "
              "\"delay_ns\" (a one-way delay matrix), not " +
                  std::string(cables ? "both" : "neither"));
      ok = false;
    }
    if (obj.contains("medium")) {
      const Json& m = obj["medium"];
      if (!m.is_string()) {
        d.error(child_path(path, "medium"), "expected a medium name, got " + describe_value(m));
      } else {
        dom.medium = m.get<std::string>();
      }
    }
    if (c.media.count(dom.medium) == 0)
      d.error(child_path(path, "medium"), "no medium \"" + dom.medium + "\"" +
                                              suggestion(dom.medium, media_names) +
                                              " (media: " + key_list(media_names) + ")");
    if (obj.contains("repeater_delay_ns")) {
      if (matrix)
        d.error(child_path(path, "repeater_delay_ns"),
                "applies to \"cable_m\" domains; a delay_ns matrix already holds every delay");
      if (auto v = read_number(obj["repeater_delay_ns"], child_path(path, "repeater_delay_ns"), 0,
                               1e9, "ns", d))
        dom.repeater_delay_ns = *v;
    }
    if (cables && ok) {
      const Json& len = obj["cable_m"];
      const std::string where = child_path(path, "cable_m");
      if (!len.is_object()) {
        d.error(where,
                "expected {\"<station>\": metres, ...} for every station of the domain, "
                "got " +
                    describe_value(len));
      } else {
        for (const auto& item : len.items())
          if (std::find(dom.stations.begin(), dom.stations.end(), item.key()) == dom.stations.end())
            d.error(child_path(where, item.key()),
                    "not a station of this domain" + suggestion(item.key(), dom.stations));
        for (const auto& s : dom.stations) {
          if (!len.contains(s)) {
            d.error(where, "missing the cable length of station \"" + s + "\"");
            dom.cable_m.push_back(0);
          } else if (auto v = read_number(len[s], child_path(where, s), 0, 100'000, "m", d)) {
            dom.cable_m.push_back(*v);
          } else {
            dom.cable_m.push_back(0);
          }
        }
      }
    }
    if (matrix && ok) {
      const Json& m = obj["delay_ns"];
      const std::string where = child_path(path, "delay_ns");
      const std::size_t n = dom.stations.size();
      if (!m.is_array() || m.size() != n) {
        d.error(where, "expected a " + std::to_string(n) + " x " + std::to_string(n) +
                           " array (one row per station), got " + describe_value(m));
      } else {
        for (std::size_t r = 0; r < n; ++r) {
          std::vector<double> row;
          if (!m[r].is_array() || m[r].size() != n) {
            d.error(index_path(where, r),
                    "expected " + std::to_string(n) + " delays, got " + describe_value(m[r]));
            continue;
          }
          for (std::size_t k = 0; k < n; ++k) {
            const auto v =
                read_number(m[r][k], index_path(index_path(where, r), k), 0, 1e9, "ns", d);
            row.push_back(v ? *v : 0.0);
          }
          dom.delay_ns.push_back(row);
        }
      }
    }
    dom.origin = path;
    c.domains.push_back(std::move(dom));
  }
}

// A cabling plant (the topology file format, docs/topology.md) as the scenario's collision
// domains: every DTE is a station, and each pair's one-way delay is half its path delay value
// without the margin (cables, repeaters and both stations' PHY delays), so the simulated round
// trip is the PDV arithmetic's.
void read_topology(const Json& doc, ScenarioConfig& c,
                   const std::vector<std::string>& station_names, std::set<std::string>& attached,
                   Diagnostics& d) {
  if (!doc.contains("topology")) return;
  const LoadedTopology t =
      read_topology_block(doc["topology"], d.file(), "topology", c.run.rate_mbps, d);
  if (!d.empty()) return;
  c.topology_json = dump_json(doc["topology"]);
  const double bit_ns = 1000.0 / static_cast<double>(c.run.rate_mbps);
  for (std::size_t i = 0; i < t.report.domains.size(); ++i) {
    const DomainReport& dom = t.report.domains[i];
    const std::string origin = "topology domain " + std::to_string(i);
    if (dom.rate_mbps != c.run.rate_mbps) {
      d.error("topology", origin + " runs at " + std::to_string(dom.rate_mbps) +
                              " Mb/s, the scenario at " + std::to_string(c.run.rate_mbps) +
                              " (rate_mbps)");
      continue;
    }
    DomainConfig out;
    out.origin = origin;
    out.from_topology = true;
    for (const auto& s : dom.stations) {
      const CablingNode* node = t.plant.find(s);
      if (node == nullptr || node->kind != NodeKind::dte) continue;  // a switch port
      const std::string where = child_path("topology.nodes", s);
      if (c.find_station(s) == nullptr) {
        d.error(where, "no station \"" + s + "\"" + suggestion(s, station_names) +
                           ": every station (dte) of a scenario's topology is a station of the "
                           "scenario");
      } else if (!attached.insert(s).second) {
        d.error(where,
                "station \"" + s + "\" is already on a link or domain; a station has one port");
      }
      out.stations.push_back(s);
    }
    if (out.stations.size() < 2) {
      if (out.stations.size() == 1)
        d.error(child_path("topology.nodes", out.stations[0]),
                "station \"" + out.stations[0] +
                    "\" has no other station in its collision domain (switches are not "
                    "simulated yet)");
      continue;
    }
    const std::size_t n = out.stations.size();
    out.delay_ns.assign(n, std::vector<double>(n, 0.0));
    for (const PathReport& p : dom.pairs) {
      const auto a = std::find(out.stations.begin(), out.stations.end(), p.from);
      const auto b = std::find(out.stations.begin(), out.stations.end(), p.to);
      if (a == out.stations.end() || b == out.stations.end()) continue;
      if (!p.pdv_known) {
        d.error("topology", origin + ": the path delay of " + p.from + " - " + p.to +
                                " is not known (a device delay is not in the table at this "
                                "speed); give \"delay_bt\" for its repeaters and stations");
        continue;
      }
      const double one_way_ns = (p.pdv_bt - p.margin_bt) / 2 * bit_ns;
      out.delay_ns[a - out.stations.begin()][b - out.stations.begin()] = one_way_ns;
      out.delay_ns[b - out.stations.begin()][a - out.stations.begin()] = one_way_ns;
    }
    c.domains.push_back(std::move(out));
  }
}

// Duplex and the half-duplex rules, once every station knows where it is attached.
void check_duplex(ScenarioConfig& c, Diagnostics& d) {
  auto station = [&](const std::string& name) -> StationConfig& {
    for (auto& s : c.stations)
      if (s.name == name) return s;
    return c.stations.front();  // not reached: names were checked
  };
  for (std::size_t i = 0; i < c.domains.size(); ++i) {
    for (const auto& name : c.domains[i].stations) {
      if (c.find_station(name) == nullptr) continue;
      if (station(name).mac.duplex != "half")
        d.error(child_path(child_path("stations", name), "mac.duplex"),
                "\"" + name + "\" is on " + c.domains[i].origin +
                    ", a shared medium: set \"mac\": {\"duplex\": \"half\"} (at the top "
                    "level, or for the station)");
    }
  }
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const auto& l = c.links[i];
    if (c.find_station(l.a) == nullptr || c.find_station(l.b) == nullptr) continue;
    const std::string& da = station(l.a).mac.duplex;
    const std::string& db = station(l.b).mac.duplex;
    if (da != db)
      d.error(index_path("links", i), "duplex mismatch: " + l.a + " is " + da + " duplex, " + l.b +
                                          " is " + db + " duplex");
    else if (da == "half" && l.params.ber > 0)
      d.error(child_path(index_path("links", i), "ber"),
              "bit errors are modelled on full-duplex links only; this link joins two half-duplex "
              "MACs (a collision domain): use 0");
  }
  const auto mode = find_speed_mode(c.run.rate_mbps);
  for (auto& s : c.stations) {
    const std::string path = child_path(child_path("stations", s.name), "mac");
    if (s.mac.slot_time_bits == 0 && mode) s.mac.slot_time_bits = mode->slot_time_bits;
    if (s.mac.duplex != "half") continue;
    if (mode && !mode->half_duplex_defined)
      d.error(child_path(path, "duplex"), "half duplex is not defined at " +
                                              std::to_string(c.run.rate_mbps) +
                                              " Mb/s (802.3: 10, 100 and 1000 Mb/s only)");
    if (s.mac.frame_bursting && c.run.rate_mbps != 1000)
      d.error(child_path(path, "frame_bursting"), "frame bursting is defined at 1000 Mb/s only");
    if (s.mac.pause_tx_enabled)
      d.error(child_path(path, "pause_tx_enabled"), "PAUSE is full duplex only (802.3 Annex 31B)");
    if (s.mac.ifg_part1_bits > s.mac.ifg_bits)
      d.error(child_path(path, "ifg_part1_bits"),
              "the first part of the gap (" + std::to_string(s.mac.ifg_part1_bits) +
                  " bit times) cannot be longer than the gap (" + std::to_string(s.mac.ifg_bits) +
                  ")");
  }
}

// Links with phy "1000base-t": the bit-error rate the link-level model predicts for the cable
// (one analysis per distinct medium, length and noise).
void predict_phy_errors(ScenarioConfig& c, Diagnostics& d) {
  const std::vector<std::string> kinds = {"ideal", "1000base-t"};
  // Solving the link model takes a fraction of a second per cable: each cable is solved once per
  // process (the desktop app and the fuzz tests load many variants of one scenario).
  static std::mutex mutex;
  static std::map<std::tuple<std::string, double, double>, LinkConfig::PhyPrediction> done;
  const std::lock_guard<std::mutex> lock(mutex);
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    auto& l = c.links[i];
    const std::string path = index_path("links", i);
    if (l.params.phy == "ideal") continue;
    if (l.params.phy != "1000base-t") {
      d.error(child_path(path, "phy"), "expected one of " + key_list(kinds) + ", got \"" +
                                           l.params.phy + "\"" + suggestion(l.params.phy, kinds));
      continue;
    }
    const phy::CableCategory* cable = phy::find_cable_category(l.params.medium);
    if (cable == nullptr) {
      d.error(child_path(path, "medium"),
              "phy \"1000base-t\" needs a twisted-pair category "
              "(cat5, cat5e, cat6), got \"" +
                  l.params.medium + "\"");
      continue;
    }
    const StationConfig* a = c.find_station(l.a);
    if (a != nullptr && a->mac.duplex == "half") {
      d.error(child_path(path, "phy"), "the 1000BASE-T error model is for full-duplex links; " +
                                           l.a + " is half duplex (use phy \"ideal\")");
      continue;
    }
    if (c.run.rate_mbps != 1000) {
      d.error(child_path(path, "phy"), "1000BASE-T runs at 1000 Mb/s; the run's rate_mbps is " +
                                           std::to_string(c.run.rate_mbps));
      continue;
    }
    if (l.params.ber > 0) {
      d.error(child_path(path, "ber"),
              "with phy \"1000base-t\" the bit-error rate comes from the "
              "cable; remove \"ber\" (or use phy \"ideal\")");
      continue;
    }
    const auto key =
        std::make_tuple(l.params.medium, l.params.cable_m, l.params.phy_noise_dbm_per_hz);
    auto it = done.find(key);
    if (it == done.end()) {
      phy::PhyLinkParams p;
      p.cable = cable;
      p.length_m = l.params.cable_m;
      p.background_noise_dbm_per_hz = l.params.phy_noise_dbm_per_hz;
      const auto a = phy::analyse_link(p);
      LinkConfig::PhyPrediction pred;
      pred.snr_db = a.snr_db;
      pred.margin_db = a.margin_db;
      pred.ber = a.ber_coded;
      pred.octet_error_rate = a.octet_error_coded;
      it = done.emplace(key, pred).first;
    }
    l.phy = it->second;
  }
}

// ---------------------------------------------------------------------------------------------
// NIC profiles

// Applies a profile's values to nic and master. `ref` is a built-in profile's name or a path
// ending in .json (relative to the scenario's directory); errors in the profile name its file.
void apply_nic_profile(const Json& ref, const std::string& at, NicParams& nic,
                       PciMasterParams& master, Diagnostics& d) {
  std::vector<std::string> names;
  for (const auto& [name, text] : builtin_nic_profiles()) names.push_back(name);
  if (!ref.is_string()) {
    d.error(at, "expected a profile name (" + key_list(names) + ") or a .json file, got " +
                    describe_value(ref));
    return;
  }
  const std::string r = ref.get<std::string>();
  std::string file;
  std::string text;
  const bool is_file = r.size() > 5 && r.compare(r.size() - 5, 5, ".json") == 0;
  if (is_file) {
    std::filesystem::path p(r);
    if (p.is_relative()) p = std::filesystem::path(d.file()).parent_path() / p;
    file = p.string();
    try {
      text = read_json_file(file);
    } catch (const ScenarioError& e) {
      for (const auto& item : e.diagnostics()) d.error_in(item.file, item.path, item.message);
      return;
    }
  } else {
    for (const auto& [name, body] : builtin_nic_profiles())
      if (name == r) text = body;
    if (text.empty()) {
      d.error(at, "no NIC profile \"" + r + "\"" + suggestion(r, names) +
                      " (built in: " + key_list(names) + "; or give a .json file)");
      return;
    }
    file = "profile " + r;
  }
  Diagnostics pd(file);
  const Json doc = parse_document(text, pd);
  if (!pd.empty()) {
    try {
      pd.throw_if_any();
    } catch (const ScenarioError& e) {
      for (const auto& item : e.diagnostics()) d.error_in(item.file, item.path, item.message);
    }
    return;
  }
  if (!doc.is_object()) {
    d.error_in(file, "", "not a NIC profile: expected a JSON object, got " + describe_value(doc));
    return;
  }
  static const std::vector<std::string> keys = {"name", "description", "nic", "master"};
  for (const auto& item : doc.items())
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end())
      d.error_in(file, item.key(),
                 d.full() ? std::string()
                          : "unknown key" + suggestion(item.key(), keys) +
                                " (known here: " + key_list(keys) + ")");
  // Each field: {"value": ..., "source": "..."}; the values go through the parameter tables.
  auto values_of = [&](const char* block) {
    Json values = Json::object();
    if (!doc.contains(block)) return values;
    const Json& b = doc[block];
    if (!b.is_object()) {
      d.error_in(file, block, "expected an object of fields, got " + describe_value(b));
      return values;
    }
    for (const auto& f : b.items()) {
      const std::string path = child_path(block, f.key());
      const Json& v = f.value();
      if (!v.is_object() || !v.contains("value") || !v.contains("source") ||
          !v["source"].is_string() || v["source"].get<std::string>().empty() || v.size() != 2) {
        d.error_in(file, path,
                   "expected {\"value\": ..., \"source\": \"where it comes from, or "
                   "assumption\"}, got " +
                       describe_value(v));
        continue;
      }
      // The block has no duplicate keys (the parser refuses them): append, in linear time.
      values.get_ref<Json::object_t&>().emplace_back(f.key(), v["value"]);
    }
    return values;
  };
  Diagnostics fields(file);
  const Json n = values_of("nic");
  const Json m = values_of("master");
  read_table(n, "nic", nic_param_table(), nic, fields);
  read_table(m, "master", pci_master_param_table(), master, fields);
  try {
    fields.throw_if_any();
  } catch (const ScenarioError& e) {
    for (const auto& item : e.diagnostics()) d.error_in(item.file, item.path, item.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Hosts: a PCI bus, its host bridge, DMA masters

std::vector<HostConfig> read_hosts(const Json& v, Diagnostics& d) {
  std::vector<HostConfig> hosts;
  if (!v.is_object()) {
    d.error("hosts",
            "expected an object {\"<host name>\": {\"pci\": {...}, \"bridge\": {...}, "
            "\"dma\": {...}}}, got " +
                describe_value(v));
    return hosts;
  }
  static const std::vector<std::string> host_keys = {"pci", "bridge", "dma", "nic",
                                                     "cpu", "tx",     "app", "transport"};
  for (const auto& item : v.items()) {
    const std::string path = child_path("hosts", item.key());
    HostConfig h;
    h.name = item.key();
    if (!is_identifier(h.name))
      d.error(path, "host names are identifiers (letters, digits, _, not starting with a digit)");
    const Json& body = item.value();
    if (!body.is_object()) {
      d.error(path, "expected an object with keys from: " + key_list(host_keys) + "; got " +
                        describe_value(body));
      continue;
    }
    for (const auto& field : body.items())
      if (std::find(host_keys.begin(), host_keys.end(), field.key()) == host_keys.end())
        d.error(child_path(path, field.key()), "unknown key" + suggestion(field.key(), host_keys) +
                                                   " (known here: " + key_list(host_keys) + ")");
    if (body.contains("pci"))
      read_table(body["pci"], child_path(path, "pci"), pci_bus_param_table(), h.pci, d);
    if (body.contains("bridge"))
      read_table(body["bridge"], child_path(path, "bridge"), pci_target_param_table(), h.bridge, d);
    if (body.contains("nic")) {
      h.has_nic = true;
      const std::string npath = child_path(path, "nic");
      if (body["nic"].is_object() && body["nic"].contains("profile"))
        apply_nic_profile(body["nic"]["profile"], child_path(npath, "profile"), h.nic, h.nic_master,
                          d);
      read_table(body["nic"], npath, nic_param_table(), h.nic, d, {"master", "profile"});
      if (body["nic"].is_object() && body["nic"].contains("master"))
        read_table(body["nic"]["master"], child_path(npath, "master"), pci_master_param_table(),
                   h.nic_master, d);
      if (!body["nic"].is_object() || !body["nic"].contains("station"))
        d.error(npath, "missing \"station\": the station whose MAC the NIC serves");
    }
    if (body.contains("tx")) {
      if (!body.contains("nic")) d.error(child_path(path, "tx"), "a sender needs the host's nic");
      read_table(body["tx"], child_path(path, "tx"), host_tx_param_table(), h.tx, d);
    }
    if (body.contains("app")) {
      if (!body.contains("nic"))
        d.error(child_path(path, "app"), "an application needs the host's nic");
      read_table(body["app"], child_path(path, "app"), app_param_table(), h.app, d);
      if (body["app"].is_object() && !body["app"].contains("kind"))
        d.error(child_path(path, "app"), "missing \"kind\": one of " + key_list(app_kinds()));
      if (body["app"].is_object() && !body["app"].contains("peer"))
        d.error(child_path(path, "app"), "missing \"peer\": the station at the other end");
    }
    if (body.contains("transport")) {
      if (!body.contains("app"))
        d.error(child_path(path, "transport"), "transport settings need an app on this host");
      read_table(body["transport"], child_path(path, "transport"), transport_param_table(),
                 h.transport, d);
    }
    if (h.app.kind == "udp" && h.app.request_bytes > 65507)
      d.error(
          child_path(child_path(path, "app"), "request_bytes"),
          "a UDP datagram carries at most 65507 bytes, got " + std::to_string(h.app.request_bytes));
    if (body.contains("cpu")) {
      if (!body.contains("nic"))
        d.error(child_path(path, "cpu"), "CPU costs apply to a NIC's driver: this host has no nic");
      read_table(body["cpu"], child_path(path, "cpu"), cpu_param_table(), h.cpu, d);
    }
    const std::string pci = child_path(path, "pci");
    if (h.pci.width_bits != 32 && h.pci.width_bits != 64)
      d.error(child_path(pci, "width_bits"),
              "a PCI bus is 32 or 64 bits wide, got " + std::to_string(h.pci.width_bits));
    const bool pcix = h.pci.mode == "pcix";
    const std::vector<std::int64_t> clocks =
        pcix ? std::vector<std::int64_t>{66, 100, 133} : std::vector<std::int64_t>{33, 66};
    if (std::find(clocks.begin(), clocks.end(), h.pci.clock_mhz) == clocks.end())
      d.error(child_path(pci, "clock_mhz"),
              std::string(pcix ? "PCI-X runs at 66, 100 or 133 MHz" : "PCI runs at 33 or 66 MHz") +
                  ", got " + std::to_string(h.pci.clock_mhz));
    const std::string bridge = child_path(path, "bridge");
    const std::int64_t line = h.bridge.cache_line_bytes;
    if ((line & (line - 1)) != 0)
      d.error(child_path(bridge, "cache_line_bytes"),
              "a cache line is a power of two, got " + std::to_string(line));
    if (!pcix && h.bridge.split_read_bytes > 0)
      d.error(
          child_path(bridge, "split_read_bytes"),
          "split transactions are PCI-X only; this bus is \"pci\" (hosts." + h.name + ".pci.mode)");
    if (body.contains("dma")) {
      const Json& dma = body["dma"];
      const std::string dpath = child_path(path, "dma");
      if (!dma.is_object()) {
        d.error(dpath, "expected an object {\"<master name>\": {...}}, got " + describe_value(dma));
      } else {
        for (const auto& m : dma.items()) {
          const std::string mpath = child_path(dpath, m.key());
          DmaMasterConfig c;
          c.name = m.key();
          if (!is_identifier(c.name))
            d.error(mpath, "master names are identifiers (letters, digits, _)");
          if (c.name == "pci") d.error(mpath, "\"pci\" is the bus's own name");
          read_table(m.value(), mpath, dma_traffic_param_table(), c.traffic, d, {"master"});
          if (m.value().is_object() && m.value().contains("master"))
            read_table(m.value()["master"], child_path(mpath, "master"), pci_master_param_table(),
                       c.master, d);
          if (c.traffic.target != "bridge")
            d.error(child_path(mpath, "target"), "no target \"" + c.traffic.target + "\"" +
                                                     suggestion(c.traffic.target, {"bridge"}) +
                                                     " (targets on this bus: bridge)");
          if (c.master.width_bits != 32 && c.master.width_bits != 64)
            d.error(child_path(child_path(mpath, "master"), "width_bits"),
                    "a master is 32 or 64 bits wide, got " + std::to_string(c.master.width_bits));
          if (c.master.latency_timer_clocks % 8 != 0)
            d.error(child_path(child_path(mpath, "master"), "latency_timer_clocks"),
                    "the latency timer counts in units of 8 clocks, got " +
                        std::to_string(c.master.latency_timer_clocks));
          h.dma.push_back(c);
        }
      }
    }
    hosts.push_back(h);
  }
  return hosts;
}

ScenarioConfig read_config(const Json& doc, Diagnostics& d) {
  ScenarioConfig c;
  if (!doc.is_object()) {
    d.error("", "expected a JSON object at the top level, got " + describe_value(doc));
    return c;
  }
  read_table(doc, "", run_param_table(), c.run, d, top_level_blocks());
  for (const char* key : {"name", "description"})
    if (!doc.contains(key)) d.error("", std::string("missing \"") + key + "\"");
  if (doc.contains("name") && doc["name"].is_string())
    if (const auto problem = results_name_problem(c.run.name)) d.error("name", *problem);
  if (doc.contains("rate_mbps") && !find_speed_mode(c.run.rate_mbps))
    d.error("rate_mbps", "no speed mode " + std::to_string(c.run.rate_mbps) +
                             " Mb/s; expected one of " + speed_mode_list());

  // Media: the built-in table, then the scenario's overrides and additions.
  for (const auto& row : builtin_media()) c.media[row.name] = row.params;
  if (doc.contains("media")) {
    const Json& media = doc["media"];
    if (!media.is_object()) {
      d.error("media",
              "expected an object {\"<medium>\": {\"ns_per_m\": X}}, got " + describe_value(media));
    } else {
      for (const auto& item : media.items()) {
        if (!is_identifier(item.key()))
          d.error(child_path("media", item.key()),
                  "medium names are identifiers (letters, digits, _)");
        MediumParams& m = c.media[item.key()];
        read_table(item.value(), child_path("media", item.key()), medium_param_table(), m, d);
      }
    }
  }

  MacParams default_mac;
  SinkParams default_sink;
  if (doc.contains("mac")) read_table(doc["mac"], "mac", mac_param_table(), default_mac, d);
  if (doc.contains("sink")) read_table(doc["sink"], "sink", sink_param_table(), default_sink, d);

  // Stations.
  const std::size_t station_count =
      doc.contains("stations") && doc["stations"].is_object() ? doc["stations"].size() : 0;
  const std::size_t host_count =
      doc.contains("hosts") && doc["hosts"].is_object() ? doc["hosts"].size() : 0;
  if (station_count + host_count > kMaxStations) {
    // Elaboration and results grow faster than the count (10,000 stations take about 10 s and
    // 0.7 GB before the first simulated nanosecond): a guard, not a model limit.
    d.error("stations", "has " + std::to_string(station_count) + " stations and " +
                            std::to_string(host_count) + " hosts; a scenario takes at most " +
                            std::to_string(kMaxStations) + " together");
    return c;
  }
  if (doc.contains("hosts")) c.hosts = read_hosts(doc["hosts"], d);
  if (!doc.contains("stations")) {
    if (!doc.contains("hosts"))
      d.error("", "missing \"stations\": {\"<name>\": {\"traffic\": [...]}, ...}");
  } else if (!doc["stations"].is_object() || (doc["stations"].empty() && c.hosts.empty())) {
    d.error("stations",
            "expected a non-empty object of stations, got " + describe_value(doc["stations"]));
  } else {
    std::uint32_t index = 0;
    for (const auto& item : doc["stations"].items()) {
      const std::string path = child_path("stations", item.key());
      StationConfig s;
      s.name = item.key();
      s.mac = default_mac;
      s.sink = default_sink;
      s.address = MacAddress::for_station(++index);
      if (!is_identifier(s.name))
        d.error(path,
                "station names are identifiers (letters, digits, _, not starting with a digit)");
      if (s.name == "broadcast") d.error(path, "\"broadcast\" is reserved as a destination");
      const Json& body = item.value();
      static const std::vector<std::string> station_keys = {"address", "mac", "sink", "traffic"};
      if (!body.is_object()) {
        d.error(path, "expected an object with keys from: " + key_list(station_keys) + "; got " +
                          describe_value(body));
        continue;
      }
      for (const auto& field : body.items()) {
        const std::string& key = field.key();
        const std::string at = child_path(path, key);
        if (key == "mac") {
          read_table(field.value(), at, mac_param_table(), s.mac, d);
        } else if (key == "sink") {
          read_table(field.value(), at, sink_param_table(), s.sink, d);
        } else if (key == "address") {
          const auto a = field.value().is_string()
                             ? MacAddress::parse(field.value().get<std::string>())
                             : std::nullopt;
          if (!a) {
            d.error(at, "expected a MAC address like \"02:00:00:00:00:01\", got " +
                            describe_value(field.value()));
          } else if (a->is_multicast()) {
            d.error(at, "a station address must be unicast (first octet even)");
          } else {
            s.address = *a;
          }
        } else if (key == "traffic") {
          if (!field.value().is_array()) {
            d.error(at,
                    "expected an array of traffic sources, got " + describe_value(field.value()));
            continue;
          }
          // Every source is consulted at each decision of its MAC: thousands on one station
          // would make the run crawl, and no installation has them.
          if (field.value().size() > kMaxTrafficSources) {
            d.error(at, "has " + std::to_string(field.value().size()) +
                            " traffic sources; a station takes at most " +
                            std::to_string(kMaxTrafficSources));
            continue;
          }
          for (std::size_t i = 0; i < field.value().size(); ++i)
            s.traffic.push_back(read_traffic(field.value()[i], index_path(at, i),
                                             1e6 * static_cast<double>(c.run.rate_mbps), d));
        } else {
          d.error(at, "unknown key" + suggestion(key, station_keys) +
                          " (known here: " + key_list(station_keys) + ")");
        }
      }
      if (s.mac.pause_xon_bytes >= s.mac.pause_xoff_bytes)
        d.error(child_path(path, "mac.pause_xon_bytes"),
                "pause_xon_bytes (" + std::to_string(s.mac.pause_xon_bytes) +
                    ") must be below pause_xoff_bytes (" + std::to_string(s.mac.pause_xoff_bytes) +
                    ")");
      c.stations.push_back(std::move(s));
    }
  }
  std::vector<std::string> station_names;
  for (const auto& s : c.stations) station_names.push_back(s.name);
  for (std::size_t i = 0; i < c.stations.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (c.stations[i].address == c.stations[j].address)
        d.error(child_path("stations", c.stations[i].name),
                "address " + c.stations[i].address.to_string() + " is also station " +
                    c.stations[j].name + "'s");

  std::set<std::string> served;
  for (const auto& h : c.hosts) {
    if (c.find_station(h.name) != nullptr)
      d.error(child_path("hosts", h.name), "\"" + h.name + "\" is also a station's name");
    if (!h.has_nic || h.nic.station.empty()) continue;
    const std::string at = child_path(child_path(child_path("hosts", h.name), "nic"), "station");
    const StationConfig* s = c.find_station(h.nic.station);
    if (s == nullptr) {
      d.error(at,
              "no station \"" + h.nic.station + "\"" + suggestion(h.nic.station, station_names));
      continue;
    }
    if (!h.tx.to.empty()) {
      const std::string to = child_path(child_path(child_path("hosts", h.name), "tx"), "to");
      if (c.find_station(h.tx.to) == nullptr)
        d.error(to, "no station \"" + h.tx.to + "\"" + suggestion(h.tx.to, station_names));
      else if (h.tx.to == h.nic.station)
        d.error(to, "the NIC's own station; send to another");
      else if (h.tx.frame_bytes > s->mac.max_frame_bytes)
        d.error(child_path(child_path(child_path("hosts", h.name), "tx"), "frame_bytes"),
                std::to_string(h.tx.frame_bytes) +
                    "-byte frames exceed the station's max_frame_bytes (" +
                    std::to_string(s->mac.max_frame_bytes) + ")");
    }
    if (!served.insert(h.nic.station).second)
      d.error(at, "station \"" + h.nic.station + "\" already has a NIC");
    const std::int64_t largest = s->mac.max_frame_bytes + 4;  // with a VLAN tag
    if (h.nic.rx_fifo_bytes < largest)
      d.error(child_path(child_path(child_path("hosts", h.name), "nic"), "rx_fifo_bytes"),
              "a receive FIFO of " + std::to_string(h.nic.rx_fifo_bytes) +
                  " bytes cannot hold the station's largest frame (" + std::to_string(largest) +
                  " bytes with a VLAN tag)");
    const std::int64_t buffers = (largest + h.nic.buffer_bytes - 1) / h.nic.buffer_bytes;
    if (h.nic.rx_ring_descriptors - 1 < buffers)
      d.error(child_path(child_path(child_path("hosts", h.name), "nic"), "rx_ring_descriptors"),
              "a ring of " + std::to_string(h.nic.rx_ring_descriptors) +
                  " descriptors (one always kept free) cannot take the largest frame's " +
                  std::to_string(buffers) + " buffers of " + std::to_string(h.nic.buffer_bytes) +
                  " bytes");
    if (h.nic.tx_fifo_bytes < largest)
      d.error(child_path(child_path(child_path("hosts", h.name), "nic"), "tx_fifo_bytes"),
              "a transmit FIFO of " + std::to_string(h.nic.tx_fifo_bytes) +
                  " bytes cannot hold the station's largest frame (" + std::to_string(largest) +
                  " bytes with a VLAN tag): transmit is store and forward");
  }

  // Links.
  std::vector<std::string> media_names;
  for (const auto& [name, params] : c.media) media_names.push_back(name);
  std::set<std::string> linked;
  if (doc.contains("links")) {
    const Json& links = doc["links"];
    if (!links.is_array()) {
      d.error("links", "expected an array of links, got " + describe_value(links));
    } else {
      for (std::size_t i = 0; i < links.size(); ++i) {
        const std::string path = index_path("links", i);
        LinkConfig l;
        read_table(links[i], path, link_param_table(), l.params, d, {"between"});
        if (!links[i].is_object()) continue;
        const Json& between = links[i].contains("between") ? links[i]["between"] : Json();
        const std::string at = child_path(path, "between");
        if (!between.is_array() || between.size() != 2 || !between[0].is_string() ||
            !between[1].is_string()) {
          d.error(at, "expected [\"<station>\", \"<station>\"], got " + describe_value(between));
          continue;
        }
        l.a = between[0].get<std::string>();
        l.b = between[1].get<std::string>();
        bool ok = true;
        if (l.a == l.b) {
          d.error(at, "a link joins two different stations, not \"" + l.a + "\" to itself");
          ok = false;
        }
        for (std::size_t k = 0; ok && k < 2; ++k) {
          const std::string& who = k == 0 ? l.a : l.b;
          if (c.find_station(who) == nullptr) {
            d.error(index_path(at, k), "no station \"" + who + "\"" +
                                           suggestion(who, station_names) +
                                           " (stations: " + key_list(station_names) + ")");
            ok = false;
          } else if (!linked.insert(who).second) {
            d.error(index_path(at, k),
                    "station \"" + who + "\" is already on another link; a station has one port");
            ok = false;
          }
        }
        if (c.media.count(l.params.medium) == 0)
          d.error(child_path(path, "medium"), "no medium \"" + l.params.medium + "\"" +
                                                  suggestion(l.params.medium, media_names) +
                                                  " (media: " + key_list(media_names) + ")");
        c.links.push_back(std::move(l));
      }
    }
  }
  read_domains(doc, c, station_names, media_names, linked, d);
  read_link_level(doc, c, d);
  read_topology(doc, c, station_names, linked, d);
  for (const auto& s : c.stations)
    if (linked.count(s.name) == 0)
      d.error(
          child_path("stations", s.name),
          "station is not on any link or collision domain; add it to \"links\", \"topology\" or "
          "\"collision_domains\"");
  check_duplex(c, d);
  predict_phy_errors(c, d);

  // Traffic destinations and frame sizes against the MACs.
  for (const auto& s : c.stations) {
    for (std::size_t i = 0; i < s.traffic.size(); ++i) {
      const TrafficParams& t = s.traffic[i];
      const std::string path = index_path(child_path(child_path("stations", s.name), "traffic"), i);
      if (t.to.empty()) {
        d.error(child_path(path, "to"), "expected a station name or \"broadcast\", got \"\"");
      } else if (t.to != "broadcast") {
        const auto reachable = c.reachable_from(s.name);
        if (t.to == s.name) {
          d.error(child_path(path, "to"), "a station cannot send to itself");
        } else if (c.find_station(t.to) == nullptr) {
          std::vector<std::string> options = station_names;
          options.push_back("broadcast");
          d.error(child_path(path, "to"),
                  "no station \"" + t.to + "\"" + suggestion(t.to, options));
        } else if (!reachable.empty() &&
                   std::find(reachable.begin(), reachable.end(), t.to) == reachable.end()) {
          d.error(child_path(path, "to"), "\"" + t.to + "\" is not reachable from " + s.name +
                                              " (reachable: " + key_list(reachable) +
                                              "; there are no switches between segments)");
        }
      }
      const std::int64_t limit = s.mac.max_frame_bytes + (t.vlan_id >= 0 ? kQTagBytes : 0);
      auto check_size = [&](std::int64_t bytes, const std::string& at) {
        if (bytes < kMinFrameBytes) {
          d.error(at,
                  std::to_string(bytes) + " bytes is below the 64-byte minimum frame (DA..FCS)");
        } else if (bytes > limit) {
          d.error(at, std::to_string(bytes) +
                          " bytes is larger than this station's maximum frame (" +
                          std::to_string(limit) +
                          " bytes; raise mac.max_frame_bytes for jumbo frames)");
        }
      };
      if (t.pattern == "script") {
        for (std::size_t k = 0; k < t.script.size(); ++k)
          check_size(t.script[k].bytes,
                     child_path(index_path(child_path(path, "script"), k), "bytes"));
      } else {
        check_size(t.frame_bytes.smallest(), child_path(path, "frame_bytes"));
        if (t.frame_bytes.largest() != t.frame_bytes.smallest())
          check_size(t.frame_bytes.largest(), child_path(path, "frame_bytes"));
      }
    }
  }
  // Applications: their peers are stations reachable over the links and domains read above.
  for (const auto& h : c.hosts) {
    const StationConfig* s = h.has_nic ? c.find_station(h.nic.station) : nullptr;
    if (s == nullptr) continue;
    if (!h.app.kind.empty()) {
      const std::string app = child_path(child_path("hosts", h.name), "app");
      const StationConfig* peer = c.find_station(h.app.peer);
      const std::int64_t frame = h.transport.mtu + 18;
      if (peer == nullptr) {
        d.error(child_path(app, "peer"),
                "no station \"" + h.app.peer + "\"" + suggestion(h.app.peer, station_names));
      } else if (h.app.peer == h.nic.station) {
        d.error(child_path(app, "peer"), "the NIC's own station; the peer is another station");
      } else {
        const auto reach = c.reachable_from(h.nic.station);
        if (std::find(reach.begin(), reach.end(), h.app.peer) == reach.end())
          d.error(child_path(app, "peer"), "station \"" + h.app.peer +
                                               "\" is not reachable from \"" + h.nic.station +
                                               "\" (no link or collision domain joins them)");
        if (!h.tx.to.empty())
          d.error(app, "a host runs either the raw sender (tx) or an application, not both");
        for (const StationConfig* st : {s, peer})
          if (frame > st->mac.max_frame_bytes)
            d.error(child_path(child_path(child_path("hosts", h.name), "transport"), "mtu"),
                    "MTU " + std::to_string(h.transport.mtu) + " makes " + std::to_string(frame) +
                        "-byte frames, over station " + st->name + "'s max_frame_bytes (" +
                        std::to_string(st->mac.max_frame_bytes) + ")");
      }
    }
    for (const auto& other : c.hosts)
      if (!h.app.kind.empty() && &other != &h && other.has_nic && other.nic.station == h.app.peer &&
          !other.app.kind.empty())
        d.error(child_path(child_path("hosts", other.name), "app"),
                "host " + h.name +
                    "'s application already runs its other end on this host "
                    "(a host runs one application end)");
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Sweeps

// "a, b," -> {"a", " b", ""}: every piece, empty ones included.
std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

SweepPlan read_sweep(const Json& doc, Diagnostics& d) {
  SweepPlan plan;
  if (!doc.is_object()) return plan;
  // The same checked conversion the configuration itself gets.
  for (const char* key : {"replications", "seed"}) {
    if (!doc.contains(key)) continue;
    const auto* entry = run_param_table().find(key);
    if (auto v = convert(doc[key], entry->info, key, d)) {
      (std::string(key) == "seed" ? plan.base_seed : plan.replications) =
          std::get<std::int64_t>(*v);
    }
  }
  if (!doc.contains("sweep")) return plan;
  const Json& sweep = doc["sweep"];
  if (!sweep.is_object()) {
    d.error("sweep", "expected an object {\"<path>\": [values...]}, got " + describe_value(sweep));
    return plan;
  }
  for (const auto& item : sweep.items()) {
    const std::string at = "sweep[\"" + item.key() + "\"]";
    const Json& values = item.value();
    if (!values.is_array() || values.empty()) {
      d.error(at, "expected a non-empty array of values, got " + describe_value(values));
      continue;
    }
    SweepAxis axis;
    axis.name = item.key();
    auto check_path = [&](std::string p, const std::string& where) -> std::optional<std::string> {
      p.erase(0, p.find_first_not_of(' '));
      p.erase(p.find_last_not_of(' ') + 1);
      try {
        const auto tokens = parse_json_path(p);
        static const std::vector<std::string> fixed = {"seed", "replications", "name",
                                                       "description", "sweep"};
        if (tokens.size() == 1 && std::find(fixed.begin(), fixed.end(), p) != fixed.end()) {
          d.error(where, "\"" + p + "\" cannot be swept (replications and --seed vary the seed)");
          return std::nullopt;
        }
        return p;
      } catch (const std::invalid_argument& e) {
        d.error(where, e.what());
        return std::nullopt;
      }
    };
    const bool variants = std::all_of(values.begin(), values.end(), [](const Json& v) {
      return v.is_object() && v.contains("label") && v.contains("set");
    });
    if (variants) {
      // {"label": L, "set": {"<path>": value, ...}}: the key only names the column.
      bool ok = true;
      for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string where = index_path(at, i);
        const Json& v = values[i];
        for (const auto& field : v.items())
          if (field.key() != "label" && field.key() != "set") {
            d.error(child_path(where, field.key()), "unknown key" +
                                                        suggestion(field.key(), {"label", "set"}) +
                                                        " (known here: label, set)");
            ok = false;
          }
        if (!v["label"].is_string() && !v["label"].is_number()) {
          d.error(child_path(where, "label"),
                  "expected a string or number, got " + describe_value(v["label"]));
          ok = false;
        }
        // An empty set is the scenario as written: a baseline variant.
        if (!v["set"].is_object()) {
          d.error(child_path(where, "set"),
                  "expected an object {\"<path>\": value, ...}, got " + describe_value(v["set"]));
          ok = false;
          continue;
        }
        std::vector<std::pair<std::string, Json>> assignments;
        for (const auto& a : v["set"].items()) {
          if (auto p = check_path(a.key(), child_path(where, "set"))) {
            assignments.emplace_back(*p, a.value());
          } else {
            ok = false;
          }
        }
        axis.labels.push_back(value_text(v["label"]));
        axis.sets.push_back(std::move(assignments));
      }
      if (ok) plan.axes.push_back(std::move(axis));
      continue;
    }
    bool paths_ok = true;
    for (const std::string& piece : split_commas(item.key())) {
      if (auto p = check_path(piece, at)) {
        axis.paths.push_back(*p);
      } else {
        paths_ok = false;
      }
    }
    if (!paths_ok) continue;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (axis.paths.size() == 1) {
        axis.values.push_back({values[i]});
      } else if (!values[i].is_array() || values[i].size() != axis.paths.size()) {
        d.error(index_path(at, i), "this axis sweeps " + std::to_string(axis.paths.size()) +
                                       " paths together: expected an array of " +
                                       std::to_string(axis.paths.size()) + " values, got " +
                                       describe_value(values[i]));
      } else {
        axis.values.push_back(std::vector<Json>(values[i].begin(), values[i].end()));
      }
    }
    if (!axis.paths.empty()) plan.axes.push_back(std::move(axis));
  }
  // The size is checked before anything multiplies it out.
  double runs = static_cast<double>(plan.replications);
  for (const auto& a : plan.axes) runs *= static_cast<double>(a.steps());
  if (runs > static_cast<double>(kMaxSweepRuns)) {
    d.error("sweep",
            fmt::format("the sweep has {:.4g} runs (points x replications); the limit is {}", runs,
                        kMaxSweepRuns));
  }
  return plan;
}

std::string point_label(const std::vector<std::pair<std::string, Json>>& values) {
  std::string out;
  for (const auto& [path, v] : values) out += (out.empty() ? "" : ", ") + path + "=" + dump_json(v);
  return out;
}

void apply_sets(Json& doc, const std::vector<std::string>& sets, Diagnostics& d) {
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      d.error("--set " + s, "expected path=value, e.g. --set links[0].cable_m=100");
      continue;
    }
    try {
      set_json_path(doc, s.substr(0, eq), parse_override_value(s.substr(eq + 1)));
    } catch (const std::invalid_argument& e) {
      d.error("--set " + s.substr(0, eq), e.what());
    }
  }
}

struct Prepared {
  Json doc;
  SweepPlan plan;
};

Prepared prepare(const std::string& text, const std::string& file, const LoadOptions& options) {
  Diagnostics d(file);
  Prepared p;
  p.doc = parse_document(text, d);
  d.throw_if_any();
  apply_sets(p.doc, options.sets, d);
  d.throw_if_any();
  p.plan = read_sweep(p.doc, d);
  d.throw_if_any();
  if (options.seed) p.plan.base_seed = *options.seed;
  return p;
}

LoadedScenario load_point(const Prepared& prepared, const std::string& file,
                          std::optional<std::size_t> run) {
  Diagnostics d(file);
  Json doc = prepared.doc;
  LoadedScenario out;
  out.file = file;
  out.plan = prepared.plan;
  out.run = run;
  std::string prefix;
  if (run) {
    if (*run >= prepared.plan.run_count()) {
      d.error("", "--point " + std::to_string(*run) + " is out of range: the sweep has " +
                      std::to_string(prepared.plan.run_count()) + " runs (0.." +
                      std::to_string(prepared.plan.run_count() - 1) + ")");
      d.throw_if_any();
    }
    out.point_values = prepared.plan.point(prepared.plan.point_of_run(*run));
    for (const auto& [path, value] : out.point_values) {
      try {
        set_json_path(doc, path, value);
      } catch (const std::invalid_argument& e) {
        d.error("sweep[\"" + path + "\"]", e.what());
      }
    }
    d.throw_if_any();
    prefix = "sweep point " + std::to_string(prepared.plan.point_of_run(*run)) + " (" +
             point_label(out.point_values) + "): ";
  }
  Diagnostics inner(file);
  out.config = read_config(doc, inner);
  if (!inner.empty()) {
    try {
      inner.throw_if_any();
    } catch (const ScenarioError& e) {
      std::vector<Diagnostic> items = e.diagnostics();
      for (auto& item : items) item.message = prefix + item.message;
      throw ScenarioError(items, e.more());
    }
  }
  out.config.run.seed = run ? prepared.plan.seed_of_run(*run) : prepared.plan.base_seed;
  out.resolved = resolved_json(out.config);
  return out;
}

}  // namespace

std::size_t SweepPlan::point_count() const {
  std::size_t n = 1;
  for (const auto& a : axes) n *= a.steps();
  return n;
}

namespace {
std::vector<std::size_t> step_indices(const std::vector<SweepAxis>& axes, std::size_t k) {
  std::vector<std::size_t> index(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    index[i] = k % axes[i].steps();
    k /= axes[i].steps();
  }
  return index;
}
}  // namespace

std::vector<std::pair<std::string, Json>> SweepPlan::point(std::size_t k) const {
  const auto index = step_indices(axes, k);
  std::vector<std::pair<std::string, Json>> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].variant()) {
      for (const auto& assignment : axes[i].sets[index[i]]) out.push_back(assignment);
    } else {
      for (std::size_t p = 0; p < axes[i].paths.size(); ++p)
        out.emplace_back(axes[i].paths[p], axes[i].values[index[i]][p]);
    }
  }
  return out;
}

std::vector<std::string> SweepPlan::columns() const {
  std::vector<std::string> out;
  for (const auto& a : axes) {
    if (a.variant()) {
      out.push_back(a.name);
    } else {
      out.insert(out.end(), a.paths.begin(), a.paths.end());
    }
  }
  return out;
}

std::vector<std::string> SweepPlan::point_labels(std::size_t k) const {
  const auto index = step_indices(axes, k);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].variant()) {
      out.push_back(axes[i].labels[index[i]]);
    } else {
      for (const auto& v : axes[i].values[index[i]]) out.push_back(value_text(v));
    }
  }
  return out;
}

LoadedScenario load_scenario_text(const std::string& text, const std::string& file,
                                  const LoadOptions& options) {
  try {
    const Prepared prepared = prepare(text, file, options);
    return load_point(prepared, file, options.run);
  } catch (const Json::exception& e) {
    // Defensive: every JSON access is checked, but a library exception must still name the file.
    throw ScenarioError({{file, "", e.what()}});
  }
}

LoadedScenario load_scenario(const std::string& file, const LoadOptions& options) {
  return load_scenario_text(read_json_file(file), file, options);
}

SweepPlan load_sweep_plan(const std::string& file, const LoadOptions& options) {
  const Prepared prepared = prepare(read_json_file(file), file, options);
  std::vector<Diagnostic> all;
  std::size_t more = 0;
  try {
    load_point(prepared, file, std::nullopt);
  } catch (const ScenarioError& e) {
    all.insert(all.end(), e.diagnostics().begin(), e.diagnostics().end());
    more += e.more();
  }
  for (std::size_t p = 0; all.size() < kMaxShownErrors && p < prepared.plan.point_count(); ++p) {
    try {
      load_point(prepared, file, p * static_cast<std::size_t>(prepared.plan.replications));
    } catch (const ScenarioError& e) {
      all.insert(all.end(), e.diagnostics().begin(), e.diagnostics().end());
      more += e.more();
    }
  }
  if (!all.empty()) throw ScenarioError(all, more);
  return prepared.plan;
}

// ---------------------------------------------------------------------------------------------
// The resolved configuration, written back as a scenario.

namespace {

Json to_json(const ParamValue& v) {
  struct Visitor {
    Json operator()(std::int64_t x) const { return x; }
    Json operator()(double x) const { return x; }
    Json operator()(bool x) const { return x; }
    Json operator()(const std::string& x) const { return x; }
  };
  return std::visit(Visitor{}, v);
}

template <class P>
Json table_json(const ParamTable<P>& table, const P& params,
                const std::vector<std::string>& only = {}) {
  Json out = Json::object();
  for (const auto& e : table.entries()) {
    if (e.info.type == ParamType::structured) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), e.info.key) == only.end()) continue;
    out[e.info.key] = to_json(e.get(params));
  }
  return out;
}

Json frame_size_json(const FrameSizeSpec& s) {
  switch (s.kind) {
    case FrameSizeSpec::Kind::fixed:
      return s.fixed_bytes;
    case FrameSizeSpec::Kind::uniform:
      return Json{{"uniform", {s.min_bytes, s.max_bytes}}};
    case FrameSizeSpec::Kind::mix: {
      Json mix = Json::array();
      for (const auto& c : s.mix) mix.push_back(Json{{"bytes", c.bytes}, {"weight", c.weight}});
      return Json{{"mix", mix}};
    }
  }
  return s.fixed_bytes;
}

// Adds a key the object does not have yet (names that are unique by construction), without the
// ordered map's linear search: a resolved document of many stations is written in linear time.
void append_unique(Json& object, const std::string& key, Json value) {
  object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
}

}  // namespace

Json resolved_json(const ScenarioConfig& config) {
  Json out = table_json(run_param_table(), config.run);
  Json media = Json::object();
  for (const auto& [name, params] : config.media)
    append_unique(media, name, table_json(medium_param_table(), params));
  out["media"] = media;
  Json stations = Json::object();
  for (const auto& s : config.stations) {
    Json station;
    station["address"] = s.address.to_string();
    station["mac"] = table_json(mac_param_table(), s.mac);
    station["sink"] = table_json(sink_param_table(), s.sink);
    Json traffic = Json::array();
    for (const auto& t : s.traffic) {
      std::vector<std::string> keys = common_traffic_keys();
      const auto& own = pattern_keys(t.pattern);
      keys.insert(keys.end(), own.begin(), own.end());
      keys.erase(std::remove(keys.begin(), keys.end(), "load"), keys.end());  // now load_bps
      Json source = table_json(traffic_param_table(), t, keys);
      if (t.pattern == "script") {
        Json script = Json::array();
        for (const auto& e : t.script)
          script.push_back(Json{{"at_ns", e.at_ns}, {"bytes", e.bytes}});
        source["script"] = script;
      } else {
        source["frame_bytes"] = frame_size_json(t.frame_bytes);
      }
      traffic.push_back(source);
    }
    station["traffic"] = traffic;
    append_unique(stations, s.name, std::move(station));
  }
  if (!stations.empty() || config.hosts.empty()) out["stations"] = stations;
  Json links = Json::array();
  for (const auto& l : config.links) {
    Json link;
    link["between"] = {l.a, l.b};
    const Json params = table_json(link_param_table(), l.params);
    for (const auto& item : params.items()) link[item.key()] = item.value();
    links.push_back(link);
  }
  out["links"] = links;
  if (!config.domains.empty()) {
    Json domains = Json::array();
    for (const auto& dom : config.domains) {
      if (dom.from_topology) continue;
      Json d;
      d["stations"] = dom.stations;
      if (dom.delay_ns.empty()) {
        d["medium"] = dom.medium;
        Json cable = Json::object();
        for (std::size_t i = 0; i < dom.stations.size(); ++i)
          append_unique(cable, dom.stations[i], dom.cable_m[i]);
        d["cable_m"] = cable;
        d["repeater_delay_ns"] = dom.repeater_delay_ns;
      } else {
        d["delay_ns"] = dom.delay_ns;
      }
      domains.push_back(d);
    }
    if (!domains.empty()) out["collision_domains"] = domains;
  }
  if (!config.topology_json.empty()) out["topology"] = Json::parse(config.topology_json);
  if (!config.hosts.empty()) {
    Json hosts = Json::object();
    for (const auto& h : config.hosts) {
      Json host;
      host["pci"] = table_json(pci_bus_param_table(), h.pci);
      host["bridge"] = table_json(pci_target_param_table(), h.bridge);
      Json dma = Json::object();
      for (const auto& m : h.dma) {
        Json master = table_json(dma_traffic_param_table(), m.traffic);
        master["master"] = table_json(pci_master_param_table(), m.master);
        append_unique(dma, m.name, std::move(master));
      }
      host["dma"] = dma;
      if (h.has_nic) {
        Json nic = table_json(nic_param_table(), h.nic);
        nic["master"] = table_json(pci_master_param_table(), h.nic_master);
        host["nic"] = nic;
        host["cpu"] = table_json(cpu_param_table(), h.cpu);
        if (!h.tx.to.empty()) host["tx"] = table_json(host_tx_param_table(), h.tx);
        if (!h.app.kind.empty()) {
          host["app"] = table_json(app_param_table(), h.app);
          host["transport"] = table_json(transport_param_table(), h.transport);
        }
      }
      hosts[h.name] = host;
    }
    out["hosts"] = hosts;
  }
  return out;
}

}  // namespace gbesim
