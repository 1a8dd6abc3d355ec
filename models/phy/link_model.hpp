#pragma once
// The 1000BASE-T link at the symbol level: one cable (models/phy/cable) between two PHYs, four
// pairs each carrying PAM-5 both ways at 125 MBd, and the receiver that has to dig the far
// transmitter's symbols out of its own echo, the near-end crosstalk of its three other
// transmitters, the far-end crosstalk of the remote ones and background noise.
//
// Modelled: transmit pulse (8 ns hold, optional 0.75 + 0.25 z^-1 shaping), the cable's insertion
// loss as a causal response (the f^p "skin" part carries its own minimum phase, the rest is
// magnitude), return loss at the near end plus the reflection off the far end's hybrid, NEXT and
// ELFEXT at the category's limits (every disturber at the pair-to-pair limit, so the power sum is
// 4.8 dB worse -- conservative), white background noise through a 4th-order Butterworth receive
// filter, and a uniform ADC whose range is a number of standard deviations of its input. All
// responses are built once per cable on a 16x oversampled grid (inverse FFT, Eigen) and sampled
// at the symbol phase that serves the equaliser best. The receiver: echo and NEXT cancellers that
// know their own symbols and remove the response inside their span exactly (what an adapted
// canceller converges to); an MMSE FFE + DFE solved with Eigen; the slicer; the 4D Viterbi
// decoder. All four pairs are alike (each at the limit), so one is analysed.
//
// Not modelled: analog non-linearity, baseline wander (the transformer's high-pass), clock
// recovery and jitter, timing offsets between the two ends, DFE error propagation (the feedback
// uses correct decisions), adaptation noise of LMS, alien crosstalk.

#include <cstdint>
#include <vector>

#include <optional>

#include "models/phy/cable.hpp"

namespace gbesim::phy {

struct PhyLinkParams {
  const CableCategory* cable = nullptr;
  double length_m = 100.0;
  // One-way propagation delay per metre; unset: the media table's row of the category's name
  // (models/medium/media: the figure links and collision domains use).
  std::optional<double> ns_per_m;
  double tx_peak_volts = 0.75;                // level +2: 670..820 mV (40.6.1.2.1)
  bool tx_partial_response = true;            // 0.75 + 0.25 z^-1 (UNCONFIRMED:
                                              // docs/references.md, Standards C.1)
  double background_noise_dbm_per_hz = -140;  // at the receiver input, 100 ohm
  double rx_filter_mhz = 62.5;                // 4th-order Butterworth corner
  int adc_bits = 8;                           // 0: no quantisation
  double adc_range_sigmas = 4.0;              // full scale = +- this many rms of the ADC input
  double far_end_return_loss_db = 20.0;       // the remote hybrid's mismatch
  bool echo_cancellation = true;
  int echo_canceller_taps = 160;
  bool next_cancellation = true;
  int next_canceller_taps = 32;
  int ffe_taps = 16;
  int dfe_taps = 64;
};

// What limits the slicer: each source's power there, in level units squared.
struct NoiseBudget {
  double isi = 0;  // residual intersymbol interference (precursors and beyond the DFE)
  double echo = 0;
  double next = 0;
  double fext = 0;
  double noise = 0;  // background noise through the filter and the FFE
  double adc = 0;    // quantisation
};

struct PhyLinkAnalysis {
  double snr_db = 0;           // unbiased SNR at the slicer (mean coded symbol energy / error)
  double sigma = 0;            // error standard deviation at the slicer, in level units
  double required_snr_db = 0;  // for a coded bit-error rate of 1e-10
  double margin_db = 0;        // snr_db - required_snr_db
  double ber_coded = 0;        // semi-analytic, after the Viterbi decoder
  double octet_error_coded = 0;
  double octet_error_uncoded = 0;  // symbol-by-symbol decisions, no code
  double ber_uncoded = 0;          // octet errors / 8: at least one bit per wrong octet
  double insertion_loss_62mhz_db = 0;
  double propagation_delay_ns = 0;
  int sampling_phase = 0;  // of kOversample per symbol
  int decision_delay = 0;  // symbols
  NoiseBudget budget;
  // The receiver as solved: T-spaced responses at the chosen phase and the equaliser.
  std::vector<double> through;              // far transmitter -> this receiver
  std::vector<double> echo_residual;        // after the echo canceller
  std::vector<double> next_residual;        // one disturber, after its canceller
  std::vector<double> fext;                 // one disturber
  std::vector<double> ffe;                  // ffe[i] multiplies y[k - i]
  std::vector<double> dfe;                  // dfe[j] multiplies x[k - decision_delay - 1 - j]
  std::vector<double> noise_shaping;        // T-spaced filter making white noise the filtered noise
  std::vector<double> through_oversampled;  // for the eye diagram
  double adc_step = 0;                      // quantiser step, level units
  double gain = 1;                          // 1 / (1 - MSE / Es): the unbiasing scale
};

inline constexpr int kOversample = 16;
// The Gaussian tail probability Q(x).
double q_function(double x);
// Mean energy per dimension of the coded constellation (all 512 words equally likely).
double coded_symbol_energy();

// Solves the receiver for a cable and returns its SNR, margin and error rates.
PhyLinkAnalysis analyse_link(const PhyLinkParams& p);

// The union bound of the coded stream's error rates at slicer noise sigma (level units), from the
// code's own error events up to squared distance 6 (found by search over the trellis,
// tests/unit/phy_link_model_test.cpp compares it with Monte Carlo).
struct CodedErrorRates {
  double ber = 0;
  double octet_error = 0;
};
CodedErrorRates coded_error_rates(double sigma);
double uncoded_octet_error_rate(double sigma);
// The noise sigma at which the coded (union bound) or uncoded octet error rate equals `rate`, and
// the coding gain there, 20 log10(sigma_coded / sigma_uncoded) dB.
double sigma_for_octet_error(double rate, bool coded);
double coding_gain_db(double octet_error_rate);

// Monte Carlo of the same link, symbol by symbol on all four pairs, through the Viterbi decoder.
struct PhyLinkSimulation {
  std::int64_t symbols = 0;        // 4D symbols
  double measured_mse = 0;         // at the slicer, level units squared (pair average)
  std::int64_t slicer_errors = 0;  // 1D decisions
  std::int64_t octet_errors = 0;   // after Viterbi
  std::int64_t bit_errors = 0;
  double seconds = 0;  // wall time of the symbol loop
};
PhyLinkSimulation simulate_link(const PhyLinkParams& p, const PhyLinkAnalysis& a,
                                std::int64_t symbols, std::uint64_t seed);

// Eye diagram of the signal at the slicer input without and with equalisation: `traces` traces of
// two symbol periods, kOversample points each period. Rows: trace, point, raw, equalised.
struct EyePoint {
  int trace;
  int point;
  double raw;
  double equalised;
};
std::vector<EyePoint> eye_diagram(const PhyLinkAnalysis& a, int traces, std::uint64_t seed);

}  // namespace gbesim::phy
