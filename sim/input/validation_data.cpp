#include "sim/input/validation_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/input/json_input.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {
namespace {

using schema::check_keys;

// "a | b | c": the values a member may take (a label may hold a comma).
std::string alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " | ") + n;
  return out;
}

// The members of one JSON object, each read once with its path; errors go to `d`.
class Members {
 public:
  Members(const Json& obj, std::string path, Diagnostics& d, const std::vector<std::string>& keys)
      : obj_(obj), path_(std::move(path)), d_(d) {
    ok_ = check_keys(obj, path_, keys, d);
  }
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }
  bool has(const char* key) const { return ok_ && obj_.contains(key); }
  const Json* get(const char* key, bool required) const {
    if (!ok_) return nullptr;
    const auto it = obj_.find(key);
    if (it != obj_.end()) return &*it;
    if (required) d_.error(child_path(path_, key), "missing");
    return nullptr;
  }
  std::string text(const char* key, bool required = true) const {
    const Json* v = get(key, required);
    if (v == nullptr) return "";
    if (v->is_string() && !v->get<std::string>().empty()) return v->get<std::string>();
    d_.error(child_path(path_, key), "expected a non-empty string, got " + describe_value(*v));
    return "";
  }
  double number(const char* key, double fallback, bool positive) const {
    const Json* v = get(key, false);
    if (v == nullptr) return fallback;
    if (v->is_number() && std::isfinite(v->get<double>()) && (!positive || v->get<double>() > 0))
      return v->get<double>();
    d_.error(child_path(path_, key), std::string("expected a ") + (positive ? "positive " : "") +
                                         "finite number, got " + describe_value(*v));
    return fallback;
  }
  bool flag(const char* key) const {
    const Json* v = get(key, false);
    if (v == nullptr) return false;
    if (v->is_boolean()) return v->get<bool>();
    d_.error(child_path(path_, key), "expected true or false, got " + describe_value(*v));
    return false;
  }
  // One of `names` (an enum's values in order), or `fallback` when absent.
  template <class E>
  E choice(const char* key, const std::vector<std::string>& names, E fallback) const {
    const Json* v = get(key, false);
    if (v == nullptr) return fallback;
    if (v->is_string()) {
      const auto it = std::find(names.begin(), names.end(), v->get<std::string>());
      if (it != names.end()) return static_cast<E>(it - names.begin());
    }
    d_.error(child_path(path_, key),
             "expected " + alternatives(names) + ", got " + describe_value(*v) +
                 (v->is_string() ? suggestion(v->get<std::string>(), names) : ""));
    return fallback;
  }
  Diagnostics& diagnostics() const { return d_; }

 private:
  const Json& obj_;
  std::string path_;
  Diagnostics& d_;
  bool ok_ = false;
};

const std::vector<std::string> kRoles = {"calibration", "prediction"};
const std::vector<std::string> kRelations = {"about", "at_least", "at_most"};
const std::vector<std::string> kReduces = {"sum", "mean", "max", "min"};
const std::vector<std::string> kOps = {"<=", ">=", "<", ">"};

SimulatedValue read_simulated(const Json& v, const std::string& path, Diagnostics& d) {
  const Members m(v, path, d, {"component", "name", "scale", "reduce"});
  SimulatedValue s;
  s.component = m.text("component");
  s.name = m.text("name");
  s.scale = m.number("scale", 1, false);
  s.reduce = m.choice("reduce", kReduces, Reduce::sum);
  return s;
}

PointSelector read_selector(const Members& m, const char* key) {
  PointSelector out;
  const Json* v = m.get(key, false);
  if (v == nullptr) return out;
  const std::string path = child_path(m.path(), key);
  if (!v->is_object()) {
    m.diagnostics().error(
        path, "expected an object of sweep columns and their labels, got " + describe_value(*v));
    return out;
  }
  for (const auto& [column, label] : v->items()) {
    if (label.is_string())
      out[column] = label.get<std::string>();
    else if (label.is_number())
      out[column] = dump_json(label);
    else
      m.diagnostics().error(child_path(path, column),
                            "expected a label or a value as text, got " + describe_value(label));
  }
  return out;
}

