#include "sim/input/schema.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim::schema {

Json to_json(const ParamValue& v) {
  struct Visitor {
    Json operator()(std::int64_t x) const { return x; }
    Json operator()(double x) const { return x; }
    Json operator()(bool x) const { return x; }
    Json operator()(const std::string& x) const { return x; }
  };
  return std::visit(Visitor{}, v);
}

std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

namespace {

std::string range_phrase(const ParamInfo& info) {
  std::string out = info.range_text();
  if (!info.unit.empty()) out += " " + info.unit;
  return out;
}

}  // namespace

std::optional<ParamValue> convert(const Json& v, const ParamInfo& info, const std::string& path,
                                  Diagnostics& d) {
  switch (info.type) {
    case ParamType::integer: {
      std::int64_t x = 0;
      if (v.is_number_unsigned() && v.get<std::uint64_t>() > 9'000'000'000'000'000'000ULL) {
        d.error(path, "expected an integer in " + range_phrase(info) + ", got " + dump_json(v));
        return std::nullopt;
      } else if (v.is_number_integer()) {
        x = v.get<std::int64_t>();
      } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
                 std::floor(v.get<double>()) == v.get<double>() &&
                 std::fabs(v.get<double>()) < 9.0e15) {
        x = static_cast<std::int64_t>(v.get<double>());
      } else {
        d.error(path,
                "expected an integer in " + range_phrase(info) + ", got " + describe_value(v));
        return std::nullopt;
      }
      if (static_cast<double>(x) < info.min || static_cast<double>(x) > info.max) {
        d.error(path,
                "expected an integer in " + range_phrase(info) + ", got " + std::to_string(x));
        return std::nullopt;
      }
      return ParamValue(x);
    }
    case ParamType::real: {
      if (!v.is_number()) {
        d.error(path, "expected a number in " + range_phrase(info) + ", got " + describe_value(v));
        return std::nullopt;
      }
      const double x = v.get<double>();
      if (!(x >= info.min && x <= info.max)) {
        d.error(path, "expected a number in " + range_phrase(info) + ", got " + dump_json(v));
        return std::nullopt;
      }
      return ParamValue(x);
    }
    case ParamType::boolean:
      if (!v.is_boolean()) {
        d.error(path, "expected true or false, got " + describe_value(v));
        return std::nullopt;
      }
      return ParamValue(v.get<bool>());
    case ParamType::text:
      if (!v.is_string()) {
        d.error(path, std::string("expected ") +
                          (info.refers_to.empty() ? "a string" : "a " + info.refers_to + " name") +
                          ", got " + describe_value(v));
        return std::nullopt;
      }
      return ParamValue(v.get<std::string>());
    case ParamType::choice: {
      if (!v.is_string()) {
        d.error(path, "expected one of " + info.range_text() + ", got " + describe_value(v));
        return std::nullopt;
      }
      const std::string s = v.get<std::string>();
      if (std::find(info.choices.begin(), info.choices.end(), s) == info.choices.end()) {
        d.error(path,
                "\"" + s + "\" is not one of " + info.range_text() + suggestion(s, info.choices));
        return std::nullopt;
      }
      return ParamValue(s);
    }
    case ParamType::structured:
      break;
  }
  return std::nullopt;
}

Entry entry_of(const ParamInfo& info, const std::string& path) {
  Entry e;
  e.path = path;
  e.type = info.refers_to.empty() ? to_string(info.type) : "reference";
  e.unit = info.unit;
  e.range = info.refers_to.empty() ? info.range_text() : info.refers_to;
  e.rule = info.rule;
  e.doc = info.doc;
  e.choices = info.choices;
  if (info.type == ParamType::integer || info.type == ParamType::real) {
    e.min = info.min;
    e.max = info.max;
  }
  if (info.type == ParamType::structured) {
    e.default_value = std::get<std::string>(info.default_value);
  } else {
    e.default_value = to_json(info.default_value);
  }
  return e;
}

std::optional<std::int64_t> read_integer(const Json& v, const std::string& path, std::int64_t min,
                                         std::int64_t max, const std::string& unit,
                                         Diagnostics& d) {
  ParamInfo info;
  info.type = ParamType::integer;
  info.min = static_cast<double>(min);
  info.max = static_cast<double>(max);
  info.unit = unit;
  if (auto x = convert(v, info, path, d)) return std::get<std::int64_t>(*x);
  return std::nullopt;
}

std::optional<double> read_number(const Json& v, const std::string& path, double min, double max,
                                  const std::string& unit, Diagnostics& d) {
  ParamInfo info;
  info.type = ParamType::real;
  info.min = min;
  info.max = max;
  info.unit = unit;
  if (auto x = convert(v, info, path, d)) return std::get<double>(*x);
  return std::nullopt;
}

namespace {

template <class T>
Node<T> scalar(ParamInfo info) {
  Node<T> n;
  n.read = [info](const Json& v, const std::string& path, T& out, Reader& r) {
    if (auto x = convert(v, info, path, r.d)) {
      if constexpr (std::is_same_v<T, std::string>) {
        if (!info.refers_to.empty()) r.refer(info.refers_to, std::get<std::string>(*x), path);
      }
      out = std::get<T>(*x);
    }
  };
  n.write = [](const T& v) { return Json(v); };
  n.describe = [info](const std::string& path, std::vector<Entry>& out) {
    Entry e = entry_of(info, path);
    e.default_value = Json();
    out.push_back(std::move(e));
  };
  return n;
}

}  // namespace

Node<std::int64_t> integer(std::int64_t min, std::int64_t max, std::string unit, std::string doc) {
  ParamInfo info;
  info.type = ParamType::integer;
  info.min = static_cast<double>(min);
  info.max = static_cast<double>(max);
  info.unit = std::move(unit);
  info.doc = std::move(doc);
  return scalar<std::int64_t>(std::move(info));
}

Node<double> number(double min, double max, std::string unit, std::string doc) {
  ParamInfo info;
  info.type = ParamType::real;
  info.min = min;
  info.max = max;
  info.unit = std::move(unit);
  info.doc = std::move(doc);
  return scalar<double>(std::move(info));
}

Node<std::string> text(std::string doc) {
  ParamInfo info;
  info.type = ParamType::text;
  info.doc = std::move(doc);
  return scalar<std::string>(std::move(info));
}

Node<std::string> reference(std::string kind, std::string doc) {
  ParamInfo info;
  info.type = ParamType::text;
  info.refers_to = std::move(kind);
  info.doc = std::move(doc);
  return scalar<std::string>(std::move(info));
}

void error_expected(Reader& r, const std::string& path, const std::string& what, const Json& v) {
  r.d.error(path, "expected " + what + ", got " + describe_value(v));
}

bool check_keys(const Json& obj, const std::string& path, const std::vector<std::string>& known,
                Diagnostics& d) {
  if (!obj.is_object()) {
    d.error(path, "expected an object with keys from: " + key_list(known) + "; got " +
                      describe_value(obj));
    return false;
  }
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    d.error(child_path(path, key), d.full() ? std::string()
                                            : "unknown key" + suggestion(key, known) +
                                                  " (known here: " + key_list(known) + ")");
  }
  return true;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace gbesim::schema
