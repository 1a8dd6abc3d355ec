// The 1000BASE-T side-stream scrambler: its recurrence, its period 2^33 - 1 (proved from the
// implementation's own transition matrix over GF(2), not assumed), and its derived bits.

#include "models/phy/scrambler.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace gbesim::phy {
namespace {

// A 33 x 33 matrix over GF(2): row r is a bit mask of the columns set.
using Matrix = std::array<std::uint64_t, 33>;

Matrix identity() {
  Matrix m{};
  for (int r = 0; r < 33; ++r) m[r] = std::uint64_t{1} << r;
  return m;
}

// (a b)[r] = XOR of b's rows c where a[r] has bit c.
Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix m{};
  for (int r = 0; r < 33; ++r)
    for (int c = 0; c < 33; ++c)
      if ((a[r] >> c) & 1U) m[r] ^= b[c];
  return m;
}

Matrix power(Matrix base, std::uint64_t e) {
  Matrix result = identity();
  while (e > 0) {
    if (e & 1U) result = multiply(result, base);
    base = multiply(base, base);
    e >>= 1;
  }
  return result;
}

// The scrambler's one-step transition, read off the implementation: column c is the state one
// step after the unit state e_c (the map is linear). Row r, bit c = bit r of step(e_c).
Matrix transition(PhyRole role) {
  Matrix t{};
  for (int c = 0; c < 33; ++c) {
    SideStreamScrambler s(role, std::uint64_t{1} << c);
    s.step();
    for (int r = 0; r < 33; ++r)
      if ((s.state() >> r) & 1U) t[r] |= std::uint64_t{1} << c;
  }
  return t;
}

// 2^33 - 1 = 7 x 23 x 89 x 599479. The transition has order exactly 2^33 - 1 iff T^(2^33-1) = I
// and T^((2^33-1)/q) != I for each prime q: then every non-zero state lies on one cycle of that
// length (a primitive feedback polynomial).
TEST(SideStreamScrambler, PeriodIsTwoToTheThirtyThreeMinusOne) {
  const std::uint64_t n = SideStreamScrambler::kPeriod;
  ASSERT_EQ(n, 7ULL * 23 * 89 * 599479);
  for (PhyRole role : {PhyRole::master, PhyRole::slave}) {
    const Matrix t = transition(role);
    EXPECT_EQ(power(t, n), identity());
    for (std::uint64_t q : {7ULL, 23ULL, 89ULL, 599479ULL}) EXPECT_NE(power(t, n / q), identity());
  }
}

// A polynomial that is not primitive fails the same check: the feedback 1 + x^12 + x^33 (tap 11,
// as a mistaken master would have) -- the test can fail.
TEST(SideStreamScrambler, TheOrderCheckRejectsAWrongTap) {
  Matrix t{};
  for (int c = 0; c < 33; ++c) {
    const std::uint64_t s = std::uint64_t{1} << c;
    const std::uint64_t in = ((s >> 11) ^ (s >> 32)) & 1U;
    const std::uint64_t next = ((s << 1) | in) & SideStreamScrambler::kMask;
    for (int r = 0; r < 33; ++r)
      if ((next >> r) & 1U) t[r] |= std::uint64_t{1} << c;
  }
  bool full_order = power(t, SideStreamScrambler::kPeriod) == identity();
  for (std::uint64_t q : {7ULL, 23ULL, 89ULL, 599479ULL})
    full_order = full_order && power(t, SideStreamScrambler::kPeriod / q) != identity();
  EXPECT_FALSE(full_order);
}

// The output sequence obeys s_n = s_{n-13} XOR s_{n-33} (master) and s_{n-20} XOR s_{n-33}
// (slave), checked over 100,000 symbols; master and slave differ.
TEST(SideStreamScrambler, OutputObeysTheFeedbackRecurrence) {
  for (PhyRole role : {PhyRole::master, PhyRole::slave}) {
    const int lag = role == PhyRole::master ? 13 : 20;
    SideStreamScrambler s(role, 0x1'2345'6789ULL);
    std::vector<int> out;
    for (int i = 0; i < 100'000; ++i) out.push_back(s.step());
    for (std::size_t n = 33; n < out.size(); ++n)
      ASSERT_EQ(out[n], out[n - lag] ^ out[n - 33]) << n;
  }
  SideStreamScrambler m(PhyRole::master, 1), sl(PhyRole::slave, 1);
  int differ = 0;
  for (int i = 0; i < 1000; ++i) differ += m.step() != sl.step();
  EXPECT_GT(differ, 300);
}

TEST(SideStreamScrambler, AllZeroSeedIsReplaced) {
  SideStreamScrambler s(PhyRole::master, 0);
  EXPECT_NE(s.state(), 0U);
  for (int i = 0; i < 100; ++i) s.step();
  EXPECT_NE(s.state(), 0U);
}

// Derived bits by hand: with only Scr[9] set, Sy[3] (9,14,19,24) and Sx[1] (7,9,12,14) and
// Sg[1] (4,8,9,13) are 1 and nothing else; with Scr[20], Sx[2], Sx[3] and Sg[3].
TEST(SideStreamScrambler, DerivedBitsByHand) {
  SideStreamScrambler s(PhyRole::master, std::uint64_t{1} << 9);
  ScramblerBits b = s.bits();
  EXPECT_EQ(b.sy, 0b1000);
  EXPECT_EQ(b.sx, 0b0010);
  EXPECT_EQ(b.sg, 0b0010);
  s.set_state(std::uint64_t{1} << 20);
  b = s.bits();
  EXPECT_EQ(b.sy, 0);
  EXPECT_EQ(b.sx, 0b1100);
  EXPECT_EQ(b.sg, 0b1000);
  s.set_state(std::uint64_t{1} << 0);
  EXPECT_EQ(s.bits().sy, 0b0001);
}

}  // namespace
}  // namespace gbesim::phy
