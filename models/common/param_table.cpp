#include "models/common/param_table.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gbesim {

std::string to_string(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::real:
      return "number";
    case ParamType::boolean:
      return "boolean";
    case ParamType::text:
      return "string";
    case ParamType::choice:
      return "choice";
    case ParamType::structured:
      return "structured";
  }
  return "?";
}

static std::string format_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

std::string format_param_value(const ParamValue& value) {
  struct Visitor {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return format_number(v); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return "\"" + v + "\""; }
  };
  return std::visit(Visitor{}, value);
}

std::optional<std::string> ParamInfo::constraint_problem(std::int64_t value) const {
  bool ok = true;
  if (!one_of.empty()) ok = std::find(one_of.begin(), one_of.end(), value) != one_of.end();
  if (multiple_of > 0 && value % multiple_of != 0) ok = false;
  if (power_of_two && (value <= 0 || (value & (value - 1)) != 0)) ok = false;
  if (ok) return std::nullopt;
  return rule + ", got " + std::to_string(value);
}

std::string ParamInfo::range_text() const {
  switch (type) {
    case ParamType::integer:
      return std::to_string(static_cast<long long>(min)) + " .. " +
             std::to_string(static_cast<long long>(max));
    case ParamType::real:
      return format_number(min) + " .. " + format_number(max);
    case ParamType::boolean:
      return "true | false";
    case ParamType::text:
      return "text";
    case ParamType::choice: {
      std::string out;
      for (const auto& c : choices) out += (out.empty() ? "" : " | ") + c;
      return out;
    }
    case ParamType::structured:
      return choices.empty() ? "" : choices.front();
  }
  return "";
}

}  // namespace gbesim
