#pragma once
// The scenario document, declared once with the blocks of sim/schema.hpp: the loader reads with
// it, run.json's resolved configuration is written with it, `gbesim params`, the GUI's form and
// docs/scenarios.md list its paths. Cross-field rules are in sim/scenario_rules.cpp, derived
// values in sim/scenario_resolve.cpp, the sweep plan in sim/sweep_plan.cpp.

#include <cstddef>
#include <string>
#include <vector>

#include "scenarios/scenario_config.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {

const schema::Object<ScenarioConfig>& scenario_schema();
// Every documented path of a scenario, in document order.
std::vector<schema::Entry> scenario_entries();

}  // namespace gbesim
