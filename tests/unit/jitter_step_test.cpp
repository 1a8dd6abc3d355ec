// The sink's RFC 3550 jitter step takes its own path for a subnormal estimate (the FPU's is about
// a hundred times slower): it must give the double arithmetic's result bit for bit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "models/host/sink.hpp"

namespace gbesim {
namespace {

std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double from_bits(std::uint64_t b) {
  double x = 0;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The textbook step, through memory so that the compiler cannot fold or reorder it.
double reference_step(double j, double d) {
  volatile double jj = j;
  volatile double dd = d;
  volatile double step = (dd - jj) / 16.0;
  return jj + step;
}

TEST(JitterStep, EqualsTheDoubleArithmeticForEverySmallSubnormal) {
  for (std::uint64_t m = 0; m < 70'000; ++m) {
    const double j = from_bits(m);
    ASSERT_EQ(bits(jitter_step(j, 0.0)), bits(reference_step(j, 0.0))) << m;
  }
}

TEST(JitterStep, EqualsTheDoubleArithmeticForRandomEstimatesAndChanges) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> subnormal(0, (std::uint64_t{1} << 52) - 1);
  std::uniform_real_distribution<double> exponent(-320.0, 12.0);
  for (int i = 0; i < 200'000; ++i) {
    const double j = (i % 2 == 0) ? from_bits(subnormal(rng)) : std::pow(10.0, exponent(rng));
    const double d = (i % 3 == 0) ? 0.0 : static_cast<double>(rng() % 100'000);
    ASSERT_EQ(bits(jitter_step(j, d)), bits(reference_step(j, d))) << j << " " << d;
  }
}

TEST(JitterStep, AConstantTransitDecaysToTheSameFloorAsTheArithmetic) {
  // From 1 ps, 20,000 steps with no change: through the normal numbers, the subnormals, and to
  // the value where j / 16 rounds to nothing; both paths agree at every step.
  double a = 1.0;
  double b = 1.0;
  bool reached_subnormal = false;
  for (int i = 0; i < 20'000; ++i) {
    a = jitter_step(a, 0.0);
    b = reference_step(b, 0.0);
    ASSERT_EQ(bits(a), bits(b)) << i;
    reached_subnormal |= a > 0 && a < std::numeric_limits<double>::min();
  }
  EXPECT_TRUE(reached_subnormal);
  EXPECT_GT(a, 0.0);  // stuck above zero: 8 x 2^-1074 / 16 rounds to 0
  EXPECT_EQ(bits(jitter_step(a, 0.0)), bits(a));
}

}  // namespace
}  // namespace gbesim
