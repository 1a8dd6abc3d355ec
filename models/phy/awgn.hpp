#pragma once
// The 1000BASE-T symbols over an additive white Gaussian noise channel, by Monte Carlo: uncoded
// PAM-5 symbol errors per dimension (against the closed form 2 (1 - 1/5) Q(1 / 2 sigma)), uncoded
// 4D symbol errors, and the trellis-coded stream's byte errors after Viterbi decoding. Each noise
// level draws from random streams of its own (seed and sigma), so levels can be run in any order
// or at once. Pure C++: no SystemC.

#include <cstdint>

namespace gbesim::phy {

struct AwgnPoint {
  double sigma = 0;
  double snr_db = 0;  // mean coded symbol energy per dimension over sigma^2
  double uncoded_ser = 0;
  double uncoded_ser_closed_form = 0;
  double uncoded_4d_error_rate = 0;
  double coded_byte_error_rate = 0;
  double coded_ci95 = 0;      // half-width of the byte error rate's 95 % interval
  double decode_seconds = 0;  // wall time of the Viterbi decoding (a speed, not a result)
};

// `symbols` 4D symbols at noise `sigma` per dimension.
AwgnPoint simulate_awgn(double sigma, std::int64_t symbols, std::uint64_t seed);

}  // namespace gbesim::phy
