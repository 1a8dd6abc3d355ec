#pragma once
#include <string>
#include <vector>

namespace gbesim {
// Every path of the scenario schema: type, unit, default, range, rule and doc; then the
// cross-field rules by name. Given words, only the paths and rules whose path (name), unit and
// doc mention every one of them, in any case; empty when none does.
std::string params_text(const std::vector<std::string>& words = {});
// The same as JSON, for the desktop app's form and scripts:
// {"paths": [{"path", "type", "unit", "range", "rule", "doc", "default", "min", "max",
// "choices"}], "rules": [{"name", "doc"}]}. Paths use the --set wildcard syntax
// (stations.*.mac.ifg_bits, links[*].cable_m).
std::string params_json();
// The same as a Markdown table, as docs/scenarios.md carries it. Given prefixes, only the paths
// under one of them (`stations.*.mac` takes stations.*.mac and stations.*.mac.ifg_bits) and no
// rules: a model page's Parameters. A prefix no path is under is an error (a ScenarioError naming
// it), so a page cannot keep an empty table after a rename.
std::string params_markdown(const std::vector<std::string>& under = {});
}  // namespace gbesim
