#pragma once
// The longest cable segment 802.3 allows, per speed and medium (so per PHY: 10BASE5, 10BASE2,
// 10BASE-T, 10BASE-FL, 100BASE-TX/T4/FX, 1000BASE-T/CX/SX/LX), as data with sources
// (docs/references.md, Standards B.4). The topology check reports every cable longer than its
// rule; a run with such a plant still runs (that is how to look past the edge) and counts them.
//
// Does not model: the attenuation behind each limit (the 1000BASE-T link model has its own, and
// 1000BASE-X power budgets are separate), 10BASE5/10BASE2 tap counts and spacing, or which
// twisted-pair PHY a 100 Mb/s Cat 3 cable carries (100BASE-T4 is assumed: TX needs Cat 5).
// Multimode fibre at 1000 Mb/s is judged as 1000BASE-SX: on a medium naming the fibre type
// (mmf_62_5_160 220 m, mmf_62_5_200 275 m, mmf_50_400 500 m, mmf_50_500 550 m), else as the
// shortest, 62.5 um 160 MHz.km. 1000BASE-LX on multimode (550 m on every type) is not told
// apart: the cable does not say which PMD its ports run.

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
};

const std::vector<SegmentRule>& segment_rules();
// The rule for a cable of `medium` at `rate_mbps`, or nullptr (no PHY of that speed uses it).
const SegmentRule* segment_rule(std::int64_t rate_mbps, const std::string& medium);
// "180 m of cat5 is longer than 100BASE-TX's 100 m segment limit (<source>)", or "" when the
// cable is within its limit or no rule applies.
std::string segment_problem(std::int64_t rate_mbps, const std::string& medium, double length_m);

}  // namespace gbesim
