#include "sim/input/profiles.hpp"

#include <filesystem>
#include <optional>

namespace gbesim {

const BuiltinProfiles& builtin_switch_profiles() {
  static const BuiltinProfiles profiles = {
#include "switch_profiles.inc"
  };
  return profiles;
}

const BuiltinProfiles& builtin_cpu_profiles() {
  static const BuiltinProfiles profiles = {
#include "cpu_profiles.inc"
  };
  return profiles;
}

std::string profile_choices(const BuiltinProfiles& builtins) {
  std::string out;
  for (const auto& [name, text] : builtins) out += (out.empty() ? "" : " | ") + name;
  return out + (out.empty() ? "" : " | ") + "<file>.json";
}

namespace {

// Errors found while reading another file, as errors of that file.
void forward(const Diagnostics& from, Diagnostics& to) {
  try {
    from.throw_if_any();
  } catch (const ScenarioError& e) {
    for (const auto& item : e.diagnostics()) to.error_in(item.file, item.path, item.message);
    to.count_more(e.more());
  }
}

void apply(const ProfileKind& kind, const Json& ref, const std::string& at, Diagnostics& d,
           int depth);

// The text of the profile `r` names: a .json file beside the scenario, or a built-in profile;
// nullopt (the error said at `at`) when there is none. `file` names it for its own errors.
std::optional<std::string> profile_text(const ProfileKind& kind, const std::string& r,
                                        const std::string& at, Diagnostics& d, std::string& file) {
  std::vector<std::string> names;
  for (const auto& [name, text] : kind.builtins) names.push_back(name);
  const bool is_file = r.size() > 5 && r.compare(r.size() - 5, 5, ".json") == 0;
  if (!is_file) {
    for (const auto& [name, body] : kind.builtins)
      if (name == r) {
        file = "profile " + r;
        return body;
      }
    d.error(at, "no " + kind.what + " profile \"" + r + "\"" + suggestion(r, names) +
                    " (built in: " + schema::key_list(names) + "; or give a .json file)");
    return std::nullopt;
  }
  namespace fs = std::filesystem;
  fs::path p(r);
  if (p.is_relative()) p = fs::path(d.file()).parent_path() / p;
  file = p.string();
  // A file that cannot be read is an error of the key that named it (the scenario's file and
  // JSON path), saying where the name led.
  std::error_code ec;
  const std::string named = kind.what + " profile file \"" + r + "\" (resolved as " +
                            fs::absolute(p, ec).lexically_normal().string() + ")";
  if (fs::status(p, ec).type() == fs::file_type::not_found) {
    const auto beside = json_file_beside(file);
    d.error(at, "no such " + named +
                    (beside ? "; did you mean \"" + (fs::path(r).parent_path() / *beside).string() +
                                  "\"?"
                            : ""));
    return std::nullopt;
  }
  try {
    return read_json_file(file);
  } catch (const ScenarioError& e) {
    for (const auto& item : e.diagnostics()) d.error(at, named + ": " + item.message);
    return std::nullopt;
  }
}

// One block of fields, each {"value": ..., "source": "..."}: the values go through the
// parameter tables.
void read_block(const ProfileBlock& block, const Json& b, schema::Reader& reader, Diagnostics& pd) {
  if (!b.is_object()) {
    pd.error(block.name, "expected an object of fields, got " + describe_value(b));
    return;
  }
  Json values = Json::object();
  for (const auto& f : b.items()) {
    const std::string path = child_path(block.name, f.key());
    const Json& v = f.value();
    if (!v.is_object() || !v.contains("value") || !v.contains("source") ||
        !v["source"].is_string() || v["source"].get<std::string>().empty() || v.size() != 2) {
      pd.error(path,
               "expected {\"value\": ..., \"source\": \"where it comes from, or "
               "assumption\"}, got " +
                   describe_value(v));
      continue;
    }
    // The block has no duplicate keys (the parser refuses them): append, in linear time.
    values.get_ref<Json::object_t&>().emplace_back(f.key(), v["value"]);
  }
  block.read(values, block.name, reader);
}

// A profile's document: its keys, its parent's profile first (this one's values then override
// it), then its blocks. Errors go to `pd`, the profile file's own.
void read_profile(const ProfileKind& kind, const Json& doc, Diagnostics& pd, int depth) {
  std::vector<std::string> keys = kind.text_keys;
  if (!kind.parent_key.empty()) keys.push_back(kind.parent_key);
  for (const auto& b : kind.blocks) keys.push_back(b.name);
  schema::check_keys(doc, "", keys, pd);
  for (const auto& key : kind.text_keys)
    if (doc.contains(key) && !doc[key].is_string())
      pd.error(key, "expected a string, got " + describe_value(doc[key]));
  if (!kind.parent_key.empty() && doc.contains(kind.parent_key)) {
    if (depth >= 4)
      pd.error(kind.parent_key,
               "profiles name " + kind.parent_key + "s more than 4 deep (a loop?)");
    else
      apply(kind, doc[kind.parent_key], kind.parent_key, pd, depth + 1);
  }
  schema::Reader reader(pd);
  for (const auto& block : kind.blocks)
    if (doc.contains(block.name)) read_block(block, doc[block.name], reader, pd);
}

void apply(const ProfileKind& kind, const Json& ref, const std::string& at, Diagnostics& d,
           int depth) {
  if (!ref.is_string()) {
    std::vector<std::string> names;
    for (const auto& [name, text] : kind.builtins) names.push_back(name);
    d.error(at, "expected a " + kind.what + " profile name (" + schema::key_list(names) +
                    ") or a .json file, got " + describe_value(ref));
    return;
  }
  std::string file;
  const auto text = profile_text(kind, ref.get<std::string>(), at, d, file);
  if (!text) return;
  Diagnostics pd(file);
  const Json doc = parse_document(*text, pd);
  if (!pd.empty()) return forward(pd, d);
  if (!doc.is_object()) {
    d.error_in(
        file, "",
        "not a " + kind.what + " profile: expected a JSON object, got " + describe_value(doc));
    return;
  }
  read_profile(kind, doc, pd, depth);
  forward(pd, d);
}

}  // namespace

void apply_profile(const ProfileKind& kind, const Json& ref, const std::string& at,
                   Diagnostics& d) {
  apply(kind, ref, at, d, 0);
}

}  // namespace gbesim
