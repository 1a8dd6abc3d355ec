#include "models/topology/segment_rules.hpp"

#include <sstream>

namespace gbesim {

namespace {

// docs/references.md, Standards B.4.
constexpr const char* kTenQuickRef =
    "802.3 Clauses 8, 10, 14, 18; [Spurgeon-QR] 10quickref (10BASE2: 185 m, not 200)";
constexpr const char* kFastManuals =
    "802.3u Clauses 23, 25, 26: 100 m of twisted pair; 412 m of fibre half duplex (Net Optics FMC "
    "manual; switch manuals)";
constexpr const char* kGigUtp = "802.3ab Clause 40: 100 m of Cat 5 (GEA 1000BASE-T white paper)";
constexpr const char* kOptics =
    "1000BASE-X reach, a 2002 article on this era's optics (docs/references.md, Validation 8)";

constexpr const char* kSx =
    "802.3 Clause 38 1000BASE-SX operating range per fibre (docs/references.md, Standards B.5)";

}  // namespace

const std::vector<SegmentRule>& segment_rules() {
  static const std::vector<SegmentRule> rows = [] {
    std::vector<SegmentRule> r;
    auto add = [&r](std::int64_t rate, std::vector<const char*> media, const char* phy, double m,
                    const char* source, const char* confidence) {
      for (const char* medium : media) r.push_back({rate, medium, phy, m, source, confidence});
    };
    add(10, {"coax_thick"}, "10BASE5", 500, kTenQuickRef, "confirmed");
    add(10, {"coax_thin"}, "10BASE2", 185, kTenQuickRef, "confirmed");
    add(10, {"cat3", "cat4", "cat5", "cat5e", "cat6", "stp", "utp_typical"}, "10BASE-T", 100,
        kTenQuickRef, "confirmed");
    add(10,
        {"fibre_mm", "fibre_sm", "fibre_typical", "mmf_62_5_160", "mmf_62_5_200", "mmf_50_400",
         "mmf_50_500", "smf_9"},
        "10BASE-FL", 2000, kTenQuickRef, "confirmed");
    add(100, {"cat5", "cat5e", "cat6", "stp", "utp_typical"}, "100BASE-TX", 100, kFastManuals,
        "confirmed");
    add(100, {"cat3", "cat4"}, "100BASE-T4", 100, kFastManuals, "confirmed");
    add(100,
        {"fibre_mm", "fibre_sm", "fibre_typical", "mmf_62_5_160", "mmf_62_5_200", "mmf_50_400",
         "mmf_50_500", "smf_9"},
        "100BASE-FX (half duplex)", 412, kFastManuals, "confirmed");
    add(1000, {"cat5", "cat5e", "cat6", "utp_typical"}, "1000BASE-T", 100, kGigUtp, "confirmed");
    add(1000, {"twinax", "stp"}, "1000BASE-CX", 25, kOptics, "confirmed");
    add(1000, {"fibre_mm", "fibre_typical"}, "1000BASE-SX (62.5 um, 160 MHz.km)", 220, kOptics,
        "confirmed");
    add(1000, {"fibre_sm", "smf_9"}, "1000BASE-LX (9 um single-mode)", 5000, kOptics, "confirmed");
    // Per fibre type, 1000BASE-SX's operating range (Clause 38, Standards B.5): the multimode
    // PMD of gigabit repeaters. 1000BASE-LX reaches 550 m on every multimode type (gbesim phy
    // --pmd 1000base-lx).
    add(1000, {"mmf_62_5_160"}, "1000BASE-SX (62.5 um, 160 MHz.km)", 220, kSx, "confirmed");
    add(1000, {"mmf_62_5_200"}, "1000BASE-SX (62.5 um, 200 MHz.km)", 275, kSx, "confirmed");
    add(1000, {"mmf_50_400"}, "1000BASE-SX (50 um, 400 MHz.km)", 500, kSx, "confirmed");
    add(1000, {"mmf_50_500"}, "1000BASE-SX (50 um, 500 MHz.km)", 550, kSx, "confirmed");
    return r;
  }();
  return rows;
}

const SegmentRule* segment_rule(std::int64_t rate_mbps, const std::string& medium) {
  for (const auto& r : segment_rules())
    if (r.rate_mbps == rate_mbps && r.medium == medium) return &r;
  return nullptr;
}

std::string segment_problem(std::int64_t rate_mbps, const std::string& medium, double length_m) {
  const SegmentRule* rule = segment_rule(rate_mbps, medium);
  if (rule == nullptr || length_m <= rule->max_m) return {};
  std::ostringstream s;
  s << length_m << " m of " << medium << " is longer than " << rule->phy << "'s " << rule->max_m
    << " m segment limit (" << rule->source << ")";
  return s.str();
}

}  // namespace gbesim
