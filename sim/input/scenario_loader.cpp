#include "sim/input/scenario_loader.hpp"

#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "sim/input/duration.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/scenario_resolve.hpp"
#include "sim/input/scenario_rules.hpp"
#include "sim/input/scenario_schema.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// Elaboration and results grow faster than the count (10,000 stations take about 10 s and
// 0.7 GB before the first simulated nanosecond): a guard, not a model limit.
constexpr std::size_t kMaxStations = 10'000;

// Reading in four steps: every key through the schema, every reference, the derived collision
// domains of a topology, the cross-field rules; then the derived values.
ScenarioConfig read_config(const Json& doc, Diagnostics& d) {
  ScenarioConfig c;
  if (!doc.is_object()) {
    d.error("", "expected a JSON object at the top level, got " + describe_value(doc));
    return c;
  }
  auto count = [&](const char* block) {
    return doc.contains(block) && doc[block].is_object() ? doc[block].size() : 0;
  };
  if (count("stations") + count("hosts") > kMaxStations) {
    d.error("stations", "has " + std::to_string(count("stations")) + " stations and " +
                            std::to_string(count("hosts")) + " hosts; a scenario takes at most " +
                            std::to_string(kMaxStations) + " together");
    return c;
  }
  for (const auto& row : builtin_media()) c.media[row.name] = row.params;
  schema::Reader reader(d);
  scenario_schema().read(doc, "", c, reader);
  check_references(reader.references, c, d);
  resolve_topology(doc, c, d);
  resolve_rates(c, d);
  check_rules(c, d);
  resolve_defaults(c);
  if (d.empty()) predict_phy_errors(c);
  return c;
}

void apply_sets(Json& doc, const std::vector<std::string>& sets, Diagnostics& d) {
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      d.error("--set " + s, "expected path=value, e.g. --set links[0].cable_m=100");
      continue;
    }
    const std::string path = s.substr(0, eq), text = s.substr(eq + 1);
    // A time in ns may be given with its unit, as --series takes it (duration_ns=1ms).
    const bool in_ns = path.size() > 3 && path.compare(path.size() - 3, 3, "_ns") == 0;
    const bool with_unit = !text.empty() && std::isalpha(static_cast<unsigned char>(text.back()));
    try {
      if (in_ns && with_unit) {
        const auto ns = parse_interval_ns(text);
        if (!ns)
          throw std::invalid_argument(
              "expected a time such as 1s, 100ms, 250us, 500ns or a number of ns, got \"" + text +
              "\"");
        set_json_path(doc, path, Json(*ns));
      } else {
        set_json_path(doc, path, parse_override_value(text));
      }
    } catch (const std::invalid_argument& e) {
      d.error("--set " + s.substr(0, eq), e.what());
    }
  }
}

struct Prepared {
  Json doc;
  SweepPlan plan;
  std::vector<std::string> sets;  // the --set overrides, as given
};

Prepared prepare(const std::string& text, const std::string& file, const LoadOptions& options) {
  Diagnostics d(file);
  Prepared p;
  p.doc = parse_document(text, d);
  d.throw_if_any();
  apply_sets(p.doc, options.sets, d);
  d.throw_if_any();
  p.sets = options.sets;
  p.plan = read_sweep_plan(p.doc, d);
  d.throw_if_any();
  if (options.seed) p.plan.base_seed = *options.seed;
  return p;
}

// `name_the_run`: a mistake is said as run K's (what gbesim run --point K was given), not
// only as its point's, where the two numbers differ (more than one replication).
LoadedScenario load_point(const Prepared& prepared, const std::string& file,
                          std::optional<std::size_t> run, bool name_the_run = false) {
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
    const std::size_t point = prepared.plan.point_of_run(*run);
    for (const auto& s : prepared.sets) {
      const std::string path = s.substr(0, s.find('='));
      for (const auto& [axis_path, value] : out.point_values)
        if (path_within(path, axis_path))
          out.overridden_sets.push_back("--set " + s + " is replaced by sweep point " +
                                        std::to_string(point) + "'s " + axis_path + " = " +
                                        value.dump() +
                                        " (a sweep point applies after --set; run the base "
                                        "scenario without --point to use the --set value)");
    }
    prefix = name_the_run && prepared.plan.replications > 1
                 ? "sweep run " + std::to_string(*run) + " = point " + std::to_string(point) +
                       ", replication " + std::to_string(prepared.plan.replication_of_run(*run)) +
                       " ("
                 : "sweep point " + std::to_string(point) + " (";
    prefix += point_label(out.point_values) + "): ";
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
  out.written = std::move(doc);
  out.resolved = resolved_json(out.config);
  out.derived = derived_json(out.config);
  return out;
}

