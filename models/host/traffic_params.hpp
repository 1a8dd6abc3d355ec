#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/param_table.hpp"
#include "models/host/frame_size.hpp"

namespace gbesim {

struct ScriptEntry {
  std::int64_t at_ns = 0;
  std::int64_t bytes = 64;
};

enum class TrafficPattern { saturated, poisson, on_off, script };
const ChoiceList<TrafficPattern>& choice_list(TrafficPattern);
// on_off: how long its periods last.
enum class OnOffPeriods { exponential, fixed };
const ChoiceList<OnOffPeriods>& choice_list(OnOffPeriods);

// One traffic source of a station: what it sends, to whom, and when.
struct TrafficParams {
  TrafficPattern pattern = TrafficPattern::saturated;
  bool enabled = true;
  std::string to;  // a station name or "broadcast"
  FrameSizeSpec frame_bytes;
  double load_bps = 0;       // poisson: offered load, DA..FCS bits per second
  double load = 0;           // poisson: the same as a fraction of the line rate (loader converts)
  double peak_load_bps = 0;  // on_off: rate while on
  double on_ns = 1000;       // on_off: mean (or fixed) on-period
  double off_ns = 1000;      // on_off: mean (or fixed) off-period
  OnOffPeriods periods = OnOffPeriods::exponential;
  std::int64_t start_ns = 0;
  std::int64_t stop_ns = -1;  // -1: until the end of the run
  std::int64_t count = 0;     // 0: unlimited
  std::int64_t vlan_id = -1;  // -1: untagged
  std::int64_t vlan_pcp = 0;
  std::vector<ScriptEntry> script;
};

const ParamTable<TrafficParams>& traffic_param_table();

}  // namespace gbesim
