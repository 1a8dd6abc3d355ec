#include "analysis/half_duplex.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gbesim {
namespace {

SingleSenderSetup setup(std::int64_t bytes, bool extension, bool bursting, bool half = true) {
  SingleSenderSetup s;
  s.frame_bytes = bytes;
  s.carrier_extension = extension;
  s.frame_bursting = bursting;
  s.half_duplex = half;
  return s;
}

struct Row {
  std::int64_t bytes;
  double no_extension;
  double extension;
  double bursting;
  std::int64_t frames_per_burst;
};

// docs/references.md, Validation 2 (1000 Mb/s, one saturated sender), to 3 places.
TEST(HalfDuplexAnalysis, MatchesThePublishedSingleSenderTable) {
  const Row rows[] = {{64, 0.762, 0.120, 0.721, 93},
                      {128, 0.865, 0.241, 0.825, 53},
                      {256, 0.928, 0.481, 0.899, 29},
                      {512, 0.962, 0.962, 0.962, 16},
                      {1518, 0.987, 0.987, 0.987, 6}};
  for (const Row& r : rows) {
    EXPECT_NEAR(single_sender_timeline(setup(r.bytes, false, false)).efficiency(r.bytes),
                r.no_extension, 5e-4)
        << r.bytes;
    EXPECT_NEAR(single_sender_timeline(setup(r.bytes, true, false)).efficiency(r.bytes),
                r.extension, 5e-4)
        << r.bytes;
    const auto burst = single_sender_timeline(setup(r.bytes, true, true));
    EXPECT_NEAR(burst.efficiency(r.bytes), r.bursting, 5e-4) << r.bytes;
    EXPECT_EQ(burst.frames_per_period(), r.frames_per_burst) << r.bytes;
  }
}

TEST(HalfDuplexAnalysis, TheWorkedBurstExampleHoldsToTheBitTime) {
  // docs/references.md, Validation 2: 64 bytes with bursting: 93 frames, the burst ends at
  // 65 984 bit times, the next starts at 66 080: 93 * 512 / 66 080 = 0.7206.
  const auto t = single_sender_timeline(setup(64, true, true));
  EXPECT_EQ(t.frame_end_bits.front(), 4160);
  EXPECT_EQ(t.frame_end_bits[1], 4256 + 576);
  EXPECT_EQ(t.frame_end_bits.back(), 65984);
  EXPECT_EQ(t.period_bits, 66080);
  EXPECT_DOUBLE_EQ(t.efficiency(64), 93.0 * 512 / 66080);
}

TEST(HalfDuplexAnalysis, FullDuplexIsTheLineRate) {
  const auto t = single_sender_timeline(setup(64, true, true, false));
  EXPECT_EQ(t.period_bits, 672);
  EXPECT_EQ(single_sender_frames_by(setup(64, true, true, false), 1'000'000'000'000), 1488095);
  // Extension: 4256 bit times per frame: 234 962 frames end within a second.
  EXPECT_EQ(single_sender_frames_by(setup(64, true, false), 1'000'000'000'000), 234962);
}

TEST(HalfDuplexAnalysis, MetcalfeBoggsLimits) {
  // One station: no contention, the single-sender efficiency; many: A -> 1/e, W -> e - 1.
  EXPECT_DOUBLE_EQ(metcalfe_boggs_efficiency(1, 512, 672, 4096), 512.0 / 672);
  const double w_inf = std::exp(1.0) - 1.0;
  EXPECT_NEAR(metcalfe_boggs_efficiency(100000, 12144, 12304, 512), 12144 / (12304 + w_inf * 512),
              1e-4);
  // Two stations: A = 1/2, W = 1.
  EXPECT_DOUBLE_EQ(metcalfe_boggs_efficiency(2, 1000, 1000, 500), 1000.0 / 1500);
}

}  // namespace
}  // namespace gbesim