// Loads the sweep's points `points` and adds their errors to `all`, each once: one that several
// points share is said at the first with how many more have it; one in `known` (the base
// scenario's) not at all.
void add_point_errors(const Prepared& prepared, const std::string& file,
                      const std::vector<std::size_t>& points,
                      const std::set<std::pair<std::string, std::string>>& known,
                      std::vector<Diagnostic>& all, std::size_t& more) {
  std::map<std::pair<std::string, std::string>, std::size_t> first;  // -> index in all
  std::map<std::size_t, std::size_t> repeats;                        // index -> more points
  for (const std::size_t p : points) {
    if (all.size() >= kMaxShownErrors) break;
    try {
      load_point(prepared, file, p * static_cast<std::size_t>(prepared.plan.replications));
    } catch (const ScenarioError& e) {
      for (const Diagnostic& item : e.diagnostics()) {
        // The message after the point's prefix, "sweep point N (values): ".
        const auto colon = item.message.find("): ");
        const std::string bare =
            colon == std::string::npos ? item.message : item.message.substr(colon + 3);
        if (known.count({item.path, bare})) continue;
        const auto [it, fresh] = first.emplace(std::pair(item.path, bare), all.size());
        if (fresh)
          all.push_back(item);
        else
          ++repeats[it->second];
      }
      more += e.more();
    }
  }
  for (const auto& [index, n] : repeats)
    all[index].message +=
        " (the same at " + std::to_string(n) + " more point" + (n == 1 ? "" : "s") + ")";
}

// Every step of every axis in one point of the sweep that has it: what `gbesim run` checks of a
// sweep it does not run (a bad path or value is found without loading every point). Points, not
// steps applied to the base: a step may be valid only beside other axes' steps, and a
// combination the sweep's "exclude" drops is never a point.
void check_axis_steps(const Prepared& prepared, const std::string& file) {
  const SweepPlan& plan = prepared.plan;
  std::vector<std::vector<bool>> seen;
  for (const auto& axis : plan.axes) seen.emplace_back(axis.steps(), false);
  std::vector<std::size_t> points;  // the first point with each step not yet seen
  for (std::size_t k = 0; k < plan.point_count(); ++k) {
    const auto steps = plan.steps_of_point(k);
    bool adds = false;
    for (std::size_t a = 0; a < steps.size(); ++a)
      if (!seen[a][steps[a]]) adds = seen[a][steps[a]] = true;
    if (adds) points.push_back(k);
  }
  std::vector<Diagnostic> all;
  std::size_t more = 0;
  add_point_errors(prepared, file, points, {}, all, more);
  if (!all.empty()) throw ScenarioError(all, more);
}

}  // namespace

void check_sweep_axes(const std::string& file, const LoadOptions& options) {
  check_axis_steps(prepare(read_json_file(file), file, options), file);
}

LoadedScenario load_scenario_text(const std::string& text, const std::string& file,
                                  const LoadOptions& options) {
  try {
    const Prepared prepared = prepare(text, file, options);
    return load_point(prepared, file, options.run, true);
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
  // Every error once: one the base scenario has is not repeated for each point.
  std::set<std::pair<std::string, std::string>> base;
  for (const auto& item : all) base.emplace(item.path, item.message);
  std::vector<std::size_t> points(prepared.plan.point_count());
  for (std::size_t p = 0; p < points.size(); ++p) points[p] = p;
  add_point_errors(prepared, file, points, base, all, more);
  if (!all.empty()) throw ScenarioError(all, more);
  return prepared.plan;
}

Json resolved_json(const ScenarioConfig& config) {
  return scenario_schema().write(config);
}

}  // namespace gbesim
