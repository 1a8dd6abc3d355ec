#include "sim/analytic_scalars.hpp"

#include <algorithm>
#include <string>

#include "analysis/half_duplex.hpp"

namespace gbesim {
namespace {

const Scalar* find(const std::vector<Scalar>& scalars, const std::string& component,
                   const std::string& name) {
  for (const auto& s : scalars)
    if (s.component == component && s.name == name) return &s;
  return nullptr;
}

SingleSenderSetup setup_for(const ScenarioConfig& config, const StationConfig& station,
                            std::int64_t bytes) {
  const MacParams& mac = station.mac;
  SingleSenderSetup setup;
  setup.rate_mbps = config.run.rate_mbps;
  setup.frame_bytes = bytes;
  setup.half_duplex = mac.duplex == "half";
  setup.slot_time_bits = mac.slot_time_bits;
  setup.carrier_extension = mac.carrier_extension;
  setup.frame_bursting = mac.frame_bursting;
  setup.burst_limit_bits = mac.burst_limit_bits;
  setup.ifg_bits = mac.ifg_bits;
  return setup;
}

struct Sender {
  const StationConfig* station;
  const TrafficParams* source;
};

}  // namespace

std::vector<Scalar> network_totals(const std::vector<Scalar>& simulated) {
  double tx = 0;
  double payload = 0;
  double delivered = 0;
  for (const auto& s : simulated) {
    const bool mac = s.component.size() > 4 && s.component.rfind(".mac") == s.component.size() - 4;
    const bool sink =
        s.component.size() > 5 && s.component.rfind(".sink") == s.component.size() - 5;
    if (mac && s.name == "tx_throughput") tx += s.value;
    if (mac && s.name == "tx_payload_throughput") payload += s.value;
    if (sink && s.name == "throughput") delivered += s.value;
  }
  return {{"network", "tx_throughput", "bit/s", tx, false},
          {"network", "tx_payload_throughput", "bit/s", payload, false},
          {"network", "delivered_throughput", "bit/s", delivered, false}};
}

std::vector<Scalar> analytic_scalars(const ScenarioConfig& config,
                                     const std::vector<Scalar>& simulated) {
  std::vector<Scalar> out;
  std::vector<Sender> senders;
  bool all_saturated_fixed = true;
  for (const auto& s : config.stations) {
    for (const auto& t : s.traffic) {
      if (!t.enabled) continue;
      senders.push_back({&s, &t});
      if (t.pattern != "saturated" || t.frame_bytes.kind != FrameSizeSpec::Kind::fixed ||
          t.count != 0 || t.start_ns != 0 || t.stop_ns >= 0)
        all_saturated_fixed = false;
    }
  }
  if (senders.empty() || !all_saturated_fixed) return out;
  const std::int64_t bytes = senders.front().source->frame_bytes.fixed_bytes;

  if (senders.size() == 1) {
    const SingleSenderSetup setup = setup_for(config, *senders.front().station, bytes);
    const SingleSenderTimeline t = single_sender_timeline(setup);
    const double efficiency = t.efficiency(bytes);
    const double period_s =
        static_cast<double>(t.period_bits) / (1e6 * static_cast<double>(config.run.rate_mbps));
    out.push_back({"analysis", "single_sender_efficiency", "fraction", efficiency, false});
    out.push_back({"analysis", "single_sender_frame_rate", "frames/s",
                   static_cast<double>(t.frames_per_period()) / period_s, false});
    if (setup.half_duplex && setup.frame_bursting)
      out.push_back({"analysis", "single_sender_frames_per_burst", "frames",
                     static_cast<double>(t.frames_per_period()), true});
    const std::string mac_name = senders.front().station->name + ".mac";
    if (const Scalar* sim = find(simulated, mac_name, "tx_efficiency"))
      out.push_back(
          {"analysis", "efficiency_difference", "fraction", sim->value - efficiency, false});
    return out;
  }

  // Contention: every sender on the same collision domain, one frame size.
  for (std::size_t d = 0; d < config.domains.size(); ++d) {
    const auto& members = config.domains[d].stations;
    const bool inside = std::all_of(senders.begin(), senders.end(), [&](const Sender& s) {
      return std::find(members.begin(), members.end(), s.station->name) != members.end() &&
             s.source->frame_bytes.fixed_bytes == bytes;
    });
    if (!inside) continue;
    const SingleSenderTimeline t =
        single_sender_timeline(setup_for(config, *senders.front().station, bytes));
    const double mb = metcalfe_boggs_efficiency(
        static_cast<std::int64_t>(senders.size()),
        static_cast<double>(t.frames_per_period()) * 8.0 * static_cast<double>(bytes),
        static_cast<double>(t.period_bits),
        static_cast<double>(senders.front().station->mac.slot_time_bits));
    out.push_back({"analysis", "metcalfe_boggs_efficiency", "fraction", mb, false});
    if (const Scalar* sim = find(simulated, "domain" + std::to_string(d), "efficiency"))
      out.push_back({"analysis", "metcalfe_boggs_difference", "fraction", sim->value - mb, false});
  }
  return out;
}

}  // namespace gbesim
