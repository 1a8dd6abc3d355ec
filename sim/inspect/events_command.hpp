#pragma once
// `gbesim events [--json]`: every event each kind of model reports (events.csv's `event`
// column) and every state variable it keeps for trace.vcd, with what each means -- as declared
// beside each model (models/common/event.hpp; Network::vocabularies lists the models).

#include <string>

namespace gbesim {

// The listing, as text or JSON.
std::string events_listing(bool json);

}  // namespace gbesim
