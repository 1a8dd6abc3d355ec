#include "analysis/line_rate.hpp"

#include <gtest/gtest.h>

namespace gbesim {
namespace {

// Figures from docs/references.md, Validation 1 (IEEE 802.3 line rates).
TEST(LineRate, ClosedFormsMatchThePublishedFrameRates) {
  EXPECT_NEAR(line_rate_frames_per_second(10, 64), 14880.95, 0.01);
  EXPECT_NEAR(line_rate_frames_per_second(10, 1518), 812.74, 0.01);
  EXPECT_NEAR(line_rate_frames_per_second(100, 64), 148809.5, 0.1);
  EXPECT_NEAR(line_rate_frames_per_second(100, 1518), 8127.4, 0.1);
  EXPECT_NEAR(line_rate_frames_per_second(1000, 64), 1488095, 1);
  EXPECT_NEAR(line_rate_frames_per_second(1000, 1518), 81274, 1);
}

TEST(LineRate, PayloadRatesMatchThePublishedFigures) {
  EXPECT_NEAR(payload_rate_bps(1000, 64) / 1e6, 547.6, 0.05);
  EXPECT_NEAR(payload_rate_bps(1000, 1518) / 1e6, 975.3, 0.05);
}

TEST(LineRate, CompletedFramesCountIsExact) {
  // 64-byte frames at 1 Gb/s: frame k ends at 672k + 576 ns; by 1 s, k = 0..1 488 094.
  EXPECT_EQ(frames_completed_by(1000, 64, 1'000'000'000'000), 1488095);
  EXPECT_EQ(frames_completed_by(1000, 64, 576'000), 0);  // the run ends as the last bit leaves
  EXPECT_EQ(frames_completed_by(1000, 64, 576'001), 1);
  EXPECT_EQ(frames_completed_by(1000, 64, 1'248'001), 2);
}

}  // namespace
}  // namespace gbesim
