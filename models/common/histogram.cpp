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
  const std::size_t b = i / kBlock;
  if (b < blocks_.size() && blocks_[b]) {
    ++(*blocks_[b])[i % kBlock];
    return;
  }
  auto at = std::lower_bound(cells_.begin(), cells_.end(), i,
                             [](const Cell& c, std::size_t k) { return c.bucket < k; });
  if (at != cells_.end() && at->bucket == i) {
    if (at->count < kMaxCount) {
      ++at->count;
      last_ = static_cast<std::size_t>(at - cells_.begin());
      return;
    }
    make_block(b);  // a count past 32 bits: the range becomes a block
    ++(*blocks_[b])[i % kBlock];
    return;
  }
  at = cells_.insert(at, Cell{static_cast<std::uint32_t>(i), 1});
  last_ = static_cast<std::size_t>(at - cells_.begin());
  if (!dense_) {
    if (cells_.size() > kMaxCells) make_dense();
    return;
  }
  // Dense: this range becomes a block once it holds kBlockCells cells.
  const auto first = std::lower_bound(cells_.begin(), at, b * kBlock,
                                      [](const Cell& c, std::size_t k) { return c.bucket < k; });
  const auto last = std::lower_bound(at, cells_.end(), (b + 1) * kBlock,
                                     [](const Cell& c, std::size_t k) { return c.bucket < k; });
  if (static_cast<std::size_t>(last - first) >= kBlockCells) make_block(b);
}

void Histogram::make_block(std::size_t b) {
  if (b >= blocks_.size()) blocks_.resize(b + 1);
  blocks_[b] = std::make_unique<Block>(Block{});
  const auto first = std::lower_bound(cells_.begin(), cells_.end(), b * kBlock,
                                      [](const Cell& c, std::size_t k) { return c.bucket < k; });
  auto last = first;
  for (; last != cells_.end() && last->bucket < (b + 1) * kBlock; ++last)
    (*blocks_[b])[last->bucket % kBlock] = last->count;
  cells_.erase(first, last);
  last_ = 0;
}

void Histogram::make_dense() {
  // Every range already holding kBlockCells cells becomes a block; the rest stay cells.
  dense_ = true;
  std::size_t k = 0;
  while (k < cells_.size()) {
    const std::size_t b = cells_[k].bucket / kBlock;
    std::size_t end = k;
    while (end < cells_.size() && cells_[end].bucket / kBlock == b) ++end;
    if (end - k >= kBlockCells) {
      make_block(b);  // erases those cells: k now indexes the next range
    } else {
      k = end;
    }
  }
}

std::size_t Histogram::bucket_bytes() const {
  std::size_t bytes = cells_.capacity() * sizeof(Cell) + blocks_.capacity() * sizeof(blocks_[0]);
  for (const auto& block : blocks_)
    if (block) bytes += sizeof(Block);
  return bytes;
}

std::int64_t Histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  // Cells and blocks hold disjoint buckets: walk both in bucket order.
  std::uint64_t seen = 0;
  std::size_t c = 0;
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    if (!blocks_[b]) continue;
    for (; c < cells_.size() && cells_[c].bucket < b * kBlock; ++c) {
      seen += cells_[c].count;
      if (seen >= rank) return reported(cells_[c].bucket);
    }
    for (std::size_t k = 0; k < kBlock; ++k) {
      seen += (*blocks_[b])[k];
      if (seen >= rank) return reported(b * kBlock + k);
    }
  }
  for (; c < cells_.size(); ++c) {
    seen += cells_[c].count;
    if (seen >= rank) return reported(cells_[c].bucket);
  }
  return max_;
}

}  // namespace gbesim
