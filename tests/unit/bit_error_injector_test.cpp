#include "models/medium/bit_error_injector.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gbesim {
namespace {

Frame frame_of(std::size_t size) {
  Frame f;
  f.bytes.assign(size, 0);
  return f;
}

TEST(BitErrorInjector, ZeroRateNeverFlips) {
  BitErrorInjector inj(0.0, RngStream(1, "x"));
  Frame f = frame_of(1518);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(inj.corrupt(f), 0u);
}

TEST(BitErrorInjector, RateOneFlipsEveryBit) {
  BitErrorInjector inj(1.0, RngStream(1, "x"));
  Frame f = frame_of(64);
  EXPECT_EQ(inj.corrupt(f), 512u);
  for (auto b : f.bytes) EXPECT_EQ(b, 0xFF);
}

TEST(BitErrorInjector, ErrorCountMatchesTheBinomialMean) {
  // 10 000 frames of 1518 bytes at BER 1e-5: mean 1214.4 errors, sd ~34.8; allow 5 sd.
  const double ber = 1e-5;
  BitErrorInjector inj(ber, RngStream(2, "ber"));
  Frame f = frame_of(1518);
  std::uint64_t flips = 0;
  std::uint64_t hit_frames = 0;
  for (int i = 0; i < 10000; ++i) {
    const auto n = inj.corrupt(f);
    flips += n;
    hit_frames += n > 0;
  }
  const double bits = 10000.0 * 1518 * 8;
  EXPECT_NEAR(static_cast<double>(flips), bits * ber, 5 * std::sqrt(bits * ber));
  // Frame error rate 1 - (1 - p)^12144 = 0.1143; sd over 10 000 frames ~0.0032.
  const double fer = 1 - std::pow(1 - ber, 1518 * 8);
  EXPECT_NEAR(hit_frames / 10000.0, fer, 5 * std::sqrt(fer * (1 - fer) / 10000));
}

TEST(BitErrorInjector, SameSeedSameErrors) {
  BitErrorInjector a(1e-3, RngStream(3, "p"));
  BitErrorInjector b(1e-3, RngStream(3, "p"));
  for (int i = 0; i < 200; ++i) {
    Frame fa = frame_of(200);
    Frame fb = frame_of(200);
    ASSERT_EQ(a.corrupt(fa), b.corrupt(fb));
    ASSERT_EQ(fa.bytes, fb.bytes);
  }
}

}  // namespace
}  // namespace gbesim
