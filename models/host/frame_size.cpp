#include "models/host/frame_size.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace gbesim {

FrameSizeSpec FrameSizeSpec::fixed(std::int64_t bytes) {
  FrameSizeSpec s;
  s.kind = Kind::fixed;
  s.fixed_bytes = bytes;
  return s;
}

FrameSizeSpec FrameSizeSpec::uniform(std::int64_t lo, std::int64_t hi) {
  FrameSizeSpec s;
  s.kind = Kind::uniform;
  s.min_bytes = lo;
  s.max_bytes = hi;
  return s;
}

FrameSizeSpec FrameSizeSpec::weighted(std::vector<Choice> choices) {
  FrameSizeSpec s;
  s.kind = Kind::mix;
  s.mix = std::move(choices);
  return s;
}

std::int64_t FrameSizeSpec::draw(RngStream& rng) const {
  switch (kind) {
    case Kind::fixed:
      return fixed_bytes;
    case Kind::uniform:
      return rng.uniform_range(min_bytes, max_bytes);
    case Kind::mix: {
      double total = 0;
      for (const auto& c : mix) total += c.weight;
      double x = rng.uniform01() * total;
      for (const auto& c : mix) {
        if (x < c.weight) return c.bytes;
        x -= c.weight;
      }
      return mix.back().bytes;  // only reached through rounding
    }
  }
  return fixed_bytes;
}

double FrameSizeSpec::mean_bytes() const {
  switch (kind) {
    case Kind::fixed:
      return static_cast<double>(fixed_bytes);
    case Kind::uniform:
      return 0.5 * static_cast<double>(min_bytes + max_bytes);
    case Kind::mix: {
      double total = 0;
      double sum = 0;
      for (const auto& c : mix) {
        total += c.weight;
        sum += c.weight * static_cast<double>(c.bytes);
      }
      return sum / total;
    }
  }
  return 0;
}

std::int64_t FrameSizeSpec::smallest() const {
  switch (kind) {
    case Kind::fixed:
      return fixed_bytes;
    case Kind::uniform:
      return min_bytes;
    case Kind::mix:
      return std::min_element(mix.begin(), mix.end(),
                              [](auto& a, auto& b) { return a.bytes < b.bytes; })
          ->bytes;
  }
  return fixed_bytes;
}

std::int64_t FrameSizeSpec::largest() const {
  switch (kind) {
    case Kind::fixed:
      return fixed_bytes;
    case Kind::uniform:
      return max_bytes;
    case Kind::mix:
      return std::max_element(mix.begin(), mix.end(),
                              [](auto& a, auto& b) { return a.bytes < b.bytes; })
          ->bytes;
  }
  return fixed_bytes;
}

std::string FrameSizeSpec::describe() const {
  std::ostringstream s;
  switch (kind) {
    case Kind::fixed:
      s << fixed_bytes;
      break;
    case Kind::uniform:
      s << "uniform " << min_bytes << ".." << max_bytes;
      break;
    case Kind::mix:
      s << "mix";
      for (const auto& c : mix) s << " " << c.bytes << ":" << c.weight;
      break;
  }
  return s.str();
}

}  // namespace gbesim
