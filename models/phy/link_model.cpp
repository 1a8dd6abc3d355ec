#include "models/phy/link_model.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>

#include <Eigen/Dense>
#include <unsupported/Eigen/FFT>

#include "models/common/rng.hpp"
#include "models/medium/media.hpp"
#include "models/phy/pam5_code.hpp"
#include "models/phy/viterbi.hpp"

namespace gbesim::phy {

namespace {

constexpr double kSymbolSeconds = 8e-9;
constexpr int kFftSize = 16384;  // 8.19 us: 1024 symbols
constexpr int kSymbolsInBuffer = kFftSize / kOversample;
constexpr int kPrecursorSymbols = 32;  // buffer times before 0 (circular wrap)
constexpr double kSampleRate = kOversample / kSymbolSeconds;
constexpr double kNearEndDelaySeconds = 4 * kSymbolSeconds;  // hybrid + connector
constexpr double kTargetBer = 1e-10;

using Complex = std::complex<double>;
using Spectrum = std::vector<Complex>;  // bins 0..N/2

double propagation_ns_per_m(const PhyLinkParams& p) {
  if (p.ns_per_m) return *p.ns_per_m;
  const MediumRow* row = find_builtin_medium(std::string(p.cable->name));
  return row != nullptr ? row->params.ns_per_m : 5.56;
}

double bin_hz(int k) {
  return k * kSampleRate / kFftSize;
}

Complex delay(double f_hz, double seconds) {
  return std::polar(1.0, -2 * M_PI * f_hz * seconds);
}

// A response at the symbol rate: taps[i] at delay offset + i symbols.
struct Response {
  int offset = 0;
  std::vector<double> taps;
  double at(int d) const {
    const int i = d - offset;
    return i >= 0 && i < static_cast<int>(taps.size()) ? taps[i] : 0.0;
  }
  int first() const { return offset; }
  int last() const { return offset + static_cast<int>(taps.size()) - 1; }
  double energy() const {
    double e = 0;
    for (double t : taps) e += t * t;
    return e;
  }
};

struct Spectra {
  Spectrum through, echo, next, fext;
  std::vector<double> noise_psd_levels;  // two-sided, after the receive filter, level^2 / Hz
};

// The cable's transfer over `length_m` without its bulk delay: the f^p (skin) part of the loss
// with an equal phase (exp(-k sqrt(j f)) is causal), the other terms as magnitude.
Complex cable_transfer(const CableCategory& c, double f_hz, double length_m) {
  const double f_mhz = f_hz / 1e6;
  const double nepers = insertion_loss_db(c, f_mhz, length_m) * std::log(10.0) / 20.0;
  const double skin =
      c.il_a * std::pow(std::max(f_mhz, 1e-9), c.il_p) * length_m / 100.0 * std::log(10.0) / 20.0;
  return std::exp(Complex(-nepers, -skin));
}

// The transmitter's hold of each level for one symbol (kOversample samples), per FFT bin: the
// same for every cable, so computed once.
const std::vector<Complex>& hold_spectrum() {
  static const std::vector<Complex> hold = [] {
    std::vector<Complex> h(kFftSize / 2 + 1);
    for (int k = 0; k <= kFftSize / 2; ++k) {
      Complex tx = 0;
      for (int n = 0; n < kOversample; ++n) tx += std::polar(1.0, -2 * M_PI * k * n / kFftSize);
      h[static_cast<std::size_t>(k)] = tx;
    }
    return h;
  }();
  return hold;
}

Spectra build_spectra(const PhyLinkParams& p) {
  const CableCategory& c = *p.cable;
  const int bins = kFftSize / 2 + 1;
  Spectra s;
  s.through.resize(bins);
  s.echo.resize(bins);
  s.next.resize(bins);
  s.fext.resize(bins);
  s.noise_psd_levels.resize(bins);
  const double volts_per_level = p.tx_peak_volts / 2;
  const double n0 = std::pow(10.0, p.background_noise_dbm_per_hz / 10) * 1e-3 * 100.0;  // V^2/Hz
  const double round_trip = 2 * propagation_ns_per_m(p) * 1e-9 * p.length_m;
  const double far_gamma = std::pow(10.0, -p.far_end_return_loss_db / 20);
  for (int k = 0; k < bins; ++k) {
    const double f = bin_hz(k);
    const double f_mhz = f / 1e6;
    // The transmitter holds each level for one symbol (kOversample samples).
    Complex tx = hold_spectrum()[static_cast<std::size_t>(k)];
    if (p.tx_partial_response) tx *= 0.75 + 0.25 * delay(f, kSymbolSeconds);
    const double rx = 1 / std::sqrt(1 + std::pow(f_mhz / p.rx_filter_mhz, 8));
    const Complex line = cable_transfer(c, f, p.length_m);
    s.through[k] = tx * line * rx;
    const double near_gamma = std::pow(10.0, -return_loss_db(c, f_mhz) / 20);
    const Complex reflections = near_gamma * delay(f, kNearEndDelaySeconds) +
                                far_gamma * cable_transfer(c, f, 2 * p.length_m) *
                                    delay(f, kNearEndDelaySeconds + round_trip);
    s.echo[k] = tx * reflections * rx;
    s.next[k] =
        tx * std::pow(10.0, -next_loss_db(c, f_mhz) / 20) * delay(f, kNearEndDelaySeconds) * rx;
    s.fext[k] = tx * line * std::pow(10.0, -elfext_db(c, f_mhz, p.length_m) / 20) * rx;
    s.noise_psd_levels[k] = n0 / 2 * rx * rx / (volts_per_level * volts_per_level);
  }
  return s;
}

// Time samples at kSampleRate, rotated so that index 0 is kPrecursorSymbols before time 0.
// One FFT (and its twiddle factors) per thread, kept for every cable.
Eigen::FFT<double>& half_spectrum_fft() {
  static thread_local Eigen::FFT<double> fft = [] {
    Eigen::FFT<double> f;
    f.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    return f;
  }();
  return fft;
}

std::vector<double> to_time(const Spectrum& h) {
  Eigen::FFT<double>& fft = half_spectrum_fft();
  std::vector<double> t;
  Spectrum copy = h;
  fft.inv(t, copy, kFftSize);
  std::vector<double> r(kFftSize);
  const int shift = kPrecursorSymbols * kOversample;
  for (int i = 0; i < kFftSize; ++i) r[i] = t[(i - shift + kFftSize) % kFftSize];
  return r;
}

// The symbol-rate response at phase `phase` (oversampled index), trimmed to taps above 1e-7 of
// the peak.
Response sample(const std::vector<double>& os, int phase) {
  std::vector<double> v(kSymbolsInBuffer);
  double peak = 0;
  for (int n = 0; n < kSymbolsInBuffer; ++n) {
    v[n] = os[n * kOversample + phase];
    peak = std::max(peak, std::abs(v[n]));
  }
  int lo = 0;
  int hi = kSymbolsInBuffer - 1;
  while (lo < hi && std::abs(v[lo]) < 1e-7 * peak) ++lo;
  while (hi > lo && std::abs(v[hi]) < 1e-7 * peak) --hi;
  Response r;
  r.offset = lo - kPrecursorSymbols;
  r.taps.assign(v.begin() + lo, v.begin() + hi + 1);
  return r;
}

// What an ideal canceller of `taps` taps leaves: the response outside its best window.
Response cancel(const Response& r, bool enabled, int taps) {
  if (!enabled || taps <= 0) return r;
  const int n = static_cast<int>(r.taps.size());
  if (taps >= n) return Response{r.offset, {}};
  double window = 0;
  for (int i = 0; i < taps; ++i) window += r.taps[i] * r.taps[i];
  double best = window;
  int best_start = 0;
  for (int s = 1; s + taps <= n; ++s) {
    window += r.taps[s + taps - 1] * r.taps[s + taps - 1] - r.taps[s - 1] * r.taps[s - 1];
    if (window > best) best = window, best_start = s;
  }
  Response out = r;
  std::fill(out.taps.begin() + best_start, out.taps.begin() + best_start + taps, 0.0);
  return out;
}

// Rows i = 0..ffe-1 (y[k - i]), columns j - j0 (x[k - j]): entry r_{j - i}.
Eigen::MatrixXd convolution_matrix(const Response& r, int ffe, int j0, int columns) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(ffe, columns);
  const int n = static_cast<int>(r.taps.size());
  for (int i = 0; i < ffe; ++i) {
    // Tap t lands in column i + offset + t - j0; only those inside the matrix.
    const int shift = i + r.offset - j0;
    for (int t = std::max(0, -shift); t < std::min(n, columns - shift); ++t)
      m(i, shift + t) = r.taps[static_cast<std::size_t>(t)];
  }
  return m;
}

struct Solution {
  double mse = 0;
  Eigen::VectorXd w;
  int delay = 0;
};

struct Receiver {
  Response through, echo, next, fext;
  std::vector<double> noise_autocorrelation;  // T-spaced lags, level^2
  double adc_variance = 0;
};

// What does not depend on the decision delay, kept per sampling phase: the through response's
// convolution matrix, and the crosstalk and echo part of the FFE's input covariance (reused while
// the matrices' width stays the same: the same products of the same shapes, so the same sums to
// the last bit).
struct PhaseMatrices {
  Eigen::MatrixXd through;  // columns from through.first(), as far as its taps reach
  int columns = -1;
  Eigen::MatrixXd interference;
};

Solution solve_mmse(const Receiver& r, int ffe, int dfe, int delay, double es,
                    PhaseMatrices& phase) {
  const int j0 = std::min({r.through.first(), r.echo.first(), r.next.first(), r.fext.first()});
  const int j1 =
      ffe - 1 +
      std::max({r.through.last(), r.echo.last(), r.next.last(), r.fext.last(), delay + dfe});
  const int cols = j1 - j0 + 1;
  const int h0 = r.through.first();
  const int h_cols = r.through.last() + ffe - h0;
  if (phase.through.size() == 0) phase.through = convolution_matrix(r.through, ffe, h0, h_cols);
  Eigen::MatrixXd h = phase.through;
  const Eigen::VectorXd cursor = h.col(delay - h0);
  for (int j = delay + 1; j <= std::min(delay + dfe, h0 + h_cols - 1); ++j) h.col(j - h0).setZero();
  Eigen::MatrixXd cov = es * h * h.transpose();
  if (phase.columns != cols) {
    const Eigen::MatrixXd e = convolution_matrix(r.echo, ffe, j0, cols);
    const Eigen::MatrixXd n = convolution_matrix(r.next, ffe, j0, cols);
    const Eigen::MatrixXd f = convolution_matrix(r.fext, ffe, j0, cols);
    phase.interference = es * (e * e.transpose() + 3 * n * n.transpose() + 3 * f * f.transpose());
    phase.columns = cols;
  }
  cov += phase.interference;
  for (int i = 0; i < ffe; ++i)
    for (int k = 0; k < ffe; ++k) {
      const auto lag = static_cast<std::size_t>(std::abs(i - k));
      if (lag < r.noise_autocorrelation.size()) cov(i, k) += r.noise_autocorrelation[lag];
    }
  cov.diagonal().array() += r.adc_variance;
  Solution s;
  s.delay = delay;
  s.w = cov.ldlt().solve(es * cursor);
  s.mse = es - es * cursor.dot(s.w);
  return s;
}

double output_power(const Response& r, const Eigen::VectorXd& w, double es) {
  // Power of sum_i w_i sum_d r_d u[k - i - d] for white u of energy es.
  std::map<int, double> c;
  for (int i = 0; i < w.size(); ++i)
    for (int d = r.first(); d <= r.last(); ++d) c[i + d] += w[i] * r.at(d);
  double p = 0;
  for (const auto& [j, v] : c) p += v * v;
  return es * p;
}

// The code's error events from a correct path: diverging at one time, remerging later, squared
// distance up to kMaxDistance2, averaged over random transmitted sequences. Per symbol time:
// expected data bits and octets wrong for each squared distance.
constexpr int kMaxDistance2 = 5;
constexpr int kMaxEventLength = 8;
struct Spectrum2 {
  std::array<double, kMaxDistance2 + 1> bits{};
  std::array<double, kMaxDistance2 + 1> octets{};
};

struct TruePath {
  std::vector<int> state;  // before symbol t
  std::vector<std::uint16_t> word;
  std::vector<std::array<std::uint8_t, 512>> distance;  // from each word's point at time t
};

void search_events(const TruePath& path, int t, int start, int alt_state, int d2, int bits,
                   int octets, Spectrum2& acc) {
  const int parity = TrellisEncoder::parity_bit(alt_state);
  for (int sd76 = 0; sd76 < 4; ++sd76) {
    const int next = TrellisEncoder::next_state(alt_state, sd76);
    for (int idx = 0; idx < 64; ++idx) {
      const auto word = static_cast<std::uint16_t>(parity << 8 | sd76 << 6 | idx);
      if (t == start && word == path.word[t]) continue;
      const int d = d2 + path.distance[t][word];
      if (d > kMaxDistance2) continue;
      const int diff = (word ^ path.word[t]) & 0xFF;
      const int b = bits + __builtin_popcount(static_cast<unsigned>(diff));
      const int o = octets + (diff != 0);
      if (next == path.state[t + 1]) {
        acc.bits[d] += b;
        acc.octets[d] += o;
      } else if (t + 1 - start < kMaxEventLength && t + 1 < static_cast<int>(path.word.size())) {
        search_events(path, t + 1, start, next, d, b, o, acc);
      }
    }
  }
}

const Spectrum2& error_spectrum() {
  static const Spectrum2 spectrum = [] {
    RngStream rng(1, "phy/error-spectrum");
    constexpr int kLength = 600;
    constexpr int kStarts = 400;
    TruePath path;
    TrellisEncoder enc;
    path.state.push_back(enc.state());
    for (int t = 0; t < kLength; ++t) {
      const auto word = enc.encode(static_cast<std::uint8_t>(rng.uniform_below(256)));
      path.word.push_back(word);
      std::array<std::uint8_t, 512> d{};
      for (std::uint16_t w = 0; w < 512; ++w)
        d[w] = static_cast<std::uint8_t>(distance2(map_word(w), map_word(word)));
      path.distance.push_back(d);
      path.state.push_back(enc.state());
    }
    Spectrum2 acc;
    for (int s = 0; s < kStarts; ++s) search_events(path, s, s, path.state[s], 0, 0, 0, acc);
    for (int d = 0; d <= kMaxDistance2; ++d) {
      acc.bits[d] /= kStarts;
      acc.octets[d] /= kStarts;
    }
    return acc;
  }();
  return spectrum;
}

// Probability of each PAM-5 level in the coded stream.
const std::array<double, 5>& level_probabilities() {
  static const std::array<double, 5> p = [] {
    std::array<double, 5> c{};
    for (std::uint16_t sd = 0; sd < 512; ++sd)
      for (auto v : map_word(sd)) c[v + 2] += 1.0 / (512 * 4);
    return c;
  }();
  return p;
}

}  // namespace

