#pragma once
// Independent bit errors at a fixed bit-error rate: each bit of DA..FCS flips with probability
// ber, independently. The gap to the next error is drawn from the geometric distribution, so the
// cost is one draw per error, not per bit. Preamble/SFD bits are not exposed (an error there
// would cost synchronisation, which is the PHY's business). The error process runs on across
// frames: the error-free bits left at the end of one frame carry into the next.
// Does not model: error bursts (a real PHY's errors cluster: DFE error propagation, Viterbi error
// events), errors in the preamble, inter-frame gap or carrier extension, bits lost or gained (a
// frame keeps its length), or errors on half-duplex domains (only full-duplex links use it).

#include <cstdint>

#include "models/common/frame.hpp"
#include "models/common/rng.hpp"

namespace gbesim {

class BitErrorInjector {
 public:
  BitErrorInjector(double ber, RngStream rng);

  // Flips bits of frame.bytes in place; returns how many.
  std::uint64_t corrupt(Frame& frame);
  double ber() const { return ber_; }

 private:
  std::uint64_t draw_gap();  // error-free bits before the next error

  double ber_;
  double log_keep_;  // log(1 - ber)
  RngStream rng_;
  std::uint64_t gap_ = 0;  // error-free bits still to pass before the next error
};

}  // namespace gbesim
