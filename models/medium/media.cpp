#include "models/medium/media.hpp"

namespace gbesim {

const ChoiceList<MediumBasis>& choice_list(MediumBasis) {
  static const ChoiceList<MediumBasis> list = {
      {MediumBasis::budget, "budget", "the standard's worst-case delay-table figure"},
      {MediumBasis::typical, "typical", "a nominal velocity"},
  };
  return list;
}

const ChoiceList<MediumConfidence>& choice_list(MediumConfidence) {
  static const ChoiceList<MediumConfidence> list = {
      {MediumConfidence::confirmed, "confirmed", "a published table or worked example gives it"},
      {MediumConfidence::derived, "derived", "computed from confirmed figures"},
      {MediumConfidence::unconfirmed, "unconfirmed", "recalled, not checked against its source"},
      {MediumConfidence::assumption, "assumption", "assumed equal to a similar medium's"},
      {MediumConfidence::user, "user", "given in the scenario or topology"},
  };
  return list;
}

const ParamTable<MediumParams>& medium_param_table() {
  static const ParamTable<MediumParams> table = [] {
    ParamTable<MediumParams> t("medium", "a cable medium: its one-way delay per metre");
    t.real("ns_per_m", &MediumParams::ns_per_m, "ns/m", 0.0, 1000.0,
           "one-way propagation delay per metre of cable")
        .choice("basis", &MediumParams::basis)
        .text("source", &MediumParams::source, "where the figure comes from")
        .choice("confidence", &MediumParams::confidence,
                "how sure the figure is (docs/references.md)");
    return t;
  }();
  return table;
}

namespace {

// docs/references.md, Standards B.2 and B.3. 802.3's tables give round-trip bit times per metre;
// one-way ns/m = BT/m x 1000 / (2 x Mb/s): 1.14 BT/m at 100 Mb/s is 5.7 ns/m, 1.112 is 5.56,
// 1.0 is 5.0; 11.12 BT/m at 1000 Mb/s is 5.56, 10.10 is 5.05.
constexpr const char* kClause29 =
    "802.3u Clause 29 model 2 (Intel Express hub manual App. B; Black Box LH8000A)";
constexpr const char* kClause42 = "802.3 Clause 42 component delays, recalled (Standards B.3)";

// The rows' words, short.
constexpr MediumBasis kBudget = MediumBasis::budget;
constexpr MediumBasis kTypical = MediumBasis::typical;
constexpr MediumConfidence kConfirmed = MediumConfidence::confirmed;
constexpr MediumConfidence kUnconfirmed = MediumConfidence::unconfirmed;
constexpr MediumConfidence kAssumption = MediumConfidence::assumption;

MediumRow row(const char* name, double ns_per_m, MediumBasis basis, const char* source,
              MediumConfidence confidence) {
  return {name, {ns_per_m, basis, source, confidence}};
}

}  // namespace

const std::vector<MediumRow>& builtin_media() {
  static const std::vector<MediumRow> rows = {
      row("cat3", 5.7, kBudget, kClause29, kConfirmed),
      row("cat4", 5.7, kBudget, kClause29, kConfirmed),
      row("cat5", 5.56, kBudget, kClause29, kConfirmed),
      row("stp", 5.56, kBudget, kClause29, kConfirmed),
      row("cat5e", 5.56, kBudget, "assumed equal to Cat 5 (802.3u predates Cat 5e)", kAssumption),
      row("cat6", 5.56, kBudget, "assumed equal to Cat 5 (802.3u predates Cat 6)", kAssumption),
      row("twinax", 5.05, kBudget, kClause42, kUnconfirmed),
      row("fibre_mm", 5.0, kBudget,
          "802.3u Clause 29 model 2 (1.0 BT/m; 412 m of fibre is 412 BT); the recalled Clause 42 "
          "figure is 10.10 BT/m = 5.05 ns/m",
          kConfirmed),
      row("fibre_sm", 5.0, kBudget, "assumed equal to multimode fibre", kAssumption),
      // Fibre types by core and modal bandwidth (the names of gbesim phy --pmd): the same delay
      // as fibre_mm / fibre_sm; their segment limits differ (1000BASE-SX per modal bandwidth).
      row("mmf_62_5_160", 5.0, kBudget, "as fibre_mm", kConfirmed),
      row("mmf_62_5_200", 5.0, kBudget, "as fibre_mm", kConfirmed),
      row("mmf_50_400", 5.0, kBudget, "as fibre_mm", kConfirmed),
      row("mmf_50_500", 5.0, kBudget, "as fibre_mm", kConfirmed),
      row("smf_9", 5.0, kBudget, "as fibre_sm (assumed equal to multimode fibre)", kAssumption),
      row("coax_thick", 4.33, kBudget,
          "802.3 Clause 8 (10BASE5): minimum velocity of propagation 0.77 c, recalled",
          kUnconfirmed),
      row("coax_thin", 5.13, kBudget,
          "802.3 Clause 10 (10BASE2): minimum velocity of propagation 0.65 c, recalled",
          kUnconfirmed),
      // Nominal velocities: faster than the budget figures.
      row("utp_typical", 4.83, kTypical,
          "nominal velocity of propagation 0.69 c, a typical Cat 5e datasheet value", kAssumption),
      row("fibre_typical", 4.90, kTypical, "silica fibre, group index about 1.47", kAssumption),
      row("smf28_1310", 4.896, kTypical,
          "single-mode fibre at 1310 nm (10GBASE-LR, 1000BASE-LX): effective group index 1.4677 "
          "(Corning SMF-28 product information, recalled), 1.4677 / c",
          kUnconfirmed),
  };
  return rows;
}

const MediumRow* find_builtin_medium(const std::string& name) {
  for (const auto& r : builtin_media())
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace gbesim