ValidationFigure read_figure(const Json& v, const std::string& path, Diagnostics& d) {
  const Members m(v, path, d,
                  {"id", "where", "condition", "how", "point", "quantity", "measured", "unit",
                   "relation", "simulated", "tolerance_pct", "role", "quick"});
  ValidationFigure f;
  if (!m.ok()) return f;
  f.id = m.text("id");
  f.where = m.text("where");
  f.condition = m.text("condition");
  f.how = m.text("how", false);
  f.point = read_selector(m, "point");
  f.quantity = m.text("quantity");
  f.measured = m.number("measured", 1, true);
  if (!m.has("measured")) d.error(child_path(path, "measured"), "missing");
  f.unit = m.text("unit");
  f.relation = m.choice("relation", kRelations, Relation::about);
  if (const Json* s = m.get("simulated", true))
    f.simulated = read_simulated(*s, child_path(path, "simulated"), d);
  f.tolerance_pct = m.number("tolerance_pct", 20, true);
  f.role = m.choice("role", kRoles, ValidationRole::prediction);
  if (!m.has("role")) d.error(child_path(path, "role"), "missing: calibration or prediction");
  f.quick = m.flag("quick");
  return f;
}

ClaimTerm read_term(const Json& v, const std::string& path, Diagnostics& d) {
  ClaimTerm t;
  if (v.is_number()) {
    t.number = v.get<double>();
    return t;
  }
  const Members m(v, path, d, {"points", "simulated", "over"});
  if (!m.ok()) return t;
  t.points = read_selector(m, "points");
  if (const Json* s = m.get("simulated", true))
    t.simulated = read_simulated(*s, child_path(path, "simulated"), d);
  t.over = m.choice("over", kReduces, Reduce::mean);
  return t;
}

ValidationClaim read_claim(const Json& v, const std::string& path, Diagnostics& d) {
  const Members m(v, path, d, {"id", "where", "text", "how", "checks", "role", "quick"});
  ValidationClaim c;
  if (!m.ok()) return c;
  c.id = m.text("id");
  c.where = m.text("where");
  c.text = m.text("text");
  c.how = m.text("how", false);
  c.role = m.choice("role", kRoles, ValidationRole::prediction);
  if (!m.has("role")) d.error(child_path(path, "role"), "missing: calibration or prediction");
  c.quick = m.flag("quick");
  const Json* checks = m.get("checks", true);
  if (checks == nullptr) return c;
  if (!checks->is_array() || checks->empty()) {
    d.error(child_path(path, "checks"), "expected a non-empty array of checks");
    return c;
  }
  for (std::size_t i = 0; i < checks->size(); ++i) {
    const std::string at = index_path(child_path(path, "checks"), i);
    const Members cm((*checks)[i], at, d, {"left", "op", "right", "times"});
    if (!cm.ok()) continue;
    ClaimCheck check;
    if (const Json* l = cm.get("left", true)) check.left = read_term(*l, child_path(at, "left"), d);
    check.op = cm.text("op");
    if (!check.op.empty() && std::find(kOps.begin(), kOps.end(), check.op) == kOps.end())
      d.error(child_path(at, "op"),
              "expected " + alternatives(kOps) + ", got \"" + check.op + "\"");
    if (const Json* r = cm.get("right", true))
      check.right = read_term(*r, child_path(at, "right"), d);
    check.times = cm.number("times", 1, true);
    c.checks.push_back(std::move(check));
  }
  return c;
}

template <class T>
std::vector<T> read_list(const Members& m, const char* key,
                         T (*read)(const Json&, const std::string&, Diagnostics&)) {
  std::vector<T> out;
  const Json* list = m.get(key, false);
  if (list == nullptr) return out;
  const std::string path = child_path(m.path(), key);
  if (!list->is_array()) {
    m.diagnostics().error(path, "expected an array, got " + describe_value(*list));
    return out;
  }
  for (std::size_t i = 0; i < list->size(); ++i)
    out.push_back(read((*list)[i], index_path(path, i), m.diagnostics()));
  return out;
}

