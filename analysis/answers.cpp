#include "analysis/answers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "analysis/answer_rules.hpp"
#include "analysis/diameter.hpp"

namespace gbesim {
namespace {

using answer_rules::axis_containing;
using answer_rules::differing_axes;
using answer_rules::grouped;
using answer_rules::join;
using answer_rules::mbps;
using answer_rules::percent;
using answer_rules::senders_of;
using answer_rules::short_label_of;

// ---- diameter ------------------------------------------------------------------------------

void diameter(const Results& r, std::vector<Answer>& out) {
  const auto rows = diameter_answers(r);
  if (rows.empty()) return;
  Answer a;
  a.kind = "diameter";
  a.question = "How long may each station's cable be?";
  a.lines = diameter_summary(rows);
  a.method =
      "Legal: the longest length the swept cables may have, all at that length and the others "
      "as they are, for which every pair's path delay value stays within the slot time (station "
      "and repeater delays plus the cables' propagation, both ways, against the budget; the "
      "PHY's segment limit may be shorter); a plant that breaks a repeater rule (count, class, "
      "5-4-3) is illegal whatever its cables, and is said to be first. "
      "Simulated: the first swept length at which a frame is lost to a late collision or to a "
      "collision its sender never saw (the receiver's FCS error); past it such losses grow with "
      "the length. The swept step bounds how close the two can come.";
  for (const auto& row : rows) a.details.push_back(diameter_answer_text(row));
  a.chart = "late-collisions";
  out.push_back(std::move(a));
}

// ---- carrier extension ---------------------------------------------------------------------

enum class Mode { none, full, half, extension, bursting };

// A point's MAC mode from the scenario it ran: full duplex, half duplex, with carrier extension,
// with frame bursting too (any station with it counts).
Mode mode_of(const nlohmann::json& config) {
  if (!config.is_object() || !config.contains("stations")) return Mode::none;
  // Extension and bursting exist only at 1000 Mb/s (802.3 clause 4.2.3.4); below it the flags
  // are inert.
  const bool gigabit = config.value("rate_mbps", 1000) == 1000;
  bool half = false, extension = false, bursting = false;
  for (const auto& [name, station] : config["stations"].items()) {
    const auto mac = station.value("mac", nlohmann::json::object());
    half = half || mac.value("duplex", "full") == "half";
    extension = extension ||
                (mac.value("duplex", "full") == "half" && mac.value("carrier_extension", false));
    bursting =
        bursting || (mac.value("duplex", "full") == "half" && mac.value("frame_bursting", false));
  }
  if (gigabit && bursting) return Mode::bursting;
  if (gigabit && extension) return Mode::extension;
  return half ? Mode::half : Mode::full;
}

// Whether some point of a sweep spends time extending.
bool extends_somewhere(const Results& r) {
  bool any = false;
  for (std::size_t p = 0; p < r.points.size() && !any; ++p)
    if (const auto e = r.value(p, "domain0", "extension_share")) any = e->mean > 0;
  return any;
}

// Each point's MAC mode and rate, and so each extension point's partners.
struct PointModes {
  std::vector<Mode> modes;
  std::vector<int> rates;

