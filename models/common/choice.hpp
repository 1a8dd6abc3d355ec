#pragma once
// A parameter that takes one of a few named values is an enum in its model's Params struct. The
// names of its values -- as scenario files, run.json, `gbesim params` and the GUI form spell them
// -- and a one-line doc per value are declared once, in a ChoiceList beside the enum, returned by
//   const ChoiceList<E>& choice_list(E);
// declared in the enum's namespace (the argument only picks the overload; found by
// argument-dependent lookup). Models compare enums; the names are used only where text comes in
// (the scenario loader, through ParamTable::choice) or goes out (run.json, summaries).

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gbesim {

template <class E>
struct Choice {
  E value;
  // As JSON spells it. "" for the value of a parameter left unset (no application): it is not
  // offered to the user, and written as "".
  std::string_view name;
  std::string_view doc;  // may be empty: the name says it ("none")
};

template <class E>
class ChoiceList {
 public:
  ChoiceList(std::initializer_list<Choice<E>> choices) : choices_(choices) {}

  const std::vector<Choice<E>>& choices() const { return choices_; }
  // Every value of E is in the list.
  std::string_view name(E value) const {
    for (const auto& c : choices_)
      if (c.value == value) return c.name;
    return {};
  }
  std::optional<E> find(std::string_view name) const {
    for (const auto& c : choices_)
      if (c.name == name) return c.value;
    return std::nullopt;
  }
  // For a name already checked against names() (the loader checks every one).
  E at(std::string_view name) const {
    if (auto v = find(name)) return *v;
    throw std::invalid_argument("not a choice: \"" + std::string(name) + "\"");
  }
  // The names a user may give, in declaration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& c : choices_)
      if (!c.name.empty()) out.emplace_back(c.name);
    return out;
  }
  // "full: a point-to-point link; half: CSMA/CD ...": each offered value with its doc.
  std::string doc() const {
    std::string out;
    for (const auto& c : choices_) {
      if (c.name.empty()) continue;
      if (!out.empty()) out += "; ";
      out += c.name;
      if (!c.doc.empty()) out += ": " + std::string(c.doc);
    }
    return out;
  }

 private:
  std::vector<Choice<E>> choices_;
};

// The name of a value of any enum that has a choice_list.
template <class E>
std::string_view choice_name(E value) {
  return choice_list(value).name(value);
}

}  // namespace gbesim
