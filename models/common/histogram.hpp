#pragma once
// A log-linear histogram of non-negative integers (HDR-histogram layout): values below 1024 are
// kept exactly, larger ones in buckets no wider than 1/512 of their value. Count, sum, min and
// max are exact; quantiles are exact to within that bucket width and never outside [min, max].
// Memory grows with the ranges of buckets the values touch (a 512-byte block of 64 neighbouring
// buckets, an eighth of an octave, allocated when first used), not with the number of samples
// nor the largest value: a delay histogram of a few thousand values takes a few KiB.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace gbesim {

class Histogram {
 public:
  static constexpr int kSubBucketBits = 10;

  void record(std::int64_t value);
  // Forgets every value (a statistics restart).
  void clear() { *this = Histogram{}; }

  std::uint64_t count() const { return count_; }
  std::int64_t min() const { return count_ ? min_ : 0; }
  std::int64_t max() const { return count_ ? max_ : 0; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  // Nearest-rank quantile, q in [0, 1]: the smallest recorded value v with at least q * count
  // samples <= v, to bucket resolution.
  std::int64_t quantile(double q) const;

 private:
  static std::size_t index_of(std::int64_t value);
  static std::int64_t lowest_in(std::size_t index);
  static std::int64_t highest_in(std::size_t index);

  static constexpr std::size_t kBlock = 64;  // buckets per block: an eighth of an octave
  using Block = std::array<std::uint64_t, kBlock>;
  std::vector<std::unique_ptr<Block>> blocks_;  // null: no value recorded in that range
  std::uint64_t count_ = 0;
  __extension__ __int128 sum_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace gbesim
