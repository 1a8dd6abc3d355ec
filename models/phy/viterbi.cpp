#include "models/phy/viterbi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gbesim::phy {

namespace {

// The code points by subset, as level indices 0..4 (level + 2), with their words: built once.
struct CodeTable {
  std::array<std::array<std::array<std::uint8_t, 4>, 64>, 8> level;
  std::array<std::array<std::uint16_t, 64>, 8> word;
};

const CodeTable& code_table() {
  static const CodeTable t = [] {
    CodeTable c{};
    std::array<int, 8> filled{};
    for (std::uint16_t sd = 0; sd < 512; ++sd) {
      const Quartet q = map_word(sd);
      const int s = subset_of(q);
      for (int i = 0; i < 4; ++i) c.level[s][filled[s]][i] = static_cast<std::uint8_t>(q[i] + 2);
      c.word[s][filled[s]++] = sd;
    }
    return c;
  }();
  return t;
}

}  // namespace

std::array<Branch, 8> branch_metrics(const Sample& r) {
  // Per coordinate, the squared distance to each of the five levels; a point's metric is the sum
  // of its four. Then the least of each subset's 64 points.
  double e[4][5];
  for (int i = 0; i < 4; ++i)
    for (int v = 0; v < 5; ++v) e[i][v] = (r[i] - (v - 2)) * (r[i] - (v - 2));
  const CodeTable& t = code_table();
  std::array<Branch, 8> best;
  for (int s = 0; s < 8; ++s) {
    double m = std::numeric_limits<double>::infinity();
    int k = 0;
    for (int p = 0; p < 64; ++p) {
      const auto& l = t.level[s][p];
      const double d = e[0][l[0]] + e[1][l[1]] + e[2][l[2]] + e[3][l[3]];
      if (d < m) {
        m = d;
        k = p;
      }
    }
    best[s] = {m, t.word[s][k]};
  }
  return best;
}

std::array<Branch, 8> branch_metrics_exhaustive(const Sample& r) {
  std::array<Branch, 8> best;
  for (auto& b : best) b = {std::numeric_limits<double>::infinity(), 0};
  for (std::uint16_t sd = 0; sd < 512; ++sd) {
    const Quartet q = map_word(sd);
    double d = 0;
    for (int i = 0; i < 4; ++i) d += (r[i] - q[i]) * (r[i] - q[i]);
    const int s = subset_of(q);
    if (d < best[s].metric) best[s] = {d, sd};
  }
  return best;
}

std::vector<std::uint16_t> viterbi_decode(const std::vector<Sample>& received, int start_state) {
  const double inf = std::numeric_limits<double>::infinity();
  std::array<double, 8> metric;
  metric.fill(inf);
  if (start_state < 0)
    metric.fill(0);  // unknown: any state
  else
    metric[start_state & 7] = 0;
  struct Survivor {
    std::int8_t from = -1;
    std::uint16_t word = 0;
  };
  std::vector<std::array<Survivor, 8>> trace(received.size());
  for (std::size_t n = 0; n < received.size(); ++n) {
    const auto b = branch_metrics(received[n]);
    std::array<double, 8> next;
    next.fill(inf);
    for (int s = 0; s < 8; ++s) {
      if (metric[s] == inf) continue;
      const int parity = TrellisEncoder::parity_bit(s);
      for (int x = 0; x < 4; ++x) {
        const int subset = x << 1 | parity;
        const int t = TrellisEncoder::next_state(s, x);
        const double m = metric[s] + b[subset].metric;
        if (m < next[t]) {
          next[t] = m;
          trace[n][t] = {static_cast<std::int8_t>(s), b[subset].word};
        }
      }
    }
    metric = next;
  }
  int state = static_cast<int>(std::min_element(metric.begin(), metric.end()) - metric.begin());
  std::vector<std::uint16_t> words(received.size());
  for (std::size_t n = received.size(); n-- > 0;) {
    words[n] = trace[n][state].word;
    state = trace[n][state].from;
  }
  return words;
}

Quartet slice_uncoded(const Sample& r) {
  Quartet q{};
  for (int i = 0; i < 4; ++i)
    q[i] = static_cast<std::int8_t>(std::clamp(std::lround(r[i]), -2L, 2L));
  return q;
}

}  // namespace gbesim::phy
