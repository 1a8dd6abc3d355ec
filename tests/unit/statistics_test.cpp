#include "analysis/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/support/progress.hpp"

namespace gbesim {
namespace {

TEST(Statistics, StudentTQuantilesMatchPublishedTables) {
  // Two-sided 95% critical values, e.g. NIST/SEMATECH e-Handbook Table 1.4.3.
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.776, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 9), 2.262, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.042, 1e-3);
}

TEST(Statistics, ConfidenceIntervalOfAHandWorkedSample) {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7) = 2.13809; t(0.975, 7) = 2.36462;
  // half-width = 2.36462 * 2.13809 / sqrt(8) = 1.78749.
  const auto s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, 2.13809, 1e-5);
  EXPECT_NEAR(s.ci95_half_width, 1.78749, 1e-4);
}

TEST(Statistics, OneSampleHasNoInterval) {
  const auto s = summarize({3.5});
  EXPECT_EQ(s.mean, 3.5);
  EXPECT_TRUE(std::isnan(s.ci95_half_width));
}

TEST(Statistics, MedianOfOddAndEvenSamples) {
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// A sweep's time left, from its pace: 4 runs ended in 30 s, 6 to go -> 45 s; 10 runs in 100 s,
// 50 to go -> 500 s = 8m20s; nothing before the first run ends, nothing when none is left.
TEST(Progress, TimeLeftFollowsThePaceSoFar) {
  EXPECT_EQ(time_left_text(30.0, 4, 6), ", about 45s left");
  EXPECT_EQ(time_left_text(100.0, 10, 50), ", about 8m20s left");
  EXPECT_EQ(time_left_text(7200.0, 1, 2), ", about 4h00m left");
  EXPECT_EQ(time_left_text(5.0, 0, 6), "");
  EXPECT_EQ(time_left_text(5.0, 3, 0), "");
}

}  // namespace
}  // namespace gbesim
