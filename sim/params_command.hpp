#pragma once
#include <string>

namespace gbesim {
// Every parameter of every model: where it goes, unit, default, range and doc.
std::string params_text();
// The same tables as JSON, for the desktop app's parameter form: [{"name", "doc", "params":
// [{"key", "unit", "type", "min", "max", "choices", "doc", "default"}]}].
std::string params_json();
}  // namespace gbesim
