#include "models/phy/awgn.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "models/common/rng.hpp"
#include "models/phy/link_model.hpp"
#include "models/phy/pam5_code.hpp"
#include "models/phy/viterbi.hpp"

namespace gbesim::phy {
namespace {

// Independent equiprobable PAM-5 levels per dimension, sliced one symbol at a time: the errors
// per dimension and per 4D symbol.
void uncoded(AwgnPoint& r, std::int64_t symbols, RngStream& noise, RngStream& data) {
  std::int64_t ser_errors = 0;
  std::int64_t quartet_errors = 0;
  for (std::int64_t n = 0; n < symbols; ++n) {
    Quartet sent{};
    Sample s{};
    for (int i = 0; i < 4; ++i) {
      sent[i] = static_cast<std::int8_t>(static_cast<int>(data.uniform_below(5)) - 2);
      s[i] = sent[i] + r.sigma * noise.normal();
    }
    const Quartet got = slice_uncoded(s);
    for (int i = 0; i < 4; ++i) ser_errors += got[i] != sent[i];
    quartet_errors += got != sent;
  }
  r.uncoded_ser = static_cast<double>(ser_errors) / (4.0 * static_cast<double>(symbols));
  r.uncoded_ser_closed_form = 2 * (1 - 1.0 / 5) * q_function(1 / (2 * r.sigma));
  r.uncoded_4d_error_rate = static_cast<double>(quartet_errors) / static_cast<double>(symbols);
}

// Random bytes through the encoder, the channel and the Viterbi decoder.
void coded(AwgnPoint& r, std::int64_t symbols, RngStream& noise, RngStream& data) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(symbols));
  for (auto& b : bytes) b = static_cast<std::uint8_t>(data.uniform_below(256));
  TrellisEncoder e;
  std::vector<Sample> rx;
  rx.reserve(bytes.size());
  for (auto b : bytes) {
    const Quartet q = map_word(e.encode(b));
    Sample s;
    for (int i = 0; i < 4; ++i) s[i] = q[i] + r.sigma * noise.normal();
    rx.push_back(s);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto words = viterbi_decode(rx);
  r.decode_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::int64_t byte_errors = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) byte_errors += (words[i] & 0xFF) != bytes[i];
  const double n = static_cast<double>(symbols);
  r.coded_byte_error_rate = static_cast<double>(byte_errors) / n;
  r.coded_ci95 = 1.96 * std::sqrt(r.coded_byte_error_rate * (1 - r.coded_byte_error_rate) / n);
}

}  // namespace

AwgnPoint simulate_awgn(double sigma, std::int64_t symbols, std::uint64_t seed) {
  AwgnPoint r;
  r.sigma = sigma;
  r.snr_db = 10 * std::log10(coded_symbol_energy() / (sigma * sigma));
  char tag[64];
  std::snprintf(tag, sizeof tag, "%.6f", sigma);
  RngStream noise(seed, std::string("phy/noise/") + tag);
  RngStream data(seed, std::string("phy/data/") + tag);
  uncoded(r, symbols, noise, data);
  coded(r, symbols, noise, data);
  return r;
}

}  // namespace gbesim::phy
