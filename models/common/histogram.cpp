#include "models/common/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {
namespace {
constexpr std::int64_t kExact = std::int64_t{1} << Histogram::kSubBucketBits;  // 1024
constexpr std::int64_t kHalf = kExact / 2;                                     // 512
}  // namespace

std::size_t Histogram::index_of(std::int64_t value) {
  if (value < kExact) return static_cast<std::size_t>(value);
  const int msb = 63 - __builtin_clzll(static_cast<unsigned long long>(value));
  const int shift = msb - (kSubBucketBits - 1);  // >= 1
  const std::int64_t mantissa = value >> shift;  // in [512, 1024)
  return static_cast<std::size_t>(kExact + (shift - 1) * kHalf + (mantissa - kHalf));
}

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

void Histogram::record(std::int64_t value) {
  value = std::max<std::int64_t>(value, 0);
  const std::size_t i = index_of(value);
  const std::size_t b = i / kBlock;
  if (b >= blocks_.size()) blocks_.resize(b + 1);
  if (!blocks_[b]) blocks_[b] = std::make_unique<Block>(Block{});
  ++(*blocks_[b])[i % kBlock];
  if (count_ == 0 || value < min_) min_ = value;
  if (count_ == 0 || value > max_) max_ = value;
  ++count_;
  sum_ += value;
}

std::int64_t Histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    if (!blocks_[b]) continue;
    for (std::size_t k = 0; k < kBlock; ++k) {
      seen += (*blocks_[b])[k];
      if (seen >= rank) {
        const std::size_t i = b * kBlock + k;
        const std::int64_t mid = lowest_in(i) + (highest_in(i) - lowest_in(i)) / 2;
        return std::clamp(mid, min_, max_);
      }
    }
  }
  return max_;
}

}  // namespace gbesim