  explicit PointModes(const Results& r) {
    for (std::size_t p = 0; p < r.points.size(); ++p) {
      const auto& config = r.config(p);
      modes.push_back(mode_of(config));
      rates.push_back(config.is_object() ? config.value("rate_mbps", 1000) : 0);
    }
  }
  // Point p's partner in mode m: the point at the same rate differing from it on one axis.
  std::optional<std::size_t> partner(const Results& r, std::size_t p, Mode m) const {
    for (std::size_t q = 0; q < r.points.size(); ++q)
      if (modes[q] == m && rates[q] == rates[p] && differing_axes(r, p, q).size() == 1) return q;
    return std::nullopt;
  }
};

// The sentences of the answer per group of the axes other than the frame size and the mode's
// axis, the groups in first-seen order.
struct ExtensionGroups {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> wasted, none, won;
  std::vector<std::vector<std::string>> rows;  // the table's: a row per point
};

// An extension point's group: its values on the axes other than the frame size's and those on
// which it differs from its partners.
// The frame sizes the point's sources send, as the answer restates them when no axis sweeps
// them: "128 B", "64 B and 1518 B", "the 64/1518 B mix"; empty when the scenario is not recorded.
std::string sources_frame_sizes(const nlohmann::json& config) {
  std::vector<std::string> sizes;
  auto add = [&](const std::string& s) {
    if (std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
  };
  if (!config.is_object() || !config.contains("stations")) return "";
  for (const auto& [name, station] : config["stations"].items())
    for (const auto& t : station.value("traffic", nlohmann::json::array())) {
      if (!t.value("enabled", true) || !t.contains("frame_bytes")) continue;
      const auto& b = t["frame_bytes"];
      if (b.is_number()) {
        add(fmt::format("{} B", b.get<double>()));
      } else if (b.is_object() && b.contains("mix")) {
        std::vector<std::string> parts;
        for (const auto& m : b["mix"]) parts.push_back(fmt::format("{}", m.value("bytes", 0.0)));
        add("the " + join(parts, "/") + " B mix");
      }
    }
  if (sizes.size() <= 1) return sizes.empty() ? "" : sizes.front();
  const std::string last = sizes.back();
  sizes.pop_back();
  return join(sizes) + " and " + last;
}

std::string extension_group(const Results& r, std::size_t p, int size_axis,
                            std::optional<std::size_t> burst, std::optional<std::size_t> plain) {
  std::set<std::size_t> skip;
  if (size_axis >= 0) skip.insert(static_cast<std::size_t>(size_axis));
  for (const auto q : {burst, plain})
    if (q)
      for (std::size_t d : differing_axes(r, p, *q)) skip.insert(d);
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (!skip.count(i)) rest.push_back(i);
  std::string group = short_label_of(r, p, rest);
  // The sender count it was found for, unless an axis names it.
  if (group.find("sender") == std::string::npos) {
    const std::size_t n = senders_of(r.config(p)).size();
    if (n > 0) {
      const std::string senders = fmt::format("{} sender{}", n, n == 1 ? "" : "s");
      group = group.empty() ? senders : group + ", " + senders;
    }
  }
  return group.empty() ? "all points" : group;
}

// One extension point: its sentences in its group, and its detail line (its efficiency beside
// its partners').
std::string extension_point(const Results& r, std::size_t p, int size_axis, const Statistic& ext,
                            const Statistic& eff, std::optional<std::size_t> burst,
                            std::optional<std::size_t> plain, ExtensionGroups& groups) {
  const std::string group = extension_group(r, p, size_axis, burst, plain);
  if (std::find(groups.order.begin(), groups.order.end(), group) == groups.order.end())
    groups.order.push_back(group);
  std::string size = size_axis >= 0 ? r.points[p][static_cast<std::size_t>(size_axis)]
                                    : sources_frame_sizes(r.config(p));
  if (size.empty()) size = "these frames";
  const std::string bytes = parse_number(size) ? size + " B" : size;
  if (ext.mean > 0)
    groups.wasted[group].push_back(fmt::format("{} at {}", percent(ext.mean), bytes));
  else
    groups.none[group].push_back(bytes);
  std::vector<std::size_t> all(r.axes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::string detail = short_label_of(r, p, all);
  detail += fmt::format(": extension {} of the time, efficiency {}", percent(ext.mean),
                        percent(eff.mean));
  std::vector<std::string> row = {group, bytes, percent(ext.mean), percent(eff.mean), "-", "-"};
  if (plain)
    if (const auto e = r.value(*plain, "domain0", "efficiency")) {
      detail += fmt::format(" (without extension {})", percent(e->mean));
      row[4] = percent(e->mean);
    }
  if (burst)
    if (const auto e = r.value(*burst, "domain0", "efficiency")) {
      if (e->mean - eff.mean >= 0.005)  // half a point: below that, nothing won back
        groups.won[group].push_back(
            fmt::format("{} -> {} at {}", percent(eff.mean), percent(e->mean), bytes));
      detail += fmt::format("; with bursting {} ({:+.1f} points)", percent(e->mean),
                            100 * (e->mean - eff.mean));
      row[5] = percent(e->mean);
    }
  groups.rows.push_back(std::move(row));
  return detail;
}

// One line per group: the share extension takes, and what bursting wins back.
std::vector<std::string> extension_lines(ExtensionGroups& groups) {
  auto join = [](const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& x : parts) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::vector<std::string> lines;
  for (const auto& g : groups.order) {
    // "takes 84.2 % of the medium's time at 64 B, 72.2 % at 128 B"
    std::string line = g + ": carrier extension takes ";
    const auto& wasted = groups.wasted[g];
    if (wasted.empty()) {
      line += "none of the medium's time";
    } else {
      const std::string& first = wasted.front();
      const std::size_t at = first.find(" at ");
      line += first.substr(0, at) + " of the medium's time" + first.substr(at);
      for (std::size_t i = 1; i < wasted.size(); ++i) line += ", " + wasted[i];
    }
    if (!groups.none[g].empty())
      line += " (none at " + join(groups.none[g]) + ": frames at least the slot)";
    if (!groups.won[g].empty()) line += "; frame bursting raises efficiency " + join(groups.won[g]);
    lines.push_back(line);
  }
  return lines;
}

void carrier_extension(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  if (!extends_somewhere(r)) return;
  const PointModes modes(r);
  const int size_axis = axis_containing(r, "frame_bytes");
  ExtensionGroups groups;
  Answer a;
  a.kind = "carrier-extension";
  a.question = "How much does carrier extension waste, and what does frame bursting win back?";
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    if (modes.modes[p] != Mode::extension) continue;
    const auto ext = r.value(p, "domain0", "extension_share");
    const auto eff = r.value(p, "domain0", "efficiency");
    if (!ext || !eff) continue;
    const auto burst = modes.partner(r, p, Mode::bursting);
    const auto plain = modes.partner(r, p, Mode::half);
    if (!burst && !plain) continue;  // nothing to contrast it with
    a.details.push_back(extension_point(r, p, size_axis, *ext, *eff, burst, plain, groups));
  }
  if (groups.order.empty()) return;
  // At a glance: per case and frame size, the share and the efficiency with, without and with
  // bursting; the sentences say it per case.
  a.table.push_back({"case", "frames", "extension's share of time", "efficiency",
                     "without extension", "with bursting"});
  const auto rank = [&](const std::vector<std::string>& row) {
    return std::find(groups.order.begin(), groups.order.end(), row.front()) - groups.order.begin();
  };
  std::stable_sort(groups.rows.begin(), groups.rows.end(),
                   [&](const auto& x, const auto& y) { return rank(x) < rank(y); });
  for (auto& row : groups.rows) a.table.push_back(std::move(row));
  a.lines = extension_lines(groups);
  a.method =
      "Share: the collision domain's time spent sending extension symbols (after frames shorter "
      "than the slot time), from the simulated medium. Efficiency: DA..FCS bits carried over the "
      "line's capacity. Bursting: the same point with frame bursting on (a burst pays the "
      "extension once, on its first frame). The single-sender closed form (analysis, "
      "single_sender_efficiency) checks the one-sender points exactly.";
  a.chart = "efficiency";
  out.push_back(std::move(a));
}

// ---- PCI / NIC ceilings --------------------------------------------------------------------

struct PathResult {
  std::size_t point = 0;
  std::string host;
  bool transmit = false;
  double simulated = 0;  // bit/s, DA..FCS
  std::string bottleneck;
  std::string mechanism;
  std::string clocks;  // bus clocks per frame, for the table ("454"; shared: "406 + 455")
};

std::string bottleneck_of(const Results& r, std::size_t p, const std::string& component,
                          const std::string& dir) {
  std::string s;
  for (const char* b : {"wire", "bus", "fifo", "cpu"})
    if (const auto f = r.value(p, component, dir + "_bottleneck_" + b); f && f->mean > 0.5)
      s += (s.empty() ? "" : "+") + std::string(b);
  return s.empty() ? "none marked" : s;
}

// A host's block of a point's scenario, or an empty object.
nlohmann::json host_block(const nlohmann::json& config, const std::string& host) {
  if (!config.is_object() || !config.contains("hosts") || !config["hosts"].contains(host))
    return nlohmann::json::object();
  return config["hosts"][host];
}

// The frame size a path carries, from the scenario: what the host transmits, or what the
// stations send to the NIC's station.
std::optional<double> frame_bytes_of(const nlohmann::json& config, const std::string& host,
                                     const std::string& dir) {
  const auto h = host_block(config, host);
  if (h.empty()) return std::nullopt;
  if (dir == "tx") {
    if (h.contains("tx") && h["tx"].contains("frame_bytes"))
      return h["tx"]["frame_bytes"].get<double>();
    return std::nullopt;
  }
  const std::string station = h.value("nic", nlohmann::json::object()).value("station", "");
  if (!config.contains("stations")) return std::nullopt;
  for (const auto& [name, s] : config["stations"].items())
    for (const auto& t : s.value("traffic", nlohmann::json::array()))
      if (t.value("to", "") == station && t.value("enabled", true) && t.contains("frame_bytes") &&
          t["frame_bytes"].is_number())
        return t["frame_bytes"].get<double>();
  return std::nullopt;
}

// The bus side of a path in one line: clocks per frame by part, the data phases against their
// transactions' overhead, the clock rate and the busy share.
std::string mechanism_of(const Results& r, std::size_t p, const std::string& component,
                         const std::string& host, const std::string& dir) {
  auto v = [&](const std::string& name) -> std::optional<double> {
    const auto s = r.value(p, component, dir + "_" + name);
    return s ? std::optional<double>(s->mean) : std::nullopt;
  };
  const auto& config = r.config(p);
  const auto h = host_block(config, host);
  const auto pci = h.value("pci", nlohmann::json::object());
  const std::string mode = pci.value("mode", "pci");
  if (mode == "pcie") {
    const auto up = v("link_up_bytes_per_frame");
    const auto down = v("link_down_bytes_per_frame");
    const auto data = v("link_data_bytes_per_frame");
    if (!up || !down) return "";
    return fmt::format(
        "link: {:.0f} bytes upstream and {:.0f} downstream per frame, {:.0f} of them the frame's "
        "data (the rest TLP headers, completions, DLLPs and flow control)",
        *up, *down, data.value_or(0));
  }
  const auto total = v("bus_clocks_per_frame");
  const auto data = v("data_clocks_per_frame");
  if (!total || !data) return "";
  std::string s = fmt::format(
      "{:.0f} bus clocks per frame (data {:.0f}, descriptor fetches {:.1f}, write-backs {:.1f}, "
      "registers {:.1f}",
      *total, *data, v("descriptor_fetch_clocks_per_frame").value_or(0),
      v("writeback_clocks_per_frame").value_or(0), v("register_clocks_per_frame").value_or(0));
  if (const auto wait = v("split_wait_clocks_per_frame"); wait && *wait > 0)
    s += fmt::format(", split-read waits {:.1f}", *wait);
  s += ")";
  // The data path is as wide as the narrower of the bus and the NIC (a 32-bit chip on a 64-bit
  // bus moves 4 bytes a clock).
  int width_bits = pci.value("width_bits", 0);
  const int nic_bits = h.value("nic", nlohmann::json::object())
                           .value("master", nlohmann::json::object())
                           .value("width_bits", 0);
  if (nic_bits > 0 && (width_bits == 0 || nic_bits < width_bits)) width_bits = nic_bits;
  const double clock_mhz = pci.value("clock_mhz", 0.0);
  const auto size = frame_bytes_of(config, host, dir);
  if (width_bits > 0 && size) {
    const double phases = std::ceil(*size / (width_bits / 8.0));
    if (dir == "tx") {
      const auto bridge = h.value("bridge", nlohmann::json::object());
      s += fmt::format(
          "; the {:.0f}-byte frame is ~{:.0f} data phases of {} bytes, the other {:.0f} data "
          "clocks are each read's address, turnaround and wait for the bridge (transmit data are "
          "reads: latency {} clocks, prefetch {} bytes)",
          *size, phases, width_bits / 8, *data - phases, bridge.value("read_latency_clocks", 0),
          bridge.value("prefetch_bytes", 0));
    } else {
      s += fmt::format(
          "; the {:.0f}-byte frame is ~{:.0f} data phases of {} bytes (receive data are posted "
          "writes: no wait for the bridge)",
          *size, phases, width_bits / 8);
    }
  }
  if (clock_mhz > 0)
    s += fmt::format("; at {:g} MHz the bus carries at most {:.0f} k frames/s", clock_mhz,
                     clock_mhz * 1e3 / *total);
  if (const auto busy = v("predicted_bus_utilisation"))
    s += fmt::format(", {} busy at the ceiling", percent(*busy));
  return s;
}

// The hosts' closed-form components (analysis.<host>; the links' are analysis.link...).
std::set<std::string> host_analysis_components(const Results& r) {
  std::set<std::string> components;
  for (const auto& c : r.components())
    if (c.rfind("analysis.", 0) == 0 && c.rfind("analysis.link", 0) != 0) components.insert(c);
  return components;
}

// Every simulated path with a closed-form bus ceiling: per point, host and direction.
std::vector<PathResult> path_results(const Results& r, const std::set<std::string>& components) {
  std::vector<PathResult> paths;
  for (std::size_t p = 0; p < r.points.size(); ++p)
    for (const auto& component : components) {
      const std::string host = component.substr(std::string("analysis.").size());
      for (const std::string dir : {"rx", "tx"}) {
        if (!r.value(p, component, dir + "_bus_ceiling_throughput")) continue;
        const auto sim =
            r.value(p, host + ".driver", dir == "rx" ? "delivered_throughput" : "sent_throughput");
        if (!sim || !(sim->mean > 0)) continue;
        PathResult path;
        path.point = p;
        path.host = host;
        path.transmit = dir == "tx";
        path.simulated = sim->mean;
        path.bottleneck = bottleneck_of(r, p, component, dir);
        path.mechanism = mechanism_of(r, p, component, host, dir);
        if (const auto c = r.value(p, component, dir + "_bus_clocks_per_frame"))
          path.clocks = fmt::format("{:.0f}", c->mean);
        paths.push_back(std::move(path));
      }
    }
  return paths;
}

// A point that receives and transmits at once: the two paths share the bus, so its mechanism
// is their clocks together.
void shared_bus_mechanisms(const Results& r, std::vector<PathResult>& paths) {
  std::map<std::pair<std::size_t, std::string>, int> directions;
  for (const auto& x : paths) ++directions[{x.point, x.host}];
  for (auto& x : paths) {
    if (directions[{x.point, x.host}] < 2 || x.bottleneck.find("bus") == std::string::npos)
      continue;
    const auto c = "analysis." + x.host;
    const auto rx = r.value(x.point, c, "rx_bus_clocks_per_frame");
    const auto tx = r.value(x.point, c, "tx_bus_clocks_per_frame");
    if (!rx || !tx) continue;
    const double clocks = rx->mean + tx->mean;
    x.clocks = fmt::format("{:.0f} + {:.0f}", rx->mean, tx->mean);
    x.mechanism = fmt::format(
        "receive and transmit share the bus: {:.0f} + {:.0f} = {:.0f} bus clocks per frame each "
        "way",
        rx->mean, tx->mean, clocks);
    const double mhz = host_block(r.config(x.point), x.host)
                           .value("pci", nlohmann::json::object())
                           .value("clock_mhz", 0.0);
    if (mhz > 0)
      x.mechanism += fmt::format(", so at {:g} MHz at most {:.0f} k frames/s each way", mhz,
                                 mhz * 1e3 / clocks);
  }
}

// The frame size the answer's lines are at: the largest standard frame (1518 bytes when swept,
// else the largest swept); empty when the size is not swept.
std::string answer_frame_size(const Results& r, int size_axis) {
  std::string size;
  if (size_axis < 0) return size;
  const auto sizes = r.values_of(r.axes[static_cast<std::size_t>(size_axis)]);
  if (std::find(sizes.begin(), sizes.end(), "1518") != sizes.end()) return "1518";
  double best = -1;
  for (const auto& s : sizes)
    if (const auto n = parse_number(s); n && *n > best) {
      best = *n;
      size = s;
    }
  return size;
}

// One group's line: the throughput over its NICs, slowest to fastest, what limits them, and
// the slowest one's mechanism when the bus limits it.
std::string path_group_line(const Results& r, const std::string& key,
                            const std::vector<const PathResult*>& g, int nic_axis) {
  const auto [lo, hi] = std::minmax_element(
      g.begin(), g.end(), [](const auto* x, const auto* y) { return x->simulated < y->simulated; });
  auto nic = [&](const PathResult* x) {
    return nic_axis >= 0 ? r.points[x->point][static_cast<std::size_t>(nic_axis)] : x->host;
  };
  std::map<std::string, int> by;
  for (const auto* x : g) ++by[x->bottleneck];
  std::string limits;
  for (const auto& [b, n] : by)
    limits += (limits.empty() ? "" : ", ") + b +
              (g.size() > 1 ? fmt::format(" for {} of {}", n, g.size()) : std::string());
  std::string line = key + ": ";
  if (g.size() == 1)
    line += mbps((*lo)->simulated);
  else
    line += mbps((*lo)->simulated) + " (" + nic(*lo) + ") to " + mbps((*hi)->simulated) + " (" +
            nic(*hi) + ")";
  line += "; limited by " + limits;
  if ((*lo)->bottleneck.find("bus") != std::string::npos && !(*lo)->mechanism.empty())
    line += ". " + std::string(g.size() > 1 ? "Slowest: " : "") + (*lo)->mechanism;
  return line;
}

// A bus's raw rate each way, as datasheets quote it: a parallel bus's width x clock (the
// standard clocks are 33 1/3, 66 2/3 and 133 1/3 MHz: 32/33 is 1,066 Mb/s), a PCI Express
// link's lanes x 2,000 Mb/s (2.5 GT/s, 8b/10b); empty when the scenario is not recorded.
std::string raw_bus_mbps(const nlohmann::json& config, const std::string& host) {
  const auto pci = host_block(config, host).value("pci", nlohmann::json::object());
  if (pci.empty()) return "";
  if (pci.value("mode", "pci") == "pcie") return grouped(2000.0 * pci.value("lanes", 1));
  const int clock = pci.value("clock_mhz", 0);
  const double mhz = clock == 33    ? 100.0 / 3
                     : clock == 66  ? 200.0 / 3
                     : clock == 133 ? 400.0 / 3
                                    : clock;
  const int width = pci.value("width_bits", 0);
  if (width == 0 || mhz <= 0) return "";
  return grouped(std::floor(width * mhz));
}

// What a NIC narrower than its bus does there: "intel-82540em is a 32-bit PCI device: on a
// 64-bit bus it moves 4 bytes a clock, the same data clocks per frame as on 32 bits".
std::vector<std::string> narrow_nic_notes(const Results& r, const std::vector<PathResult>& paths,
                                          int nic_axis) {
  std::map<int, std::vector<std::string>> by_width;  // NIC width -> NICs narrower than a bus
  for (const auto& x : paths) {
    const auto h = host_block(r.config(x.point), x.host);
    const int bus = h.value("pci", nlohmann::json::object()).value("width_bits", 0);
    const int nic = h.value("nic", nlohmann::json::object())
                        .value("master", nlohmann::json::object())
                        .value("width_bits", 0);
    if (h.value("pci", nlohmann::json::object()).value("mode", "pci") == "pcie") continue;
    if (nic <= 0 || bus <= nic) continue;
    // The profile as the scenario names it (the resolved config has its values, not its name).
    std::string name;
    const auto& doc = r.record(x.point);
    if (doc.is_object() && doc.contains("scenario"))
      name = host_block(doc["scenario"], x.host)
                 .value("nic", nlohmann::json::object())
                 .value("profile", "");
    if (name.empty())
      name = nic_axis >= 0 ? r.points[x.point][static_cast<std::size_t>(nic_axis)] : x.host;
    auto& names = by_width[nic];
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::vector<std::string> notes;
  for (const auto& [bits, names] : by_width)
    notes.push_back(fmt::format(
        "{} {} {}-bit PCI device{}: on a 64-bit bus {} {} bytes a clock, the same data clocks per "
        "frame as on 32 bits",
        join(names), names.size() == 1 ? "is a" : "are", bits, names.size() == 1 ? "" : "s",
        names.size() == 1 ? "it moves" : "they move", bits / 8));
  return notes;
}

// One case of the PCI answer: its values on the axes it is grouped by, and its paths.
struct PathGroup {
  std::string key;  // "bus=PCI 32/33, direction=tx, transmit"
  std::vector<std::string> cells;
  std::vector<const PathResult*> paths;
};

// The table: a row per case -- its axes, the throughput over its NICs, the slowest and the
// fastest, what limits them, the slowest one's bus clocks per frame, the bus's raw rate.
std::vector<std::vector<std::string>> pci_table(const Results& r,
                                                const std::vector<PathGroup>& groups,
                                                const std::vector<std::string>& header,
                                                int nic_axis) {
  bool ranges = false;
  for (const auto& g : groups) ranges = ranges || g.paths.size() > 1;
  std::vector<std::vector<std::string>> table = {header};
  for (const std::string c :
       {"Mb/s", "slowest", "fastest", "limited by", "bus clocks/frame", "bus Mb/s"})
    if (ranges || (c != std::string("slowest") && c != std::string("fastest")))
      table[0].push_back(c);
  auto nic = [&](const PathResult* x) {
    return nic_axis >= 0 ? r.points[x->point][static_cast<std::size_t>(nic_axis)] : x->host;
  };
  for (const auto& g : groups) {
    const auto [lo, hi] = std::minmax_element(
        g.paths.begin(), g.paths.end(),
        [](const auto* x, const auto* y) { return x->simulated < y->simulated; });
    std::vector<std::string> row = g.cells;
    const std::string low = fmt::format("{:.0f}", (*lo)->simulated * 1e-6);
    const std::string high = fmt::format("{:.0f}", (*hi)->simulated * 1e-6);
    row.push_back(low == high ? low : low + "-" + high);
    if (ranges) {
      row.push_back(nic(*lo));
      row.push_back(g.paths.size() > 1 ? nic(*hi) : "");
    }
    std::map<std::string, int> by;
    for (const auto* x : g.paths) ++by[x->bottleneck];
    std::string limits;
    for (const auto& [b, n] : by)
      limits += (limits.empty() ? "" : ", ") + b +
                (g.paths.size() > 1 ? fmt::format(" {}/{}", n, g.paths.size()) : std::string());
    row.push_back(limits);
    row.push_back((*lo)->clocks);
    row.push_back(raw_bus_mbps(r.config((*lo)->point), (*lo)->host));
    table.push_back(std::move(row));
  }
  return table;
}

// The cases of the answer, one per combination of the axes other than the NIC's and the frame
// size's, per host and direction, at one frame size; a detail per path.
std::vector<PathGroup> pci_groups(const Results& r, const std::vector<PathResult>& paths,
                                  const std::set<std::string>& components, int size_axis,
                                  int nic_axis, std::vector<std::string>& header,
                                  std::vector<std::string>& details) {
  const std::string size = answer_frame_size(r, size_axis);
  std::vector<std::size_t> rest, all_but_nic;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    if (static_cast<int>(i) == nic_axis) continue;
    all_but_nic.push_back(i);
    if (r.axes[i].find("frame_bytes") == std::string::npos) rest.push_back(i);
  }
  for (std::size_t i : rest) header.push_back(axis_short_name(r.axes[i]));
  if (components.size() > 1) header.push_back("host");
  header.push_back("way");
  std::vector<PathGroup> groups;
  for (const auto& path : paths) {
    const std::string host = components.size() > 1 ? ", host " + path.host : "";
    const std::string way = path.transmit ? "transmit" : "receive";
    std::string what = short_label_of(r, path.point, rest);
    if (what.empty()) what = "the run";
    const std::string key = what + host + ", " + way;
    const std::string nic =
        nic_axis >= 0 ? r.points[path.point][static_cast<std::size_t>(nic_axis)] : path.host;
    details.push_back(short_label_of(r, path.point, all_but_nic) +
                      (nic_axis >= 0 ? ", " + nic : "") + host + ", " + way + ": " +
                      mbps(path.simulated) + ", bottleneck " + path.bottleneck +
                      (path.mechanism.empty() ? "" : "; " + path.mechanism));
    if (!size.empty() && r.points[path.point][static_cast<std::size_t>(size_axis)] != size)
      continue;
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const PathGroup& x) { return x.key == key; });
    if (g == groups.end()) {
      PathGroup fresh;
      fresh.key = key;
      for (std::size_t i : rest) fresh.cells.push_back(r.points[path.point][i]);
      if (components.size() > 1) fresh.cells.push_back(path.host);
      fresh.cells.push_back(way);
      groups.push_back(std::move(fresh));
      g = groups.end() - 1;
    }
    g->paths.push_back(&path);
  }
  return groups;
}

void pci(const Results& r, std::vector<Answer>& out) {
  const std::set<std::string> components = host_analysis_components(r);
  const int size_axis = axis_containing(r, "frame_bytes");
  const int nic_axis = axis_containing(r, "nic");
  std::vector<PathResult> paths = path_results(r, components);
  if (paths.empty()) return;
  shared_bus_mechanisms(r, paths);
  Answer a;
  a.kind = "pci";
  a.question = "What throughput can each NIC and bus carry, and what limits it?";
  std::vector<std::string> header;
  const std::vector<PathGroup> groups =
      pci_groups(r, paths, components, size_axis, nic_axis, header, a.details);
  if (groups.empty()) return;
  a.table = pci_table(r, groups, header, nic_axis);
  // The sentence for the slowest case, then what a narrow NIC does on a wide bus.
  auto slowest_of = [](const PathGroup& g) {
    double low = g.paths.front()->simulated;
    for (const auto* x : g.paths) low = std::min(low, x->simulated);
    return low;
  };
  const auto slowest = std::min_element(
      groups.begin(), groups.end(),
      [&](const PathGroup& x, const PathGroup& y) { return slowest_of(x) < slowest_of(y); });
  a.lines.push_back("Slowest case, " + path_group_line(r, slowest->key, slowest->paths, nic_axis));
  for (auto& note : narrow_nic_notes(r, paths, nic_axis)) a.lines.push_back(std::move(note));
  const std::string size = answer_frame_size(r, size_axis);
  a.method =
      "Simulated: the driver's delivered (receive) or sent (transmit) DA..FCS bits per second of "
      "a saturated stream" +
      (size.empty() ? std::string() : " at " + size + "-byte frames (the others below)") +
      ". Bottleneck, as the run showed it: wire (>= 98 % of the line's ceiling), bus (>= 95 % "
      "busy below it), fifo (the receive FIFO overflowed, or transmit cannot overlap), cpu (the "
      "ring ran dry or the CPU >= 95 % busy). Mechanism: the per-frame PCI cycle accounting "
      "(analysis/pci_cycles), which assumes a saturated bus, back-to-back transactions, no "
      "latency-timer cuts or retries. Bus Mb/s: the bus's raw rate each way (width x clock; "
      "a PCI Express lane 2,000).";
  a.chart = "pci-throughput-rx";
  out.push_back(std::move(a));
}

// ---- PHY -----------------------------------------------------------------------------------

void phy(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::phy || !r.tables.count("reach")) return;
  const auto& t = r.tables.at("reach");
  const std::map<std::string, std::string> receiver = {
      {"all", "with echo and NEXT cancellation"},
      {"no_next_cancel", "without NEXT cancellation"},
      {"no_echo_cancel", "without echo cancellation"}};
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> by;
  Answer a;
  a.kind = "phy";
  a.question = "How far does 1000BASE-T reach on each cable?";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string cat = t.at(i, "category");
    const std::string variant = t.at(i, "cancellation");
    const std::string length = t.at(i, "zero_margin_length_m");
    const auto it = receiver.find(variant);
    const std::string who = it != receiver.end() ? it->second : variant;
    if (!by.count(cat)) order.push_back(cat);
    const auto n = parse_number(length);
    // "none": the margin is below zero even at 0 m; ">400": beyond the bisection's range.
    const std::string reach = n                  ? fmt::format("{:.0f} m", *n)
                              : length == "none" ? std::string("nothing")
                                                 : length + " m";
    by[cat].push_back(reach + " " + who);
    a.details.push_back(fmt::format(
        "{}, {}: margin at 0 m {} dB, zero margin {}", cat, who, t.at(i, "margin_at_0m_db"),
        length == "none" ? "nowhere (below zero at 0 m)" : "at " + length + " m"));
  }
  for (const auto& cat : order) {
    std::string s;
    for (const auto& x : by[cat]) s += (s.empty() ? "" : "; ") + x;
    a.lines.push_back(cat + ": reach " + s);
  }
  a.method =
      "Reach: the cable length at which the SNR at the slicer, after the equaliser and the "
      "cancellers, falls to what a coded bit-error rate of 1e-10 needs (zero margin), found by "
      "bisection on the link-level model (docs/phy.md). 802.3 specifies 100 m of Category 5; "
      "the margin beyond it is the model's, with its crosstalk and noise assumptions.";
  a.chart = "phy-margin";
  out.push_back(std::move(a));
}

}  // namespace

