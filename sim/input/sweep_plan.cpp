#include "sim/input/sweep_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "scenarios/scenario_config.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {
namespace {

std::string value_text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : dump_json(v);
}

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

}  // namespace

namespace {

// "exclude": [{"<column>": entry or [entries], ...}, ...]: a point whose columns all match one
// object is not run. Columns are those of points.csv (a path, or a variant axis's name); entries
// are values as points.csv writes them, or labels.
void read_excludes(const Json& list, SweepPlan& plan, Diagnostics& d) {
  const std::string at = "sweep.exclude";
  if (!list.is_array() || list.empty()) {
    d.error(at, "expected a non-empty array of {\"<column>\": entry or [entries], ...}, got " +
                    describe_value(list));
    return;
  }
  const std::vector<std::string> columns = plan.columns();
  // Every column's entries over the plan's steps.
  std::vector<std::vector<std::string>> entries(columns.size());
  {
    std::size_t c = 0;
    for (const auto& a : plan.axes) {
      if (a.variant()) {
        entries[c++] = a.labels;
        continue;
      }
      for (std::size_t p = 0; p < a.paths.size(); ++p, ++c)
        for (const auto& step : a.values) entries[c].push_back(value_text(step[p]));
    }
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = index_path(at, i);
    const Json& rule = list[i];
    if (!rule.is_object() || rule.empty()) {
      d.error(where, "expected an object {\"<column>\": entry or [entries], ...}, got " +
                         describe_value(rule));
      continue;
    }
    std::vector<std::pair<std::string, std::vector<std::string>>> parsed;
    for (const auto& f : rule.items()) {
      const auto col = std::find(columns.begin(), columns.end(), f.key());
      if (col == columns.end()) {
        d.error(child_path(where, f.key()), "not a column of this sweep" +
                                                suggestion(f.key(), columns) +
                                                " (columns: " + schema::key_list(columns) + ")");
        continue;
      }
      const auto& known = entries[static_cast<std::size_t>(col - columns.begin())];
      std::vector<std::string> wanted;
      const Json values = f.value().is_array() ? f.value() : Json::array({f.value()});
      for (std::size_t k = 0; k < values.size(); ++k) {
        const std::string text = value_text(values[k]);
        if (std::find(known.begin(), known.end(), text) == known.end())
          d.error(f.value().is_array() ? index_path(child_path(where, f.key()), k)
                                       : child_path(where, f.key()),
                  "\"" + text + "\" is not an entry of column " + f.key() +
                      suggestion(text, known) + " (entries: " + schema::key_list(known) + ")");
        wanted.push_back(text);
      }
      parsed.emplace_back(f.key(), wanted);
    }
    plan.excludes.push_back(parsed);
  }
  std::size_t product = 1;
  for (const auto& a : plan.axes) product *= a.steps();
  SweepPlan whole = plan;
  whole.excludes.clear();
  for (std::size_t k = 0; k < product; ++k) {
    const auto labels = whole.point_labels(k);
    bool excluded = false;
    for (const auto& rule : plan.excludes) {
      bool all = !rule.empty();
      for (const auto& [column, wanted] : rule) {
        const auto c = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) -
                                                columns.begin());
        if (std::find(wanted.begin(), wanted.end(), labels[c]) == wanted.end()) all = false;
      }
      excluded = excluded || all;
    }
    if (!excluded) plan.kept.push_back(k);
  }
  if (plan.kept.empty()) d.error(at, "excludes every point of the sweep");
}

}  // namespace

