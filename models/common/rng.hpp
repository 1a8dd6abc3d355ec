#pragma once
// Deterministic random streams. Every component draws from its own stream, derived from the run
// seed and the component's hierarchical path, so adding a component never shifts the draws of
// another. Generator: xoshiro256** (Blackman & Vigna 2018), seeded through SplitMix64. The
// integer and real mappings are our own (std::*_distribution is implementation-defined).

#include <cstdint>
#include <string_view>

namespace gbesim {

std::uint64_t fnv1a64(std::string_view text);
std::uint64_t splitmix64(std::uint64_t& state);

class RngStream {
 public:
  RngStream(std::uint64_t run_seed, std::string_view component_path);

  std::uint64_t next_u64();
  // Uniform on [0, 1) with 53 random bits.
  double uniform01();
  // Uniform integer on [0, n), n > 0, without modulo bias (Lemire 2019).
  std::uint64_t uniform_below(std::uint64_t n);
  // Uniform integer on [lo, hi], lo <= hi.
  std::int64_t uniform_range(std::int64_t lo, std::int64_t hi);
  // Exponentially distributed with the given mean (inverse transform).
  double exponential(double mean);
  // Standard normal (Box-Muller, the cosine branch only: two uniforms per draw).
  double normal();

 private:
  std::uint64_t s_[4];
};

}  // namespace gbesim
