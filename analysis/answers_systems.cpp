// The answers about systems built of hosts and switches: what a host's applications get through
// its NIC arrangement, and what a switch drops or holds back with PAUSE.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/answer_rules.hpp"
#include "analysis/host_limit.hpp"

namespace gbesim::answer_rules {
namespace {

// The switches: components that count frame copies dropped.
std::vector<std::string> switches_of(const Results& r, const std::vector<std::size_t>& points) {
  std::vector<std::string> out;
  if (points.empty()) return out;
  for (const auto& c : r.components())
    if (r.value(points.front(), c, "copies_dropped")) out.push_back(c);
  return out;
}

double switch_drops_at(const Results& r, std::size_t p, const std::vector<std::string>& switches) {
  double n = 0;
  for (const auto& s : switches)
    n += mean_of(r, p, s, "copies_dropped").value_or(0) +
         mean_of(r, p, s, "frames_dropped_fabric").value_or(0);
  return n;
}

// ---- host applications ---------------------------------------------------------------------

// The host whose applications the answer follows: the first in the scenario that runs
// applications over a NIC and whose driver counted application bytes.
std::optional<std::string> application_host(const Results& r,
                                            const std::vector<std::size_t>& points) {
  std::set<std::string> drivers;
  for (const auto& c : r.components()) {
    const auto dot = c.rfind(".driver");
    if (dot != std::string::npos && dot + 7 == c.size() &&
        std::any_of(points.begin(), points.end(), [&](std::size_t p) {
          return r.value(p, c, "app_receive_throughput") || r.value(p, c, "app_send_throughput");
        }))
      drivers.insert(c.substr(0, dot));
  }
  if (drivers.empty()) return std::nullopt;
  for (const auto& h : application_hosts(r.config(points.front())))
    if (drivers.count(h)) return h;
  return std::nullopt;
}

// The axis along which the host's NIC arrangement (its NIC block and any team) changes, with the
// other axes held; else the first axis named for a NIC; -1 when none.
int nic_axis_of(const Results& r, const std::string& host, const std::vector<std::size_t>& points) {
  std::map<std::size_t, std::string> arrangement;
  for (const std::size_t p : points) {
    const auto& config = r.config(p);
    if (!config.is_object() || !config.contains("hosts") || !config["hosts"].contains(host))
      continue;
    const auto& h = config["hosts"][host];
    arrangement[p] =
        h.value("nic", nlohmann::json()).dump() + h.value("team", nlohmann::json()).dump();
  }
  const auto changing = axes_changing(r, arrangement);
  if (!changing.empty()) return changing.front();
  return axis_containing(r, "nic");
}

struct HostPoint {
  std::size_t point = 0;
  std::string nic;  // the NIC axis's value, or ""
  double x = 0;     // the workload axis's value
  double received = 0;
  double sent = 0;
  std::optional<double> cpu;
  double drops = 0;  // frame copies the switches dropped
  double total() const { return received + sent; }
};

// The workload axis: the numeric axis with the most values, other than the NIC's.
int workload_axis(const Results& r, const std::vector<int>& skip,
                  const std::vector<std::size_t>& points) {
  int best = -1;
  std::size_t most = 1;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    if (std::find(skip.begin(), skip.end(), static_cast<int>(i)) != skip.end()) continue;
    std::set<double> values;
    bool numeric = true;
    for (const std::size_t p : points) {
      const auto v = parse_number(r.points[p][i]);
      if (!v)
        numeric = false;
      else
        values.insert(*v);
    }
    if (numeric && values.size() > most) {
      most = values.size();
      best = static_cast<int>(i);
    }
  }
  return best;
}

// "612 Mb/s (Intel ...)"; the NIC's own workload value when it is not the group's largest.
std::string host_range(const std::vector<const HostPoint*>& xs, const std::string& x_name,
                       double x_top) {
  const auto [lo, hi] = std::minmax_element(
      xs.begin(), xs.end(), [](const auto* a, const auto* b) { return a->total() < b->total(); });
  auto who = [&](const HostPoint* x) {
    std::string s = x->nic;
    if (!x_name.empty() && x->x != x_top) s += fmt::format(" at {:g}", x->x);
    return s.empty() ? std::string() : " (" + s + ")";
  };
  if (xs.size() == 1 || (*lo)->total() == (*hi)->total())
    return mbps((*lo)->total()) + (xs.size() == 1 ? who(*lo) : std::string());
  return mbps((*lo)->total()) + who(*lo) + " to " + mbps((*hi)->total()) + who(*hi);
}

std::string host_line(const std::string& label, const std::vector<HostPoint>& rows,
                      const std::string& x_name) {
  // Per NIC, its points at its smallest and largest workload.
  std::map<std::string, std::pair<const HostPoint*, const HostPoint*>> ends;
  double top = -INFINITY, bottom = INFINITY;
  for (const auto& x : rows) {
    auto& [lo, hi] = ends[x.nic];
    if (!lo || x.x < lo->x) lo = &x;
    if (!hi || x.x > hi->x) hi = &x;
    top = std::max(top, x.x);
    bottom = std::min(bottom, x.x);
  }
  std::vector<const HostPoint*> highs, lows;
  for (const auto& [nic, e] : ends) {
    highs.push_back(e.second);
    lows.push_back(e.first);
  }
  std::string s = label + ": ";
  if (!x_name.empty()) s += fmt::format("{} {:g}: ", x_name, top);
  s += host_range(highs, x_name, top);
  std::vector<double> cpus;
  for (const auto* x : highs)
    if (x->cpu) cpus.push_back(100 * *x->cpu);
  if (!cpus.empty()) {
    const auto [lo, hi] = std::minmax_element(cpus.begin(), cpus.end());
    s += fmt::format(", CPU {:.0f}{} %", *lo,
                     *hi - *lo >= 0.5 ? fmt::format(" .. {:.0f}", *hi) : std::string());
  }
  if (!x_name.empty() && bottom < top)
    s += fmt::format("; {} {:g}: {}", x_name, bottom, host_range(lows, x_name, bottom));
  const auto dropped =
      std::count_if(rows.begin(), rows.end(), [](const auto& x) { return x.drops > 0; });
  if (dropped > 0)
    s += fmt::format("; the switch dropped frames at {} of {} points", dropped, rows.size());
  return s;
}

// components: the results' components, found once for all the points.
std::string host_detail(const Results& r, const HostPoint& x, const std::string& host,
                        const std::vector<std::string>& components) {
  std::string s = fmt::format("{}: applications {} (received {}, sent {})",
                              short_label_of(r, x.point, every_axis(r)), mbps(x.total()),
                              mbps(x.received), mbps(x.sent));
  if (x.cpu) s += ", " + host + " CPU " + percent(*x.cpu);
  if (const auto pe = mean_of(r, x.point, host + ".driver", "pe_index"))
    s += fmt::format(", P/E {:.1f} (Mb/s per CPU %)", *pe);
  if (x.drops > 0) s += ", switch dropped " + frames_text(x.drops);
  const std::string limit = host_limit(
      r.config(x.point), host, components,
      [&](const std::string& c, const std::string& name) { return mean_of(r, x.point, c, name); });
  if (!limit.empty()) s += "; limited by " + limit;
  return s;
}

// ---- switch --------------------------------------------------------------------------------

struct SwitchPoint {
  std::size_t point = 0;
  double dropped = 0;
  double copies = 0;
  double pauses = 0;  // PAUSE frames the switch's ports sent
  double delivered = 0;
};

std::string pause_text(const Results& r, std::size_t p, int pause_axis) {
  if (pause_axis < 0) return "";
  const std::string& v = r.points[p][static_cast<std::size_t>(pause_axis)];
  if (v == "true") return "with PAUSE";
  if (v == "false") return "without PAUSE";
  return axis_short_name(r.axes[static_cast<std::size_t>(pause_axis)]) + "=" + v;
}

std::string switch_text(const SwitchPoint& s) {
  std::string t = s.dropped > 0 ? frames_text(s.dropped) + " dropped (" +
                                      small_percent(s.dropped / s.copies) + " of those switched)"
                                : std::string("none dropped");
  t += ", " + mbps(s.delivered) + " delivered";
  if (s.pauses > 0) t += ", " + grouped(std::round(s.pauses)) + " PAUSE frames sent";
  return t;
}

// The NICs side by side, each at its largest workload (request size) in the group: what the
// applications get, the CPU, the P/E index. The table's header comes with its first rows.
void nic_rows(const Results& r, const std::string& group, const std::vector<HostPoint>& rows,
              const std::string& driver, const std::string& x_name,
              std::vector<std::vector<std::string>>& table) {
  if (table.empty())
    table.push_back({"case", "NIC", x_name.empty() ? "point" : x_name, "applications", "CPU",
                     "P/E (Mb/s per CPU %)"});
  std::vector<std::string> nics;
  for (const auto& x : rows)
    if (std::find(nics.begin(), nics.end(), x.nic) == nics.end()) nics.push_back(x.nic);
  for (const auto& nic : nics) {
    const HostPoint* top = nullptr;
    for (const auto& x : rows)
      if (x.nic == nic && (top == nullptr || x.x > top->x)) top = &x;
    const auto pe = mean_of(r, top->point, driver, "pe_index");
    table.push_back({group, nic,
                     x_name.empty() ? short_label_of(r, top->point, every_axis(r))
                                    : fmt::format("{:g}", top->x),
                     mbps(top->total()), top->cpu ? percent(*top->cpu) : "-",
                     pe ? fmt::format("{:.1f}", *pe) : "-"});
  }
}

}  // namespace

