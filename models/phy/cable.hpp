#pragma once
// Twisted-pair cabling for 1000BASE-T as data: per category, the channel limits a 100 m channel
// (90 m of horizontal cable plus patch cords and connectors) must meet -- insertion loss, pair-to-
// pair NEXT loss, equal-level FEXT, return loss, propagation delay and delay skew -- as functions
// of frequency. The link-level model (models/phy/link_model) builds impulse responses from them.
//
// A cable AT its limit is the worst compliant cable, which is what a link budget is computed
// against; a real installation is usually better. Insertion loss and its phase scale with length
// (dB per metre); NEXT and return loss are dominated by the near-end connectors and are taken as
// independent of length; ELFEXT falls 10 dB per decade of length (FEXT power grows with the
// coupling length while the signal it is compared with falls by the insertion loss).
// Sources per row (docs/phy.md): IEEE 802.3 Clause 40.7 via docs/references.md, Standards C.2
// (Cat 5, UNCONFIRMED recalled values); TSB-95 for Cat 5 return loss and ELFEXT; TIA/EIA-568-B.2
// and B.2-1 channel limits (Cat 5e, Cat 6) as recalled and cross-checked against a cable tester's
// limit tables (IDEAL LANTEK manual, Appendix C) where those were readable.
// Does not model: temperature (insertion loss rises with it), a real cable's measured values or
// differences between pairs (every pair is at the limit), the split into horizontal cable, patch
// cords and connectors (a shorter channel is the 100 m channel's loss scaled by length), delay
// skew in use (tabulated, read by no model), or categories other than Cat 5, 5e and 6.

#include <array>
#include <string_view>

namespace gbesim::phy {

// Return loss above frequency f_from_mhz: a - b * log10(f).
struct ReturnLossSegment {
  double from_mhz;
  double a_db;
  double b_db_per_decade;
};

struct CableCategory {
  std::string_view name;
  // Insertion loss of a 100 m channel in dB, f in MHz:
  //   il_a * f^il_p + il_b * f + il_c / sqrt(f) + il_d / f   (f clamped to >= 1 MHz in the last
  //   two)
  double il_a, il_p, il_b, il_c, il_d;
  double next_db_at_100mhz;             // pair-to-pair NEXT loss at 100 MHz
  double next_slope_db_per_decade;      // falls this much per decade of frequency, capped at 60 dB
  double elfext_db_at_100mhz_100m;      // equal-level FEXT, 20 dB per decade of frequency
  std::array<ReturnLossSegment, 3> rl;  // by increasing from_mhz; unused segments repeat the last
  double skew_ns_per_100m;              // worst delay skew between pairs
  std::string_view source;
};

// Cat 5 (1000BASE-T's own link segment, Clause 40.7 + TSB-95), Cat 5e and Cat 6 channels.
const std::array<CableCategory, 3>& cable_categories();
// The category named (case-insensitive "cat5", "cat5e", "cat6"), or nullptr.
const CableCategory* find_cable_category(std::string_view name);

double insertion_loss_db(const CableCategory& c, double f_mhz, double length_m);
double next_loss_db(const CableCategory& c, double f_mhz);
double elfext_db(const CableCategory& c, double f_mhz, double length_m);
double return_loss_db(const CableCategory& c, double f_mhz);

}  // namespace gbesim::phy
