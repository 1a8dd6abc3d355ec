#pragma once
// A log-linear histogram of non-negative integers (HDR-histogram layout): values below 1024 are
// kept exactly, larger ones in buckets no wider than 1/512 of their value. Count, sum, min and
// max are exact; quantiles are exact to within that bucket width and never outside [min, max].
//
// Memory follows the buckets the values touch, not the number of samples nor the largest value.
// Buckets are a sorted list of (bucket, count) cells, 8 bytes each, and a value in the bucket last
// hit costs one compare. Once more than kMaxCells buckets are in use the histogram turns dense
// where the values are: a range of 64 neighbouring buckets (an eighth of an octave) holding at
// least kBlockCells cells becomes a 512-byte block, counted by index; a range hit more rarely --
// the tail that a long run keeps reaching into a little further -- stays cells. So a bucket costs
// at most 32 bytes however long the run, instead of a 512-byte block for every range a single
// value fell in. The forms hold the same counts, so every result is the same whichever holds a
// bucket.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace gbesim {

class Histogram {
 public:
  static constexpr int kSubBucketBits = 10;
  // Distinct buckets kept as cells before the histogram turns dense (2 KiB of cells).
  static constexpr std::size_t kMaxCells = 256;
  // Once dense: the cells in one 64-bucket range that make it a block.
  static constexpr std::size_t kBlockCells = 16;

  void record(std::int64_t value) {
    if (value < 0) value = 0;
    const std::size_t i = index_of(value);
    if (last_ < cells_.size() && cells_[last_].bucket == i && cells_[last_].count < kMaxCount) {
      ++cells_[last_].count;
    } else {
      record_in_bucket(i);
    }
    if (count_ == 0 || value < min_) min_ = value;
    if (count_ == 0 || value > max_) max_ = value;
    ++count_;
    sum_ += value;
  }
  // Forgets every value (a statistics restart).
  void clear() { *this = Histogram{}; }

  std::uint64_t count() const { return count_; }
  std::int64_t min() const { return count_ ? min_ : 0; }
  std::int64_t max() const { return count_ ? max_ : 0; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  // Nearest-rank quantile, q in [0, 1]: the smallest recorded value v with at least q * count
  // samples <= v, to bucket resolution.
  std::int64_t quantile(double q) const;
  // True once the values have touched more than kMaxCells buckets (for tests).
  bool dense() const { return dense_; }
  // Bytes held for the buckets: cells and blocks, as allocated (for tests).
  std::size_t bucket_bytes() const;

 private:
  static std::size_t index_of(std::int64_t value) {
    if (value < kExact) return static_cast<std::size_t>(value);
    const int msb = 63 - __builtin_clzll(static_cast<unsigned long long>(value));
    const int shift = msb - (kSubBucketBits - 1);  // >= 1
    const std::int64_t mantissa = value >> shift;  // in [512, 1024)
    return static_cast<std::size_t>(kExact + (shift - 1) * kHalf + (mantissa - kHalf));
  }
  static std::int64_t lowest_in(std::size_t index);
  static std::int64_t highest_in(std::size_t index);
  // The value a quantile reports for bucket i: its middle, within [min, max].
  std::int64_t reported(std::size_t i) const;
  // Counts one value in bucket i: the slow path of record (a cell not last hit, or dense).
  void record_in_bucket(std::size_t i);
  // Moves the cells of block b's range into a new block.
  void make_block(std::size_t b);
  void make_dense();

  static constexpr std::int64_t kExact = std::int64_t{1} << kSubBucketBits;  // 1024
  static constexpr std::int64_t kHalf = kExact / 2;                          // 512
  static constexpr std::uint32_t kMaxCount = 0xFFFFFFFF;  // a cell's count; then dense

  struct Cell {
    std::uint32_t bucket;
    std::uint32_t count;
  };
  std::vector<Cell> cells_;  // buckets not in a block, sorted
  std::size_t last_ = 0;     // the cell last hit
  bool dense_ = false;

  static constexpr std::size_t kBlock = 64;  // buckets per block: an eighth of an octave
  using Block = std::array<std::uint64_t, kBlock>;
  std::vector<std::unique_ptr<Block>> blocks_;  // null: that range's buckets are cells
  std::uint64_t count_ = 0;
  __extension__ __int128 sum_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace gbesim
