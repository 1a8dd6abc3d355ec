#include "models/common/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

TEST(Histogram, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile(0.5), 0);
  EXPECT_EQ(h.mean(), 0.0);
}

}  // namespace
}  // namespace gbesim
