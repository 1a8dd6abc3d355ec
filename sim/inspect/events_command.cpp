#include "sim/inspect/events_command.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "scenarios/network.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/schema.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// `text` in lines of at most `width` characters, the first after `first` and the rest indented
// as far.
std::string wrapped(const std::string& first, std::string_view text, std::size_t width) {
  std::string out = first;
  std::size_t column = first.size();
  const std::string indent(first.size(), ' ');
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    if (column > first.size() && column + 1 + word.size() > width) {
      out += "\n" + indent;
      column = indent.size();
    } else if (column > first.size()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out + "\n";
}

std::string states_of(const StateVariable& v) {
  std::string out;
  for (std::size_t i = 0; i < v.states.size(); ++i)
    out += fmt::format("{}{} {}", i == 0 ? "" : ", ", i, v.states[i]);
  return out;
}

Json as_json(const ModelVocabulary& m) {
  Json events = Json::array();
  for (const EventKind k : m.events)
    events.push_back({{"name", describe(k).name}, {"meaning", describe(k).meaning}});
  Json state = Json::array();
  for (const StateVariable& v : m.state) {
    Json states = Json::array();
    for (const auto& s : v.states) states.push_back(s);
    state.push_back(
        {{"name", v.name}, {"meaning", v.meaning}, {"bits", v.bits}, {"states", states}});
  }
  return {{"model", m.model},
          {"component", m.component},
          {"about", m.about},
          {"events", events},
          {"state", state}};
}

// A model's tables, as a model page carries them.
std::string as_markdown(const ModelVocabulary& m) {
  std::string out = fmt::format("`{}` -- {}\n\n", m.component, m.about);
  if (!m.events.empty()) {
    out += "| event | meaning |\n|---|---|\n";
    for (const EventKind k : m.events)
      out += fmt::format("| `{}` | {} |\n", describe(k).name, describe(k).meaning);
    out += "\n";
  }
  if (!m.state.empty()) {
    out += "| trace.vcd | bits | meaning |\n|---|---|---|\n";
    for (const StateVariable& v : m.state)
      out += fmt::format("| `{}` | {} | {}{} |\n", v.name, v.bits, v.meaning,
                         v.states.empty() ? "" : ": " + states_of(v));
    out += "\n";
  }
  return out;
}

std::string as_text(const std::vector<const ModelVocabulary*>& models) {
  std::string out =
      "Every model reports through one hook; `gbesim run --trace events` writes events.csv\n"
      "(time_ps,component,event,frame_id,bytes,detail), `--trace events:components=h.nic,h.pci`\n"
      "keeps some components (each with everything inside it), `--trace vcd` the state\n"
      "variables below (docs/results.md).\n";
  constexpr std::size_t kWidth = 100;
  for (const ModelVocabulary* m : models) {
    out += fmt::format("\n{} -- {}: {}\n", m->model, m->component, m->about);
    for (const EventKind k : m->events) {
      const EventKindInfo info = describe(k);
      out += wrapped(fmt::format("  {:<24}", info.name), info.meaning, kWidth);
    }
    for (const StateVariable& v : m->state) {
      std::string meaning(v.meaning);
      if (!v.states.empty()) meaning += ": " + states_of(v);
      out += wrapped(fmt::format("  {:<24}", fmt::format("[vcd] {}", v.name)), meaning, kWidth);
    }
  }
  return out;
}

// The models asked for, in the listing's order.
std::vector<const ModelVocabulary*> models_of(const std::vector<std::string>& names) {
  const auto all = Network::vocabularies();
  if (names.empty()) return all;
  std::vector<std::string> known;
  for (const ModelVocabulary* m : all) known.emplace_back(m->model);
  for (const auto& name : names)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw ScenarioError({{"--model", "",
                            "no model \"" + name + "\" (known: " + schema::key_list(known) + ")" +
                                suggestion(name, known)}});
  std::vector<const ModelVocabulary*> out;
  for (const ModelVocabulary* m : all)
    if (std::find(names.begin(), names.end(), m->model) != names.end()) out.push_back(m);
  return out;
}

}  // namespace

std::string events_listing(const EventsOptions& options) {
  const auto models = models_of(options.models);
  if (options.json) {
    Json out = Json::array();
    for (const ModelVocabulary* m : models) out.push_back(as_json(*m));
    return out.dump(1) + "\n";
  }
  if (options.markdown) {
    std::string out;
    for (const ModelVocabulary* m : models) out += as_markdown(*m);
    return out;
  }
  return as_text(models);
}

}  // namespace gbesim
