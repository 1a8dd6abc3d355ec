#include "sim/topology_loader.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>

#include "sim/diagnostics.hpp"
#include "sim/json_input.hpp"
#include "sim/output_dir.hpp"

namespace gbesim {
namespace {

const std::vector<std::string> kTopKeys = {"name",      "description", "rate_mbps", "margin_bt",
                                           "budget_bt", "media",       "nodes",     "cables"};
const std::vector<std::string> kKinds = {"dte", "repeater", "switch", "converter"};
const std::vector<std::string> kClasses = {"class_i", "class_ii", "class_ii_t4", "gigabit", "ten"};
const std::vector<std::string> kPhys = {"tx", "t4"};
const std::vector<std::int64_t> kRates = {10, 100, 1000};

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i > 0 ? ", " : "") + words[i];
  return out;
}

class Reader {
 public:
  Reader(Diagnostics& d, std::string prefix) : d_(d), prefix_(std::move(prefix)) {}

  std::string at(const std::string& path) const {
    if (prefix_.empty()) return path;
    if (path.empty()) return prefix_;
    return path[0] == '[' ? prefix_ + path : prefix_ + "." + path;
  }
  void error(const std::string& path, const std::string& message) { d_.error(at(path), message); }
  // Once enough errors are kept, later ones are only counted: no need to word them.
  bool full() const { return d_.full(); }

  // Unknown keys of an object, each with a suggestion.
  void keys(const Json& obj, const std::string& path, const std::vector<std::string>& known) {
    for (const auto& item : obj.items()) {
      if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
      error(child_path(path, item.key()), full() ? std::string()
                                                 : "unknown key" + suggestion(item.key(), known) +
                                                       " (known here: " + join(known) + ")");
    }
  }
  std::optional<double> number(const Json& v, const std::string& path, double min, double max,
                               const std::string& unit) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < min ||
        v.get<double>() > max) {
      error(path, "expected a number in " + fmt(min) + " .. " + fmt(max) + " " + unit + ", got " +
                      describe_value(v));
      return std::nullopt;
    }
    return v.get<double>();
  }
  std::optional<std::string> choice(const Json& v, const std::string& path,
                                    const std::vector<std::string>& allowed) {
    if (!v.is_string() ||
        std::find(allowed.begin(), allowed.end(), v.get<std::string>()) == allowed.end()) {
      error(path, "expected one of " + join(allowed) + ", got " + describe_value(v) +
                      (v.is_string() ? suggestion(v.get<std::string>(), allowed) : ""));
      return std::nullopt;
    }
    return v.get<std::string>();
  }
  std::optional<std::int64_t> rate(const Json& v, const std::string& path) {
    if (v.is_number_integer() &&
        std::find(kRates.begin(), kRates.end(), v.get<std::int64_t>()) != kRates.end())
      return v.get<std::int64_t>();
    error(path, "expected 10, 100 or 1000 (Mb/s; half duplex exists at these speeds), got " +
                    describe_value(v));
    return std::nullopt;
  }

 private:
  static std::string fmt(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  Diagnostics& d_;
  std::string prefix_;
};

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      return false;
  return true;
}

void read_media(const Json& media, Reader& r, DelayTable& table) {
  if (!media.is_object()) {
    r.error("media", "expected an object of media, got " + describe_value(media));
    return;
  }
  for (const auto& [name, body] : media.items()) {
    const std::string path = child_path("media", name);
    if (!body.is_object()) {
      r.error(path,
              "expected {\"round_trip_bt_per_m\": {\"<Mb/s>\": value}, \"source\": text}, got " +
                  describe_value(body));
      continue;
    }
    r.keys(body, path, {"round_trip_bt_per_m", "source"});
    std::string source = "user-defined";
    if (body.contains("source")) {
      if (body["source"].is_string()) {
        source = body["source"].get<std::string>();
      } else {
        r.error(child_path(path, "source"),
                "expected a string, got " + describe_value(body["source"]));
      }
    }
    if (!body.contains("round_trip_bt_per_m") || !body["round_trip_bt_per_m"].is_object()) {
      r.error(child_path(path, "round_trip_bt_per_m"),
              "expected an object of speeds, e.g. {\"100\": 1.112}: the round-trip delay in bit "
              "times per metre at each speed");
      continue;
    }
    for (const auto& [speed, value] : body["round_trip_bt_per_m"].items()) {
      const std::string at = child_path(child_path(path, "round_trip_bt_per_m"), speed);
      std::int64_t rate = 0;
      if (speed == "10" || speed == "100" || speed == "1000") rate = std::stoll(speed);
      if (rate == 0) {
        r.error(at, "expected a speed key \"10\", \"100\" or \"1000\"");
        continue;
      }
      if (auto v = r.number(value, at, 0, 1000, "bit times per metre"))
        table.set_medium({name, rate, *v, source, Confidence::user});
    }
  }
}

