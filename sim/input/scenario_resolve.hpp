#pragma once
// Derived values of a scenario: what follows from the keys a user wrote and is not itself a key
// they must write. The collision domains of a topology block, the slot time of the run's speed
// where a MAC leaves it 0, a load given as a fraction of the line rate in bits per second, and
// the bit-error rate the 1000BASE-T link-level model predicts for a cable (kept apart from the
// link's own `ber`, LinkConfig::phy).

#include "scenarios/scenario_config.hpp"
#include "sim/input/json_path.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

// The topology block (docs/topology.md) as collision domains; errors name topology paths.
void resolve_topology(const Json& doc, ScenarioConfig& config, Diagnostics& d);

// Line rates: each link's (its own rate_mbps, else the switch port's it plugs into -- the lower
// of two -- else the run's), each collision domain's, and each station's from its link or
// domain. Errors: a rate that is no speed mode, a link faster than its switch port.
void resolve_rates(ScenarioConfig& config, Diagnostics& d);

// Slot times and loads in bits per second.
void resolve_defaults(ScenarioConfig& config);

// Links with phy "1000base-t": the link-level model's prediction for the cable, solved once per
// process for each medium, length and noise.
void predict_phy_errors(ScenarioConfig& config);

// What the steps above computed that the user did not write: each link's PHY prediction and the
// bit-error rate it injects, each station's slot time, the collision domains of a topology block
// with their one-way delays. run.json records it beside the scenario as written and resolved.
Json derived_json(const ScenarioConfig& config);

// Every cable longer than its PHY's segment limit (models/topology/segment_rules): links and
// cable_m collision domains of `config`, and the violations of its topology block's `report`
// when given, each as "<JSON path>: <what, the limit and its source>". A run still runs with
// them (that is how to look past the edge); it warns and counts them.
struct TopologyReport;
std::vector<std::string> segment_warnings(const ScenarioConfig& config,
                                          const TopologyReport* report);
// Each repeater rule (count, class, 5-4-3) a topology block's plant breaks, once per collision
// domain and kind of breach, with a pair of stations whose path breaks it.
struct RuleBreach {
  std::size_t domain = 0;
  std::string from, to;
  std::string rule;
};
std::vector<RuleBreach> repeater_rule_breaches(const TopologyReport& report);
// Every rule of 802.3 but the segment limits that the plant breaks, each with its figure: the
// repeater rules above, and a worst path delay over the slot time. A run still runs with them;
// it says them first and records them.
std::vector<std::string> plant_rule_warnings(const TopologyReport& report);

// The mean rate a source offers, DA..FCS bits per second: poisson its load_bps, on_off its peak
// rate over its on share; 0 for saturated and script sources (not rate-driven).
double offered_load_bps(const TrafficParams& traffic);

// Every enabled rate-driven source (poisson, on_off) expected to send less than one frame in the
// run (a rate given in Mb/s where bit/s are meant), and every source starting after the run
// ends: "<JSON path>: <expected count and why>". The run still runs; it warns.
std::vector<std::string> traffic_warnings(const ScenarioConfig& config);

}  // namespace gbesim
