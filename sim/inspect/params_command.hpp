#pragma once
#include <string>

namespace gbesim {
// Every path of the scenario schema: type, unit, default, range, rule and doc; then the
// cross-field rules by name.
std::string params_text();
// The same as JSON, for the desktop app's form and scripts:
// {"paths": [{"path", "type", "unit", "range", "rule", "doc", "default", "min", "max",
// "choices"}], "rules": [{"name", "doc"}]}. Paths use the --set wildcard syntax
// (stations.*.mac.ifg_bits, links[*].cable_m).
std::string params_json();
// The same as the Markdown reference docs/scenarios.md carries between its schema markers.
std::string params_markdown();
}  // namespace gbesim