// The analysis finds and keeps every pair of end stations' path (issue 15 makes it scale): a
// plant is limited to sizes it handles in seconds and a few hundred MB.
constexpr std::size_t kMaxNodes = 4096;
constexpr std::size_t kMaxEndStations = 1024;

void read_nodes(const Json& nodes, Reader& r, CablingPlant& plant) {
  if (!nodes.is_object() || nodes.empty()) {
    r.error("nodes", "expected an object of nodes, e.g. {\"a\": {\"kind\": \"dte\"}}, got " +
                         describe_value(nodes));
    return;
  }
  if (nodes.size() > kMaxNodes) {
    r.error("nodes", "has " + std::to_string(nodes.size()) + " nodes; a plant takes at most " +
                         std::to_string(kMaxNodes));
    return;
  }
  for (const auto& [name, body] : nodes.items()) {
    const std::string path = child_path("nodes", name);
    if (!is_identifier(name)) {
      r.error(path, "a node name uses letters, digits, _ - and . only");
      continue;
    }
    if (!body.is_object()) {
      r.error(path, "expected an object with \"kind\", got " + describe_value(body));
      continue;
    }
    CablingNode n;
    n.name = name;
    if (!body.contains("kind")) {
      r.error(child_path(path, "kind"), "missing: one of " + join(kKinds));
      continue;
    }
    const auto kind = r.choice(body["kind"], child_path(path, "kind"), kKinds);
    if (!kind) continue;
    std::vector<std::string> known = {"kind", "rate_mbps", "delay_bt"};
    if (*kind == "dte") {
      n.kind = NodeKind::dte;
      known.push_back("phy");
    } else if (*kind == "repeater") {
      n.kind = NodeKind::repeater;
      known.push_back("class");
    } else if (*kind == "switch") {
      n.kind = NodeKind::bridge;
      known = {"kind"};
    } else {
      n.kind = NodeKind::converter;
    }
    r.keys(body, path, known);
    if (body.contains("phy") && n.kind == NodeKind::dte) {
      if (auto p = r.choice(body["phy"], child_path(path, "phy"), kPhys)) n.type = *p;
    }
    if (n.kind == NodeKind::repeater) {
      if (!body.contains("class")) {
        r.error(child_path(path, "class"),
                "missing: the repeater's class, one of " + join(kClasses) +
                    " (class_i/class_ii at 100 Mb/s, gigabit at 1000, ten at 10)");
      } else if (auto c = r.choice(body["class"], child_path(path, "class"), kClasses)) {
        n.type = *c;
      }
    }
    if (body.contains("rate_mbps") && n.kind != NodeKind::bridge) {
      if (auto v = r.rate(body["rate_mbps"], child_path(path, "rate_mbps"))) n.rate_mbps = *v;
    }
    if (body.contains("delay_bt") && n.kind != NodeKind::bridge) {
      if (auto v = r.number(body["delay_bt"], child_path(path, "delay_bt"), 0, 100000, "bit times"))
        n.delay_bt = *v;
    }
    plant.nodes.push_back(std::move(n));
  }
  const auto end_stations =
      std::count_if(plant.nodes.begin(), plant.nodes.end(),
                    [](const CablingNode& n) { return n.kind == NodeKind::dte; });
  if (static_cast<std::size_t>(end_stations) > kMaxEndStations)
    r.error("nodes", "has " + std::to_string(end_stations) +
                         " end stations (kind dte); a plant takes at most " +
                         std::to_string(kMaxEndStations));
}

