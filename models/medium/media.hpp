#pragma once
// The media table: one one-way propagation delay per metre for each cable medium, used by
// everything that needs one -- full-duplex links, collision domains (cable_m), the topology
// check's path delay values (round trip in bit times = 2 x ns_per_m x Mb/s / 1000) and the
// 1000BASE-T link model's echo and reflection delays. Each row says what its figure is:
//  - "budget": the standard's worst-case figure from its delay tables (802.3 Clause 29 model 2
//    at 100 Mb/s, Clause 42 at 1000 Mb/s), which the path-delay arithmetic is defined with;
//  - "typical": a cable's nominal velocity of propagation, faster than the budget figure.
// The built-in names are budget rows (what a user gets by default); the *_typical rows give the
// nominal velocity. A scenario's or topology's "media" block changes or adds rows.
//
// Does not model: anything but a fixed delay per metre (no attenuation, bandwidth, pair skew or
// dependence on speed or frequency; the link model has its own loss and crosstalk per category),
// and a speed-dependent budget figure: where Clause 29 (1.0 BT/m, fibre at 100 Mb/s) and the
// recalled Clause 42 figure (10.10 BT/m at 1000 Mb/s) differ by 1 %, the row takes the confirmed
// one (docs/medium.md).

#include <string>
#include <vector>

#include "models/common/param_table.hpp"

namespace gbesim {

enum class MediumBasis { budget, typical };
const ChoiceList<MediumBasis>& choice_list(MediumBasis);
enum class MediumConfidence { confirmed, derived, unconfirmed, assumption, user };
const ChoiceList<MediumConfidence>& choice_list(MediumConfidence);

struct MediumParams {
  double ns_per_m = 5.56;
  MediumBasis basis = MediumBasis::budget;
  std::string source = "user";
  MediumConfidence confidence = MediumConfidence::user;
};

const ParamTable<MediumParams>& medium_param_table();

struct MediumRow {
  std::string name;
  MediumParams params;
};

const std::vector<MediumRow>& builtin_media();
// A built-in row, or nullptr.
const MediumRow* find_builtin_medium(const std::string& name);

// The round-trip delay of one metre in bit times at `rate_mbps`, as 802.3's delay tables give it.
inline double round_trip_bt_per_m(double ns_per_m, double rate_mbps) {
  return ns_per_m * rate_mbps / 500.0;
}

}  // namespace gbesim
