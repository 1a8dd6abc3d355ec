#pragma once
#include <string>

namespace gbesim {
// Every parameter of every model: where it goes, unit, default, range and doc.
std::string params_text();
}  // namespace gbesim
