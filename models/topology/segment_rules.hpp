#pragma once
// The longest cable segment 802.3 allows, per speed and medium (so per PHY: 10BASE5, 10BASE2,
// 10BASE-T, 10BASE-FL, 100BASE-TX/T4/FX, 1000BASE-T/CX/SX/LX), as data with sources
// (docs/references.md, Standards B.4). The topology check reports every cable longer than its
// rule; a run with such a plant still runs (that is how to look past the edge) and counts them.
//
// Does not model: the attenuation behind each limit (the 1000BASE-T link model has its own, and
// 1000BASE-X power budgets are separate), 10BASE5/10BASE2 tap counts and spacing, or which
// twisted-pair PHY a 100 Mb/s Cat 3 cable carries (100BASE-T4 is assumed: TX needs Cat 5).
// At 1000 Mb/s a cable may name its PMD ("1000base-sx", "1000base-lx", "1000base-cx",
// "1000base-t"); the 1000BASE-X rows are the PMD table's operating ranges (models/phy/
// optical_pmd). A cable that names none gets its medium's first row: multimode is 1000BASE-SX
// (mmf_62_5_160 220 m, mmf_62_5_200 275 m, mmf_50_400 500 m, mmf_50_500 550 m; the generic
// fibre_mm as the shortest), single-mode 1000BASE-LX 5000 m, shielded copper 1000BASE-CX 25 m.
// 1000BASE-LX on multimode reaches 550 m on every type.

#include <cstdint>
#include <string>
#include <vector>

namespace gbesim {

struct SegmentRule {
  std::int64_t rate_mbps = 100;
  std::string medium;  // a row of the media table
  std::string phy;     // "100BASE-TX"
  double max_m = 100;
  std::string source;
  std::string confidence;  // confirmed | derived | unconfirmed | assumption
  std::string pmd;         // 1000 Mb/s rows: "1000base-sx" ...; "" below
};

const std::vector<SegmentRule>& segment_rules();
// The rule for a cable of `medium` at `rate_mbps` run by `pmd` ("" for the medium's default),
// or nullptr (no PHY of that speed, or not that PMD, uses it).
const SegmentRule* segment_rule(std::int64_t rate_mbps, const std::string& medium,
                                const std::string& pmd = "");
// The PMD names a cable may give, in table order.
std::vector<std::string> segment_pmds();
// "1000base-sx does not run on smf_9 (it runs on ...)", or "" when `pmd` is empty or runs on
// the medium at that speed.
std::string pmd_problem(std::int64_t rate_mbps, const std::string& medium, const std::string& pmd);
// "180 m of cat5 is longer than 100BASE-TX's 100 m segment limit (<source>)", or "" when the
// cable is within its limit or no rule applies.
std::string segment_problem(std::int64_t rate_mbps, const std::string& medium, double length_m,
                            const std::string& pmd = "");

}  // namespace gbesim
