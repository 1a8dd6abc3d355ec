#pragma once
// Every model parameter is declared once, in its model's table: key (with its unit in the name),
// type, range, one-line doc, and where it lives in the model's plain Params struct. Defaults come
// from the struct's member initialisers, so they are written exactly once too. The table drives
// the scenario loader (sim/), `gbesim params` and the GUI's parameter editor; it knows nothing
// about JSON.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/common/choice.hpp"

namespace gbesim {

// choice: one of an enum's named values (choice.hpp), read and written by name.
// structured: a JSON value with its own grammar (e.g. a frame-size distribution), read by the
// loader's dedicated code; the table carries its doc so `gbesim params` lists it too.
enum class ParamType { integer, real, boolean, text, choice, structured };

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

std::string to_string(ParamType type);
std::string format_param_value(const ParamValue& value);

// A row as the user sees it, independent of the Params type.
struct ParamInfo {
  std::string key;
  std::string unit;
  ParamType type = ParamType::integer;
  double min = 0;  // integer and real only, inclusive
  double max = 0;
  std::vector<std::string> choices;  // choice only
  std::string doc;
  ParamValue default_value;
  // text only: the kind of name it holds ("station", "medium", ...), checked against the
  // scenario's names with a did-you-mean.
  std::string refers_to;
  // integer only, beyond the range: one of these values, a multiple of this, a power of two;
  // `rule` says so in words ("a PCI bus is 32 or 64 bits wide").
  std::vector<std::int64_t> one_of;
  std::int64_t multiple_of = 0;
  bool power_of_two = false;
  std::string rule;
  std::string range_text() const;
  // The rule's words and the value, if an integer breaks the row's one-of, multiple-of or
  // power-of-two constraint.
  std::optional<std::string> constraint_problem(std::int64_t value) const;
};

template <class P>
class ParamTable {
 public:
  struct Entry {
    ParamInfo info;
    std::function<void(P&, const ParamValue&)> set;
    std::function<ParamValue(const P&)> get;
  };

  ParamTable(std::string name, std::string doc) : name_(std::move(name)), doc_(std::move(doc)) {}

  ParamTable& integer(std::string key, std::int64_t P::*field, std::string unit, std::int64_t min,
                      std::int64_t max, std::string doc) {
    return add(row(std::move(key), std::move(unit), ParamType::integer, static_cast<double>(min),
                   static_cast<double>(max), {}, std::move(doc)),
               field);
  }
  ParamTable& real(std::string key, double P::*field, std::string unit, double min, double max,
                   std::string doc) {
    return add(row(std::move(key), std::move(unit), ParamType::real, min, max, {}, std::move(doc)),
               field);
  }
  ParamTable& boolean(std::string key, bool P::*field, std::string doc) {
    return add(row(std::move(key), "", ParamType::boolean, 0, 1, {}, std::move(doc)), field);
  }
  ParamTable& text(std::string key, std::string P::*field, std::string doc) {
    return add(row(std::move(key), "", ParamType::text, 0, 0, {}, std::move(doc)), field);
  }
  // One of an enum's named values (choice.hpp). The row's doc is the values' own ("full: ...;
  // half: ..."), unless it is given here in words of its own.
  template <class E>
  ParamTable& choice(std::string key, E P::*field, std::string doc = {}) {
    const ChoiceList<E>& list = choice_list(E{});
    if (doc.empty()) doc = list.doc();
    Entry e;
    e.info = row(std::move(key), "", ParamType::choice, 0, 0, list.names(), std::move(doc));
    e.set = [field, &list](P& p, const ParamValue& v) {
      p.*field = list.at(std::get<std::string>(v));
    };
    e.get = [field, &list](const P& p) { return ParamValue(std::string(list.name(p.*field))); };
    e.info.default_value = e.get(P{});
    entries_.push_back(std::move(e));
    return *this;
  }

  // One of a few fixed words, kept as text ("ideal", "1000base-t"): a choice to the reader.
  ParamTable& word(std::string key, std::string P::*field, std::vector<std::string> words,
                   std::string doc) {
    return add(row(std::move(key), "", ParamType::choice, 0, 0, std::move(words), std::move(doc)),
               field);
  }

  // A name of another part of the scenario (a station, a medium, a target).
  ParamTable& reference(std::string key, std::string P::*field, std::string kind, std::string doc) {
    text(std::move(key), field, std::move(doc));
    entries_.back().info.refers_to = std::move(kind);
    return *this;
  }
  // Constraints on the integer row added last.
  ParamTable& one_of(std::vector<std::int64_t> values, std::string rule) {
    entries_.back().info.one_of = std::move(values);
    entries_.back().info.rule = std::move(rule);
    return *this;
  }
  ParamTable& multiple_of(std::int64_t step, std::string rule) {
    entries_.back().info.multiple_of = step;
    entries_.back().info.rule = std::move(rule);
    return *this;
  }
  ParamTable& power_of_two(std::string rule) {
    entries_.back().info.power_of_two = true;
    entries_.back().info.rule = std::move(rule);
    return *this;
  }

  ParamTable& structured(std::string key, std::string grammar, std::string default_text,
                         std::string doc) {
    Entry e;
    e.info =
        row(std::move(key), "", ParamType::structured, 0, 0, {std::move(grammar)}, std::move(doc));
    e.info.default_value = ParamValue(std::move(default_text));
    entries_.push_back(std::move(e));
    return *this;
  }

  const std::string& name() const { return name_; }
  const std::string& doc() const { return doc_; }
  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(const std::string& key) const {
    for (const auto& e : entries_)
      if (e.info.key == key) return &e;
    return nullptr;
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.info.key);
    return out;
  }
  std::vector<ParamInfo> infos() const {
    std::vector<ParamInfo> out;
    for (const auto& e : entries_) out.push_back(e.info);
    return out;
  }

 private:
  static ParamInfo row(std::string key, std::string unit, ParamType type, double min, double max,
                       std::vector<std::string> choices, std::string doc) {
    ParamInfo info;
    info.key = std::move(key);
    info.unit = std::move(unit);
    info.type = type;
    info.min = min;
    info.max = max;
    info.choices = std::move(choices);
    info.doc = std::move(doc);
    return info;
  }
  template <class T>
  ParamTable& add(ParamInfo info, T P::*field) {
    Entry e;
    e.info = std::move(info);
    e.set = [field](P& p, const ParamValue& v) { p.*field = std::get<T>(v); };
    e.get = [field](const P& p) { return ParamValue(p.*field); };
    e.info.default_value = e.get(P{});
    entries_.push_back(std::move(e));
    return *this;
  }

  std::string name_;
  std::string doc_;
  std::vector<Entry> entries_;
};

}  // namespace gbesim
