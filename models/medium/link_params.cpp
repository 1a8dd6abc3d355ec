#include "models/medium/link_params.hpp"

namespace gbesim {

const ParamTable<LinkParams>& link_param_table() {
  static const ParamTable<LinkParams> table = [] {
    ParamTable<LinkParams> t("link", "a full-duplex point-to-point cable between two stations");
    t.real("cable_m", &LinkParams::cable_m, "m", 0.0, 100'000.0, "cable length")
        .integer("rate_mbps", &LinkParams::rate_mbps, "Mb/s", 0, 10000,
                 "the link's line rate (10, 100, 1000, 10000); 0 = the switch port's it plugs "
                 "into, else the run's rate_mbps")
        .reference("medium", &LinkParams::medium, "medium",
                   "cable medium, a row of the media table (built in or the scenario's \"media\")")
        .real("ber", &LinkParams::ber, "errors/bit", 0.0, 1.0,
              "bit-error rate applied independently to every DA..FCS bit, both directions")
        .word("phy", &LinkParams::phy, {"ideal", "1000base-t"},
              "\"ideal\" (bits with ber) or \"1000base-t\" (the error rate the link-level PHY "
              "model predicts for medium cat5/cat5e/cat6 and cable_m; docs/phy.md)")
        .real("phy_noise_dbm_per_hz", &LinkParams::phy_noise_dbm_per_hz, "dBm/Hz", -200.0, -60.0,
              "background noise at each receiver (1000base-t)")
        .real("phy_tx_latency_ns", &LinkParams::phy_tx_latency_ns, "ns", 0.0, 100'000.0,
              "transmit PHY latency, GMII to the wire, added to the cable delay")
        .real("phy_rx_latency_ns", &LinkParams::phy_rx_latency_ns, "ns", 0.0, 100'000.0,
              "receive PHY latency, the wire to GMII, added to the cable delay");
    return t;
  }();
  return table;
}

}  // namespace gbesim