double q_function(double x) {
  return 0.5 * std::erfc(x / std::sqrt(2.0));
}

double coded_symbol_energy() {
  double e = 0;
  const auto& p = level_probabilities();
  for (int l = -2; l <= 2; ++l) e += p[l + 2] * l * l;
  return e;
}

CodedErrorRates coded_error_rates(double sigma) {
  const auto& s = error_spectrum();
  CodedErrorRates r;
  for (int d = 1; d <= kMaxDistance2; ++d) {
    const double q = q_function(std::sqrt(static_cast<double>(d)) / (2 * sigma));
    r.ber += s.bits[d] / 8 * q;
    r.octet_error += s.octets[d] * q;
  }
  r.ber = std::min(r.ber, 0.5);
  r.octet_error = std::min(r.octet_error, 1.0);
  return r;
}

double uncoded_octet_error_rate(double sigma) {
  const auto& p = level_probabilities();
  // Outer levels have one neighbour, inner ones two; decision distance 1/2.
  const double neighbours = p[0] + 2 * (p[1] + p[2] + p[3]) + p[4];
  const double per_dimension = neighbours * q_function(0.5 / sigma);
  return 1 - std::pow(1 - per_dimension, 4);
}

double sigma_for_octet_error(double rate, bool coded) {
  double lo = 0.01, hi = 2.0;
  for (int i = 0; i < 80; ++i) {
    const double mid = std::sqrt(lo * hi);
    const double r = coded ? coded_error_rates(mid).octet_error : uncoded_octet_error_rate(mid);
    (r > rate ? hi : lo) = mid;
  }
  return lo;
}