void check_ids_unique(const ValidationSource& s, Diagnostics& d) {
  std::vector<std::string> seen;
  auto check = [&](const std::string& id, const std::string& path) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end())
      d.error(path, "id \"" + id + "\" is used twice in this file");
    seen.push_back(id);
  };
  for (std::size_t i = 0; i < s.figures.size(); ++i)
    check(s.figures[i].id, child_path(index_path("figures", i), "id"));
  for (std::size_t i = 0; i < s.claims.size(); ++i)
    check(s.claims[i].id, child_path(index_path("claims", i), "id"));
}

void check_selector(const PointSelector& selector, const SweepPoints& points,
                    const std::string& path, Diagnostics& d) {
  for (const auto& [column, label] : selector) {
    const auto it = std::find(points.columns.begin(), points.columns.end(), column);
    if (it == points.columns.end()) {
      d.error(child_path(path, column), "the scenario's sweep has no such column; its columns: " +
                                            alternatives(points.columns) +
                                            suggestion(column, points.columns));
      continue;
    }
    const auto c = static_cast<std::size_t>(it - points.columns.begin());
    std::vector<std::string> labels;
    for (const auto& point : points.labels)
      if (std::find(labels.begin(), labels.end(), point[c]) == labels.end())
        labels.push_back(point[c]);
    if (std::find(labels.begin(), labels.end(), label) == labels.end())
      d.error(child_path(path, column), "no point has \"" + label + "\"; the column holds " +
                                            alternatives(labels) + suggestion(label, labels));
  }
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& builtin_validation_sources() {
  static const std::vector<std::pair<std::string, std::string>> files = {
#include "validation_sources.inc"
  };
  return files;
}

const std::vector<std::pair<std::string, std::string>>& builtin_scenarios() {
  static const std::vector<std::pair<std::string, std::string>> files = {
#include "scenario_files.inc"
  };
  return files;
}

ValidationSource read_validation_source(const Json& doc, Diagnostics& d) {
  ValidationSource s;
  s.file = d.file();
  const Members m(doc, "", d,
                  {"source", "title", "scenario", "sets", "sets_why", "figures", "claims"});
  if (!m.ok()) return s;
  s.source = m.text("source");
  s.title = m.text("title");
  s.scenario = m.text("scenario");
  if (const Json* sets = m.get("sets", false)) {
    if (!sets->is_array()) d.error("sets", "expected an array of \"path=value\" texts");
    for (std::size_t i = 0; sets->is_array() && i < sets->size(); ++i) {
      const Json& v = (*sets)[i];
      if (v.is_string() && v.get<std::string>().find('=') != std::string::npos)
        s.sets.push_back(v.get<std::string>());
      else
        d.error(index_path("sets", i), "expected \"path=value\", got " + describe_value(v));
    }
    s.sets_why = m.text("sets_why");
  }
  s.figures = read_list(m, "figures", &read_figure);
  s.claims = read_list(m, "claims", &read_claim);
  if (s.figures.empty() && s.claims.empty() && m.ok())
    d.error("", "has neither figures nor claims");
  check_ids_unique(s, d);
  return s;
}

void check_selectors(const ValidationSource& source, const SweepPoints& points, Diagnostics& d) {
  for (std::size_t i = 0; i < source.figures.size(); ++i)
    check_selector(source.figures[i].point, points, child_path(index_path("figures", i), "point"),
                   d);
  for (std::size_t i = 0; i < source.claims.size(); ++i)
    for (std::size_t k = 0; k < source.claims[i].checks.size(); ++k) {
      const ClaimCheck& check = source.claims[i].checks[k];
      const std::string at = index_path(child_path(index_path("claims", i), "checks"), k);
      if (!check.left.number)
        check_selector(check.left.points, points, child_path(child_path(at, "left"), "points"), d);
      if (!check.right.number)
        check_selector(check.right.points, points, child_path(child_path(at, "right"), "points"),
                       d);
    }
}

}  // namespace gbesim
