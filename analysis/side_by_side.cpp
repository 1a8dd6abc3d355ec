#include "analysis/side_by_side.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace gbesim {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The components that hold a host's totals: "<host>.driver" (a full host), "<host>.cpu" (light).
std::vector<std::string> host_components(const Results& r) {
  std::vector<std::string> out;
  for (const auto& c : r.components())
    if ((ends_with(c, ".driver") || ends_with(c, ".cpu")) && r.value(0, c, "cpu_utilisation"))
      out.push_back(c);
  return out;
}

}  // namespace

double SideBySide::relative() const {
  return a != 0 ? (b - a) / a : std::nan("");
}

std::vector<SideBySide> side_by_side(const Results& a, const Results& b) {
  std::vector<SideBySide> rows;
  if (a.axes.size() != b.axes.size()) return rows;
  const auto in_a = host_components(a);
  const auto in_b = host_components(b);
  std::vector<std::string> both;
  for (const auto& c : in_a)
    if (std::find(in_b.begin(), in_b.end(), c) != in_b.end()) both.push_back(c);
  const std::size_t na = std::max<std::size_t>(a.points.size(), 1);
  const std::size_t nb = std::max<std::size_t>(b.points.size(), 1);
  for (std::size_t pa = 0; pa < na; ++pa)
    for (std::size_t pb = 0; pb < nb; ++pb) {
      if (!a.axes.empty() && a.points[pa] != b.points[pb]) continue;
      for (const auto& c : both)
        for (const auto& [q, unit] : {std::pair{"app_receive_throughput", "bit/s"},
                                      std::pair{"app_send_throughput", "bit/s"},
                                      std::pair{"cpu_utilisation", "fraction"}}) {
          const auto va = a.value(pa, c, q);
          const auto vb = b.value(pb, c, q);
          if (!va || !vb || (va->mean == 0 && vb->mean == 0)) continue;
          rows.push_back({pa, pb, c, q, unit, va->mean, vb->mean});
        }
    }
  return rows;
}

std::vector<std::string> side_by_side_summary(const std::vector<SideBySide>& rows,
                                              const std::string& a_name,
                                              const std::string& b_name) {
  // By component and quantity, in first-seen order.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<double>> relative;
  for (const auto& r : rows) {
    const auto key = std::make_pair(r.component, r.quantity);
    if (!relative.count(key)) order.push_back(key);
    if (std::isfinite(r.relative()))
      relative[key].push_back(r.relative());
    else
      relative[key];
  }
  std::vector<std::string> out;
  for (const auto& key : order) {
    const auto& v = relative[key];
    if (v.empty()) continue;
    double sum = 0;
    for (double x : v) sum += x;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    out.push_back(
        fmt::format("{} {}: {} gives {:+.1f} % on average against {} ({:+.1f} % .. "
                    "{:+.1f} % over {} points)",
                    key.first, key.second, b_name, 100 * sum / static_cast<double>(v.size()),
                    a_name, 100 * *lo, 100 * *hi, v.size()));
  }
  return out;
}

}  // namespace gbesim