void read_cables(const Json& cables, Reader& r, CablingPlant& plant,
                 const std::vector<std::string>& node_names) {
  if (!cables.is_array()) {
    r.error("cables", "expected an array of cables, got " + describe_value(cables));
    return;
  }
  const std::vector<std::string> media = plant.table.media_names();
  const std::unordered_set<std::string> known(node_names.begin(), node_names.end());
  for (std::size_t i = 0; i < cables.size(); ++i) {
    const std::string path = index_path("cables", i);
    const Json& body = cables[i];
    if (!body.is_object()) {
      r.error(path, "expected {\"between\": [a, b], \"medium\": m, \"length_m\": L}, got " +
                        describe_value(body));
      continue;
    }
    r.keys(body, path, {"between", "medium", "length_m"});
    Cable c;
    bool ok = true;
    const Json* between = body.contains("between") ? &body["between"] : nullptr;
    if (between == nullptr || !between->is_array() || between->size() != 2 ||
        !(*between)[0].is_string() || !(*between)[1].is_string()) {
      r.error(child_path(path, "between"), "expected two node names, [\"a\", \"b\"]");
      ok = false;
    } else {
      for (std::size_t k = 0; k < 2; ++k) {
        const std::string name = (*between)[k].get<std::string>();
        if (known.count(name) == 0) {
          r.error(
              index_path(child_path(path, "between"), k),
              r.full() ? std::string() : "no node \"" + name + "\"" + suggestion(name, node_names));
          ok = false;
        }
      }
      if (ok) {
        c.a = (*between)[0].get<std::string>();
        c.b = (*between)[1].get<std::string>();
      }
    }
    if (body.contains("medium")) {
      if (auto m = r.choice(body["medium"], child_path(path, "medium"), media)) {
        c.medium = *m;
      } else {
        ok = false;
      }
    }
    if (!body.contains("length_m")) {
      r.error(child_path(path, "length_m"), "missing: the cable's length in metres");
      ok = false;
    } else if (auto v = r.number(body["length_m"], child_path(path, "length_m"), 0, 100000, "m")) {
      c.length_m = *v;
    } else {
      ok = false;
    }
    if (ok)
      plant.cables.push_back(c);
    else
      plant.cables.push_back({});  // keeps indices aligned with the file; never analysed
  }
}

LoadedTopology read(const Json& doc, const std::string& file, const std::string& prefix,
                    std::int64_t default_rate, Diagnostics& d) {
  LoadedTopology out;
  out.file = file;
  out.plant.rate_mbps = default_rate;
  Reader r(d, prefix);
  if (!doc.is_object()) {
    r.error("", "expected a JSON object, got " + describe_value(doc));
    return out;
  }
  r.keys(doc, "", kTopKeys);
  CablingPlant& plant = out.plant;
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) {
      r.error("name",
              "expected a name of letters, digits, _ - and ., got " + describe_value(doc["name"]));
    } else if (const auto problem = results_name_problem(doc["name"].get<std::string>())) {
      r.error("name", *problem);
    } else {
      plant.name = doc["name"].get<std::string>();
    }
  } else if (prefix.empty()) {
    r.error("name", "missing: the topology's name");
  }
  if (doc.contains("description")) {
    if (doc["description"].is_string()) {
      out.description = doc["description"].get<std::string>();
    } else {
      r.error("description", "expected a string, got " + describe_value(doc["description"]));
    }
  }
  if (doc.contains("rate_mbps")) {
    if (auto v = r.rate(doc["rate_mbps"], "rate_mbps")) plant.rate_mbps = *v;
  }
  if (doc.contains("margin_bt")) {
    if (auto v = r.number(doc["margin_bt"], "margin_bt", 0, 1000, "bit times"))
      plant.margin_bt = *v;
  }
  if (doc.contains("budget_bt")) {
    if (auto v = r.number(doc["budget_bt"], "budget_bt", 1, 1e6, "bit times")) plant.budget_bt = *v;
  }
  if (doc.contains("media")) read_media(doc["media"], r, plant.table);
  if (!doc.contains("nodes")) {
    r.error("nodes", "missing: the stations, repeaters, switches and converters");
  } else {
    read_nodes(doc["nodes"], r, plant);
  }
  std::vector<std::string> names;
  for (const auto& n : plant.nodes) names.push_back(n.name);
  if (!doc.contains("cables")) {
    r.error("cables", "missing: the cable segments");
  } else {
    read_cables(doc["cables"], r, plant, names);
  }
  if (!d.empty()) return out;

  out.report = analyse_topology(plant);
  for (const auto& p : out.report.problems) r.error(p.where, p.message);
  return out;
}

}  // namespace

LoadedTopology read_topology_block(const Json& block, const std::string& file,
                                   const std::string& path, std::int64_t default_rate,
                                   Diagnostics& d) {
  return read(block, file, path, default_rate, d);
}

LoadedTopology load_topology_text(const std::string& text, const std::string& file) {
  Diagnostics d(file);
  const Json doc = parse_document(text, d);
  d.throw_if_any();
  LoadedTopology out = read(doc, file, "", 100, d);
  d.throw_if_any();
  return out;
}

LoadedTopology load_topology(const std::string& file) {
  return load_topology_text(read_json_file(file), file);
}

}  // namespace gbesim
