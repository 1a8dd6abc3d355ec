#pragma once
// The measurements `gbesim validate` scores against: docs/validation/*.json (one file per
// source document, compiled into the program) or a user's own files in the same shape, read as
// any input is: every member checked, errors naming the file, the JSON path, what was expected
// and a did-you-mean, all of them at once (exit 2). The scenario a file names is a built-in one
// (scenarios/<name>.json, compiled in as well) or, for a user's file, a path beside it.

#include <string>
#include <utility>
#include <vector>

#include "analysis/validation.hpp"
#include "sim/input/json_path.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

// The compiled-in files: (name, text), sorted by name.
const std::vector<std::pair<std::string, std::string>>& builtin_validation_sources();
const std::vector<std::pair<std::string, std::string>>& builtin_scenarios();

// One source file's document; errors go to `d`.
ValidationSource read_validation_source(const Json& doc, Diagnostics& d);

// Each column and label a source's selectors name, checked against the points of its
// scenario's sweep (with a did-you-mean); errors go to `d`.
void check_selectors(const ValidationSource& source, const SweepPoints& points, Diagnostics& d);

}  // namespace gbesim
