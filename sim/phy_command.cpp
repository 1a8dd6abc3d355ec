#include "sim/phy_command.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/core.h>

#include "models/common/rng.hpp"
#include "models/phy/viterbi.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_input.hpp"

namespace gbesim {

namespace {

double q_function(double x) {
  return 0.5 * std::erfc(x / std::sqrt(2.0));
}

struct Gauss {
  RngStream rng;
  double operator()() {  // Box-Muller
    const double u1 = 1.0 - rng.uniform01();
    const double u2 = rng.uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
};

struct Row {
  double sigma = 0;
  double snr_db = 0;  // mean coded symbol energy per dimension over sigma^2
  double uncoded_ser = 0;
  double uncoded_ser_closed_form = 0;
  double uncoded_4d_error_rate = 0;
  double coded_byte_error_rate = 0;
  double coded_ci95 = 0;
};

}  // namespace

int run_phy(const PhyOptions& o) {
  const auto seed = static_cast<std::uint64_t>(o.seed);
  // The coded constellation's mean energy per dimension (all 512 words equally likely).
  double energy = 0;
  for (std::uint16_t sd = 0; sd < 512; ++sd)
    for (auto v : phy::map_word(sd)) energy += v * v;
  energy /= 512.0 * 4.0;

  std::vector<Row> rows;
  double total_symbols = 0;
  double total_seconds = 0;
  for (const double sigma : o.sigmas) {
    Row r;
    r.sigma = sigma;
    r.snr_db = 10 * std::log10(energy / (sigma * sigma));
    const std::string tag = fmt::format("{:.6f}", sigma);
    Gauss g{RngStream(seed, "phy/noise/" + tag)};
    RngStream data(seed, "phy/data/" + tag);
    // Uncoded: independent equiprobable PAM-5 levels per dimension.
    std::int64_t ser_errors = 0;
    std::int64_t quartet_errors = 0;
    for (std::int64_t n = 0; n < o.symbols; ++n) {
      phy::Quartet sent{};
      phy::Sample s{};
      for (int i = 0; i < 4; ++i) {
        sent[i] = static_cast<std::int8_t>(static_cast<int>(data.uniform_below(5)) - 2);
        s[i] = sent[i] + sigma * g();
      }
      const phy::Quartet got = phy::slice_uncoded(s);
      for (int i = 0; i < 4; ++i) ser_errors += got[i] != sent[i];
      quartet_errors += got != sent;
    }
    r.uncoded_ser = static_cast<double>(ser_errors) / (4.0 * static_cast<double>(o.symbols));
    r.uncoded_ser_closed_form = 2 * (1 - 1.0 / 5) * q_function(1 / (2 * sigma));
    r.uncoded_4d_error_rate = static_cast<double>(quartet_errors) / static_cast<double>(o.symbols);
    // Coded: random bytes through the encoder, the channel and the Viterbi decoder.
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(o.symbols));
    for (auto& b : bytes) b = static_cast<std::uint8_t>(data.uniform_below(256));
    phy::TrellisEncoder e;
    std::vector<phy::Sample> rx;
    rx.reserve(bytes.size());
    for (auto b : bytes) {
      const phy::Quartet q = phy::map_word(e.encode(b));
      phy::Sample s;
      for (int i = 0; i < 4; ++i) s[i] = q[i] + sigma * g();
      rx.push_back(s);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto words = phy::viterbi_decode(rx);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::int64_t byte_errors = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) byte_errors += (words[i] & 0xFF) != bytes[i];
    const double n = static_cast<double>(o.symbols);
    r.coded_byte_error_rate = static_cast<double>(byte_errors) / n;
    r.coded_ci95 = 1.96 * std::sqrt(r.coded_byte_error_rate * (1 - r.coded_byte_error_rate) / n);

    total_symbols += n;
    total_seconds += seconds;
    rows.push_back(r);
  }

  std::ostringstream csv;
  csv << "sigma,snr_db,uncoded_ser,uncoded_ser_closed_form,uncoded_4d_error_rate,"
         "coded_byte_error_rate,coded_byte_error_ci95\n";
  for (const auto& r : rows)
    csv << fmt::format("{},{:.4f},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e}\n", r.sigma, r.snr_db,
                       r.uncoded_ser, r.uncoded_ser_closed_form, r.uncoded_4d_error_rate,
                       r.coded_byte_error_rate, r.coded_ci95);
  const std::filesystem::path dir(o.out_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "awgn.csv", csv.str());
  Json summary;
  summary["channel"] = "awgn";
  summary["symbols_per_point"] = o.symbols;
  summary["seed"] = o.seed;
  summary["coded_mean_energy_per_dimension"] = energy;
  // Wall-clock speed: the only figure that differs between runs of one seed, so it stays out of
  // awgn.csv.
  summary["decode_symbols_per_second"] = total_seconds > 0 ? total_symbols / total_seconds : 0.0;
  write_file_atomically(dir / "phy.json", summary.dump(2) + "\n");
  if (!o.quiet) {
    fmt::print("gbesim phy: AWGN channel (no cable model yet), {} 4D symbols per point, seed {}\n",
               o.symbols, o.seed);
    fmt::print("{:>7} {:>8} {:>12} {:>12} {:>12} {:>12}\n", "sigma", "SNR dB", "uncoded SER",
               "closed form", "uncoded 4D", "coded bytes");
    for (const auto& r : rows)
      fmt::print("{:>7.3f} {:>8.2f} {:>12.3e} {:>12.3e} {:>12.3e} {:>12.3e}\n", r.sigma, r.snr_db,
                 r.uncoded_ser, r.uncoded_ser_closed_form, r.uncoded_4d_error_rate,
                 r.coded_byte_error_rate);
    fmt::print("Viterbi decoding: {:.3g} 4D symbols/s; results: {}/ (awgn.csv, phy.json)\n",
               summary["decode_symbols_per_second"].get<double>(), dir.string());
  }
  return 0;
}

}  // namespace gbesim