namespace {

// A swept path, trimmed and parsed; nullopt (with the error said) when it is not a path or names
// what replications and --seed vary.
std::optional<std::string> swept_path(std::string p, const std::string& where, Diagnostics& d) {
  p.erase(0, p.find_first_not_of(' '));
  p.erase(p.find_last_not_of(' ') + 1);
  try {
    const auto tokens = parse_json_path(p);
    static const std::vector<std::string> fixed = {"seed", "replications", "name", "description",
                                                   "sweep"};
    if (tokens.size() == 1 && std::find(fixed.begin(), fixed.end(), p) != fixed.end()) {
      d.error(where, "\"" + p + "\" cannot be swept (replications and --seed vary the seed)");
      return std::nullopt;
    }
    return p;
  } catch (const std::invalid_argument& e) {
    d.error(where, e.what());
    return std::nullopt;
  }
}

// One variant {"label": L, "set": {"<path>": value, ...}} into the axis; false on an error.
bool read_variant(const Json& v, const std::string& where, SweepAxis& axis, Diagnostics& d) {
  bool ok = true;
  for (const auto& field : v.items())
    if (field.key() != "label" && field.key() != "set") {
      d.error(
          child_path(where, field.key()),
          "unknown key" + suggestion(field.key(), {"label", "set"}) + " (known here: label, set)");
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
    return false;
  }
  std::vector<std::pair<std::string, Json>> assignments;
  for (const auto& a : v["set"].items()) {
    if (auto p = swept_path(a.key(), child_path(where, "set"), d))
      assignments.emplace_back(*p, a.value());
    else
      ok = false;
  }
  axis.labels.push_back(value_text(v["label"]));
  axis.sets.push_back(std::move(assignments));
  return ok;
}

// A path axis ("<path>" or "<path>, <path>" varied together) and its values; false on an error
// in its paths.
bool read_path_axis(const Json& values, const std::string& key, const std::string& at,
                    SweepAxis& axis, Diagnostics& d) {
  bool paths_ok = true;
  for (const std::string& piece : split_commas(key)) {
    if (auto p = swept_path(piece, at, d))
      axis.paths.push_back(*p);
    else
      paths_ok = false;
  }
  if (!paths_ok) return false;
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
  return !axis.paths.empty();
}

// The sweep's axes, in the order written (its "exclude" is read once they are known).
void read_axes(const Json& sweep, SweepPlan& plan, Diagnostics& d) {
  for (const auto& item : sweep.items()) {
    if (item.key() == "exclude") continue;
    const std::string at = "sweep[\"" + item.key() + "\"]";
    const Json& values = item.value();
    if (!values.is_array() || values.empty()) {
      d.error(at, "expected a non-empty array of values, got " + describe_value(values));
      continue;
    }
    SweepAxis axis;
    axis.name = item.key();
    const bool variants = std::all_of(values.begin(), values.end(), [](const Json& v) {
      return v.is_object() && v.contains("label") && v.contains("set");
    });
    bool ok = true;
    if (variants) {
      // The key only names the column.
      for (std::size_t i = 0; i < values.size(); ++i)
        ok = read_variant(values[i], index_path(at, i), axis, d) && ok;
    } else {
      ok = read_path_axis(values, item.key(), at, axis, d);
    }
    if (ok) plan.axes.push_back(std::move(axis));
  }
}

}  // namespace

SweepPlan read_sweep_plan(const Json& doc, Diagnostics& d) {
  SweepPlan plan;
  if (!doc.is_object()) return plan;
  // The same checked conversion the configuration itself gets.
  for (const char* key : {"replications", "seed"}) {
    if (!doc.contains(key)) continue;
    const auto* entry = run_param_table().find(key);
    if (auto v = schema::convert(doc[key], entry->info, key, d)) {
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
  read_axes(sweep, plan, d);
  // The size is checked before anything multiplies it out.
  double runs = static_cast<double>(plan.replications);
  for (const auto& a : plan.axes) runs *= static_cast<double>(a.steps());
  if (runs > static_cast<double>(kMaxSweepRuns)) {
    d.error("sweep",
            fmt::format("the sweep has {:.4g} runs (points x replications); the limit is {}", runs,
                        kMaxSweepRuns));
    return plan;
  }
  if (sweep.contains("exclude")) read_excludes(sweep["exclude"], plan, d);
  return plan;
}

std::string point_label(const std::vector<std::pair<std::string, Json>>& values) {
  std::string out;
  for (const auto& [path, v] : values) out += (out.empty() ? "" : ", ") + path + "=" + dump_json(v);
  return out;
}

std::size_t SweepPlan::point_count() const {
  if (!excludes.empty()) return kept.size();
  std::size_t n = 1;
  for (const auto& a : axes) n *= a.steps();
  return n;
}

namespace {
std::vector<std::size_t> step_indices(const SweepPlan& plan, std::size_t k) {
  const auto& axes = plan.axes;
  if (!plan.excludes.empty()) k = plan.kept[k];
  std::vector<std::size_t> index(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    index[i] = k % axes[i].steps();
    k /= axes[i].steps();
  }
  return index;
}
}  // namespace

std::vector<std::pair<std::string, Json>> SweepPlan::point(std::size_t k) const {
  const auto index = step_indices(*this, k);
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

std::vector<std::size_t> SweepPlan::steps_of_point(std::size_t k) const {
  return step_indices(*this, k);
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
  const auto index = step_indices(*this, k);
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

RunBlock shard_block(std::size_t runs, std::size_t index, std::size_t count) {
  // Block i starts at floor((i - 1) runs / count): the sizes are floor or ceil of runs / count.
  return {(index - 1) * runs / count, index * runs / count};
}

}  // namespace gbesim
