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

ViterbiStream::ViterbiStream(int start_state) {
  const double inf = std::numeric_limits<double>::infinity();
  metric_.fill(inf);
  if (start_state < 0)
    metric_.fill(0);  // unknown: any state
  else
    metric_[start_state & 7] = 0;
}

void ViterbiStream::push(const Sample& received) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto b = branch_metrics(received);
  std::array<double, 8> next;
  next.fill(inf);
  std::array<Survivor, 8>& step = trace_.emplace_back();
  for (int s = 0; s < 8; ++s) {
    if (metric_[s] == inf) continue;
    const int parity = TrellisEncoder::parity_bit(s);
    for (int x = 0; x < 4; ++x) {
      const int subset = x << 1 | parity;
      const int t = TrellisEncoder::next_state(s, x);
      const double m = metric_[s] + b[subset].metric;
      if (m < next[t]) {
        next[t] = m;
        step[t] = {static_cast<std::int8_t>(s), b[subset].word};
      }
    }
  }
  metric_ = next;
}

std::vector<std::uint16_t> ViterbiStream::trace_back(std::int64_t until, int state) const {
  std::vector<std::uint16_t> words(static_cast<std::size_t>(until - taken_));
  for (auto n = static_cast<std::size_t>(until - taken_); n-- > 0;) {
    words[n] = trace_[n][static_cast<std::size_t>(state)].word;
    state = trace_[n][static_cast<std::size_t>(state)].from;
  }
  return words;
}

std::vector<std::uint16_t> ViterbiStream::take_decided() {
  // Follow every live state's survivor back until they all meet in one state: the words before
  // that meeting are decided.
  const double inf = std::numeric_limits<double>::infinity();
  unsigned live = 0;  // bit s: some path is in state s at the time reached
  for (int s = 0; s < 8; ++s)
    if (metric_[static_cast<std::size_t>(s)] != inf) live |= 1u << s;
  for (auto n = trace_.size(); n-- > 0;) {
    // `live` holds the states after sample taken_ + n.
    if ((live & (live - 1)) == 0) {
      int state = 0;
      while ((live >> state & 1) == 0) ++state;
      const std::int64_t until = taken_ + static_cast<std::int64_t>(n) + 1;
      auto words = trace_back(until, state);
      trace_.erase(trace_.begin(), trace_.begin() + static_cast<std::ptrdiff_t>(n) + 1);
      taken_ = until;
      return words;
    }
    unsigned before = 0;
    for (int t = 0; t < 8; ++t)
      if (live >> t & 1) before |= 1u << trace_[n][static_cast<std::size_t>(t)].from;
    live = before;
  }
  return {};
}

std::vector<std::uint16_t> ViterbiStream::finish() {
  const int state =
      static_cast<int>(std::min_element(metric_.begin(), metric_.end()) - metric_.begin());
  auto words = trace_back(taken_ + static_cast<std::int64_t>(trace_.size()), state);
  taken_ += static_cast<std::int64_t>(trace_.size());
  trace_.clear();
  return words;
}

std::vector<std::uint16_t> viterbi_decode(const std::vector<Sample>& received, int start_state) {
  ViterbiStream decoder(start_state);
  decoder.reserve(received.size());
  for (const Sample& r : received) decoder.push(r);
  return decoder.finish();
}

Quartet slice_uncoded(const Sample& r) {
  Quartet q{};
  for (int i = 0; i < 4; ++i)
    q[i] = static_cast<std::int8_t>(std::clamp(std::lround(r[i]), -2L, 2L));
  return q;
}

}  // namespace gbesim::phy