double coding_gain_db(double octet_error_rate) {
  return 20 * std::log10(sigma_for_octet_error(octet_error_rate, true) /
                         sigma_for_octet_error(octet_error_rate, false));
}

namespace {

// Noise autocorrelation at symbol lags: (two-sided PSD) -> inverse transform * sample rate.
std::vector<double> noise_autocorrelation(const Spectra& s) {
  std::vector<double> noise_r;
  Spectrum psd(s.noise_psd_levels.begin(), s.noise_psd_levels.end());
  std::vector<double> t;
  half_spectrum_fft().inv(t, psd, kFftSize);
  for (int m = 0; m < 64; ++m) noise_r.push_back(t[m * kOversample] * kSampleRate);
  return noise_r;
}

// The oversampled responses at the receiver, before the cancellers.
struct Oversampled {
  std::vector<double> through, echo, next, fext;
};

// The receiver solved at its best sampling phase and decision delay (least MSE).
struct BestReceiver {
  Receiver rx;
  Solution sol;
  int sampling_phase = 0;
  double adc_step = 0;
};

// Every sampling phase, and at each the decision delays from the main cursor over the FFE's
// span: the MMSE solution of least error.
BestReceiver best_receiver(const PhyLinkParams& p, const Oversampled& os,
                           const std::vector<double>& noise_r, double es) {
  BestReceiver best;
  double best_mse = 1e300;
  for (int phase = 0; phase < kOversample; ++phase) {
    Receiver rx;
    rx.through = sample(os.through, phase);
    const Response echo = sample(os.echo, phase);
    const Response next = sample(os.next, phase);
    rx.fext = sample(os.fext, phase);
    rx.echo = cancel(echo, p.echo_cancellation, p.echo_canceller_taps);
    rx.next = cancel(next, p.next_cancellation, p.next_canceller_taps);
    rx.noise_autocorrelation = noise_r;
    // The ADC digitises everything before cancellation.
    const double input =
        es * (rx.through.energy() + echo.energy() + 3 * next.energy() + 3 * rx.fext.energy()) +
        noise_r[0];
    double step = 0;
    if (p.adc_bits > 0) {
      step = 2 * p.adc_range_sigmas * std::sqrt(input) / std::pow(2.0, p.adc_bits);
      rx.adc_variance = step * step / 12;
    }
    // The main cursor, and decision delays around it.
    int main = rx.through.first();
    for (int d = rx.through.first(); d <= rx.through.last(); ++d)
      if (std::abs(rx.through.at(d)) > std::abs(rx.through.at(main))) main = d;
    PhaseMatrices matrices;
    for (int delay = main; delay < main + p.ffe_taps; ++delay) {
      const Solution sol = solve_mmse(rx, p.ffe_taps, p.dfe_taps, delay, es, matrices);
      if (sol.mse < best_mse) {
        best_mse = sol.mse;
        best.sol = sol;
        best.rx = rx;
        best.sampling_phase = phase;
        best.adc_step = step;
      }
    }
  }
  return best;
}

// The residual ISI at the slicer (unbiased), and the DFE's taps: the combined response's
// postcursors it cancels.
void isi_and_dfe(const PhyLinkParams& p, const Receiver& rx, const Eigen::VectorXd& w, double es,
                 PhyLinkAnalysis& a) {
  const double g2 = a.gain * a.gain;
  std::map<int, double> c;
  for (int i = 0; i < w.size(); ++i)
    for (int d = rx.through.first(); d <= rx.through.last(); ++d)
      c[i + d] += w[i] * rx.through.at(d);
  double isi = 0;
  for (const auto& [j, v] : c)
    if (j != a.decision_delay && (j < a.decision_delay + 1 || j > a.decision_delay + p.dfe_taps))
      isi += v * v;
  a.budget.isi = g2 * es * isi;
  a.dfe.assign(static_cast<std::size_t>(p.dfe_taps), 0.0);
  for (int j = 0; j < p.dfe_taps; ++j) {
    const auto it = c.find(a.decision_delay + 1 + j);
    if (it != c.end()) a.dfe[static_cast<std::size_t>(j)] = a.gain * it->second;
  }
}

// The noise budget at the slicer per source (ISI, echo, NEXT, FEXT, noise, ADC), unbiased.
void noise_budget(const PhyLinkParams& p, const Receiver& rx, const Eigen::VectorXd& w,
                  const std::vector<double>& noise_r, double es, PhyLinkAnalysis& a) {
  const double g2 = a.gain * a.gain;
  isi_and_dfe(p, rx, w, es, a);
  a.budget.echo = g2 * output_power(rx.echo, w, es);
  a.budget.next = g2 * 3 * output_power(rx.next, w, es);
  a.budget.fext = g2 * 3 * output_power(rx.fext, w, es);
  double noise = 0;
  for (int i = 0; i < w.size(); ++i)
    for (int k = 0; k < w.size(); ++k) {
      const auto lag = static_cast<std::size_t>(std::abs(i - k));
      if (lag < noise_r.size()) noise += w[i] * w[k] * noise_r[lag];
    }
  a.budget.noise = g2 * noise;
  a.budget.adc = g2 * rx.adc_variance * w.squaredNorm();
}

// The error rates at the slicer's sigma, coded and not, and the margin to the SNR at which the
// coded stream errs at 1e-10 (bisection on sigma).
void slicer_error_rates(double es, PhyLinkAnalysis& a) {
  const CodedErrorRates coded = coded_error_rates(a.sigma);
  a.ber_coded = coded.ber;
  a.octet_error_coded = coded.octet_error;
  a.octet_error_uncoded = uncoded_octet_error_rate(a.sigma);
  a.ber_uncoded = a.octet_error_uncoded / 8;
  double lo = 0.01, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = std::sqrt(lo * hi);
    (coded_error_rates(mid).ber > kTargetBer ? hi : lo) = mid;
  }
  a.required_snr_db = 10 * std::log10(es / (lo * lo));
  a.margin_db = a.snr_db - a.required_snr_db;
}