void host_applications(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  const auto points = points_with_results(r);
  if (points.empty()) return;
  const auto host = application_host(r, points);
  if (!host) return;
  const std::string driver = *host + ".driver";
  const auto switches = switches_of(r, points);
  const int nic_axis = nic_axis_of(r, *host, points);
  const auto by_nic = determined_by(r, nic_axis);
  const int x_axis = workload_axis(r, by_nic, points);
  std::vector<int> skip = by_nic;
  for (const int i : determined_by(r, x_axis)) skip.push_back(i);
  const std::string x_name =
      x_axis < 0 ? "" : axis_short_name(r.axes[static_cast<std::size_t>(x_axis)]);
  std::map<std::size_t, HostPoint> at;
  for (const std::size_t p : points) {
    HostPoint x;
    x.point = p;
    x.nic = nic_axis < 0 ? "" : r.points[p][static_cast<std::size_t>(nic_axis)];
    x.x = x_axis < 0 ? 0 : *parse_number(r.points[p][static_cast<std::size_t>(x_axis)]);
    x.received = mean_of(r, p, driver, "app_receive_throughput").value_or(0);
    x.sent = mean_of(r, p, driver, "app_send_throughput").value_or(0);
    x.cpu = mean_of(r, p, driver, "cpu_utilisation");
    x.drops = switch_drops_at(r, p, switches);
    at[p] = x;
  }
  Answer a;
  a.kind = "host-applications";
  a.question = "What do the applications on host " + *host + " get" +
               (nic_axis < 0 ? "" : " through each NIC") + ", and at what CPU cost?";
  const std::vector<std::string> components = r.components();
  for (const auto& g : group_points(r, axes_except(r, skip), points)) {
    std::vector<HostPoint> rows;
    for (const std::size_t p : g.points) rows.push_back(at[p]);
    a.lines.push_back(host_line(g.label, rows, x_name));
    for (const auto& x : rows) a.details.push_back(host_detail(r, x, *host, components));
    if (nic_axis >= 0) nic_rows(r, g.label, rows, driver, x_name, a.table);
  }
  a.method =
      "Applications: the bytes " + *host +
      "'s applications received and sent per second, above the transport (" + driver +
      " app_receive_throughput + app_send_throughput, in Mb/s)" +
      (nic_axis < 0 ? std::string()
                    : ", the lowest and highest over the NICs (" +
                          axis_short_name(r.axes[static_cast<std::size_t>(nic_axis)]) + ")") +
      (x_name.empty() ? std::string()
                      : ", at the largest and smallest " + x_name +
                            " (a NIC that does not reach the largest is shown at its own, "
                            "named)") +
      ". CPU: the share of time " + *host +
      "'s CPU was busy (driver, stack and applications) at the largest." +
      (switches.empty() ? std::string()
                        : " The switch's drops: frame copies it discarded for want of output "
                          "buffer.") +
      " Limited by (each point): what was at its limit in the run -- the wire (a NIC's link 95 % "
      "busy or more either way), the bus or the card's segment behind an on-card bridge (95 % "
      "busy, with the shares of its clocks), the host bridge's memory path (95 % busy), the NICs' "
      "receive FIFOs (frames lost), a NIC's DMA engine (a request at the bus 95 % of the time "
      "while the bus is not 95 % busy), the CPU (95 % busy), the transport (segments resent) or "
      "the sockets (datagrams dropped); with none of them, the window, the transport or the peer, "
      "and the busiest resource named.";
  a.chart =
      r.axis("hosts.pc.app.request_bytes") >= 0 ? "nic-review-throughput-receive" : "throughput";
  out.push_back(std::move(a));
}

