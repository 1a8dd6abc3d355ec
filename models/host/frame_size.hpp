#pragma once
// Frame-size distributions for traffic sources, sizes in bytes DA..FCS: a fixed size, a uniform
// integer range, or a weighted discrete mix (e.g. the 64/1518 bimodal mix of many benchmarks).

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/rng.hpp"

namespace gbesim {

struct FrameSizeSpec {
  enum class Kind { fixed, uniform, mix };
  struct Choice {
    std::int64_t bytes;
    double weight;
  };

  Kind kind = Kind::fixed;
  std::int64_t fixed_bytes = 1518;
  std::int64_t min_bytes = 0;  // uniform, inclusive
  std::int64_t max_bytes = 0;
  std::vector<Choice> mix;

  static FrameSizeSpec fixed(std::int64_t bytes);
  static FrameSizeSpec uniform(std::int64_t lo, std::int64_t hi);
  static FrameSizeSpec weighted(std::vector<Choice> choices);

  std::int64_t draw(RngStream& rng) const;
  double mean_bytes() const;
  std::int64_t smallest() const;
  std::int64_t largest() const;
  std::string describe() const;
};

}  // namespace gbesim