std::string table_text(const std::vector<std::vector<std::string>>& table,
                       const std::string& indent) {
  std::vector<std::size_t> width;
  for (const auto& row : table)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (std::size_t i = 0; i < table.size(); ++i) {
    std::string line = indent;
    for (std::size_t c = 0; c < table[i].size(); ++c)
      line += fmt::format("{:<{}}", table[i][c], c + 1 < table[i].size() ? width[c] + 2 : 0);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (i == 0) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < width.size(); ++c)
        total += width[c] + (c + 1 < width.size() ? 2 : 0);
      out += indent + std::string(total, '-') + "\n";
    }
  }
  return out;
}

std::vector<Answer> answers(const Results& r) {
  std::vector<Answer> out;
  diameter(r, out);
  carrier_extension(r, out);
  pci(r, out);
  phy(r, out);
  answer_rules::contention(r, out);
  answer_rules::line_rate(r, out);
  answer_rules::cable_errors(r, out);
  answer_rules::host_applications(r, out);
  answer_rules::switch_drops(r, out);
  return out;
}

std::string reference_assumptions(const std::string& quantity) {
  if (quantity.find("Metcalfe-Boggs") != std::string::npos)
    return "Metcalfe-Boggs (1976) assumes slotted time, stations that are always ready and each "
           "transmit in a contention slot with probability 1/Q (the optimum p-persistent "
           "strategy), and no capture: 802.3's truncated binary exponential backoff instead lets "
           "the station that just sent win again (capture), so a saturated simulated domain can "
           "carry far more than the formula says.";
  if (quantity.find("single-sender") != std::string::npos)
    return "The single-sender closed form assumes one saturated sender and no contention: the "
           "exact repeating timeline of preamble, frame, extension and gap.";
  if (quantity.find("PCI ceiling") != std::string::npos)
    return "The PCI ceiling is the per-frame cycle accounting (analysis/pci_cycles): a "
           "saturated bus, back-to-back transactions, the cheapest descriptor fetch, no "
           "latency-timer cuts, retries or full posted-write buffers.";
  if (quantity.find("PDV edge") != std::string::npos)
    return "The PDV edge is the topology report's longest legal station cable: every pair's "
           "round-trip path delay within the slot time; the simulated length is the first swept "
           "one that loses frames, so the swept step bounds the difference.";
  return "";
}