// A response as a vector from delay -kPrecursorSymbols on.
std::vector<double> response_taps(const Response& r) {
  std::vector<double> v(static_cast<std::size_t>(r.last() + 1 + kPrecursorSymbols), 0.0);
  for (int d = std::max(r.first(), -kPrecursorSymbols); d <= r.last(); ++d)
    v[static_cast<std::size_t>(d + kPrecursorSymbols)] = r.at(d);
  return v;
}

// A T-spaced filter turning white unit noise into the filtered noise: the zero-phase square
// root of its folded spectrum.
std::vector<double> noise_shaping_filter(const std::vector<double>& noise_r) {
  constexpr int kLags = 64;
  constexpr int kGrid = 2 * kLags;
  std::vector<double> g(2 * 16 + 1, 0.0);
  std::vector<double> root(kGrid);
  for (int m = 0; m < kGrid; ++m) {
    double psd = noise_r[0];
    for (int l = 1; l < kLags; ++l)
      psd += 2 * noise_r[static_cast<std::size_t>(l)] * std::cos(2 * M_PI * m * l / kGrid);
    root[static_cast<std::size_t>(m)] = std::sqrt(std::max(psd, 0.0));
  }
  for (int l = -16; l <= 16; ++l) {
    double v = 0;
    for (int m = 0; m < kGrid; ++m)
      v += root[static_cast<std::size_t>(m)] * std::cos(2 * M_PI * m * l / kGrid);
    g[static_cast<std::size_t>(l + 16)] = v / kGrid;
  }
  return g;
}

}  // namespace

