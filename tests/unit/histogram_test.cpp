#include "models/common/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "models/common/rng.hpp"

namespace gbesim {
namespace {

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (int v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.min(), 1);
  EXPECT_EQ(h.max(), 100);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
  EXPECT_EQ(h.quantile(0.5), 50);  // nearest rank: the 50th of 100
  EXPECT_EQ(h.quantile(0.99), 99);
  EXPECT_EQ(h.quantile(1.0), 100);
}

TEST(Histogram, EqualSamplesReportTheirExactValue) {
  Histogram h;
  for (int i = 0; i < 1000; ++i) h.record(1'116'000);  // 1116 ns in ps
  EXPECT_EQ(h.quantile(0.5), 1'116'000);
  EXPECT_EQ(h.quantile(0.99), 1'116'000);
}

TEST(Histogram, LargeValueQuantilesAreWithinOneBucketWidth) {
  RngStream rng(1, "h");
  std::vector<std::int64_t> values;
  Histogram h;
  for (int i = 0; i < 50000; ++i) {
    const auto v = static_cast<std::int64_t>(rng.exponential(5e6));
    values.push_back(v);
    h.record(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.99}) {
    const auto exact = values[static_cast<std::size_t>(std::ceil(q * values.size())) - 1];
    EXPECT_NEAR(static_cast<double>(h.quantile(q)), static_cast<double>(exact), exact / 512.0 + 1)
        << q;
  }
  EXPECT_EQ(h.max(), values.back());
  EXPECT_EQ(h.min(), values.front());
}

// An independent reference: every value's bucket (lowest value, width) from the documented
// layout, counted in an ordered map, and the nearest-rank quantile read off it.
struct ReferenceHistogram {
  std::map<std::int64_t, std::pair<std::int64_t, std::uint64_t>> buckets;  // lowest -> width, n
  std::int64_t lo = 0, hi = 0;
  std::uint64_t n = 0;

  void record(std::int64_t v) {
    std::int64_t lowest = v;
    std::int64_t width = 1;
    if (v >= 1024) {
      int shift = 0;
      while ((v >> shift) >= 1024) ++shift;
      lowest = (v >> shift) << shift;
      width = std::int64_t{1} << shift;
    }
    auto& b = buckets[lowest];
    b.first = width;
    ++b.second;
    lo = n == 0 ? v : std::min(lo, v);
    hi = n == 0 ? v : std::max(hi, v);
    ++n;
  }
  std::int64_t quantile(double q) const {
    const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * n)));
    std::uint64_t seen = 0;
    for (const auto& [lowest, b] : buckets) {
      seen += b.second;
      if (seen >= rank) return std::clamp(lowest + (b.first - 1) / 2, lo, hi);
    }
    return hi;
  }
};

TEST(Histogram, CellsAndBlocksGiveTheSameQuantilesAsAReference) {
  // Values over 30 octaves; the number of distinct buckets decides the form: up to 256 stays
  // cells, more turns dense (the switch happens mid-run, with counts already in the cells).
  for (const int distinct : {1, 7, 255, 256, 257, 3000}) {
    RngStream rng(static_cast<std::uint64_t>(distinct), "cells");
    std::vector<std::int64_t> pool;
    ReferenceHistogram reference;
    Histogram h;
    std::set<std::int64_t> seen_buckets;
    while (static_cast<int>(seen_buckets.size()) < distinct) {
      const auto v = static_cast<std::int64_t>(std::exp(rng.uniform01() * 21.0));  // 1 .. 1.3e9
      ReferenceHistogram r;
      r.record(v);
      if (seen_buckets.insert(r.buckets.begin()->first).second) pool.push_back(v);
    }
    auto record = [&](std::int64_t v) {
      h.record(v);
      reference.record(v);
    };
    // First up to 200 buckets, each hit many times; then the rest, so that a switch to blocks
    // happens with counts already in the cells.
    const std::size_t first = std::min<std::size_t>(pool.size(), 200);
    for (std::size_t k = 0; k < first; ++k) record(pool[k]);
    for (int k = 0; k < 5000; ++k) record(pool[rng.uniform_below(first)]);
    for (std::size_t k = first; k < pool.size(); ++k) record(pool[k]);
    for (int k = 0; k < 15000; ++k) record(pool[rng.uniform_below(pool.size())]);
    EXPECT_EQ(h.dense(), distinct > 256) << distinct;
    EXPECT_EQ(h.count(), reference.n);
    EXPECT_EQ(h.min(), reference.lo);
    EXPECT_EQ(h.max(), reference.hi);
    for (double q : {0.0, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0})
      EXPECT_EQ(h.quantile(q), reference.quantile(q)) << distinct << " buckets, q " << q;
  }
}

