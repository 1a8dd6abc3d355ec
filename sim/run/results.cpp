#include "sim/run/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iterator>
#include <map>
#include <set>

#include "analysis/diameter.hpp"
#include "analysis/result_files.hpp"
#include "analysis/sweep_summary.hpp"
#include "gbesim_version.hpp"
#include "models/topology/cabling.hpp"
#include "models/topology/segment_rules.hpp"
#include "scenarios/network.hpp"
#include "sim/input/json_input.hpp"
#include "sim/run/analytic_scalars.hpp"
#include "sim/run/series.hpp"
#include "sim/run/topology_files.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/peak_memory.hpp"

namespace gbesim {
namespace {

std::string iso_time_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// The cables a sweep point sets to one length, from its topology.cables[i].cable_m and
// topology.cables[*].cable_m assignments (or length_m, the old name); empty when there are none, or
// when they set different lengths (then no single length answers for them).
std::vector<std::size_t> swept_cables(const std::vector<std::pair<std::string, Json>>& point,
                                      std::size_t cable_count) {
  std::set<std::size_t> cables;
  std::optional<Json> length;
  for (const auto& [path, value] : point) {
    const auto index = cable_of_length_path(path);
    if (!index) continue;
    if (length && *length != value) return {};
    length = value;
    if (*index == "*") {
      for (std::size_t c = 0; c < cable_count; ++c) cables.insert(c);
    } else if (index->size() < 10) {
      cables.insert(static_cast<std::size_t>(std::stoul(*index)));
    }
  }
  return {cables.begin(), cables.end()};
}

// For a sweep point that varies cable lengths: per domain with such cables, the longest legal
// length of the cables it varies (models/topology longest_legal_length), by the path delay and
// with their PHY's segment limit. Kept in run.json, not scalars.csv: it answers for the sweep's
// axis, while scalars.csv is what the configuration alone runs to.
Json swept_cable_limits(const LoadedTopology& t,
                        const std::vector<std::pair<std::string, Json>>& point) {
  Json out = Json::array();
  const std::vector<std::size_t> all = swept_cables(point, t.plant.cables.size());
  for (std::size_t i = 0; i < t.report.domains.size() && !all.empty(); ++i) {
    const DomainReport& dom = t.report.domains[i];
    std::vector<std::size_t> swept;
    for (const std::size_t c : all)
      if (std::find(dom.cables.begin(), dom.cables.end(), c) != dom.cables.end())
        swept.push_back(c);
    if (swept.empty()) continue;
    const auto legal = longest_legal_length(t.plant, swept, i);
    if (!legal) continue;
    double limit = *legal;
    for (const std::size_t c : swept) {
      const Cable& cable = t.plant.cables[c];
      if (const SegmentRule* rule = segment_rule(dom.rate_mbps, cable.medium, cable.pmd))
        limit = std::min(limit, rule->max_m);
    }
    out.push_back(
        {{"domain", i}, {"cables", swept}, {"max_length_pdv_m", *legal}, {"max_length_m", limit}});
  }
  return out;
}

// What the link-level PHY model predicted for each 1000BASE-T cable.
void add_phy_predictions(const ScenarioConfig& config, std::vector<Scalar>& out) {
  for (std::size_t i = 0; i < config.links.size(); ++i) {
    const auto& l = config.links[i];
    if (!l.phy) continue;
    const std::string comp = "analysis.link" + std::to_string(i);
    out.push_back({comp, "phy_snr_db", "dB", l.phy->snr_db});
    out.push_back({comp, "phy_margin_db", "dB", l.phy->margin_db});
    out.push_back({comp, "phy_ber", "errors/bit", l.phy->ber});
    out.push_back({comp, "phy_octet_error_rate", "errors/octet", l.phy->octet_error_rate});
    out.push_back({comp, "injected_ber", "errors/bit", l.injected_ber()});
  }
}

// Each collision domain's worst path delay, margin, verdict and longest legal station cable.
void add_plant_scalars(const LoadedTopology& t, const std::vector<RuleBreach>& breaches,
                       std::vector<Scalar>& scalars) {
  for (std::size_t i = 0; i < t.report.domains.size(); ++i) {
    const DomainReport& dom = t.report.domains[i];
    if (!dom.worst) continue;
    const std::string component = "topology.domain" + std::to_string(i);
    const PathReport& w = dom.pairs[*dom.worst];
    scalars.push_back({component, "worst_pdv", "bit times", w.pdv_bt, false});
    scalars.push_back({component, "budget", "bit times", dom.budget_bt, false});
    scalars.push_back({component, "margin", "bit times", dom.margin_bt, false});
    scalars.push_back({component, "margin_cable", "m", dom.margin_m, false});
    scalars.push_back({component, "worst_path_cable", "m", w.cable_m, false});
    scalars.push_back({component, "max_legal_path_cable", "m", w.cable_m + dom.margin_m, false});
    scalars.push_back({component, "pass", "bool", dom.pass ? 1.0 : 0.0, true});
    if (dom.max_station_cable_m) {
      scalars.push_back({component, "max_station_cable", "m", *dom.max_station_cable_m, false});
      scalars.push_back(
          {component, "max_station_cable_pdv", "m", *dom.max_station_cable_pdv_m, false});
    }
    scalars.push_back({component, "segment_violations", "cables",
                       static_cast<double>(dom.segment_violations.size()), true});
    const auto n = static_cast<std::size_t>(std::count_if(
        breaches.begin(), breaches.end(), [i](const RuleBreach& b) { return b.domain == i; }));
    scalars.push_back({component, "repeater_rule_breaches", "rules", static_cast<double>(n), true});
  }
}

// Status, timing and cost of the run, as run.json records them.
void add_run_figures(const LoadedScenario& scenario, const RunOptions& options,
                     const SimContext& context, const Outcome& outcome, Json& run) {
  run["name"] = scenario.config.run.name;
  run["description"] = scenario.config.run.description;
  run["scenario_file"] = scenario.file;
  run["status"] = outcome.interrupted ? "interrupted" : "complete";
  run["seed"] = scenario.config.run.seed;
  run["version"] = kVersion;
  run["started_at"] = iso_time_now();
  if (scenario.run) {
    run["run"] = *scenario.run;
    run["point"] = scenario.plan.point_of_run(*scenario.run);
    run["replication"] = scenario.plan.replication_of_run(*scenario.run);
    Json values = Json::object();
    for (const auto& [path, v] : scenario.point_values) values[path] = v;
    run["point_values"] = values;
  }
  run["sets"] = options.load.sets;
  run["traces"] = std::vector<std::string>(options.traces.begin(), options.traces.end());
  run["requested_duration_ps"] = scenario.config.run.duration_ns * kPsPerNs;
  run["simulated_ps"] = outcome.simulated_ps;
  // The statistics cover simulated_ps - statistics_from_ps (after the warm-up).
  run["statistics_from_ps"] = outcome.statistics_from_ps;
  run["wall_seconds"] = outcome.wall_seconds;
  run["cpu_seconds"] = outcome.cpu_seconds;
  run["real_time_factor"] =
      outcome.wall_seconds > 0 ? ps_to_seconds(outcome.simulated_ps) / outcome.wall_seconds : 0.0;
  run["process_activations"] = context.activations;
  run["activations_per_second"] =
      outcome.wall_seconds > 0 ? static_cast<double>(context.activations) / outcome.wall_seconds
                               : 0.0;
  run["frames_created"] = context.frames.frames_created();
  run["frames_allocated"] = context.frames.allocated();
  run["peak_rss_kib"] = peak_rss_kib();
}

}  // namespace

RunChecks check_run(const LoadedScenario& scenario) {
  RunChecks c;
  // The plant's analysis (made once, as the scenario was read), and cables past their PHY's
  // segment limit: the run goes on (that is how to look past the edge), warned and counted.
  c.plant = scenario.config.topology;
  c.segment_warnings = segment_warnings(scenario.config, c.plant ? &c.plant->report : nullptr);
  if (c.plant) {
    c.rule_warnings = c.plant->warnings;  // keys by their old names
    for (auto& w : plant_rule_warnings(c.plant->report)) c.rule_warnings.push_back(std::move(w));
    c.rule_breaches = repeater_rule_breaches(c.plant->report);
  }
  c.source_warnings = traffic_warnings(scenario.config);
  return c;
}

void print_warnings(const LoadedScenario& scenario, const RunChecks& c) {
  // An illegal plant first: the run goes on (that is how to see past the edge), said.
  for (const auto& w : c.rule_warnings) fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
  for (const auto& w : scenario.overridden_sets)
    fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
  for (const auto& w : c.segment_warnings)
    fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
  for (const auto& w : c.source_warnings) fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
}

std::vector<Scalar> result_scalars(const LoadedScenario& scenario, const Network& network,
                                   SimContext& context, const Outcome& outcome,
                                   const RunChecks& checks) {
  StatContext stat_context;
  stat_context.elapsed_ps = std::max<Picoseconds>(outcome.simulated_ps, 1);
  // Room for the rows added below (network totals, analysis, topology), so that the vector of
  // every station's scalars is not copied to grow by a few (a guess: more only costs a copy).
  const std::size_t added = 64 + 32 * (network.hosts().size() + network.light_hosts().size() +
                                       scenario.config.links.size() + network.media().size());
  std::vector<Scalar> scalars = context.stats.collect(stat_context, added);
  const std::vector<Scalar> totals = network_totals(scalars);
  std::vector<Scalar> analytic = analytic_scalars(scenario.config, scalars);
  for (auto& s : nic_analytic_scalars(scenario.config, scalars)) analytic.push_back(std::move(s));
  add_phy_predictions(scenario.config, analytic);
  scalars.insert(scalars.end(), totals.begin(), totals.end());
  scalars.push_back({"network", "segment_violations", "cables",
                     static_cast<double>(checks.segment_warnings.size()), true});
  scalars.insert(scalars.end(), analytic.begin(), analytic.end());
  if (checks.plant) add_plant_scalars(*checks.plant, checks.rule_breaches, scalars);
  return scalars;
}

void write_topology_files(const std::filesystem::path& dir, const LoadedTopology& t) {
  write_file_atomically(dir / "topology.txt", topology_report_text(t));
  write_file_atomically(dir / "topology_pairs.csv", topology_pairs_csv(t.report));
  write_file_atomically(dir / "topology.dot", topology_dot(t.plant, t.report));
}

Json run_record(const LoadedScenario& scenario, const RunOptions& options,
                const SimContext& context, const Outcome& outcome, const RunChecks& checks,
                std::vector<std::string> outputs, bool flows, const SeriesRecorder* series,
                const std::filesystem::path& dir) {
  Json run;
  add_run_figures(scenario, options, context, outcome, run);
  // flows.csv beside scalars.csv, which it summarises.
  if (flows)
    outputs.insert(std::find(outputs.begin(), outputs.end(), "scalars.csv") + 1, "flows.csv");
  run["outputs"] = outputs;
  if (series) {
    run["series_interval_ps"] = scenario.config.run.series_interval_ns * kPsPerNs;
    run["series_intervals"] = series->intervals();
  }
  run["files"] = checks_of_files(dir, outputs);
  run["scenario"] = scenario.written;
  run["config"] = scenario.resolved;
  run["derived"] = scenario.derived;
  Json warnings = checks.rule_warnings;
  for (const auto& w : checks.segment_warnings) warnings.push_back(w);
  for (const auto& w : checks.source_warnings) warnings.push_back(w);
  // The repeater rules the plant breaks, for readers of results (the diameter answer).
  Json breaches = Json::array();
  for (const RuleBreach& b : checks.rule_breaches)
    breaches.push_back({{"domain", b.domain}, {"between", {b.from, b.to}}, {"rule", b.rule}});
  run["repeater_rule_breaches"] = std::move(breaches);
  if (checks.plant && scenario.run)
    run["swept_cable_limits"] = swept_cable_limits(*checks.plant, scenario.point_values);
  run["warnings"] = std::move(warnings);
  return run;
}

std::string format_scalar_value(const Scalar& s) {
  if (s.integral && std::isfinite(s.value))
    return fmt::format("{}", static_cast<std::uint64_t>(s.value));
  return number_text(s.value);  // empty: no value
}

// One row per flow (a traffic source's frames at its receiver: "<from>.source<i>.to_<to>"), with
// what its source sent, from the rows scalars.csv holds; empty when there is no flow.
std::string flows_csv(const std::vector<Scalar>& scalars) {
  const char* columns[] = {"frames_received", "frames_lost", "loss_ratio",
                           "throughput",      "delay_mean",  "delay_p50",
                           "delay_p99",       "delay_max",   "jitter"};
  std::map<std::string, std::map<std::string, const Scalar*>> by_component;
  std::vector<std::string> flows;
  for (const auto& s : scalars) {
    const std::size_t source = s.component.find(".source");
    if (source == std::string::npos) continue;
    if (s.component.find(".to_", source) == std::string::npos && s.name != "frames_generated")
      continue;
    if (by_component.count(s.component) == 0 && s.name == "frames_received")
      flows.push_back(s.component);
    by_component[s.component][s.name] = &s;
  }
  if (flows.empty()) return "";
  std::string out =
      "flow,from,to,frames_sent,frames_received,frames_lost,loss_ratio,throughput_bps,"
      "delay_mean_ns,delay_p50_ns,delay_p99_ns,delay_max_ns,jitter_ns\n";
  for (const auto& flow : flows) {
    const std::size_t to = flow.find(".to_", flow.find(".source"));
    const auto& sender = by_component[flow.substr(0, to)];
    const auto sent = sender.find("frames_generated");
    out +=
        fmt::format("{},{},{},{}", flow, flow.substr(0, flow.find(".source")), flow.substr(to + 4),
                    sent == sender.end() ? "" : format_scalar_value(*sent->second));
    const auto& rows = by_component[flow];
    for (const char* c : columns) {
      const auto it = rows.find(c);
      out += "," + (it == rows.end() ? std::string() : format_scalar_value(*it->second));
    }
    out += "\n";
  }
  return out;
}

std::string scalars_csv(const std::vector<Scalar>& scalars) {
  std::string out = "component,name,unit,value\n";
  // Room for every row, its value at up to 24 characters: the text is not copied to grow (a
  // thousand stations write 75,000 rows).
  std::size_t room = out.size();
  for (const auto& s : scalars) room += s.component.size() + s.name.size() + s.unit.size() + 28;
  out.reserve(room);
  for (const auto& s : scalars)
    fmt::format_to(std::back_inserter(out), "{},{},{},{}\n", s.component, s.name, s.unit,
                   format_scalar_value(s));
  return out;
}

}  // namespace gbesim
