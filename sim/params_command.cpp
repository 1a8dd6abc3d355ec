#include "sim/params_command.hpp"

#include <fmt/format.h>

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

}  // namespace gbesim
