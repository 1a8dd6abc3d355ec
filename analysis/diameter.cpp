#include "analysis/diameter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

namespace gbesim {
namespace {

std::string metres(double m) {
  return fmt::format("{:.2f} m", m);
}

std::string swept(double m) {
  return fmt::format("{:g} m", m);
}

std::string where_text(const std::vector<std::pair<std::string, std::string>>& where) {
  std::string s;
  for (const auto& [axis, value] : where) s += (s.empty() ? "" : ", ") + axis + "=" + value;
  return s.empty() ? "all points" : s;
}

std::string legal_text(const DiameterAnswer& a) {
  std::string s;
  if (!a.illegal.empty())
    s = (a.illegal_points == a.points
             ? std::string("illegal at every point: ")
             : fmt::format("illegal at {} of {} points: ", a.illegal_points, a.points)) +
        a.illegal + "; ";
  if (!a.legal_pdv_m) return s + "legal length not known (no topology report)";
  const std::string slot = a.budget_bt ? fmt::format(" at slot {:g} BT", *a.budget_bt) : "";
  if (*a.legal_pdv_m <= 0)
    return s + "no cable is legal" + slot + ": the stations' and repeaters' delays alone exceed it";
  s += (a.illegal.empty() ? "legal up to " : "by the path delay alone up to ") +
       metres(*a.legal_pdv_m) + " " + a.swept + slot +
       (a.illegal.empty() ? " by the path delay" : "");
  if (a.legal_m && *a.legal_m < *a.legal_pdv_m - 1e-9)
    s += " (" + metres(*a.legal_m) + " with the PHY's segment limit)";
  return s;
}

// "a - b: 3 Class II repeaters between two stations; at most 2": the first repeater rule a
// run's record says its plant breaks, or "".
std::string rule_breach(const nlohmann::json& record) {
  if (!record.is_object() || !record.contains("repeater_rule_breaches")) return "";
  const auto& list = record["repeater_rule_breaches"];
  if (!list.is_array() || list.empty() || !list[0].is_object()) return "";
  const auto& first = list[0];
  std::string text =
      first.contains("rule") && first["rule"].is_string() ? first["rule"].get<std::string>() : "";
  if (first.contains("between") && first["between"].is_array() && first["between"].size() == 2 &&
      first["between"][0].is_string() && first["between"][1].is_string())
    text += " (" + first["between"][0].get<std::string>() + " - " +
            first["between"][1].get<std::string>() + ")";
  return text;
}

// Domain 0's legal length of the cables a sweep point varies, by the path delay and with their
// segment limit, from its run's record; nullopt when it has none.
std::optional<std::pair<double, double>> swept_limit(const nlohmann::json& record) {
  if (!record.is_object() || !record.contains("swept_cable_limits") ||
      !record["swept_cable_limits"].is_array())
    return std::nullopt;
  for (const auto& d : record["swept_cable_limits"]) {
    if (!d.is_object() || d.value("domain", nlohmann::json()) != 0) continue;
    const auto pdv = d.value("max_length_pdv_m", nlohmann::json());
    const auto limit = d.value("max_length_m", nlohmann::json());
    if (pdv.is_number() && limit.is_number())
      return std::pair(pdv.get<double>(), limit.get<double>());
  }
  return std::nullopt;
}

bool is_cable_length_path(const std::string& p) {
  return cable_of_length_path(p) ||
         (p.rfind("collision_domains", 0) == 0 && p.find("cable_m") != std::string::npos);
}

}  // namespace

std::optional<std::string> cable_of_length_path(const std::string& p) {
  // cable_m, or length_m, its old name (results written before the rename).
  static const std::string head = "topology.cables[";
  auto ends_with = [&](const std::string& tail) {
    return p.size() > head.size() + tail.size() && p.rfind(head, 0) == 0 &&
           p.compare(p.size() - tail.size(), tail.size(), tail) == 0;
  };
  const std::string tail = ends_with("].cable_m") ? "].cable_m" : "].length_m";
  if (!ends_with(tail)) return std::nullopt;
  const std::string index = p.substr(head.size(), p.size() - head.size() - tail.size());
  if (index != "*" && (index.empty() || index.find_first_not_of("0123456789") != std::string::npos))
    return std::nullopt;
  return index;
}

bool is_diameter_axis(const std::string& a) {
  // A linked axis is named by its paths, ", " between them.
  for (std::size_t from = 0; from <= a.size();) {
    const std::size_t to = std::min(a.find(", ", from), a.size());
    if (is_cable_length_path(a.substr(from, to - from))) return true;
    from = to + 2;
  }
  return false;
}

int diameter_axis(const Results& r) {
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (is_diameter_axis(r.axes[i])) return static_cast<int>(i);
  return -1;
}

namespace {

// A group of points that differ only in the swept length: the other axes' values, and the points.
struct LengthGroup {
  std::vector<std::string> key;
  std::vector<std::size_t> points;
};

// The points grouped by the other axes' values, in first-seen order.
std::vector<LengthGroup> groups_by_other_axes(const Results& r, std::size_t length_axis) {
  std::vector<LengthGroup> groups;
  std::map<std::vector<std::string>, std::size_t> index;
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    auto key = r.points[p];
    key.erase(key.begin() + static_cast<std::ptrdiff_t>(length_axis));
    const auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({std::move(key), {}});
    groups[it->second].points.push_back(p);
  }
  return groups;
}

// The legal length of the geometry the sweep varies, when its runs computed it (run.json's
// swept_cable_limits); else the station cables' (every station cable at one length, the others
// as they are). With the budget and the repeater rules the plant breaks.
void legal_length(const Results& r, const std::string& axis_name,
                  const std::vector<std::pair<double, std::size_t>>& by_length, DiameterAnswer& a) {
  bool swept = false;
  for (const auto& lp : by_length)
    if (const auto limit = swept_limit(r.record(lp.second))) {
      a.legal_pdv_m = limit->first;
      a.legal_m = limit->second;
      swept = true;
      break;
    }
  a.swept = !swept || axis_name.find("[*]") != std::string::npos ||
                    axis_name.rfind("collision_domains", 0) == 0
                ? "per cable"
                : "of " + axis_name.substr(
                              0, axis_name.find(axis_name.find(".cable_m") != std::string::npos
                                                    ? ".cable_m"
                                                    : ".length_m"));
  for (const auto& [len, p] : by_length) {
    if (!a.legal_pdv_m)
      if (const auto v = r.value(p, "topology.domain0", "max_station_cable_pdv"))
        a.legal_pdv_m = v->mean;
    if (!a.legal_m)
      if (const auto v = r.value(p, "topology.domain0", "max_station_cable")) a.legal_m = v->mean;
    // Results from before the station-cable answer: the longest legal path, halved (the same
    // for a symmetric star).
    if (!a.legal_pdv_m)
      if (const auto v = r.value(p, "topology.domain0", "max_legal_path_cable"))
        a.legal_pdv_m = v->mean / 2;
    if (!a.budget_bt)
      if (const auto v = r.value(p, "topology.domain0", "budget")) a.budget_bt = v->mean;
    if (const auto v = r.value(p, "topology.domain0", "repeater_rule_breaches"); v && v->mean > 0) {
      ++a.illegal_points;
      if (a.illegal.empty()) a.illegal = rule_breach(r.record(p));
      if (a.illegal.empty()) a.illegal = "the plant breaks a repeater rule (topology.txt)";
    }
  }
}

// The first swept length, shortest first, at which a frame is lost to a late or unnoticed
// collision, and the longest clean one before it.
void first_failure(const Results& r, const std::vector<std::pair<double, std::size_t>>& by_length,
                   DiameterAnswer& a) {
  for (const auto& [len, p] : by_length) {
    const auto late = r.value(p, "domain0", "late_collisions_per_1000_frames");
    const auto unnoticed = r.value(p, "domain0", "unnoticed_collision_losses");
    const bool late_failed = late && late->mean > 0;
    const bool unnoticed_failed = unnoticed && unnoticed->mean > 0;
    if (!late_failed && !unnoticed_failed) {
      a.last_clean_m = len;
      continue;
    }
    a.first_failing_m = len;
    a.point = p;
    if (late_failed) a.failure = fmt::format("late collisions: {:.3g} per 1000 frames", late->mean);
    if (unnoticed_failed)
      a.failure += fmt::format("{}{:.3g} frames damaged by collisions their senders never saw",
                               a.failure.empty() ? "" : "; ", unnoticed->mean);
    break;
  }
}

}  // namespace

