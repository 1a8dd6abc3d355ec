#pragma once
// A traffic source: generates frames of real bytes and queues them at its station's MAC.
//   saturated - keeps exactly one frame of its own in the transmit queue: a new one is queued the
//               instant the previous one leaves the queue, so the MAC never waits for it;
//   poisson   - exponentially distributed gaps, mean = mean frame bits / load_bps;
//   on_off    - alternating on/off periods (exponential or fixed); frames evenly spaced at
//               peak_load_bps while on;
//   script    - frames queued at explicit times.
// Does not model: the host that would produce the data (a host's application and transport,
// models/host/host_stack, do that behind a NIC), or any transport protocol reacting to loss.

#include <cstdint>
#include <vector>

#include <systemc>

#include "models/common/frame.hpp"
#include "models/common/rng.hpp"
#include "models/common/settle.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/traffic_params.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

struct SourceConfig {
  std::uint32_t flow = 1;  // nonzero, unique within the run
  MacAddress destination;
};

class TrafficSource : public sc_core::sc_module, public Settleable, public QueueKeeper {
 public:
  SC_HAS_PROCESS(TrafficSource);
  TrafficSource(sc_core::sc_module_name name, const TrafficParams& params,
                const SourceConfig& config, Mac& mac, SimContext& context);

  std::uint64_t frames_generated() const { return frames_generated_.value(); }
  // Queues every frame due at or before `now` (the MAC settles its suppliers before deciding).
  void settle(Picoseconds now) override;
  // Saturated: its one frame is in the queue and every one of the next `pops` that leaves it
  // before `until` is replaced at once (not stopped, count not reached, sizes the MAC accepts).
  bool keeps_queue_filled(Picoseconds until, std::uint64_t pops) const override;

 private:
  void start_of_simulation() override;
  void process();
  bool may_generate(Picoseconds at) const;
  // Handles the one event due at due_ps_ (the next frame or on/off period boundary) and
  // computes the next.
  void step(Picoseconds at);
  // Builds and queues one frame of the given size; false if the MAC refused it.
  bool emit(std::int64_t bytes);
  Picoseconds gap_at_rate(std::int64_t bytes, double rate_bps) const;
  double mean_gap_ps() const;  // poisson

  const TrafficParams params_;
  const SourceConfig config_;
  Mac& mac_;
  SimContext& context_;
  RngStream rng_;
  FrameBuilder builder_;
  std::uint64_t sequence_ = 0;
  std::size_t own_in_queue_ = 0;  // saturated
  bool on_ = false;               // on_off
  Picoseconds period_end_ps_ = 0;
  std::size_t script_next_ = 0;
  std::vector<ScriptEntry> script_;
  sc_core::sc_event start_;

  StatGroup stats_;
  Counter frames_generated_;
  Counter octets_generated_;
  Counter frames_refused_;
};

}  // namespace gbesim
