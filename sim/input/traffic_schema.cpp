#include "sim/input/traffic_schema.hpp"

#include <algorithm>
#include <cmath>

#include "models/common/speed_modes.hpp"

namespace gbesim {

using schema::error_expected;
using schema::ListOf;
using schema::Object;
using schema::Reader;

namespace {

constexpr std::int64_t kLargestFrame = kMaxJumboFrameBytes + kQTagBytes;

std::optional<std::int64_t> read_int(const Json& v, const std::string& path, std::int64_t min,
                                     std::int64_t max, const std::string& unit, Reader& r) {
  return schema::read_integer(v, path, min, max, unit, r.d);
}

const std::string kFrameSizeGrammar =
    "a size in bytes, {\"uniform\": [lo, hi]} or {\"mix\": [{\"bytes\": N, \"weight\": W}, ...]}";

void read_frame_size(const Json& v, const std::string& path, FrameSizeSpec& out, Reader& r) {
  if (v.is_number()) {
    if (auto x = read_int(v, path, 1, kLargestFrame, "bytes", r)) out = FrameSizeSpec::fixed(*x);
    return;
  }
  if (!v.is_object() || v.size() != 1) return error_expected(r, path, kFrameSizeGrammar, v);
  const std::string kind = v.begin().key();
  const Json& body = v.begin().value();
  const std::string here = child_path(path, kind);
  if (kind == "uniform") {
    if (!body.is_array() || body.size() != 2) return error_expected(r, here, "[lo, hi]", body);
    auto lo = read_int(body[0], index_path(here, 0), 1, kLargestFrame, "bytes", r);
    auto hi = read_int(body[1], index_path(here, 1), 1, kLargestFrame, "bytes", r);
    if (!lo || !hi) return;
    if (*lo > *hi)
      return r.d.error(
          here, "lo (" + std::to_string(*lo) + ") is larger than hi (" + std::to_string(*hi) + ")");
    out = FrameSizeSpec::uniform(*lo, *hi);
    return;
  }
  if (kind != "mix")
    return r.d.error(path, "unknown frame size form \"" + kind + "\"" +
                               suggestion(kind, {"uniform", "mix"}) + "; expected " +
                               kFrameSizeGrammar);
  if (!body.is_array() || body.empty())
    return error_expected(r, here, "a non-empty array of {\"bytes\": N, \"weight\": W}", body);
  std::vector<FrameSizeSpec::Choice> choices;
  bool ok = true;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const std::string at = index_path(here, i);
    const Json& c = body[i];
    if (!c.is_object() || !c.contains("bytes") || !c.contains("weight")) {
      error_expected(r, at, "{\"bytes\": N, \"weight\": W}", c);
      ok = false;
      continue;
    }
    if (!schema::check_keys(c, at, {"bytes", "weight"}, r.d) || c.size() != 2) ok = false;
    auto bytes = read_int(c["bytes"], child_path(at, "bytes"), 1, kLargestFrame, "bytes", r);
    const Json& w = c["weight"];
    if (!w.is_number() || !(w.get<double>() > 0) || !std::isfinite(w.get<double>())) {
      error_expected(r, child_path(at, "weight"), "a positive number", w);
      ok = false;
    }
    if (!bytes) ok = false;
    if (ok) choices.push_back({*bytes, w.get<double>()});
  }
  if (!ok) return;
  double total = 0;
  for (const auto& c : choices) total += c.weight;
  if (!std::isfinite(total))
    return r.d.error(here, "the weights add up to more than a double can hold; scale them down");
  out = FrameSizeSpec::weighted(std::move(choices));
}

Json write_frame_size(const FrameSizeSpec& s) {
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

void read_script(const Json& v, const std::string& path, std::vector<ScriptEntry>& out, Reader& r) {
  const std::string form = "{\"at_ns\": T, \"bytes\": N}";
  if (!v.is_array()) return error_expected(r, path, "an array of " + form, v);
  out.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = index_path(path, i);
    const Json& e = v[i];
    if (!e.is_object()) {
      error_expected(r, at, form, e);
      continue;
    }
    bool ok = schema::check_keys(e, at, {"at_ns", "bytes"}, r.d) && e.size() <= 2;
    for (const char* key : {"at_ns", "bytes"}) {
      if (!e.contains(key)) {
        r.d.error(at, std::string("missing \"") + key + "\"");
        ok = false;
      }
    }
    if (!ok) continue;
    auto t = read_int(e["at_ns"], child_path(at, "at_ns"), 0, 1LL << 50, "ns", r);
    auto b = read_int(e["bytes"], child_path(at, "bytes"), 1, kLargestFrame, "bytes", r);
    if (t && b) out.push_back({*t, *b});
  }
}

Json write_script(const std::vector<ScriptEntry>& script) {
  Json out = Json::array();
  for (const auto& e : script) out.push_back(Json{{"at_ns", e.at_ns}, {"bytes", e.bytes}});
  return out;
}

}  // namespace

