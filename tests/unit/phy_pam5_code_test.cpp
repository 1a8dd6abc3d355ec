// The 4D-PAM5 trellis code: the subset partition's distances, the 9-bit word <-> quartet map,
// and the code's free distance, which sets the asymptotic coding gain over uncoded PAM-5.

#include "models/phy/pam5_code.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <queue>
#include <set>

namespace gbesim::phy {
namespace {

// Squared distances of the partition: within a subset 4, between two of one family 2, across
// families 1 (= uncoded PAM-5's minimum: adjacent levels).
TEST(Pam5Code, SubsetDistances) {
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      const int expected = a == b ? 4 : (a % 2 == b % 2) ? 2 : 1;
      EXPECT_EQ(subset_distance2(a, b), expected) << a << " " << b;
    }
}

// All 512 words map to distinct quartets in the subset Sd[8:6] names, and back.
TEST(Pam5Code, WordsMapToDistinctQuartetsAndBack) {
  std::set<Quartet> seen;
  for (int sd = 0; sd < 512; ++sd) {
    const Quartet q = map_word(static_cast<std::uint16_t>(sd));
    EXPECT_EQ(subset_of(q), ((sd >> 6) & 3) << 1 | ((sd >> 8) & 1)) << sd;
    EXPECT_TRUE(seen.insert(q).second) << sd;
    EXPECT_EQ(unmap_quartet(q), sd);
    for (auto v : q) {
      EXPECT_GE(v, -2);
      EXPECT_LE(v, 2);
    }
  }
  // A level outside the alphabet is no word.
  EXPECT_EQ(unmap_quartet({3, 0, 0, 0}), -1);
}

// The free distance: two encoder paths leave a state by different Sd[7:6] (two subsets of the
// family the state allows: >= 2 apart) and must meet again; the least total squared distance over
// all such path pairs (Dijkstra over state pairs), or 4 for two points of one subset (parallel
// transitions). 4 against uncoded PAM-5's 1: 10 log10(4) = 6.02 dB asymptotic gain.
TEST(Pam5Code, FreeDistanceIsFourForSixDecibels) {
  using Item = std::pair<int, int>;  // (distance, a * 8 + b)
  int best = 4;                      // parallel transitions
  for (int start = 0; start < 8; ++start) {
    std::array<int, 64> dist;
    dist.fill(1 << 30);
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    const int p = TrellisEncoder::parity_bit(start);
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y) {
        if (x == y) continue;
        const int d = subset_distance2(x << 1 | p, y << 1 | p);
        const int a = TrellisEncoder::next_state(start, x);
        const int b = TrellisEncoder::next_state(start, y);
        ASSERT_NE(a, b);  // no merge after one step
        if (d < dist[a * 8 + b]) {
          dist[a * 8 + b] = d;
          open.push({d, a * 8 + b});
        }
      }
    while (!open.empty()) {
      const auto [d, ab] = open.top();
      open.pop();
      if (d > dist[ab]) continue;
      const int a = ab / 8;
      const int b = ab % 8;
      if (a == b) {
        best = std::min(best, d);
        continue;
      }
      for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 4; ++y) {
          const int ja = x << 1 | TrellisEncoder::parity_bit(a);
          const int jb = y << 1 | TrellisEncoder::parity_bit(b);
          const int step = ja == jb ? 0 : subset_distance2(ja, jb);
          const int na = TrellisEncoder::next_state(a, x);
          const int nb = TrellisEncoder::next_state(b, y);
          if (d + step < dist[na * 8 + nb]) {
            dist[na * 8 + nb] = d + step;
            open.push({d + step, na * 8 + nb});
          }
        }
    }
  }
  EXPECT_EQ(best, 4);
}

// Encoding random bytes and reading the words back gives the bytes, and Sd[8] is the parity the
// state announced.
TEST(Pam5Code, EncoderRoundTrip) {
  TrellisEncoder e;
  std::uint32_t x = 12345;
  for (int i = 0; i < 10'000; ++i) {
    x = x * 1664525U + 1013904223U;
    const auto byte = static_cast<std::uint8_t>(x >> 24);
    const int parity = TrellisEncoder::parity_bit(e.state());
    const std::uint16_t sd = e.encode(byte);
    EXPECT_EQ(sd >> 8, parity);
    const int back = unmap_quartet(map_word(sd));
    ASSERT_EQ(back & 0xFF, byte);
    ASSERT_EQ(back >> 8, parity);
  }
}

}  // namespace
}  // namespace gbesim::phy
