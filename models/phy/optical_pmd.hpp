#pragma once
// 1000BASE-X physical media dependents beside 1000BASE-T (IEEE 802.3 Clauses 38 and 39): the
// worst-case optical link power budget of 1000BASE-SX and LX per fibre type, and the reach per
// fibre as the smaller of the power-limited length and the standard's modal-bandwidth operating
// range; 1000BASE-CX as its 25 m jumper limit. Figures and sources are in docs/references.md
// (Standards B.5) and docs/phy.md.
//
// Per length L of fibre:
//   power budget      = minimum average launch power - receive sensitivity      (dB)
//   insertion loss(L) = attenuation(fibre, at the standard's calculation wavelength) x L
//                       + connection and splice allocation (1.5 dB)
//   margin(L)         = power budget - insertion loss(L) - link power penalties
// where the link power penalties are the standard's worst-case figures at its operating range
// (ISI, extinction ratio, RIN, mode partition noise, modal noise together): they are data, taken
// at the longest length and so pessimistic for shorter links. The power-limited reach is where
// the margin reaches 0; the reach is the smaller of it and the operating range.
// Does not model: intersymbol interference or any penalty as a function of length (the modal
// bandwidth reach is the standard's table, not derived from a bandwidth model), the receiver's
// overload (reported against the maximum launch power with no loss), eye safety, mode-
// conditioning patch cords (required for LX on multimode fibre), or 1000BASE-CX's electrical
// budget (its reach is the 25 m the standard states).

#include <optional>
#include <string>
#include <vector>

namespace gbesim::phy {

// A fibre type (or, for 1000BASE-CX, the 150-ohm jumper cable).
struct FibreType {
  std::string name;  // "mmf-62.5-160", ..., "smf-9", "stp-150"
  std::string description;
  std::string source;
};
const std::vector<FibreType>& fibre_types();

// One PMD on one fibre type: the standard's figures.
struct PmdOnFibre {
  std::string fibre;
  double modal_bandwidth_mhz_km = 0;  // 0: not applicable (single-mode, copper)
  double operating_range_m = 0;       // the standard's maximum length
  double attenuation_db_per_km = 0;   // at the budget table's calculation wavelength
  double link_penalties_db = 0;       // at the operating range
  double tx_min_dbm = 0;              // minimum average launch power
  std::string source;
  bool confirmed = true;  // false: recalled, not found in a published reproduction
};

struct Pmd {
  std::string name;  // "1000base-sx", "1000base-lx", "1000base-cx"
  std::string medium;
  double wavelength_min_nm = 0;  // 0 for copper
  double wavelength_max_nm = 0;
  double tx_max_dbm = 0;
  double rx_sensitivity_dbm = 0;
  double rx_max_dbm = 0;  // receiver overload (maximum average receive power)
  double connection_loss_db = 1.5;
  bool optical = true;
  std::vector<PmdOnFibre> fibres;
  std::string source;
};
const std::vector<Pmd>& pmds();
const Pmd* find_pmd(const std::string& name);
// A fibre type's name; the media table's identifier for it is accepted too (mmf_62_5_200).
std::string fibre_name(const std::string& name);
const PmdOnFibre* find_fibre(const Pmd& pmd, const std::string& fibre);

struct PmdPoint {
  double length_m = 0;
  double insertion_loss_db = 0;
  double margin_db = 0;      // power budget - insertion loss - penalties
  bool within_power = true;  // margin >= 0
  bool within_range = true;  // length <= the operating range
  bool pass = true;
};

struct PmdCheck {
  std::string pmd;
  std::string fibre;
  double power_budget_db = 0;
  double link_penalties_db = 0;
  double operating_range_m = 0;
  std::optional<double> power_reach_m;  // optical only
  double reach_m = 0;
  std::string limited_by;  // "modal bandwidth (the standard's operating range)", "power budget"
  double unallocated_margin_db = 0;  // the margin at the operating range
  double overload_margin_db = 0;     // rx max - tx max: >= 0 means no short-link overload
  std::vector<PmdPoint> points;
};

// `connection_loss_db`: replaces the standard's 1.5 dB allocation when given.
PmdCheck check_pmd(const Pmd& pmd, const PmdOnFibre& fibre, const std::vector<double>& lengths_m,
                   std::optional<double> connection_loss_db = std::nullopt);

}  // namespace gbesim::phy
