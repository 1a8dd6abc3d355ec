#pragma once
// Cross-field rules of a scenario: what no single key can say (a station has one port, duplex
// matches on a link, a NIC's FIFO holds the largest frame). Each rule has a name and a doc;
// `gbesim params` lists them. They run after every key is read and every reference checked, and
// skip what refers to names that do not exist (already reported).

#include <vector>

#include "scenarios/scenario_config.hpp"
#include "sim/input/schema.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

struct ScenarioRule {
  const char* name;
  const char* doc;
  void (*check)(const ScenarioConfig&, Diagnostics&);
};

const std::vector<ScenarioRule>& scenario_rules();
void check_rules(const ScenarioConfig& config, Diagnostics& d);

// Every name a scenario refers to (a station, a medium, a bus target) exists, or an error with a
// did-you-mean and the names there are.
void check_references(const std::vector<schema::Reference>& references,
                      const ScenarioConfig& config, Diagnostics& d);

}  // namespace gbesim
