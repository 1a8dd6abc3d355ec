#include "sim/inspect/params_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "models/medium/media.hpp"
#include "sim/input/scenario_rules.hpp"
#include "sim/input/scenario_schema.hpp"
#include "sim/inspect/markdown_table.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

namespace {

std::string default_text(const Json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? "\"" + v.get<std::string>() + "\"" : dump_json(v);
}

// Whether every word of the filter is in the text, ignoring case.
bool mentions_all(const std::string& text, const std::vector<std::string>& words) {
  auto lower = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return t;
  };
  const std::string haystack = lower(text);
  return std::all_of(words.begin(), words.end(), [&](const std::string& w) {
    return haystack.find(lower(w)) != std::string::npos;
  });
}

}  // namespace

std::string params_text(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& e : scenario_entries()) {
    if (!mentions_all(e.path + " " + e.unit + " " + e.doc, words)) continue;
    if (e.type == "object" || e.type == "map" || e.type == "list") {
      out += fmt::format("\n{}  ({})  --  {}\n", e.path, e.type, e.doc);
      continue;
    }
    std::string what = e.unit.empty() ? e.type : e.type + ", " + e.unit;
    out += fmt::format("  {:<44} {}\n", e.path, what);
    if (!e.range.empty()) out += fmt::format("  {:<44} range {}\n", "", e.range);
    if (!e.rule.empty()) out += fmt::format("  {:<44} rule: {}\n", "", e.rule);
    if (!e.default_value.is_null())
      out += fmt::format("  {:<44} default {}\n", "", default_text(e.default_value));
    out += fmt::format("  {:<44} {}\n", "", e.doc);
  }
  std::string rules;
  for (const auto& r : scenario_rules())
    if (mentions_all(std::string(r.name) + " " + r.doc, words))
      rules += fmt::format("  {:<22} {}\n", r.name, r.doc);
  if (!rules.empty()) out += "\nRules across keys (checked after every key is read):\n" + rules;
  return out;
}

std::string params_json() {
  Json paths = Json::array();
  for (const auto& e : scenario_entries()) {
    Json j = {{"path", e.path},   {"type", e.type}, {"unit", e.unit},
              {"range", e.range}, {"rule", e.rule}, {"doc", e.doc}};
    if (!e.default_value.is_null()) j["default"] = e.default_value;
    if (e.min) j["min"] = *e.min;
    if (e.max) j["max"] = *e.max;
    if (!e.choices.empty() && e.type == "choice") j["choices"] = e.choices;
    paths.push_back(std::move(j));
  }
  Json rules = Json::array();
  for (const auto& r : scenario_rules()) rules.push_back({{"name", r.name}, {"doc", r.doc}});
  // The names a reference may take that are built in (a scenario adds its own).
  Json media = Json::array();
  for (const auto& row : builtin_media()) media.push_back(row.name);
  return Json{{"paths", paths}, {"rules", rules}, {"names", {{"medium", media}}}}.dump(1) + "\n";
}

std::string params_markdown(const std::vector<std::string>& under) {
  const auto& entries = scenario_entries();
  auto is_under = [](const std::string& path, const std::string& prefix) {
    return path == prefix || (path.size() > prefix.size() && path.rfind(prefix, 0) == 0 &&
                              (path[prefix.size()] == '.' || path[prefix.size()] == '['));
  };
  auto wanted = [&](const std::string& path) {
    return under.empty() || std::any_of(under.begin(), under.end(),
                                        [&](const auto& prefix) { return is_under(path, prefix); });
  };
  std::vector<std::string> paths;
  for (const auto& e : entries) paths.push_back(e.path);
  Diagnostics diagnostics("--under");
  for (const auto& prefix : under)
    if (std::none_of(paths.begin(), paths.end(),
                     [&](const auto& p) { return is_under(p, prefix); }))
      diagnostics.error(prefix, "no parameter path is under it (gbesim params lists them)" +
                                    suggestion(prefix, paths));
  diagnostics.throw_if_any();
  std::string out =
      "| path | type | unit | default | range, rule | doc |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& e : entries) {
    if (!wanted(e.path)) continue;
    std::string range = e.range;
    if (!e.rule.empty()) range += (range.empty() ? "" : "; ") + e.rule;
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", e.path, e.type, markdown_cell(e.unit),
                       markdown_cell(default_text(e.default_value)), markdown_cell(range),
                       markdown_cell(e.doc));
  }
  if (!under.empty()) return out;
  out += "\nRules across keys:\n\n";
  for (const auto& r : scenario_rules()) out += fmt::format("- `{}`: {}.\n", r.name, r.doc);
  return out;
}

}  // namespace gbesim