TEST(Histogram, TheCellLastHitNeedNotBeTheNewestOne) {
  Histogram h;
  for (int i = 0; i < 10; ++i) {
    h.record(5);
    h.record(3'000'000);
    h.record(700);
  }
  h.record(1);  // a new cell before all the others: the last-hit index moves
  h.record(5);
  EXPECT_FALSE(h.dense());
  EXPECT_EQ(h.count(), 32u);
  EXPECT_EQ(h.quantile(0.0), 1);
  EXPECT_EQ(h.quantile(12.0 / 32), 5);  // 1 + 11 fives
  EXPECT_EQ(h.quantile(13.0 / 32), 700);
  EXPECT_EQ(h.quantile(22.0 / 32), 700);        // 12 + 10
  EXPECT_EQ(h.quantile(23.0 / 32), 3'000'000);  // the one bucket's middle, clamped to max
}

TEST(Histogram, ABucketCostsAtMost32BytesHoweverFarTheValuesSpread) {
  // A body of values hit often and a tail that reaches a new range now and then (what a long
  // run of a busy half-duplex domain records as access delays). A range becomes a 512-byte block
  // only with 16 buckets in use (32 bytes each at most); a tail bucket is an 8-byte cell. With a
  // block for every range a value fell in, the 300 tail values alone would take 150 KiB.
  RngStream rng(5, "tail");
  Histogram h;
  ReferenceHistogram reference;
  auto record = [&](std::int64_t v) {
    h.record(v);
    reference.record(v);
  };
  for (int k = 0; k < 200000; ++k)  // the body: 1..2 us in ps, 512 buckets per octave
    record(1'000'000 + static_cast<std::int64_t>(rng.uniform_below(1'000'000)));
  const std::size_t body_bytes = h.bucket_bytes();
  const std::size_t body_buckets = reference.buckets.size();
  // The tail: 300 values, each in a range of its own -- an eighth of an octave apart (mantissa
  // 544 + 64 j of 512..1023), from 2.2 us up.
  auto tail = [](int k) { return std::int64_t{544 + 64 * (k % 8)} << (12 + k / 8); };
  for (int k = 0; k < 300; ++k) record(tail(k));
  EXPECT_TRUE(h.dense());
  EXPECT_EQ(reference.buckets.size(), body_buckets + 300);
  EXPECT_LE(h.bucket_bytes(), body_bytes + 300 * 2 * sizeof(std::uint64_t));
  EXPECT_LE(h.bucket_bytes(), 32 * reference.buckets.size() + 4096);
  for (double q : {0.0, 0.5, 0.99, 0.999, 0.9995, 1.0})
    EXPECT_EQ(h.quantile(q), reference.quantile(q)) << q;
  // Then more values in the tail's buckets change nothing but counts.
  const std::size_t after_tail = h.bucket_bytes();
  for (int k = 0; k < 300; ++k) record(tail(k));
  EXPECT_EQ(h.bucket_bytes(), after_tail);
  EXPECT_EQ(h.quantile(0.999), reference.quantile(0.999));
}

TEST(Histogram, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile(0.5), 0);
  EXPECT_EQ(h.mean(), 0.0);
}

}  // namespace
}  // namespace gbesim
