#pragma once
// Paths into a scenario document, in the one syntax used by error messages, --set and sweeps:
// dot-separated keys with [i] for array elements, e.g. stations.a.traffic[0].frame_bytes.
// In --set and sweeps, "*" (a key) and [*] (an index) match every element that has the rest of
// the path: stations.*.traffic[0].frame_bytes sets the first source of every station that has
// one.

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace gbesim {

using Json = nlohmann::ordered_json;

using PathToken = std::variant<std::string, std::size_t>;

// Throws std::invalid_argument with a message naming the offending character.
std::vector<PathToken> parse_json_path(const std::string& path);
std::string format_json_path(const std::vector<PathToken>& tokens);
std::string child_path(const std::string& parent, const std::string& key);
std::string index_path(const std::string& parent, std::size_t index);

// Sets the value at `path`, creating missing objects on the way (the strict loader then judges
// every key); array elements must exist; below a wildcard only existing elements are visited.
// Throws std::invalid_argument with a message for people.
void set_json_path(Json& document, const std::string& path, const Json& value);

// True if setting `outer` may replace what `path` names: `path` is `outer` or lies below it (a
// wildcard in either matches any key or index there). Paths that do not parse never are.
bool path_within(const std::string& path, const std::string& outer);

// A --set or sweep value: JSON if it parses as JSON, otherwise a plain string.
Json parse_override_value(const std::string& text);

}  // namespace gbesim
