#pragma once
// Reading JSON input files for people: malformed JSON, duplicate keys and numbers out of range
// reported with their JSON path, line and column; a missing file with a did-you-mean among the
// .json files beside it. Input that could exhaust the process is refused with a clear error:
// what is not a regular file (a FIFO, a device), files over kMaxInputBytes, and nesting deeper
// than kMaxJsonDepth (the readers that follow recurse once per level).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/input/json_path.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxJsonDepth = 64;

// `value (kind)`, shortened, for "expected X, got Y" messages.
std::string describe_value(const Json& v);
// Serialises for messages and result files; bytes that are not UTF-8 become U+FFFD instead of
// throwing.
std::string dump_json(const Json& v, int indent = -1);

struct JsonParse {
  Json value;                      // null when !ok
  bool ok = false;                 // parsed with no error
  bool too_deep = false;           // failed on the depth limit
  bool syntax_error = false;       // not JSON at all (rather than a duplicate key, a huge number)
  std::vector<Diagnostic> errors;  // path and message of each error (file left empty)
  std::size_t more_errors = 0;     // beyond those listed
};
// Parses JSON text into an ordered document in time linear in its size.
JsonParse parse_json_text(const std::string& text);
// Parses a file's JSON text; errors go to `d` (and the result is null).
Json parse_document(const std::string& text, Diagnostics& d);
// The file's contents; throws ScenarioError naming the file when it cannot be read (a missing
// file with a did-you-mean, json_file_beside).
std::string read_json_file(const std::string& file);
// For a missing `file`: the name of the .json file in its directory it was probably meant to be
// (a plausible typo), or nullopt.
std::optional<std::string> json_file_beside(const std::string& file);
// A record gbesim wrote earlier (run.json), or nullopt if it is missing, not a regular file, or
// not valid JSON: records are read, never trusted. With `only`, just those top-level members are
// kept (the rest is checked but not built: a run.json echoes a scenario of any size).
std::optional<Json> read_json_record(const std::filesystem::path& file,
                                     const std::vector<std::string>& only = {});

}  // namespace gbesim
