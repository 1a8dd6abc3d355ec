#include "models/host/traffic_params.hpp"

namespace gbesim {

const ChoiceList<TrafficPattern>& choice_list(TrafficPattern) {
  static const ChoiceList<TrafficPattern> list = {
      {TrafficPattern::saturated, "saturated", "always one frame of its own waiting"},
      {TrafficPattern::poisson, "poisson", "exponential gaps at load_bps"},
      {TrafficPattern::on_off, "on_off", "load peak_load_bps during on-periods"},
      {TrafficPattern::script, "script", "frames at given times"},
  };
  return list;
}

const ChoiceList<OnOffPeriods>& choice_list(OnOffPeriods) {
  static const ChoiceList<OnOffPeriods> list = {
      {OnOffPeriods::exponential, "exponential", "exponentially distributed, of the mean given"},
      {OnOffPeriods::fixed, "fixed", "each as long as given"},
  };
  return list;
}

const ParamTable<TrafficParams>& traffic_param_table() {
  static const ParamTable<TrafficParams> table = [] {
    ParamTable<TrafficParams> t("traffic", "a traffic source feeding a station's transmit queue");
    t.choice("pattern", &TrafficParams::pattern)
        .reference("to", &TrafficParams::to, "destination",
                   "destination: a station name or \"broadcast\"")
        .boolean("enabled", &TrafficParams::enabled,
                 "false: the source exists but sends nothing (handy in sweeps)")
        .structured("frame_bytes",
                    "N | {\"uniform\": [lo, hi]} | {\"mix\": [{\"bytes\": N, \"weight\": W}, ...]}",
                    "1518", "frame size DA..FCS in bytes, 64 .. the MAC's max_frame_bytes")
        .real("load_bps", &TrafficParams::load_bps, "bit/s", 0, 1e12,
              "poisson: offered load counted in DA..FCS bits")
        .real("load", &TrafficParams::load, "fraction", 0, 1000,
              "poisson: offered load as a fraction of the line rate (rate_mbps), instead of "
              "load_bps")
        .real("peak_load_bps", &TrafficParams::peak_load_bps, "bit/s", 0, 1e12,
              "on_off: load while on, frames evenly spaced")
        .real("on_ns", &TrafficParams::on_ns, "ns", 1, 1e15, "on_off: on-period (mean or fixed)")
        .real("off_ns", &TrafficParams::off_ns, "ns", 0, 1e15, "on_off: off-period (mean or fixed)")
        .choice("periods", &TrafficParams::periods,
                "on_off: period lengths exponentially distributed or fixed")
        .integer("start_ns", &TrafficParams::start_ns, "ns", 0, 1LL << 50,
                 "no frame is generated before this time")
        .integer("stop_ns", &TrafficParams::stop_ns, "ns", -1, 1LL << 50,
                 "no frame is generated from this time on; -1: never stops")
        .integer("count", &TrafficParams::count, "frames", 0, 1LL << 50,
                 "stop after this many frames; 0: unlimited")
        .integer("vlan_id", &TrafficParams::vlan_id, "", -1, 4094,
                 "802.1Q VLAN id of the tag to carry; -1: untagged")
        .integer("vlan_pcp", &TrafficParams::vlan_pcp, "", 0, 7, "802.1Q priority code point")
        .structured("script", "[{\"at_ns\": T, \"bytes\": N}, ...]", "[]",
                    "script: frames queued at the given times, in order");
    return t;
  }();
  return table;
}

}  // namespace gbesim
