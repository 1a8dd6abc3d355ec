#pragma once
// `gbesim events [--json | --markdown] [--model NAME]...`: every event each kind of model reports
// (events.csv's `event` column) and every state variable it keeps for trace.vcd, with what each
// means -- as declared beside each model (models/common/event.hpp; Network::vocabularies lists
// the models). --markdown writes the tables a model page carries; --model keeps some models.

#include <string>
#include <vector>

namespace gbesim {

struct EventsOptions {
  bool json = false;
  bool markdown = false;
  std::vector<std::string> models;  // empty: every model
};

// The listing, as text, JSON or Markdown. Throws ScenarioError naming --model for a model there
// is not (exit 2).
std::string events_listing(const EventsOptions& options);

}  // namespace gbesim
