#pragma once
// The receiving application of a station. It records every frame the MAC accepts (count,
// bytes, latency from enqueue at the sender to the last bit received here) and, when given a
// finite drain rate, holds frames in a bounded receive queue that it empties at that rate; the
// backlog is reported to the MAC, whose MAC Control may send PAUSE from it.
// Per flow (one traffic source's unicast frames to this station), RFC 3550-style receiver
// statistics: frames and bytes received, frames lost (sequence numbers up to the highest received
// that never arrived), delay, and the interarrival jitter estimate.
// Does not model: per-frame host costs (a station served by a NIC has the NIC's driver and the
// host's CPU model instead of a sink), or memory bandwidth.

#include <cstdint>
#include <memory>
#include <unordered_map>
#include "models/common/ring_queue.hpp"

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/sink_params.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

// One step of the RFC 3550 interarrival jitter estimate, J + (D - J) / 16, for J >= 0, D >= 0:
// exactly what the double arithmetic gives, without its slow path for subnormal J.
double jitter_step(double j, double d);

class Sink : public sc_core::sc_module, public MacClient {
 public:
  SC_HAS_PROCESS(Sink);
  Sink(sc_core::sc_module_name name, const SinkParams& params, Mac& mac, SimContext& context);

  void mac_receive(FramePtr frame, Picoseconds now) override;
  // With an unlimited drain rate and no trace observer a frame only updates statistics, from
  // the time it is given: it may be handed over late.
  bool takes_late_delivery() const override {
    return params_.drain_mbps <= 0 && !events.connected();
  }
  // A sink does nothing when its MAC sends, and consumes in its own process, which settles the
  // station first.
  bool takes_late_transmit() const override { return !events.connected(); }
  // Completes the consumption of every frame whose service ended by `now` (a frame consumed at
  // an instant leaves the queue before one arriving at that instant joins it).
  void settle(Picoseconds now) override;

  // Records the frames of traffic source `flow` arriving here under `component` (at build time).
  void watch_flow(std::uint32_t flow, const std::string& component);

  std::int64_t backlog_bytes() const { return backlog_bytes_; }
  const Histogram& latency() const { return latency_.histogram(); }
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;

 private:
  // One flow's receiver state (RFC 3550 section 6.4.1 and appendix A.3, A.8).
  struct Flow {
    Flow(StatRegistry& registry, const std::string& component);
    StatGroup stats;
    Counter frames;
    Counter octets;
    Distribution delay;
    std::uint64_t highest_sequence = 0;  // the source numbers its frames 1, 2, ...
    double jitter_ps = 0;
    Picoseconds last_transit_ps = 0;
  };
  void record_flow(const Frame& frame, Picoseconds now);
  void drain_process();
  void complete_service();
  Picoseconds service_time_ps(std::size_t bytes) const;

  const SinkParams params_;
  Mac& mac_;
  SimContext& context_;
  RingQueue<FramePtr> queue_;
  std::int64_t backlog_bytes_ = 0;
  sc_core::sc_event work_;
  bool serving_ = false;
  Picoseconds service_end_ps_ = 0;

  StatGroup stats_;
  Counter frames_received_;
  Counter octets_received_;
  Counter frames_consumed_;
  Counter rx_queue_overflow_;
  Distribution latency_;
  std::unordered_map<std::uint32_t, std::unique_ptr<Flow>> flows_;
  // The flow of the frame received last (its frames mostly come in runs), or null.
  std::uint32_t last_flow_id_ = 0;
  Flow* last_flow_ = nullptr;
};

}  // namespace gbesim