const std::vector<std::string>& pattern_keys(TrafficPattern pattern) {
  static const std::vector<std::string> saturated = {"frame_bytes"};
  static const std::vector<std::string> poisson = {"frame_bytes", "load_bps", "load"};
  static const std::vector<std::string> on_off = {"frame_bytes", "peak_load_bps", "on_ns", "off_ns",
                                                  "periods"};
  static const std::vector<std::string> script = {"script"};
  switch (pattern) {
    case TrafficPattern::saturated:
      break;
    case TrafficPattern::poisson:
      return poisson;
    case TrafficPattern::on_off:
      return on_off;
    case TrafficPattern::script:
      return script;
  }
  return saturated;
}

const std::vector<std::string>& common_traffic_keys() {
  static const std::vector<std::string> keys = {"pattern", "to",    "enabled", "start_ns",
                                                "stop_ns", "count", "vlan_id", "vlan_pcp"};
  return keys;
}

namespace {

std::string patterns_using(const std::string& key) {
  std::string out;
  for (const auto& p : choice_list(TrafficPattern{}).choices()) {
    const auto& keys = pattern_keys(p.value);
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      out += (out.empty() ? "" : ", ") + std::string(p.name);
  }
  return out;
}

// A source's keys must belong to its pattern; the pattern's own requirements.
void check_traffic(const Json& obj, const std::string& path, TrafficParams& t, Reader& r) {
  const auto& common = common_traffic_keys();
  const auto& own = pattern_keys(t.pattern);
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (traffic_param_table().find(key) == nullptr) continue;  // reported as unknown
    if (std::find(common.begin(), common.end(), key) == common.end() &&
        std::find(own.begin(), own.end(), key) == own.end())
      r.d.error(child_path(path, key), "applies only to pattern " + patterns_using(key) +
                                           "; this source's pattern is \"" +
                                           std::string(choice_name(t.pattern)) + "\"");
  }
  if (t.load > 0 && obj.contains("load_bps"))
    r.d.error(child_path(path, "load"),
              "give load (a fraction of the line rate) or load_bps, not both");
  if (t.pattern == TrafficPattern::poisson && !(t.load_bps > 0) && !(t.load > 0))
    r.d.error(child_path(path, "load_bps"), "pattern \"poisson\" needs load_bps > 0 (or load > 0)");
  if (t.pattern == TrafficPattern::on_off && !(t.peak_load_bps > 0))
    r.d.error(child_path(path, "peak_load_bps"), "pattern \"on_off\" needs peak_load_bps > 0");
  if (t.pattern == TrafficPattern::script && t.script.empty() && !obj.contains("script"))
    r.d.error(path, "pattern \"script\" needs a \"script\": [{\"at_ns\": T, \"bytes\": N}, ...]");
  if (t.stop_ns >= 0 && t.stop_ns < t.start_ns)
    r.d.error(child_path(path, "stop_ns"), "stop_ns (" + std::to_string(t.stop_ns) +
                                               ") is before start_ns (" +
                                               std::to_string(t.start_ns) + ")");
}

}  // namespace

const Object<TrafficParams>& traffic_object() {
  static const Object<TrafficParams> o = [] {
    Object<TrafficParams> t(traffic_param_table().doc());
    t.rows(traffic_param_table())
        .field("frame_bytes", &TrafficParams::frame_bytes,
               schema::structured<FrameSizeSpec>(kFrameSizeGrammar, "frame size DA..FCS",
                                                 read_frame_size, write_frame_size))
        .field("script", &TrafficParams::script,
               schema::structured<std::vector<ScriptEntry>>("[{\"at_ns\": T, \"bytes\": N}, ...]",
                                                            "pattern script: frames at given times",
                                                            read_script, write_script))
        .require("to", "missing \"to\" (a station name or \"broadcast\")")
        .check(check_traffic)
        // Only the keys the source's pattern uses; a load is written as load_bps.
        .writer([](const Object<TrafficParams>& self, const TrafficParams& v) {
          std::vector<std::string> keys = common_traffic_keys();
          const auto& own = pattern_keys(v.pattern);
          keys.insert(keys.end(), own.begin(), own.end());
          Json all = self.write_parts(v);
          Json out = Json::object();
          for (auto& item : all.items())
            if (item.key() != "load" &&
                std::find(keys.begin(), keys.end(), item.key()) != keys.end())
              out[item.key()] = std::move(item.value());
          return out;
        });
    return t;
  }();
  return o;
}

const ListOf<TrafficParams>& traffic_list() {
  // Every source is consulted at each decision of its MAC: thousands on one station would make
  // the run crawl, and no installation has them.
  static const ListOf<TrafficParams> l{traffic_object().node(),
                                       "an array of traffic sources",
                                       "the station's traffic sources",
                                       0,
                                       kMaxTrafficSources,
                                       "traffic sources",
                                       "a station"};
  return l;
}

}  // namespace gbesim
