#include "sim/params_command.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <variant>

#include "scenarios/scenario_config.hpp"

namespace gbesim {

std::string params_text() {
  std::string out;
  for (const auto& table : all_param_tables()) {
    out += fmt::format("{}  --  {}\n", table.name, table.doc);
    for (const auto& p : table.params) {
      std::string def = p.type == ParamType::structured ? std::get<std::string>(p.default_value)
                                                        : format_param_value(p.default_value);
      out += fmt::format("  {:<18} {:<22} default {:<10} range {}\n", p.key,
                         p.unit.empty() ? to_string(p.type) : p.unit, def, p.range_text());
      out += fmt::format("  {:<18} {}\n", "", p.doc);
    }
    out += "\n";
  }
  return out;
}

std::string params_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& table : all_param_tables()) {
    nlohmann::json t = {
        {"name", table.name}, {"doc", table.doc}, {"params", nlohmann::json::array()}};
    for (const auto& p : table.params) {
      nlohmann::json j = {
          {"key", p.key}, {"unit", p.unit}, {"type", to_string(p.type)}, {"doc", p.doc}};
      if (p.type == ParamType::integer || p.type == ParamType::real) {
        j["min"] = p.min;
        j["max"] = p.max;
      }
      if (p.type == ParamType::choice) j["choices"] = p.choices;
      std::visit([&](const auto& v) { j["default"] = v; }, p.default_value);
      t["params"].push_back(j);
    }
    out.push_back(t);
  }
  return out.dump(1) + "\n";
}

}  // namespace gbesim
