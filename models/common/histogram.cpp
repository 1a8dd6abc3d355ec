#include "models/common/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {

std::int64_t Histogram::lowest_in(std::size_t index) {
  const auto i = static_cast<std::int64_t>(index);
  if (i < kExact) return i;
  const std::int64_t shift = (i - kExact) / kHalf + 1;
  const std::int64_t mantissa = (i - kExact) % kHalf + kHalf;
  return mantissa << shift;
}

std::int64_t Histogram::highest_in(std::size_t index) {
  const auto i = static_cast<std::int64_t>(index);
  if (i < kExact) return i;
  const std::int64_t shift = (i - kExact) / kHalf + 1;
  return lowest_in(index) + (std::int64_t{1} << shift) - 1;
}

std::int64_t Histogram::reported(std::size_t i) const {
  const std::int64_t mid = lowest_in(i) + (highest_in(i) - lowest_in(i)) / 2;
  return std::clamp(mid, min_, max_);
}

void Histogram::record_in_bucket(std::size_t i) {
  if (!dense_) {
    const auto at = std::lower_bound(cells_.begin(), cells_.end(), i,
                                     [](const Cell& c, std::size_t b) { return c.bucket < b; });
    if (at != cells_.end() && at->bucket == i) {
      if (at->count < kMaxCount) {
        ++at->count;
        last_ = static_cast<std::size_t>(at - cells_.begin());
        return;
      }
    } else if (cells_.size() < kMaxCells) {
      last_ = static_cast<std::size_t>(cells_.insert(at, Cell{static_cast<std::uint32_t>(i), 1}) -
                                       cells_.begin());
      return;
    }
    make_dense();
  }
  add_dense(i, 1);
}

void Histogram::add_dense(std::size_t i, std::uint64_t n) {
  const std::size_t b = i / kBlock;
  if (b >= blocks_.size()) blocks_.resize(b + 1);
  if (!blocks_[b]) blocks_[b] = std::make_unique<Block>(Block{});
  (*blocks_[b])[i % kBlock] += n;
}

void Histogram::make_dense() {
  for (const Cell& c : cells_) add_dense(c.bucket, c.count);
  std::vector<Cell>().swap(cells_);
  last_ = 0;
  dense_ = true;
}

std::int64_t Histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  std::uint64_t seen = 0;
  for (const Cell& c : cells_) {
    seen += c.count;
    if (seen >= rank) return reported(c.bucket);
  }
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    if (!blocks_[b]) continue;
    for (std::size_t k = 0; k < kBlock; ++k) {
      seen += (*blocks_[b])[k];
      if (seen >= rank) return reported(b * kBlock + k);
    }
  }
  return max_;
}

}  // namespace gbesim
