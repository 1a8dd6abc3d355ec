#include "models/medium/media.hpp"

namespace gbesim {

const ParamTable<MediumParams>& medium_param_table() {
  static const ParamTable<MediumParams> table = [] {
    ParamTable<MediumParams> t("medium", "a cable medium");
    t.real("ns_per_m", &MediumParams::ns_per_m, "ns/m", 0.0, 1000.0,
           "one-way propagation delay per metre of cable");
    return t;
  }();
  return table;
}

const std::vector<MediumRow>& builtin_media() {
  // 5.0 ns/m is a nominal velocity of propagation of about 0.67 c, typical of twisted pair and
  // fibre; it is the project default (issue 2) until the topology model brings the per-medium
  // Clause 29/42 delay tables. Users override per medium.
  static const std::vector<MediumRow> rows = {
      {"cat3", {5.0}, "nominal 0.67 c (assumption; 802.3 Clause 14 allows up to 5.7 ns/m)"},
      {"cat5", {5.0}, "nominal 0.67 c (assumption)"},
      {"cat5e", {5.0}, "nominal 0.67 c (assumption)"},
      {"cat6", {5.0}, "nominal 0.67 c (assumption)"},
      {"stp", {5.0}, "nominal 0.67 c (assumption)"},
      {"twinax", {5.0}, "nominal 0.67 c (assumption)"},
      {"multimode_fiber", {5.0}, "nominal 0.67 c (assumption; group index about 1.48)"},
      {"singlemode_fiber", {5.0}, "nominal 0.67 c (assumption; group index about 1.47)"},
  };
  return rows;
}

}  // namespace gbesim
