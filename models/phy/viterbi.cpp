#include "models/phy/viterbi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gbesim::phy {

namespace {

struct Branch {
  double metric;
  std::uint16_t word;  // Sd[8:0] of the nearest code point of the subset
};

// The nearest code point of every subset to r.
std::array<Branch, 8> branches(const Sample& r) {
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

}  // namespace

std::vector<std::uint16_t> viterbi_decode(const std::vector<Sample>& received, int start_state) {
  const double inf = std::numeric_limits<double>::infinity();
  std::array<double, 8> metric;
  metric.fill(inf);
  metric[start_state & 7] = 0;
  struct Survivor {
    std::int8_t from = -1;
    std::uint16_t word = 0;
  };
  std::vector<std::array<Survivor, 8>> trace(received.size());
  for (std::size_t n = 0; n < received.size(); ++n) {
    const auto b = branches(received[n]);
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
