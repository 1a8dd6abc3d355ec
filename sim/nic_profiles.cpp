#include "sim/nic_profiles.hpp"

#include <filesystem>

#include "sim/schema.hpp"

namespace gbesim {

const std::vector<std::pair<std::string, std::string>>& builtin_nic_profiles() {
  static const std::vector<std::pair<std::string, std::string>> profiles = {
#include "nic_profiles.inc"
  };
  return profiles;
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

}  // namespace

namespace {

void apply_profile(const Json& ref, const std::string& at, const NicProfileTargets& to,
                   Diagnostics& d, int depth) {
  std::vector<std::string> names;
  for (const auto& [name, text] : builtin_nic_profiles()) names.push_back(name);
  if (!ref.is_string()) {
    d.error(at, "expected a profile name (" + schema::key_list(names) + ") or a .json file, got " +
                    describe_value(ref));
    return;
  }
  const std::string r = ref.get<std::string>();
  std::string file;
  std::string text;
  const bool is_file = r.size() > 5 && r.compare(r.size() - 5, 5, ".json") == 0;
  if (is_file) {
    std::filesystem::path p(r);
    if (p.is_relative()) p = std::filesystem::path(d.file()).parent_path() / p;
    file = p.string();
    try {
      text = read_json_file(file);
    } catch (const ScenarioError& e) {
      for (const auto& item : e.diagnostics()) d.error_in(item.file, item.path, item.message);
      return;
    }
  } else {
    for (const auto& [name, body] : builtin_nic_profiles())
      if (name == r) text = body;
    if (text.empty()) {
      d.error(at, "no NIC profile \"" + r + "\"" + suggestion(r, names) +
                      " (built in: " + schema::key_list(names) + "; or give a .json file)");
      return;
    }
    file = "profile " + r;
  }
  Diagnostics pd(file);
  const Json doc = parse_document(text, pd);
  if (!pd.empty()) return forward(pd, d);
  if (!doc.is_object()) {
    d.error_in(file, "", "not a NIC profile: expected a JSON object, got " + describe_value(doc));
    return;
  }
  schema::check_keys(doc, "", {"name", "description", "chip", "board", "nic", "master", "driver"},
                     pd);
  for (const char* text : {"name", "description", "board"})
    if (doc.contains(text) && !doc[text].is_string())
      pd.error(text, "expected a string, got " + describe_value(doc[text]));
  if (doc.contains("chip")) {
    // The chip's profile first; the board's values then override it.
    if (depth >= 4)
      pd.error("chip", "profiles name chips more than 4 deep (a loop?)");
    else
      apply_profile(doc["chip"], "chip", to, pd, depth + 1);
  }
  // Each field: {"value": ..., "source": "..."}; the values go through the parameter tables.
  auto values_of = [&](const char* block) {
    Json values = Json::object();
    if (!doc.contains(block)) return values;
    const Json& b = doc[block];
    if (!b.is_object()) {
      pd.error(block, "expected an object of fields, got " + describe_value(b));
      return values;
    }
    for (const auto& f : b.items()) {
      const std::string path = child_path(block, f.key());
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
    return values;
  };
  const Json n = values_of("nic");
  const Json m = values_of("master");
  const Json v = values_of("driver");
  schema::Reader reader(pd);
  schema::table(nic_param_table()).read(n, "nic", to.nic, reader);
  schema::table(pci_master_param_table()).read(m, "master", to.master, reader);
  schema::table(driver_param_table()).read(v, "driver", to.driver, reader);
  forward(pd, d);
}

}  // namespace

void apply_nic_profile(const Json& ref, const std::string& at, const NicProfileTargets& to,
                       Diagnostics& d) {
  apply_profile(ref, at, to, d, 0);
}

}  // namespace gbesim
