#pragma once
// `gbesim phy`: the link-level 1000BASE-T model (docs/phy.md).
// - AWGN (--channel awgn|both): per noise level, uncoded PAM-5 symbol errors against the closed
//   form 2(1 - 1/5) Q(1 / 2 sigma), uncoded 4D symbol errors, the trellis-coded stream's byte
//   errors after Viterbi decoding -> awgn.csv.
// - Cable (--channel cable|both): per category and length, the receiver solved for the cable
//   (models/phy/link_model): SNR at the slicer, margin against a coded BER of 1e-10, coded and
//   uncoded error rates, what limits it, with all cancellers, without NEXT cancellation and
//   without echo cancellation; a Monte Carlo run per point checks the solved MSE -> cable.csv;
//   the length at which the margin reaches zero -> reach.csv; eye diagrams -> eye.csv.
// - 1000BASE-X (--pmd 1000base-sx|lx|cx [--fibre ...]): per fibre type the power budget,
//   insertion loss, penalties and margin per length, and the reach -> pmd.csv, pmd.txt.
// phy.json carries the speeds (the only figures that change between runs of one seed).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/phy/phy_params.hpp"

namespace gbesim {

struct PhyOptions {
  std::string out_dir = "results/phy";
  std::string channel = "both";  // awgn, cable, both
  // A scenario whose "link_level" block sets cables, lengths, Monte Carlo symbols, eye length
  // and (from the scenario) the seed; the output goes to results/<name>-phy unless --out says.
  std::string scenario_file;
  bool out_given = false;
  std::vector<double> sigmas = {0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.25, 0.30};
  std::int64_t symbols = 200'000;  // 4D symbols per noise level
  std::int64_t seed = 1;
  std::vector<std::string> cables = {"cat5", "cat5e", "cat6"};
  std::vector<double> lengths_m;     // empty: 0, 10, ..., 200
  std::int64_t mc_symbols = 20'000;  // Monte Carlo 4D symbols per cable point (0: none)
  double eye_length_m = 100;
  // The receiver and the environment (models/phy/phy_params' table), and which of its keys the
  // command line gave (they win over a scenario's link_level.receiver).
  phy::PhyReceiverParams receiver;
  std::vector<std::string> receiver_given;
  bool quiet = false;
  // 1000BASE-X (--pmd): the optical power budget and reach per fibre type (models/phy/
  // optical_pmd) instead of the 1000BASE-T link; empty fibres: every fibre of the PMD.
  std::vector<std::string> pmds;
  std::vector<std::string> fibres;
  std::optional<double> connection_loss_db;
  std::optional<double> tx_min_dbm;  // a transceiver's own minimum launch power
};

int run_phy(const PhyOptions& options);

}  // namespace gbesim
