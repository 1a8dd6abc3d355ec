// Viterbi decoding of the 4D-PAM5 trellis code, and AWGN error rates against closed forms:
// uncoded PAM-5 symbol errors 2(1 - 1/5) Q(d / 2 sigma) (docs/references.md, Validation 5), and
// the code's gain at a 1e-3 error rate between 4 dB and its asymptotic 6.02 dB.

#include "models/phy/viterbi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/common/rng.hpp"

namespace gbesim::phy {
namespace {

struct Gauss {
  explicit Gauss(const char* name) : rng(7, name) {}
  double operator()() { return rng.normal(); }
  RngStream rng;
};

std::vector<std::uint8_t> random_bytes(std::size_t n, const char* name) {
  RngStream r(3, name);
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(r.uniform_below(256));
  return b;
}

std::vector<Sample> transmit(const std::vector<std::uint8_t>& bytes, double sigma, Gauss& g) {
  TrellisEncoder e;
  std::vector<Sample> out;
  for (auto byte : bytes) {
    const Quartet q = map_word(e.encode(byte));
    Sample s;
    for (int i = 0; i < 4; ++i) s[i] = q[i] + sigma * g();
    out.push_back(s);
  }
  return out;
}

double q_function(double x) {
  return 0.5 * std::erfc(x / std::sqrt(2.0));
}

// The fast branch metrics equal the exhaustive search's on 20,000 noisy samples.
TEST(Viterbi, FastBranchMetricsMatchTheExhaustiveSearch) {
  Gauss g("branches");
  for (int i = 0; i < 20'000; ++i) {
    const Sample s{2.5 * g(), 2.5 * g(), 2.5 * g(), 2.5 * g()};
    const auto fast = branch_metrics(s);
    const auto slow = branch_metrics_exhaustive(s);
    for (int k = 0; k < 8; ++k) {
      ASSERT_DOUBLE_EQ(fast[k].metric, slow[k].metric) << i << " " << k;
      ASSERT_EQ(fast[k].word, slow[k].word) << i << " " << k;
    }
  }
}

TEST(Viterbi, NoiselessBlocksDecodeExactly) {
  Gauss g("noiseless");
  const auto bytes = random_bytes(2000, "noiseless");
  const auto words = viterbi_decode(transmit(bytes, 0.0, g));
  for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(words[i] & 0xFF, bytes[i]) << i;
}

// A block decoded from an unknown state (as the link-level Monte Carlo does for its second half)
// agrees with the whole block's decoding once 96 symbols have passed, at an error rate where
// errors are common (sigma 0.25: about one octet in 100 wrong).
TEST(Viterbi, UnknownStartStateAgreesAfterTheOverlap) {
  Gauss g("unknown-start");
  const auto bytes = random_bytes(20'000, "unknown-start");
  const auto rx = transmit(bytes, 0.25, g);
  const auto whole = viterbi_decode(rx);
  const std::vector<Sample> tail(rx.begin() + 10'000, rx.end());
  const auto part = viterbi_decode(tail, -1);
  int differ = 0;
  int wrong = 0;
  for (std::size_t i = 96; i < tail.size(); ++i) {
    differ += part[i] != whole[10'000 + i];
    wrong += (whole[10'000 + i] & 0xFF) != bytes[10'000 + i];
  }
  EXPECT_GT(wrong, 30);
  EXPECT_EQ(differ, 0);
}

// An independent whole-block decoder for the stream's differential test: every survivor kept,
// traced back from the best final state, written out plainly.
std::vector<std::uint16_t> reference_decode(const std::vector<Sample>& rx, int start_state) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> metric(8, start_state < 0 ? 0.0 : inf);
  if (start_state >= 0) metric[static_cast<std::size_t>(start_state)] = 0;
  std::vector<std::vector<int>> from(rx.size(), std::vector<int>(8, -1));
  std::vector<std::vector<std::uint16_t>> word(rx.size(), std::vector<std::uint16_t>(8, 0));
  for (std::size_t n = 0; n < rx.size(); ++n) {
    const auto b = branch_metrics_exhaustive(rx[n]);
    std::vector<double> next(8, inf);
    for (int s = 0; s < 8; ++s)
      for (int x = 0; x < 4; ++x) {
        const int t = TrellisEncoder::next_state(s, x);
        const Branch& br = b[static_cast<std::size_t>(x << 1 | TrellisEncoder::parity_bit(s))];
        if (metric[static_cast<std::size_t>(s)] + br.metric < next[static_cast<std::size_t>(t)]) {
          next[static_cast<std::size_t>(t)] = metric[static_cast<std::size_t>(s)] + br.metric;
          from[n][static_cast<std::size_t>(t)] = s;
          word[n][static_cast<std::size_t>(t)] = br.word;
        }
      }
    metric = next;
  }
  int state = static_cast<int>(std::min_element(metric.begin(), metric.end()) - metric.begin());
  std::vector<std::uint16_t> out(rx.size());
  for (std::size_t n = rx.size(); n-- > 0;) {
    out[n] = word[n][static_cast<std::size_t>(state)];
    state = from[n][static_cast<std::size_t>(state)];
  }
  return out;
}

// The stream hands out words as soon as all survivors merge; they are exactly the whole block's
// decisions (the independent decoder above), from a known and an unknown start, at noise where
// one octet in 100 (sigma 0.25) or most (0.45) are wrong; and what it holds stays short.
TEST(Viterbi, TheStreamDecidesExactlyWhatTheWholeBlockDecides) {
  for (const double sigma : {0.25, 0.45})
    for (const int start : {0, -1}) {
      Gauss g("stream");
      const auto bytes = random_bytes(30'000, "stream");
      const auto rx = transmit(bytes, sigma, g);
      const auto reference = reference_decode(rx, start);
      EXPECT_EQ(viterbi_decode(rx, start), reference) << sigma << " " << start;
      ViterbiStream stream(start);
      std::vector<std::uint16_t> words;
      std::int64_t longest_held = 0;
      for (std::size_t n = 0; n < rx.size(); ++n) {
        stream.push(rx[n]);
        if (n % 37 == 0) {
          ASSERT_EQ(stream.taken(), static_cast<std::int64_t>(words.size()));
          const auto decided = stream.take_decided();
          words.insert(words.end(), decided.begin(), decided.end());
          longest_held = std::max(longest_held, static_cast<std::int64_t>(n + 1) - stream.taken());
        }
      }
      const auto rest = stream.finish();
      words.insert(words.end(), rest.begin(), rest.end());
      EXPECT_EQ(words, reference) << sigma << " " << start;
      int wrong = 0;
      for (std::size_t i = 0; i < bytes.size(); ++i) wrong += (reference[i] & 0xFF) != bytes[i];
      EXPECT_GT(wrong, sigma < 0.3 ? 100 : 10'000) << sigma;
      // Survivors merge within a few tens of symbols (28 and 82 here).
      EXPECT_LT(longest_held, sigma < 0.3 ? 100 : 250) << sigma << " " << start;
      EXPECT_GT(longest_held, 5) << sigma << " " << start;  // a merge takes some symbols
    }
}

// One coordinate pushed 0.9 towards its neighbour level: the slicer takes the neighbour, but the
// code's paths are >= 2 apart (squared distance 4), so with 0.81 of squared error the decoder
// still finds the sent one.
TEST(Viterbi, CorrectsAnErrorTheSlicerMakes) {
  Gauss g("one-error");
  const auto bytes = random_bytes(200, "one-error");
  auto rx = transmit(bytes, 0.0, g);
  const double level = rx[100][2];
  rx[100][2] += level > 0 ? -0.9 : 0.9;
  EXPECT_NE(slice_uncoded(rx[100])[2], static_cast<std::int8_t>(level));
  const auto words = viterbi_decode(rx);
  for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(words[i] & 0xFF, bytes[i]) << i;
}

// Uncoded PAM-5, equiprobable levels, level spacing d = 1, sigma = 0.3: the symbol error rate is
// 2 (1 - 1/5) Q(1 / 0.6) = 0.07646; 10^6 symbols estimate it to +-0.00026 (1 sigma).
TEST(Viterbi, UncodedSymbolErrorRateMatchesTheClosedForm) {
  Gauss g("uncoded");
  RngStream levels(5, "levels");
  const double sigma = 0.3;
  const int n = 1'000'000;
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    const int level = static_cast<int>(levels.uniform_below(5)) - 2;
    const Sample s{level + sigma * g(), 0, 0, 0};
    errors += slice_uncoded(s)[0] != level;
  }
  const double p = 2 * (1 - 1.0 / 5) * q_function(1 / (2 * sigma));
  const double measured = static_cast<double>(errors) / n;
  EXPECT_NEAR(measured, p, 3 * std::sqrt(p * (1 - p) / n));
}

// The coding gain at a 1e-3 error rate. Uncoded, a 4D symbol (a byte's worth) is wrong at
// sigma_u = 0.139 about 1e-3 of the time. The coded stream, at 4 dB more noise, loses fewer bytes
// than that; at 6.02 dB more (its asymptotic gain, 10 log10 4) it loses more: the gain at this
// rate lies between, below 6 dB because of the code's many nearest paths.
TEST(Viterbi, CodingGainAtOneInAThousandIsBetweenFourAndSixDecibels) {
  const double sigma_u = 0.139;
  Gauss gu("gain-uncoded");
  RngStream levels(5, "gain-levels");
  const int n = 400'000;
  int uncoded_errors = 0;
  for (int i = 0; i < n; ++i) {
    Quartet sent{};
    Sample s{};
    for (int k = 0; k < 4; ++k) {
      sent[k] = static_cast<std::int8_t>(static_cast<int>(levels.uniform_below(5)) - 2);
      s[k] = sent[k] + sigma_u * gu();
    }
    uncoded_errors += slice_uncoded(s) != sent;
  }
  const double p_uncoded = static_cast<double>(uncoded_errors) / n;
  EXPECT_GT(p_uncoded, 0.5e-3);
  EXPECT_LT(p_uncoded, 2e-3);
  auto coded_byte_errors = [&](double gain_db, const char* name) {
    Gauss g(name);
    const auto bytes = random_bytes(100'000, name);
    const auto words = viterbi_decode(transmit(bytes, sigma_u * std::pow(10, gain_db / 20), g));
    int e = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) e += (words[i] & 0xFF) != bytes[i];
    return static_cast<double>(e) / static_cast<double>(bytes.size());
  };
  EXPECT_LT(coded_byte_errors(4.0, "gain-4db"), p_uncoded);
  EXPECT_GT(coded_byte_errors(10 * std::log10(4.0), "gain-6db"), p_uncoded);
}

}  // namespace
}  // namespace gbesim::phy
