#pragma once
// `gbesim phy`: the link-level 1000BASE-T model, so far over an AWGN channel only (no cable yet,
// docs/phy.md): for each noise level, uncoded PAM-5 symbol errors against the closed form
// 2(1 - 1/5) Q(1 / 2 sigma), uncoded 4D symbol errors, and the trellis-coded stream's byte errors
// after Viterbi decoding; and how fast the decoder runs (4D symbols per second). Writes
// awgn.csv and phy.json (atomically) to the output directory.

#include <cstdint>
#include <string>
#include <vector>

namespace gbesim {

struct PhyOptions {
  std::string out_dir = "results/phy-awgn";
  std::vector<double> sigmas = {0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.25, 0.30};
  std::int64_t symbols = 200'000;  // 4D symbols per noise level
  std::int64_t seed = 1;
  bool quiet = false;
};

int run_phy(const PhyOptions& options);

}  // namespace gbesim