void switch_drops(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  const auto points = points_with_results(r);
  const auto switches = switches_of(r, points);
  // Where hosts run applications, their answer states the switch's drops.
  if (switches.empty() || application_host(r, points)) return;
  const auto components = r.components();
  std::vector<std::string> port_macs;
  for (const auto& c : components)
    for (const auto& s : switches)
      if (c.rfind(s + ".port", 0) == 0 && c.size() > 4 && c.rfind(".mac") == c.size() - 4)
        port_macs.push_back(c);
  std::map<std::size_t, SwitchPoint> at;
  for (const std::size_t p : points) {
    SwitchPoint s;
    s.point = p;
    s.dropped = switch_drops_at(r, p, switches);
    for (const auto& sw : switches) s.copies += mean_of(r, p, sw, "copies_made").value_or(0);
    for (const auto& m : port_macs)
      s.pauses += mean_of(r, p, m, "pause_mac_ctrl_frames_transmitted").value_or(0);
    s.delivered = mean_of(r, p, "network", "delivered_throughput").value_or(0);
    at[p] = s;
  }
  const int pause_axis = axis_containing(r, "pause");
  Answer a;
  a.kind = "switch";
  a.question = pause_axis < 0 ? "What does the switch drop?"
                              : "What does the switch drop, and what does PAUSE change?";
  for (const auto& g : group_points(r, axes_except(r, determined_by(r, pause_axis)), points)) {
    std::vector<std::string> parts;
    for (const std::size_t p : g.points) {
      const std::string pause = pause_text(r, p, pause_axis);
      parts.push_back((pause.empty() ? "" : pause + ": ") + switch_text(at[p]));
      std::string detail = short_label_of(r, p, every_axis(r)) + ": " + switch_text(at[p]);
      std::vector<double> senders;
      for (const auto& s : senders_of(r.config(p)))
        if (const auto t = mean_of(r, p, s + ".mac", "tx_throughput")) senders.push_back(*t);
      if (senders.size() > 1) {
        const auto [lo, hi] = std::minmax_element(senders.begin(), senders.end());
        detail += "; the " + std::to_string(senders.size()) + " senders sent " + mbps(*lo) +
                  " to " + mbps(*hi) + " each";
      }
      a.details.push_back(detail);
    }
    a.lines.push_back(g.label + ": " + join(parts, "; "));
  }
  a.method =
      "Dropped: the frame copies the switch discarded for want of room in an output queue (and "
      "in the fabric), over the copies it made for its output ports. PAUSE frames: the 802.3x "
      "PAUSE frames the switch's ports sent to hold their senders back (when a port's input "
      "holds more than pause_xoff_bytes in the switch, until it drains below pause_xon_bytes). "
      "Delivered: DA..FCS bits per second the receiving stations' applications got.";
  a.chart = "throughput";
  out.push_back(std::move(a));
}

}  // namespace gbesim::answer_rules
