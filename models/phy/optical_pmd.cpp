#include "models/phy/optical_pmd.hpp"

#include <algorithm>

namespace gbesim::phy {
namespace {

// docs/references.md, Standards B.5 gives each figure's source.
const char* kSxTables =
    "IEEE 802.3 Clause 38.3: 1000BASE-SX transmit, receive and link power budget tables "
    "(reproduced in vendor SFP manuals)";
const char* kLxTables =
    "IEEE 802.3 Clause 38.4: 1000BASE-LX transmit and receive tables (reproduced in vendor "
    "manuals); its link power budget table recalled, not found in a reproduction";

}  // namespace

const std::vector<FibreType>& fibre_types() {
  static const std::vector<FibreType> types = {
      {"mmf-62.5-160", "62.5 um multimode, 160 MHz.km at 850 nm, 500 at 1300 nm", kSxTables},
      {"mmf-62.5-200", "62.5 um multimode, 200 MHz.km at 850 nm, 500 at 1300 nm", kSxTables},
      {"mmf-50-400", "50 um multimode, 400 MHz.km at 850 nm, 400 at 1300 nm", kSxTables},
      {"mmf-50-500", "50 um multimode, 500 MHz.km at 850 nm, 500 at 1300 nm", kSxTables},
      {"smf-9", "9/10 um single-mode", kLxTables},
      {"stp-150", "150-ohm balanced shielded jumper cable (1000BASE-CX)",
       "IEEE 802.3 Clause 39: 25 m"},
  };
  return types;
}

const std::vector<Pmd>& pmds() {
  // SX: attenuation at the budget table's 830 nm calculation wavelength, 4.0 dB/km (62.5 um) and
  // 3.75 dB/km (50 um): with the 1.5 dB connection allocation they give the table's insertion
  // losses 2.38 / 2.60 / 3.37 / 3.56 dB. LX: the attenuations that give its recalled insertion
  // losses (2.35 dB over 550 m of multimode, 4.57 dB over 5 km of single-mode).
  static const std::vector<Pmd> all = {
      {"1000base-sx",
       "multimode fibre, shortwave laser",
       770,
       860,
       0,
       -17,
       0,
       1.5,
       true,
       {
           {"mmf-62.5-160", 160, 220, 4.0, 4.27, -9.5, kSxTables, true},
           {"mmf-62.5-200", 200, 275, 4.0, 4.29, -9.5, kSxTables, true},
           {"mmf-50-400", 400, 500, 3.75, 4.07, -9.5, kSxTables, true},
           {"mmf-50-500", 500, 550, 3.75, 3.57, -9.5, kSxTables, true},
       },
       kSxTables},
      {"1000base-lx",
       "multimode or single-mode fibre, longwave laser",
       1270,
       1355,
       -3,
       -19,
       -3,
       1.5,
       true,
       {
           {"mmf-62.5-160", 500, 550, 0.85 / 0.55, 3.48, -11.5, kLxTables, false},
           {"mmf-62.5-200", 500, 550, 0.85 / 0.55, 3.48, -11.5, kLxTables, false},
           {"mmf-50-400", 400, 550, 0.85 / 0.55, 5.08, -11.5, kLxTables, false},
           {"mmf-50-500", 500, 550, 0.85 / 0.55, 3.96, -11.5, kLxTables, false},
           {"smf-9", 0, 5000, 3.07 / 5.0, 3.27, -11.0, kLxTables, false},
       },
       kLxTables},
      {"1000base-cx",
       "150-ohm shielded copper jumper",
       0,
       0,
       0,
       0,
       0,
       0,
       false,
       {{"stp-150", 0, 25, 0, 0, 0, "IEEE 802.3 Clause 39: 25 m", true}},
       "IEEE 802.3 Clause 39"},
  };
  return all;
}

const Pmd* find_pmd(const std::string& name) {
  for (const auto& p : pmds())
    if (p.name == name) return &p;
  return nullptr;
}

std::string fibre_name(const std::string& name) {
  // The media table's identifiers: mmf_62_5_200 is mmf-62.5-200.
  std::string s = name;
  std::replace(s.begin(), s.end(), '_', '-');
  if (const auto at = s.find("62-5"); at != std::string::npos) s.replace(at, 4, "62.5");
  return s;
}

const PmdOnFibre* find_fibre(const Pmd& pmd, const std::string& fibre) {
  const std::string name = fibre_name(fibre);
  for (const auto& f : pmd.fibres)
    if (f.fibre == name) return &f;
  return nullptr;
}

PmdCheck check_pmd(const Pmd& pmd, const PmdOnFibre& fibre, const std::vector<double>& lengths_m,
                   std::optional<double> connection_loss_db) {
  PmdCheck c;
  c.pmd = pmd.name;
  c.fibre = fibre.fibre;
  c.operating_range_m = fibre.operating_range_m;
  c.reach_m = fibre.operating_range_m;
  c.limited_by = pmd.optical ? "modal bandwidth (the standard's operating range)"
                             : "the standard's jumper length";
  if (pmd.optical && fibre.modal_bandwidth_mhz_km == 0)
    c.limited_by = "the standard's operating range (chromatic dispersion and power)";
  const double connections = connection_loss_db.value_or(pmd.connection_loss_db);
  c.power_budget_db = pmd.optical ? fibre.tx_min_dbm - pmd.rx_sensitivity_dbm : 0;
  c.link_penalties_db = fibre.link_penalties_db;
  auto insertion_loss = [&](double length_m) {
    return fibre.attenuation_db_per_km * length_m / 1000.0 + connections;
  };
  auto margin = [&](double length_m) {
    return c.power_budget_db - insertion_loss(length_m) - c.link_penalties_db;
  };
  if (pmd.optical) {
    c.power_reach_m = std::max(0.0, (c.power_budget_db - connections - c.link_penalties_db) /
                                        fibre.attenuation_db_per_km * 1000.0);
    if (*c.power_reach_m < c.reach_m) {
      c.reach_m = *c.power_reach_m;
      c.limited_by = "power budget";
    }
    c.unallocated_margin_db = margin(fibre.operating_range_m);
    c.overload_margin_db = pmd.rx_max_dbm - pmd.tx_max_dbm;
  }
  for (const double l : lengths_m) {
    PmdPoint p;
    p.length_m = l;
    if (pmd.optical) {
      p.insertion_loss_db = insertion_loss(l);
      p.margin_db = margin(l);
      p.within_power = p.margin_db >= 0;
    }
    p.within_range = l <= fibre.operating_range_m;
    p.pass = p.within_power && p.within_range;
    c.points.push_back(p);
  }
  return c;
}

}  // namespace gbesim::phy