PhyLinkAnalysis analyse_link(const PhyLinkParams& p) {
  if (p.cable == nullptr) throw std::invalid_argument("analyse_link: no cable category");
  if (p.ffe_taps < 1 || p.dfe_taps < 0)
    throw std::invalid_argument("analyse_link: ffe_taps must be >= 1 and dfe_taps >= 0");
  const double es = coded_symbol_energy();
  const Spectra s = build_spectra(p);
  Oversampled os;
  os.through = to_time(s.through);
  os.echo = to_time(s.echo);
  os.next = to_time(s.next);
  os.fext = to_time(s.fext);
  const std::vector<double> noise_r = noise_autocorrelation(s);

  const BestReceiver best = best_receiver(p, os, noise_r, es);
  const Receiver& rx = best.rx;
  const Eigen::VectorXd& w = best.sol.w;
  const double mse = best.sol.mse;
  PhyLinkAnalysis a;
  a.sampling_phase = best.sampling_phase;
  a.adc_step = best.adc_step;
  a.decision_delay = best.sol.delay;
  a.gain = es / (es - mse);  // unbiasing: the biased cursor is 1 - mse/es
  const double snr = es / mse - 1;
  a.snr_db = 10 * std::log10(snr);
  a.sigma = std::sqrt(es / snr);
  noise_budget(p, rx, w, noise_r, es, a);
  slicer_error_rates(es, a);
  a.insertion_loss_62mhz_db = insertion_loss_db(*p.cable, 62.5, p.length_m);
  a.propagation_delay_ns = propagation_ns_per_m(p) * p.length_m;
  a.through = response_taps(rx.through);
  a.echo_residual = response_taps(rx.echo);
  a.next_residual = response_taps(rx.next);
  a.fext = response_taps(rx.fext);
  a.ffe.assign(w.data(), w.data() + w.size());
  a.through_oversampled = os.through;
  a.noise_shaping = noise_shaping_filter(noise_r);
  return a;
}

namespace {

// Overlap-save convolution: blocks of kBlockFft points, each producing kBlockOut outputs from
// inputs that start kBlockHistory earlier (longer than any response's positive delays; the
// negative ones, down to -kPrecursorSymbols, are the margin at the end).
constexpr std::size_t kBlockFft = 1 << 16;
constexpr std::size_t kBlockHistory = 2 * kSymbolsInBuffer;
constexpr std::size_t kBlockOut = kBlockFft - kBlockHistory - 2 * kPrecursorSymbols;

// Values at consecutive indices from begin(), kept only as far back as still needed.
template <class T>
class Window {
 public:
  std::int64_t begin() const { return begin_; }
  std::int64_t end() const { return begin_ + static_cast<std::int64_t>(v_.size()); }
  void push_back(T x) { v_.push_back(x); }
  T operator[](std::int64_t k) const { return v_[static_cast<std::size_t>(k - begin_)]; }
  // Contiguous values from index k on.
  const T* from(std::int64_t k) const { return v_.data() + (k - begin_); }
  void forget_before(std::int64_t k) {
    const auto drop = std::clamp<std::int64_t>(k - begin_, 0, static_cast<std::int64_t>(v_.size()));
    v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(drop));
    begin_ += drop;
  }

 private:
  std::int64_t begin_ = 0;
  std::vector<T> v_;
};

