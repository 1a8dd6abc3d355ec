#pragma once
// Reading JSON input files for people: duplicate keys and malformed JSON reported with line and
// column, a missing file with a did-you-mean among the .json files beside it.

#include <string>

#include "sim/diagnostics.hpp"
#include "sim/json_path.hpp"

namespace gbesim {

// `value (kind)`, shortened, for "expected X, got Y" messages.
std::string describe_value(const Json& v);
// Parses JSON text; errors go to `d` (and the result is null).
Json parse_document(const std::string& text, Diagnostics& d);
// The file's contents; throws ScenarioError naming the file when it cannot be read.
std::string read_json_file(const std::string& file);

}  // namespace gbesim
