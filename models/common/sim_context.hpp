#pragma once
// What every model of one simulation shares: the run seed its random streams derive from, the
// frame pool, the statistics registry, and a count of process activations for benchmarks.

#include <cstdint>
#include <string_view>

#include "models/common/frame.hpp"
#include "models/common/rng.hpp"
#include "models/common/stats.hpp"

namespace gbesim {

struct SimContext {
  explicit SimContext(std::uint64_t run_seed) : seed(run_seed) {}
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  RngStream rng_for(std::string_view component_path) const { return {seed, component_path}; }

  std::uint64_t seed;
  FramePool frames;
  StatRegistry stats;
  std::uint64_t activations = 0;  // every model process increments this once per activation
};

}  // namespace gbesim
