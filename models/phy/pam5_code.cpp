#include "models/phy/pam5_code.hpp"

#include <algorithm>
#include <vector>

namespace gbesim::phy {

namespace {

// X/Y pattern of a quartet: bit i set when coordinate i is in Y (even level).
int pattern_of(const Quartet& q) {
  int p = 0;
  for (int i = 0; i < 4; ++i)
    if (q[i] % 2 == 0) p |= 1 << i;
  return p;
}

// Subset index of a pattern: the pair {p, ~p}; the even family (even weight) is
// {0000, 0011, 0101, 0110} -> D0, D2, D4, D6, the odd one {0001, 0010, 0100, 1000} -> D1, D3, D5,
// D7.
int subset_of_pattern(int p) {
  static const int kEven[4] = {0b0000, 0b0011, 0b0101, 0b0110};
  static const int kOdd[4] = {0b0001, 0b0010, 0b0100, 0b1000};
  for (int k = 0; k < 4; ++k) {
    if (p == kEven[k] || p == (~kEven[k] & 0xF)) return 2 * k;
    if (p == kOdd[k] || p == (~kOdd[k] & 0xF)) return 2 * k + 1;
  }
  return -1;
}

int energy(const Quartet& q) {
  int e = 0;
  for (auto v : q) e += v * v;
  return e;
}

// For each subset, its 64 code points: least energy first, then lexicographic.
const std::array<std::array<Quartet, 64>, 8>& code_points() {
  static const auto table = [] {
    std::array<std::vector<Quartet>, 8> all;
    for (int a = -2; a <= 2; ++a)
      for (int b = -2; b <= 2; ++b)
        for (int c = -2; c <= 2; ++c)
          for (int d = -2; d <= 2; ++d) {
            const Quartet q{static_cast<std::int8_t>(a), static_cast<std::int8_t>(b),
                            static_cast<std::int8_t>(c), static_cast<std::int8_t>(d)};
            all[subset_of(q)].push_back(q);
          }
    std::array<std::array<Quartet, 64>, 8> t{};
    for (int s = 0; s < 8; ++s) {
      std::stable_sort(all[s].begin(), all[s].end(),
                       [](const Quartet& x, const Quartet& y) { return energy(x) < energy(y); });
      for (int i = 0; i < 64; ++i) t[s][i] = all[s][i];
    }
    return t;
  }();
  return table;
}

}  // namespace

int subset_of(const Quartet& q) {
  return subset_of_pattern(pattern_of(q));
}

int distance2(const Quartet& a, const Quartet& b) {
  int d = 0;
  for (int i = 0; i < 4; ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return d;
}

namespace {

int subset_distance2_search(int a, int b) {
  int best = 1 << 30;
  for (int x = 0; x < 625; ++x) {
    Quartet p{};
    int v = x;
    for (int i = 0; i < 4; ++i, v /= 5) p[i] = static_cast<std::int8_t>(v % 5 - 2);
    if (subset_of(p) != a) continue;
    for (int y = 0; y < 625; ++y) {
      Quartet q{};
      int w = y;
      for (int i = 0; i < 4; ++i, w /= 5) q[i] = static_cast<std::int8_t>(w % 5 - 2);
      if (subset_of(q) != b || x == y) continue;
      best = std::min(best, distance2(p, q));
    }
  }
  return best;
}

}  // namespace

int subset_distance2(int a, int b) {
  static const auto table = [] {
    std::array<std::array<int, 8>, 8> t{};
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) t[i][j] = subset_distance2_search(i, j);
    return t;
  }();
  return table[a & 7][b & 7];
}

Quartet map_word(std::uint16_t sd) {
  const int subset = ((sd >> 6) & 3) << 1 | ((sd >> 8) & 1);
  return code_points()[subset][sd & 63];
}

int unmap_quartet(const Quartet& q) {
  const int subset = subset_of(q);
  if (subset < 0) return -1;
  const auto& points = code_points()[subset];
  for (int i = 0; i < 64; ++i)
    if (points[i] == q) return (subset & 1) << 8 | (subset >> 1) << 6 | i;
  return -1;
}

int TrellisEncoder::next_state(int state, int sd76) {
  const int cs0 = (state >> 2) & 1;                        // cs_n[0] = cs_{n-1}[2]
  const int cs1 = (sd76 & 1) ^ (state & 1);                // Sd[6] ^ cs_{n-1}[0]
  const int cs2 = ((sd76 >> 1) & 1) ^ ((state >> 1) & 1);  // Sd[7] ^ cs_{n-1}[1]
  return cs0 | cs1 << 1 | cs2 << 2;
}

std::uint16_t TrellisEncoder::encode(std::uint8_t bits) {
  const int next = next_state(state_, (bits >> 6) & 3);
  const int sd8 = next & 1;  // Sd_n[8] = cs_n[0]
  state_ = next;
  return static_cast<std::uint16_t>(sd8 << 8 | bits);
}

}  // namespace gbesim::phy
