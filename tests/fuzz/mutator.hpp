#pragma once
// Deterministic mutants of a JSON document, for fuzzing the loaders: structure-aware edits (a
// value replaced by an extreme or a wrong type, a key deleted, renamed or taken from elsewhere in
// the document, arrays grown, nodes swapped or nested deep) and byte-level edits of the text
// (flips, insertions, cut ranges, truncation). The same seed gives the same mutant.

#include <cstdint>
#include <random>
#include <string>

#include "sim/input/json_path.hpp"

namespace gbesim::fuzz {

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}
  // One mutant of `text` (a JSON document): 1 to 3 edits.
  std::string mutate(const std::string& text);
  // One damage only: a single structure-aware edit (the document written again, compact or
  // indented) or a single byte-level edit.
  std::string mutate_once(const std::string& text);
  // A structure-aware mutant only: always valid JSON.
  Json mutate_structure(const Json& doc);

 private:
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
  Json extreme_value();
  void edit(Json& doc);
  std::string edit_bytes(std::string text);

  std::mt19937_64 rng_;
};

}  // namespace gbesim::fuzz