// A coded, sign-scrambled symbol stream on four pairs (and the bytes it carries), `n` symbols
// long, generated as far as asked and forgotten behind the point still needed.
class PairStream {
 public:
  PairStream(std::int64_t n, std::uint64_t seed, const std::string& name)
      : n_(n), data_(seed, "phy/link/" + name), signs_(seed, "phy/link/" + name + "/signs") {}
  void generate_to(std::int64_t end) {
    for (std::int64_t k = bytes.end(); k < std::min(end, n_); ++k) {
      const auto byte = static_cast<std::uint8_t>(data_.uniform_below(256));
      bytes.push_back(byte);
      const Quartet q = map_word(encoder_.encode(byte));
      const auto bits = signs_.next_u64();
      for (int i = 0; i < 4; ++i) {
        const std::int8_t s = (bits >> i) & 1 ? -1 : 1;
        sign[i].push_back(s);
        level[i].push_back(s * q[i]);
      }
    }
  }
  void forget_before(std::int64_t k) {
    bytes.forget_before(k);
    for (int i = 0; i < 4; ++i) {
      sign[i].forget_before(k);
      level[i].forget_before(k);
    }
  }
  // The level sent on `pair` at symbol k; nothing (0) before the stream or after its end.
  double level_or_zero(int pair, std::int64_t k) const {
    return k >= 0 && k < n_ ? level[pair][k] : 0.0;
  }

  Window<std::uint8_t> bytes;
  std::array<Window<double>, 4> level;  // as sent, sign included
  std::array<Window<std::int8_t>, 4> sign;

 private:
  std::int64_t n_;
  RngStream data_, signs_;
  TrellisEncoder encoder_;
};

class BlockFft {
 public:
  BlockFft() { fft_.SetFlag(Eigen::FFT<double>::HalfSpectrum); }
  // The spectrum of one pair's levels from symbol `from` on, kBlockFft of them.
  std::vector<Complex> segment(const PairStream& s, int pair, std::int64_t from) {
    std::vector<double> a(kBlockFft);
    for (std::size_t j = 0; j < kBlockFft; ++j)
      a[j] = s.level_or_zero(pair, from + static_cast<std::int64_t>(j));
    std::vector<Complex> f;
    fft_.fwd(f, a);
    return f;
  }
  // A response stored from delay -shift, placed circularly.
  std::vector<Complex> kernel(const std::vector<double>& h, int shift) {
    std::vector<double> a(kBlockFft, 0.0);
    for (std::size_t i = 0; i < h.size(); ++i)
      a[(i + kBlockFft - static_cast<std::size_t>(shift)) % kBlockFft] += h[i];
    std::vector<Complex> f;
    fft_.fwd(f, a);
    return f;
  }
  std::vector<double> inverse(std::vector<Complex>& f) {
    std::vector<double> t;
    fft_.inv(t, f, static_cast<Eigen::Index>(kBlockFft));
    return t;
  }

 private:
  Eigen::FFT<double> fft_;
};

void in_parallel(const std::function<void()>& one, const std::function<void()>& two) {
  std::thread t(two);
  one();
  t.join();
}

// What the decoders need of a run of equalised symbols: the samples (sign scrambling undone)
// and the bytes that were sent, from symbol `first` on.
struct EqualisedRun {
  std::int64_t first = 0;
  std::vector<Sample> rx;
  std::vector<std::uint8_t> sent;
};

// The decoder: the first half of the symbols from the encoder's state at the first sample, the
// second from an unknown state kOverlap symbols early, each keeping its own half of the
// decisions; counts the octet and bit errors as the words are decided.
class SplitDecoder {
 public:
  static constexpr std::int64_t kOverlap = 96;
  SplitDecoder(std::int64_t symbols, int start_state)
      : first_{ViterbiStream(start_state), 0, std::min(symbols, symbols / 2 + kOverlap), 0,
               symbols / 2},
        second_{ViterbiStream(-1), std::max<std::int64_t>(0, symbols / 2 - kOverlap), symbols,
                symbols / 2, symbols} {}
  void decode(const EqualisedRun& run) {
    for (std::size_t i = 0; i < run.rx.size(); ++i) {
      const std::int64_t k = run.first + static_cast<std::int64_t>(i);
      sent_.push_back(run.sent[i]);
      feed(first_, k, run.rx[i]);
      feed(second_, k, run.rx[i]);
    }
    take_decided(first_);
    take_decided(second_);
    sent_.forget_before(std::min(next(first_), next(second_)));
  }
  std::int64_t octet_errors = 0;
  std::int64_t bit_errors = 0;

 private:
  struct Part {
    ViterbiStream decoder;
    std::int64_t from, to;            // the samples it decodes
    std::int64_t keep_from, keep_to;  // the decisions it keeps
    bool finished = false;
  };
  void feed(Part& part, std::int64_t k, const Sample& rx) {
    if (k < part.from || k >= part.to) return;
    part.decoder.push(rx);
    if (k + 1 < part.to) return;
    const std::int64_t at = next(part);
    count(part, at, part.decoder.finish());
    part.finished = true;
  }
  void take_decided(Part& part) {
    if (part.finished) return;
    const std::int64_t at = next(part);
    count(part, at, part.decoder.take_decided());
  }
  // The first symbol whose word `part` has not handed out yet.
  static std::int64_t next(const Part& part) {
    return part.finished ? std::numeric_limits<std::int64_t>::max()
                         : part.from + part.decoder.taken();
  }
  void count(const Part& part, std::int64_t at, const std::vector<std::uint16_t>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::int64_t k = at + static_cast<std::int64_t>(i);
      if (k < part.keep_from || k >= part.keep_to) continue;
      const int diff = (words[i] & 0xFF) ^ sent_[k];
      octet_errors += diff != 0;
      bit_errors += __builtin_popcount(static_cast<unsigned>(diff));
    }
  }
  Part first_, second_;
  Window<std::uint8_t> sent_;
};

