#include "models/host/sink_params.hpp"

namespace gbesim {

const ParamTable<SinkParams>& sink_param_table() {
  static const ParamTable<SinkParams> table = [] {
    ParamTable<SinkParams> t("sink", "the receiving application of a station");
    t.real("drain_mbps", &SinkParams::drain_mbps, "Mb/s", 0, 1e6,
           "rate at which received DA..FCS bytes are consumed; 0: instantly")
        .integer("rx_queue_bytes", &SinkParams::rx_queue_bytes, "bytes", 64, 1LL << 40,
                 "receive queue capacity when drain_mbps > 0; overflowing frames are dropped");
    return t;
  }();
  return table;
}

}  // namespace gbesim
