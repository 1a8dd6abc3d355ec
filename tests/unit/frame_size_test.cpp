#include "models/host/frame_size.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace gbesim {
namespace {

TEST(FrameSize, FixedAlwaysDrawsItsSize) {
  RngStream rng(1, "s");
  const auto s = FrameSizeSpec::fixed(512);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(s.draw(rng), 512);
  EXPECT_EQ(s.mean_bytes(), 512.0);
}

TEST(FrameSize, WeightedMixDrawsInProportion) {
  // 7:3 bimodal mix; 100 000 draws: the share of 64-byte frames within 5 sd of 0.7.
  RngStream rng(2, "s");
  const auto s = FrameSizeSpec::weighted({{64, 7}, {1518, 3}});
  std::map<std::int64_t, int> counts;
  const int n = 100000;
  for (int i = 0; i < n; ++i) ++counts[s.draw(rng)];
  EXPECT_EQ(counts.size(), 2u);
  EXPECT_NEAR(counts[64] / double(n), 0.7, 5 * std::sqrt(0.21 / n));
  EXPECT_DOUBLE_EQ(s.mean_bytes(), 0.7 * 64 + 0.3 * 1518);
  EXPECT_EQ(s.smallest(), 64);
  EXPECT_EQ(s.largest(), 1518);
}

TEST(FrameSize, UniformCoversItsRangeWithTheRightMean) {
  RngStream rng(3, "s");
  const auto s = FrameSizeSpec::uniform(64, 1518);
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const auto v = s.draw(rng);
    ASSERT_GE(v, 64);
    ASSERT_LE(v, 1518);
    sum += v;
  }
  const double sd = (1518 - 64 + 1) / std::sqrt(12.0);
  EXPECT_NEAR(sum / n, 791.0, 5 * sd / std::sqrt(n));
}

}  // namespace
}  // namespace gbesim
