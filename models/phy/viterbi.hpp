#pragma once
// Maximum-likelihood decoding of the 4D-PAM5 trellis code (models/phy/pam5_code): a Viterbi
// decoder over the 8-state trellis. For each received 4D sample and each of the 8 subsets it finds
// the nearest code point of that subset (exhaustively over the subset's 64 points; squared
// Euclidean distance is the branch metric), then keeps one survivor per state. A block starts in
// a given state (or any, start_state -1) and ends in whichever state is best. Pure logic; used
// by the link-level model and its tests.
// Exact ML over the whole block (double metrics). Does not model: a real decoder's finite
// traceback depth or fixed-point metrics, or the decision-feedback sequence estimation many real
// receivers fold into it (ISI is removed before, by the link model's equaliser); it decodes the
// 512 data words only, not SSD/ESD or idle.

#include <array>
#include <cstdint>
#include <vector>

#include "models/phy/pam5_code.hpp"

namespace gbesim::phy {

using Sample = std::array<double, 4>;

struct Branch {
  double metric;       // squared distance from the sample
  std::uint16_t word;  // Sd[8:0] of the nearest code point of the subset
};

// The nearest code point of each of the 8 subsets to a sample: from per-coordinate level
// distances (fast), and by trying every word (the reference the tests compare with).
std::array<Branch, 8> branch_metrics(const Sample& r);
std::array<Branch, 8> branch_metrics_exhaustive(const Sample& r);

// The 9-bit words of the most likely path through the trellis from `start_state` (-1: any).
std::vector<std::uint16_t> viterbi_decode(const std::vector<Sample>& received, int start_state = 0);

// The same decoder fed one sample at a time, for streams too long to keep. A word is handed out
// as soon as it is final: once every surviving path passes through one state at some time, no
// later sample can change the decisions before it (the paths behind that state are fixed). So
// the words are exactly viterbi_decode's over the whole stream, and the memory is the survivors
// since the last such merge (tens of symbols unless the noise is extreme).
class ViterbiStream {
 public:
  explicit ViterbiStream(int start_state = 0);
  void push(const Sample& received);
  // Room for this many samples not yet decided (a whole block's, when it is decoded at once).
  void reserve(std::size_t samples) { trace_.reserve(samples); }
  // The words decided so far and not yet taken, in order; the first is for sample `taken()`.
  std::vector<std::uint16_t> take_decided();
  // Ends the stream: the remaining words, from the best final state.
  std::vector<std::uint16_t> finish();
  std::int64_t taken() const { return taken_; }

 private:
  struct Survivor {
    std::int8_t from = -1;
    std::uint16_t word = 0;
  };
  // Traces back from `state` after sample `until` (exclusive) to taken_, words in order.
  std::vector<std::uint16_t> trace_back(std::int64_t until, int state) const;
  std::array<double, 8> metric_;
  std::vector<std::array<Survivor, 8>> trace_;  // samples taken_ .. taken_ + size
  std::int64_t taken_ = 0;
};

// Symbol-by-symbol decisions without the code: each coordinate to the nearest PAM-5 level.
Quartet slice_uncoded(const Sample& r);

}  // namespace gbesim::phy
