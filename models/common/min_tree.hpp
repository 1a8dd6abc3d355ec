#pragma once
// The least of n values, kept as they change: a complete binary tree over them (leaves from
// index leaves_, each node the least of its two children), so the least is read at once and a
// change walks up only as far as it changes a node.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "models/common/time.hpp"

namespace gbesim {

class MinTree {
 public:
  MinTree() = default;
  // n values, each `initial` (and padding leaves kForeverPs, which no minimum takes).
  MinTree(std::size_t n, Picoseconds initial) {
    while (leaves_ < n) leaves_ *= 2;
    nodes_.assign(2 * leaves_, kForeverPs);
    for (std::size_t i = 0; i < n; ++i) nodes_[leaves_ + i] = initial;
    for (std::size_t i = leaves_; i-- > 1;) nodes_[i] = std::min(nodes_[2 * i], nodes_[2 * i + 1]);
  }
  Picoseconds least() const { return nodes_[1]; }
  Picoseconds at(std::size_t i) const { return nodes_[leaves_ + i]; }
  void set(std::size_t i, Picoseconds value) {
    i += leaves_;
    if (nodes_[i] == value) return;
    nodes_[i] = value;
    // Up to the first node whose minimum stays: the ones above it stay too.
    for (i /= 2; i > 0; i /= 2) {
      const Picoseconds least = std::min(nodes_[2 * i], nodes_[2 * i + 1]);
      if (nodes_[i] == least) break;
      nodes_[i] = least;
    }
  }

 private:
  std::size_t leaves_ = 1;
  std::vector<Picoseconds> nodes_ = {kForeverPs, kForeverPs};
};

}  // namespace gbesim