namespace {

// What a sweep nearly is, for the reason it has no answer; empty when nothing comes close.
std::string near_miss(const Results& r, const std::vector<std::size_t>& points) {
  std::set<std::size_t> counts;
  bool single = true, extension = false;
  for (const std::size_t p : points) {
    single = single && r.value(p, "analysis", "single_sender_frame_rate").has_value();
    if (const auto e = r.value(p, "domain0", "extension_share"); e && e->mean > 0) extension = true;
    if (!r.value(p, "domain0", "efficiency")) continue;
    const auto& config = r.config(p);
    if (!config.is_object() || !config.contains("collision_domains") ||
        config["collision_domains"].empty())
      continue;
    const auto senders = answer_rules::senders_of(config);
    std::size_t n = 0;
    for (const auto& s : config["collision_domains"][0].value("stations", nlohmann::json::array()))
      n += std::count(senders.begin(), senders.end(), s.get<std::string>()) > 0;
    counts.insert(n);
  }
  for (const auto& c : r.components())
    if (c.rfind("analysis.link", 0) == 0)
      return "; its links' bit errors come from the PHY model, but no cable length is swept";
  if (extension)
    return "; it has carrier extension, but no point that differs only by frame bursting or by "
           "having no extension to set it against";
  if (counts.size() == 1 && *counts.begin() > 1)
    return fmt::format(
        "; {} stations always send on its collision domain, and contention needs "
        "three or more counts of them",
        *counts.begin());
  if (counts.size() == 2)
    return "; its collision domain has two counts of senders, and contention needs three or more";
  if (single)
    return "; it has one saturated sender, but neither in full duplex on its own with a "
           "frame-size or line-rate axis (line rate) nor in half duplex with an extension "
           "partner";
  return "";
}

}  // namespace