// Stage 1 of the Monte Carlo, the received samples after the cancellers and the ADC, block by
// block: the responses are linear, so the sources are summed as spectra (the three NEXT or FEXT
// disturbers share a response), the noise is generated as a spectrum.
class BlockReceiver {
 public:
  // n: the symbols of the whole run.
  BlockReceiver(const PhyLinkParams& p, const PhyLinkAnalysis& a, std::int64_t n,
                std::uint64_t seed)
      : a_(a),
        adc_bits_(p.adc_bits),
        full_scale_(a.adc_step * std::pow(2.0, p.adc_bits) / 2),
        n_(n),
        seed_(seed),
        k_through_(fft_.kernel(a.through, kPrecursorSymbols)),
        k_echo_(fft_.kernel(a.echo_residual, kPrecursorSymbols)),
        k_next_(fft_.kernel(a.next_residual, kPrecursorSymbols)),
        k_fext_(fft_.kernel(a.fext, kPrecursorSymbols)),
        k_noise_(fft_.kernel(a.noise_shaping, static_cast<int>(a.noise_shaping.size() / 2))) {}

  // Appends block b's samples to y, per pair.
  void receive(std::int64_t b, PairStream& remote, PairStream& local) {
    const std::int64_t out_from = b * static_cast<std::int64_t>(kBlockOut);
    const std::int64_t from = out_from - static_cast<std::int64_t>(kBlockHistory);
    remote.generate_to(from + static_cast<std::int64_t>(kBlockFft));
    local.generate_to(from + static_cast<std::int64_t>(kBlockFft));
    std::array<std::vector<Complex>, 4> sr, sl;
    for (int q = 0; q < 4; ++q) {
      sr[q] = fft_.segment(remote, q, from);
      sl[q] = fft_.segment(local, q, from);
    }
    local.forget_before(from + static_cast<std::int64_t>(kBlockOut));
    const std::size_t bins = sr[0].size();
    std::vector<Complex> sum(bins);
    for (int pr = 0; pr < 4; ++pr) {
      RngStream noise(seed_, "phy/link/noise/" + std::to_string(pr) + "/" + std::to_string(b));
      for (std::size_t i = 0; i < bins; ++i) {
        // White noise's spectrum: E|X|^2 = kBlockFft per bin (real and imaginary halves).
        Complex white;
        if (i == 0 || i == bins - 1) {
          white = std::sqrt(static_cast<double>(kBlockFft)) * noise.normal();
        } else {
          const double re = noise.normal();
          white = std::sqrt(kBlockFft / 2.0) * Complex(re, noise.normal());
        }
        Complex others_local = 0, others_remote = 0;
        for (int q = 0; q < 4; ++q)
          if (q != pr) {
            others_local += sl[q][i];
            others_remote += sr[q][i];
          }
        sum[i] = k_through_[i] * sr[pr][i] + k_echo_[i] * sl[pr][i] + k_next_[i] * others_local +
                 k_fext_[i] * others_remote + k_noise_[i] * white;
      }
      const auto t = fft_.inverse(sum);
      for (std::size_t j = 0; j < kBlockOut && out_from + static_cast<std::int64_t>(j) < n_; ++j) {
        double v = t[kBlockHistory + j];
        // The ADC saw the cancellers' part too; quantising what is left with the full input's
        // step makes the same uniform error.
        if (adc_bits_ > 0)
          v = std::clamp(a_.adc_step * std::round(v / a_.adc_step), -full_scale_, full_scale_);
        y[pr].push_back(v);
      }
    }
  }

  std::array<Window<double>, 4> y;  // the received samples, per pair

 private:
  const PhyLinkAnalysis& a_;
  int adc_bits_;
  double full_scale_;
  std::int64_t n_;
  std::uint64_t seed_;
  BlockFft fft_;
  std::vector<Complex> k_through_, k_echo_, k_next_, k_fext_, k_noise_;
};

// Stage 2 of the Monte Carlo, per pair: FFE with the unbiasing gain, DFE fed with the correct
// past symbols, both as dot products over contiguous samples (taps reversed), which Eigen
// vectorises.
class Equaliser {
 public:
  // warm: the symbols before the first measured one.
  Equaliser(const PhyLinkAnalysis& a, std::int64_t warm)
      : delay_(a.decision_delay),
        taps_f_(static_cast<Eigen::Index>(a.ffe.size())),
        taps_b_(static_cast<Eigen::Index>(a.dfe.size())),
        warm_(warm),
        ffe_(taps_f_),
        dfe_(taps_b_) {
    for (Eigen::Index i = 0; i < taps_f_; ++i)
      ffe_[taps_f_ - 1 - i] = a.gain * a.ffe[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < taps_b_; ++j)
      dfe_[taps_b_ - 1 - j] = a.dfe[static_cast<std::size_t>(j)];
  }

  // The measured symbols from next_symbol() up to `to`, equalised and sliced.
  EqualisedRun equalise(std::int64_t to, const PairStream& remote,
                        const std::array<Window<double>, 4>& y) {
    EqualisedRun run;
    run.first = next_symbol_;
    for (std::int64_t k = next_symbol_; k < to; ++k) {
      const std::int64_t kk = k + warm_;
      const std::int64_t at = kk - delay_;
      Sample s;
      for (int pr = 0; pr < 4; ++pr) {
        const Window<double>& x = remote.level[pr];
        const double v =
            ffe_.dot(Eigen::Map<const Eigen::VectorXd>(y[pr].from(kk + 1 - taps_f_), taps_f_)) -
            dfe_.dot(Eigen::Map<const Eigen::VectorXd>(x.from(at - taps_b_), taps_b_));
        sq[pr] += (v - x[at]) * (v - x[at]);
        slicer_errors += std::clamp(std::round(v), -2.0, 2.0) != x[at];
        // The receiver knows the sign scrambling: undo it for the decoder.
        s[static_cast<std::size_t>(pr)] = v * remote.sign[pr][at];
      }
      run.rx.push_back(s);
      run.sent.push_back(remote.bytes[at]);
    }
    next_symbol_ = to;
    return run;
  }
  // The first measured symbol not yet equalised.
  std::int64_t next_symbol() const { return next_symbol_; }

