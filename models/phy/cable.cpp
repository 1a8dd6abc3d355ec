#include "models/phy/cable.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace gbesim::phy {

const std::array<CableCategory, 3>& cable_categories() {
  // clang-format off
  static const std::array<CableCategory, 3> kTable = {{
      {"cat5", 2.1, 0.529, 0.0, 0.0, 0.4, 27.1, 16.8, 17.0,
       {{{0.0, 15.0, 0.0}, {20.0, 28.01, 10.0}, {20.0, 28.01, 10.0}}}, 50.0,
       "IEEE 802.3 40.7.2 (docs/references.md, Standards C.2, UNCONFIRMED): IL 2.1 f^0.529 "
       "+ 0.4/f, NEXT 27.1 - 16.8 log(f/100), ELFEXT 17 - 20 log(f/100), RL 15 / "
       "15 - 10 log(f/20) (TSB-95)"},
      {"cat5e", 1.05 * 1.9108 + 0.16, 0.5, 1.05 * 0.0222, 1.05 * 0.2, 0.0, 30.1, 15.0, 17.4,
       {{{0.0, 17.0, 0.0}, {20.0, 30.01, 10.0}, {20.0, 30.01, 10.0}}}, 50.0,
       "TIA/EIA-568-B.2 channel (recalled): IL 24.0 dB, NEXT 30.1 dB, ELFEXT 17.4 dB at "
       "100 MHz; RL 17 / 17 - 10 log(f/20) (LANTEK limit table: 10.0 dB at 100 MHz)"},
      {"cat6", 1.05 * 1.808 + 0.08, 0.5, 1.05 * 0.017, 1.05 * 0.2, 0.0, 39.9, 15.0, 23.3,
       {{{0.0, 19.0, 0.0}, {10.0, 24.0, 5.0}, {40.0, 32.0, 10.0}}}, 50.0,
       "TIA/EIA-568-B.2-1 channel (recalled): IL 21.6 dB, NEXT 39.9 dB, ELFEXT 23.3 dB at "
       "100 MHz; RL 19 / 24 - 5 log f / 32 - 10 log f (LANTEK limit table: 12.0 dB at 100 MHz)"},
  }};
  // clang-format on
  return kTable;
}

const CableCategory* find_cable_category(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& c : cable_categories())
    if (c.name == lower) return &c;
  return nullptr;
}

double insertion_loss_db(const CableCategory& c, double f_mhz, double length_m) {
  const double f = std::max(f_mhz, 1e-6);
  const double fl = std::max(f_mhz, 1.0);
  const double per_100m =
      c.il_a * std::pow(f, c.il_p) + c.il_b * f + c.il_c / std::sqrt(fl) + c.il_d / fl;
  return per_100m * length_m / 100.0;
}

double next_loss_db(const CableCategory& c, double f_mhz) {
  const double f = std::max(f_mhz, 1.0);
  return std::min(60.0, c.next_db_at_100mhz - c.next_slope_db_per_decade * std::log10(f / 100.0));
}

double elfext_db(const CableCategory& c, double f_mhz, double length_m) {
  const double f = std::max(f_mhz, 1.0);
  const double l = std::max(length_m, 1.0);
  return std::min(80.0, c.elfext_db_at_100mhz_100m - 20.0 * std::log10(f / 100.0) -
                            10.0 * std::log10(l / 100.0));
}

double return_loss_db(const CableCategory& c, double f_mhz) {
  const double f = std::max(f_mhz, 1.0);
  const ReturnLossSegment* seg = &c.rl[0];
  for (const auto& s : c.rl)
    if (f >= s.from_mhz) seg = &s;
  return seg->a_db - seg->b_db_per_decade * std::log10(f);
}

}  // namespace gbesim::phy
