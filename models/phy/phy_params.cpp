#include "models/phy/phy_params.hpp"

namespace gbesim::phy {

const ParamTable<PhyReceiverParams>& phy_receiver_param_table() {
  static const ParamTable<PhyReceiverParams> table = [] {
    ParamTable<PhyReceiverParams> t("phy.receiver",
                                    "the 1000BASE-T receiver's spans and resolution, and the noise "
                                    "at its input (models/phy/link_model; docs/phy.md)");
    t.integer("echo_taps", &PhyReceiverParams::echo_taps, "symbols", 0, 1000, "echo canceller span")
        .integer("next_taps", &PhyReceiverParams::next_taps, "symbols", 0, 1000,
                 "span of each of the three NEXT cancellers")
        .integer("ffe_taps", &PhyReceiverParams::ffe_taps, "taps", 1, 256,
                 "feed-forward equaliser taps")
        .integer("dfe_taps", &PhyReceiverParams::dfe_taps, "taps", 0, 512,
                 "decision-feedback equaliser taps")
        .integer("adc_bits", &PhyReceiverParams::adc_bits, "bits", 0, 16,
                 "ADC resolution (0: no quantisation)")
        .real("noise_dbm_per_hz", &PhyReceiverParams::noise_dbm_per_hz, "dBm/Hz", -200.0, -60.0,
              "background noise at the receiver input (100 ohm)");
    return t;
  }();
  return table;
}

void apply(const PhyReceiverParams& r, PhyLinkParams& link) {
  link.echo_canceller_taps = static_cast<int>(r.echo_taps);
  link.next_canceller_taps = static_cast<int>(r.next_taps);
  link.ffe_taps = static_cast<int>(r.ffe_taps);
  link.dfe_taps = static_cast<int>(r.dfe_taps);
  link.adc_bits = static_cast<int>(r.adc_bits);
  link.background_noise_dbm_per_hz = r.noise_dbm_per_hz;
}

}  // namespace gbesim::phy