std::string no_answer_reason(const Results& r) {
  if (!answers(r).empty()) return "";
  const std::string shapes =
      "gbesim answers a sweep with a cable-length axis and the topology report (diameter), "
      "carrier extension beside frame bursting or no extension, a host's PCI accounting of raw "
      "frames (NIC and bus ceilings), three or more counts of senders on one collision domain "
      "(contention), one saturated full-duplex sender over frame sizes or line rates (line "
      "rate), a link whose bit errors the PHY model sets over a cable-length axis, hosts "
      "running applications over a NIC, a switch (its drops and PAUSE), and a `gbesim phy` "
      "reach table.";
  if (r.kind == ResultsKind::phy)
    return shapes + " This `gbesim phy` directory has no reach table (reach.csv).";
  if (r.kind == ResultsKind::run)
    return shapes +
           " This is a single run without a host's PCI accounting, the one answer a run can "
           "give; the others compare the points of a sweep.";
  const auto points = answer_rules::points_with_results(r);
  if (points.empty()) return shapes + " None of this sweep's runs completed.";
  std::vector<std::string> axes;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    // The columns of a linked axis are named once, by the first.
    const auto first = answer_rules::determined_by(r, static_cast<int>(i));
    bool follows = false;
    for (std::size_t j = 0; j < i && !follows; ++j) {
      const auto d = answer_rules::determined_by(r, static_cast<int>(j));
      follows = std::find(d.begin(), d.end(), static_cast<int>(i)) != d.end() &&
                std::find(first.begin(), first.end(), static_cast<int>(j)) != first.end();
    }
    if (!follows) axes.push_back(r.axes[i]);
  }
  return shapes + " This sweep varies " + answer_rules::join(axes, ", ") +
         ", which no answer reads" + near_miss(r, points) + ".";
}

}  // namespace gbesim