  std::array<double, 4> sq{};  // squared slicer errors, per pair
  std::int64_t slicer_errors = 0;

 private:
  int delay_;
  Eigen::Index taps_f_, taps_b_;
  std::int64_t warm_;
  Eigen::VectorXd ffe_, dfe_;
  std::int64_t next_symbol_ = 0;
};

}  // namespace

PhyLinkSimulation simulate_link(const PhyLinkParams& p, const PhyLinkAnalysis& a,
                                std::int64_t symbols, std::uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  // The data under test comes from the remote transmitters; the local ones disturb (echo, NEXT).
  // The symbols stream through in blocks: each block is received while the previous one is
  // decoded on the other thread (this machine has two cores), so the memory does not grow with
  // the run. Every random stream is tied to what it describes (a block's noise to the block), so
  // the result does not depend on the split.
  const int delay = a.decision_delay;
  const auto taps_f = static_cast<Eigen::Index>(a.ffe.size());
  const auto taps_b = static_cast<Eigen::Index>(a.dfe.size());
  // Symbols before the first measured one: the equaliser's and the DFE's spans must be filled.
  const std::int64_t warm = std::max<std::int64_t>(512, delay + taps_b + taps_f);
  const std::int64_t n = symbols + 2 * warm;
  PairStream remote(n, seed, "remote");
  PairStream local(n, seed, "local");
  BlockReceiver receiver(p, a, n, seed);
  Equaliser equaliser(a, warm);

  TrellisEncoder replay;
  remote.generate_to(warm - delay);
  for (std::int64_t k = 0; k < warm - delay; ++k) replay.encode(remote.bytes[k]);
  SplitDecoder decoder(symbols, replay.state());
  const auto blocks =
      (n + static_cast<std::int64_t>(kBlockOut) - 1) / static_cast<std::int64_t>(kBlockOut);
  EqualisedRun pending;
  for (std::int64_t b = 0; b <= blocks; ++b) {
    EqualisedRun next;
    in_parallel(
        [&] { decoder.decode(pending); },
        [&] {
          if (b == blocks) return;
          receiver.receive(b, remote, local);
          next = equaliser.equalise(
              std::clamp<std::int64_t>(receiver.y[0].end() - warm, 0, symbols), remote, receiver.y);
          // What the next block and the next symbols still need.
          const std::int64_t need = std::min((b + 1) * static_cast<std::int64_t>(kBlockOut) -
                                                 static_cast<std::int64_t>(kBlockHistory),
                                             equaliser.next_symbol() + warm - delay - taps_b);
          remote.forget_before(need);
          for (auto& w : receiver.y) w.forget_before(equaliser.next_symbol() + warm + 1 - taps_f);
        });
    pending = std::move(next);
  }

  PhyLinkSimulation out;
  out.symbols = symbols;
  out.slicer_errors = equaliser.slicer_errors;
  out.octet_errors = decoder.octet_errors;
  out.bit_errors = decoder.bit_errors;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::array<double, 4>& sq = equaliser.sq;
  out.measured_mse = (sq[0] + sq[1] + sq[2] + sq[3]) / (4.0 * static_cast<double>(symbols));
  return out;
}

std::vector<EyePoint> eye_diagram(const PhyLinkAnalysis& a, int traces, std::uint64_t seed) {
  RngStream data(seed, "phy/eye");
  const int span = 64;  // symbols of history that matter to the eye
  const int n = traces + span + static_cast<int>(a.ffe.size()) + 4;
  std::vector<double> x(static_cast<std::size_t>(n));
  TrellisEncoder enc;
  for (auto& v : x) {
    const Quartet q = map_word(enc.encode(static_cast<std::uint8_t>(data.uniform_below(256))));
    v = q[0];
  }
  const auto& os = a.through_oversampled;
  const int size = static_cast<int>(os.size());
  // The raw received waveform at symbol k plus fraction s/kOversample, aligned with the
  // equaliser's sampling phase.
  auto raw = [&](int k, int s) {
    double v = 0;
    for (int m = 0; m < n; ++m) {
      const int idx = (k - m + kPrecursorSymbols) * kOversample + a.sampling_phase + s;
      if (idx >= 0 && idx < size)
        v += x[static_cast<std::size_t>(m)] * os[static_cast<std::size_t>(idx)];
    }
    return v;
  };
  std::vector<EyePoint> eye;
  const int ffe = static_cast<int>(a.ffe.size());
  for (int t = 0; t < traces; ++t) {
    const int k = span + ffe + t;
    for (int s = -kOversample / 2; s < 3 * kOversample / 2; ++s) {
      double z = 0;
      for (int i = 0; i < ffe; ++i) z += a.ffe[static_cast<std::size_t>(i)] * raw(k - i, s);
      z *= a.gain;
      for (std::size_t j = 0; j < a.dfe.size(); ++j) {
        const int idx = k - a.decision_delay - 1 - static_cast<int>(j);
        if (idx >= 0) z -= a.dfe[j] * x[static_cast<std::size_t>(idx)];
      }
      eye.push_back({t, s + kOversample / 2, raw(k, s), z});
    }
  }
  return eye;
}

}  // namespace gbesim::phy
