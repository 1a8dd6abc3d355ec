#pragma once

#include <cstdint>

#include "models/common/param_table.hpp"

namespace gbesim {

// The receiving application of a station: a receive queue drained at a fixed rate.
struct SinkParams {
  double drain_mbps = 0;  // 0: frames are consumed the instant they arrive
  std::int64_t rx_queue_bytes = 65536;
};

const ParamTable<SinkParams>& sink_param_table();

}  // namespace gbesim
