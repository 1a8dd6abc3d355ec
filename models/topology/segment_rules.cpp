#include "models/topology/segment_rules.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "models/phy/optical_pmd.hpp"

namespace gbesim {

namespace {

// docs/references.md, Standards B.4.
constexpr const char* kTenQuickRef =
    "802.3 Clauses 8, 10, 14, 18; [Spurgeon-QR] 10quickref (10BASE2: 185 m, not 200)";
constexpr const char* kFastManuals =
    "802.3u Clauses 23, 25, 26: 100 m of twisted pair; 412 m of fibre half duplex (Net Optics FMC "
    "manual; switch manuals)";
constexpr const char* kGigUtp = "802.3ab Clause 40: 100 m of Cat 5 (GEA 1000BASE-T white paper)";
constexpr const char* kX =
    "802.3 Clause 38 operating range per fibre type (docs/references.md, Standards B.5)";
constexpr const char* kCx = "802.3 Clause 39 jumper length (docs/references.md, Standards B.5)";

// The media rows that are a fibre type of the PMD table. The generic rows are judged as the
// type that limits them most: fibre_mm and fibre_typical as 62.5 um 160 MHz.km.
std::vector<const char*> media_of_fibre(const std::string& fibre) {
  if (fibre == "mmf-62.5-160") return {"mmf_62_5_160", "fibre_mm", "fibre_typical"};
  if (fibre == "mmf-62.5-200") return {"mmf_62_5_200"};
  if (fibre == "mmf-50-400") return {"mmf_50_400"};
  if (fibre == "mmf-50-500") return {"mmf_50_500"};
  if (fibre == "smf-9") return {"smf_9", "fibre_sm"};
  if (fibre == "stp-150") return {"stp", "twinax"};
  return {};
}

std::string fibre_label(const std::string& fibre) {
  if (fibre == "smf-9") return "9 um single-mode";
  if (fibre == "stp-150") return "150 ohm shielded copper";
  // mmf-62.5-160 -> 62.5 um, 160 MHz.km
  const auto core = fibre.find('-') + 1;
  const auto bw = fibre.rfind('-');
  return fibre.substr(core, bw - core) + " um, " + fibre.substr(bw + 1) + " MHz.km";
}

}  // namespace

const std::vector<SegmentRule>& segment_rules() {
  static const std::vector<SegmentRule> rows = [] {
    std::vector<SegmentRule> r;
    auto add = [&r](std::int64_t rate, std::vector<const char*> media, const char* phy, double m,
                    const char* source, const char* confidence, const char* pmd = "") {
      for (const char* medium : media) r.push_back({rate, medium, phy, m, source, confidence, pmd});
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
    add(1000, {"cat5", "cat5e", "cat6", "utp_typical"}, "1000BASE-T", 100, kGigUtp, "confirmed",
        "1000base-t");
    // 1000BASE-X from the PMD table (models/phy/optical_pmd, Standards B.5): each PMD's operating
    // range on each fibre type, under the media rows that are that fibre. A medium's first row is
    // what a cable gets when it names no PMD: multimode is 1000BASE-SX (the PMD of gigabit
    // repeaters), single-mode 1000BASE-LX, shielded copper 1000BASE-CX.
    for (const phy::Pmd& pmd : phy::pmds())
      for (const phy::PmdOnFibre& f : pmd.fibres)
        for (const char* medium : media_of_fibre(f.fibre)) {
          std::string name = pmd.name;
          std::transform(name.begin(), name.end(), name.begin(),
                         [](unsigned char ch) { return std::toupper(ch); });
          r.push_back({1000, medium, name + " (" + fibre_label(f.fibre) + ")", f.operating_range_m,
                       pmd.name == "1000base-cx" ? kCx : kX, "confirmed", pmd.name});
        }
    return r;
  }();
  return rows;
}

const SegmentRule* segment_rule(std::int64_t rate_mbps, const std::string& medium,
                                const std::string& pmd) {
  for (const auto& r : segment_rules())
    if (r.rate_mbps == rate_mbps && r.medium == medium && (pmd.empty() || r.pmd == pmd)) return &r;
  return nullptr;
}

std::vector<std::string> segment_pmds() {
  std::vector<std::string> out;
  for (const auto& r : segment_rules())
    if (!r.pmd.empty() && std::find(out.begin(), out.end(), r.pmd) == out.end())
      out.push_back(r.pmd);
  return out;
}

std::string pmd_problem(std::int64_t rate_mbps, const std::string& medium, const std::string& pmd) {
  if (pmd.empty() || segment_rule(rate_mbps, medium, pmd) != nullptr) return {};
  std::ostringstream s;
  if (rate_mbps != 1000) {
    s << pmd << " is a 1000 Mb/s PHY and this cable runs at " << rate_mbps << " Mb/s";
    return s.str();
  }
  s << pmd << " does not run on " << medium;
  std::string on;
  for (const auto& r : segment_rules())
    if (r.pmd == pmd) on += (on.empty() ? "" : ", ") + r.medium;
  if (!on.empty()) s << " (it runs on " << on << ")";
  return s.str();
}

std::string segment_problem(std::int64_t rate_mbps, const std::string& medium, double length_m,
                            const std::string& pmd) {
  const SegmentRule* rule = segment_rule(rate_mbps, medium, pmd);
  if (rule == nullptr || length_m <= rule->max_m) return {};
  std::ostringstream s;
  s << length_m << " m of " << medium << " is longer than " << rule->phy << "'s " << rule->max_m
    << " m segment limit (" << rule->source << ")";
  return s.str();
}

}  // namespace gbesim
