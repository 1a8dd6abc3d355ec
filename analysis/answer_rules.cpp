#include "analysis/answer_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gbesim::answer_rules {

std::vector<std::string> senders_of(const nlohmann::json& config) {
  std::vector<std::string> out;
  if (!config.is_object() || !config.contains("stations")) return out;
  for (const auto& [name, station] : config["stations"].items())
    for (const auto& t : station.value("traffic", nlohmann::json::array()))
      if (t.value("enabled", true)) {
        out.push_back(name);
        break;
      }
  return out;
}

std::vector<std::string> application_hosts(const nlohmann::json& config) {
  std::vector<std::string> out;
  if (!config.is_object() || !config.contains("hosts")) return out;
  for (const auto& [name, host] : config["hosts"].items()) {
    if (!host.contains("nic")) continue;
    const bool app = host.contains("app") && host["app"].is_object() && !host["app"].empty();
    const bool apps = host.contains("apps") && host["apps"].is_array() && !host["apps"].empty();
    if (app || apps) out.push_back(name);
  }
  return out;
}

bool all_full_duplex(const nlohmann::json& config) {
  if (!config.is_object() || !config.contains("stations")) return false;
  for (const auto& [name, station] : config["stations"].items())
    if (station.value("mac", nlohmann::json::object()).value("duplex", "full") != "full")
      return false;
  return true;
}

std::string percent(double share) {
  return fmt::format("{:.1f} %", 100 * share);
}

std::string mbps(double bps) {
  return fmt::format("{:.0f} Mb/s", bps * 1e-6);
}

std::string grouped(double value) {
  const bool whole = std::abs(value - std::round(value)) < 1e-9;
  if (std::abs(value) < 1000 && !whole) return fmt::format("{:.1f}", value);
  std::string digits = fmt::format("{:.0f}", std::abs(value));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return (value < -0.5 ? "-" : "") + digits;
}

std::string frames_text(double frames) {
  const double n = std::round(frames);
  return grouped(n) + (n == 1 ? " frame" : " frames");
}

std::string small_percent(double share) {
  const double v = 100 * share;
  if (v == 0) return "0 %";
  if (v >= 10) return fmt::format("{:.0f} %", v);
  if (v >= 1) return fmt::format("{:.1f} %", v);
  return fmt::format("{:.2g} %", v);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string s;
  for (const auto& x : parts) s += (s.empty() ? "" : separator) + x;
  return s;
}

std::string short_label_of(const Results& r, std::size_t p, const std::vector<std::size_t>& axes) {
  // Axes a sweep links (two paths set together) carry one value under one short name: said once.
  std::vector<std::string> said;
  for (std::size_t a : axes) {
    const std::string part = axis_short_name(r.axes[a]) + "=" + r.points[p][a];
    if (std::find(said.begin(), said.end(), part) == said.end()) said.push_back(part);
  }
  return join(said);
}

std::vector<std::size_t> every_axis(const Results& r) {
  return axes_except(r, {});
}

std::vector<std::size_t> axes_except(const Results& r, const std::vector<int>& skip) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (std::find(skip.begin(), skip.end(), static_cast<int>(i)) == skip.end()) out.push_back(i);
  return out;
}

int axis_containing(const Results& r, const std::string& part) {
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (r.axes[i].find(part) != std::string::npos) return static_cast<int>(i);
  return -1;
}

std::vector<std::size_t> differing_axes(const Results& r, std::size_t a, std::size_t b) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (r.points[a][i] != r.points[b][i]) out.push_back(i);
  return out;
}

std::vector<int> determined_by(const Results& r, int k) {
  std::vector<int> out;
  if (k < 0) return out;
  const auto key = static_cast<std::size_t>(k);
  const auto points = points_with_results(r);
  for (std::size_t j = 0; j < r.axes.size(); ++j) {
    std::map<std::string, std::string> follows;
    bool function = true;
    for (const std::size_t p : points) {
      const auto [it, fresh] = follows.emplace(r.points[p][key], r.points[p][j]);
      if (!fresh && it->second != r.points[p][j]) function = false;
    }
    if (function) out.push_back(static_cast<int>(j));
  }
  return out;
}

std::vector<int> axes_changing(const Results& r,
                               const std::map<std::size_t, std::string>& property) {
  std::vector<int> out;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    if (std::find(out.begin(), out.end(), static_cast<int>(i)) != out.end()) continue;
    const auto linked = determined_by(r, static_cast<int>(i));
    const auto others = axes_except(r, linked);
    std::map<std::string, std::set<std::string>> seen;
    for (const auto& [p, value] : property) seen[short_label_of(r, p, others)].insert(value);
    if (std::any_of(seen.begin(), seen.end(), [](const auto& g) { return g.second.size() > 1; }))
      for (const int j : linked)
        if (std::find(out.begin(), out.end(), j) == out.end()) out.push_back(j);
  }
  return out;
}

std::vector<PointGroup> group_points(const Results& r, const std::vector<std::size_t>& axes,
                                     const std::vector<std::size_t>& points) {
  std::vector<std::size_t> named;
  for (const std::size_t a : axes) {
    const bool follows = std::any_of(named.begin(), named.end(), [&](std::size_t earlier) {
      const auto d = determined_by(r, static_cast<int>(earlier));
      return std::find(d.begin(), d.end(), static_cast<int>(a)) != d.end();
    });
    if (!follows) named.push_back(a);
  }
  std::vector<PointGroup> out;
  std::map<std::string, std::size_t> index;
  for (const std::size_t p : points) {
    std::string label = short_label_of(r, p, named);
    if (label.empty()) label = "all points";
    const auto [it, fresh] = index.emplace(label, out.size());
    if (fresh) out.push_back({label, {}});
    out[it->second].points.push_back(p);
  }
  return out;
}

std::vector<std::size_t> points_with_results(const Results& r) {
  std::vector<std::size_t> out;
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    const auto& values = r.points[p];
    // A point with no complete run has empty values on every axis (analysis/results).
    if (values.empty() ||
        std::any_of(values.begin(), values.end(), [](const auto& v) { return !v.empty(); }))
      out.push_back(p);
  }
  return out;
}

std::optional<double> mean_of(const Results& r, std::size_t p, const std::string& component,
                              const std::string& name) {
  const auto s = r.value(p, component, name);
  if (!s || std::isnan(s->mean)) return std::nullopt;
  return s->mean;
}

}  // namespace gbesim::answer_rules