std::vector<DiameterAnswer> diameter_answers(const Results& r) {
  std::vector<DiameterAnswer> out;
  const int axis = diameter_axis(r);
  if (axis < 0) return out;
  const auto length_axis = static_cast<std::size_t>(axis);
  for (const auto& group : groups_by_other_axes(r, length_axis)) {
    std::vector<std::pair<double, std::size_t>> by_length;
    for (const std::size_t p : group.points)
      if (const auto len = parse_number(r.points[p][length_axis])) by_length.emplace_back(*len, p);
    if (by_length.empty()) continue;
    std::stable_sort(by_length.begin(), by_length.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    DiameterAnswer a;
    for (std::size_t i = 0, k = 0; i < r.axes.size(); ++i)
      if (i != length_axis) a.where.emplace_back(r.axes[i], group.key[k++]);
    a.point = by_length.front().second;
    a.longest_swept_m = by_length.back().first;
    a.points = by_length.size();
    legal_length(r, r.axes[length_axis], by_length, a);
    first_failure(r, by_length, a);
    out.push_back(std::move(a));
  }
  return out;
}

std::string diameter_answer_text(const DiameterAnswer& a) {
  std::string s = where_text(a.where) + ": " + legal_text(a) + "; simulated: ";
  if (!a.first_failing_m) return s + "no failure up to " + swept(a.longest_swept_m);
  if (a.last_clean_m) s += "no failure up to " + swept(*a.last_clean_m) + ", ";
  return s + "first failure at " + swept(*a.first_failing_m) + " (" + a.failure + ")";
}

std::vector<std::string> diameter_summary(const std::vector<DiameterAnswer>& answers) {
  // Answers with the same legal length and budget, in first-seen order.
  std::vector<std::vector<const DiameterAnswer*>> sets;
  for (const auto& a : answers) {
    auto same = std::find_if(sets.begin(), sets.end(), [&a](const auto& set) {
      const DiameterAnswer& b = *set.front();
      return a.legal_pdv_m == b.legal_pdv_m && a.budget_bt == b.budget_bt &&
             a.legal_m == b.legal_m && a.illegal == b.illegal &&
             (a.illegal_points == a.points) == (b.illegal_points == b.points) && a.swept == b.swept;
    });
    if (same == sets.end())
      sets.push_back({&a});
    else
      same->push_back(&a);
  }
  std::vector<std::string> out;
  for (const auto& set : sets) {
    // The axes every member agrees on name the set.
    std::vector<std::pair<std::string, std::string>> common;
    for (const auto& [axis, value] : set.front()->where) {
      const bool all = std::all_of(set.begin(), set.end(), [&](const DiameterAnswer* a) {
        return std::find(a->where.begin(), a->where.end(), std::pair(axis, value)) !=
               a->where.end();
      });
      if (all) common.emplace_back(axis, value);
    }
    std::vector<double> first;
    double clean_to = 0;
    for (const DiameterAnswer* a : set) {
      if (a->first_failing_m)
        first.push_back(*a->first_failing_m);
      else
        clean_to = std::max(clean_to, a->longest_swept_m);
    }
    std::string line = where_text(common) + ": " + legal_text(*set.front()) + "; simulated: ";
    if (first.empty()) {
      line += "no failure up to " + swept(clean_to);
    } else {
      const auto [lo, hi] = std::minmax_element(first.begin(), first.end());
      line += *lo == *hi ? "first failure at " + swept(*lo)
                         : "first failure between " + swept(*lo) + " and " + swept(*hi);
      if (set.size() > 1)
        line += fmt::format(" in {} of {} combinations", first.size(), set.size());
      if (first.size() < set.size())
        line += " (the others: no failure up to " + swept(clean_to) + ")";
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace gbesim
