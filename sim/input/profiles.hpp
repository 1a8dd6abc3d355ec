#pragma once
// Profiles: data files giving a value and a source (or "assumption") for every field they set, for
// NICs (models/nic/profiles), switches (models/switch/profiles) and host CPUs
// (models/host/cpus). The built-in ones are compiled in; a scenario names one of them or gives
// the path of its own file (ending in .json, relative to the scenario).
//
// A profile is a JSON object: text keys ("name", "description", ...), an optional parent key
// naming another profile of the same kind applied first (a board's "chip"), and blocks of fields
// {"<field>": {"value": ..., "source": "..."}} that go through the parameter tables.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/input/json_input.hpp"
#include "sim/input/schema.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

using BuiltinProfiles = std::vector<std::pair<std::string, std::string>>;  // name -> JSON text

struct ProfileBlock {
  std::string name;
  // Reads the block's values ({"<field>": value}) at `path`.
  std::function<void(const Json& values, const std::string& path, schema::Reader&)> read;
};

struct ProfileKind {
  std::string what;  // "NIC", "switch", "CPU": for messages
  const BuiltinProfiles& builtins;
  std::string parent_key;              // "chip", or empty: no parent
  std::vector<std::string> text_keys;  // string-valued keys besides the blocks
  std::vector<ProfileBlock> blocks;
};

// Applies the profile `ref` names (a built-in name or a .json path, relative to the scenario's
// directory d.file()); errors in the profile name its file and path.
void apply_profile(const ProfileKind& kind, const Json& ref, const std::string& at, Diagnostics& d);

// "a | b | <file>.json", for the schema reference.
std::string profile_choices(const BuiltinProfiles& builtins);

const BuiltinProfiles& builtin_switch_profiles();
const BuiltinProfiles& builtin_cpu_profiles();

}  // namespace gbesim
