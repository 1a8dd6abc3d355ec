#include "models/medium/link_params.hpp"

namespace gbesim {

const ParamTable<LinkParams>& link_param_table() {
  static const ParamTable<LinkParams> table = [] {
    ParamTable<LinkParams> t("link", "a full-duplex point-to-point cable between two stations");
    t.real("cable_m", &LinkParams::cable_m, "m", 0.0, 100'000.0, "cable length")
        .text("medium", &LinkParams::medium,
              "cable medium, a row of the media table (built in or the scenario's \"media\")")
        .real("ber", &LinkParams::ber, "errors/bit", 0.0, 1.0,
              "bit-error rate applied independently to every DA..FCS bit, both directions");
    return t;
  }();
  return table;
}

}  // namespace gbesim
