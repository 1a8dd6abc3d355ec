#pragma once
// The verbs that simulate nothing, declared beside their code: `params` (every path of a
// scenario), `stats` (every statistic), `topology` (a cabling plant's report), `phy` (the
// link-level PHY models).

#include <CLI/CLI.hpp>

#include "sim/cli/verbs.hpp"

namespace gbesim {

Verb add_params_verb(CLI::App& app);
Verb add_stats_verb(CLI::App& app);
Verb add_events_verb(CLI::App& app);
Verb add_topology_verb(CLI::App& app);
Verb add_phy_verb(CLI::App& app);

}  // namespace gbesim
