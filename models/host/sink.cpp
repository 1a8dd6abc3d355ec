#include "models/host/sink.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace gbesim {

const ModelVocabulary& Sink::vocabulary() {
  static const ModelVocabulary v{"sink",
                                 "<station>.sink",
                                 "a station's receiving application (docs/host.md)",
                                 {EventKind::deliver, EventKind::rx_drop}};
  return v;
}

Sink::Sink(sc_core::sc_module_name name, const SinkParams& params, Mac& mac, SimContext& context)
    : sc_module(name),
      params_(params),
      mac_(mac),
      context_(context),
      stats_(context.stats, this->name()),
      frames_received_(stats_, "frames_received", "frames", "frames the MAC delivered"),
      octets_received_(stats_, "octets_received", "bytes", "DA..FCS bytes the MAC delivered"),
      frames_consumed_(stats_, "frames_consumed", "frames",
                       "frames the application took out of its receive queue"),
      rx_queue_overflow_(stats_, "rx_queue_overflow", "frames",
                         "frames dropped because the receive queue was full"),
      latency_(stats_, "latency",
               "time from entering the sender's transmit queue to the last bit received here") {
  stats_.rate("throughput", "bit/s", "DA..FCS bits delivered per second",
              bits_per_second(octets_received_));
  mac.attach_client(this);
  SC_METHOD(drain_process);
  sensitive << work_;
  dont_initialize();
}

Sink::Flow::Flow(StatRegistry& registry, const std::string& component)
    : stats(registry, component),
      frames(stats, "frames_received", "frames",
             "frames of the flow received (accepted by the sink)"),
      octets(stats, "octets_received", "bytes", "DA..FCS bytes of the flow received"),
      delay(stats, "delay",
            "from entering the sender's transmit queue to the last bit received here") {
  // Sequence numbers up to the highest received, less those received: the frames the sender's
  // full queue refused, collisions, bit errors, a switch or this sink's full queue lost. Frames
  // still on the way at the end are not lost (RFC 3550 A.3, with the base at the first number).
  const StatGroup::Formula lost = value_of([this] {
    return static_cast<double>(highest_sequence) - static_cast<double>(frames.value());
  });
  stats.total("frames_lost", "frames",
              "frames numbered up to the highest received that never arrived (refused by the "
              "sender's full queue, dropped on the way or by this sink's full queue)",
              lost);
  stats.ratio("loss_ratio", "fraction",
              "frames_lost over the frames numbered up to the highest received", lost,
              value_of(highest_sequence), per_event());
  stats.rate("throughput", "bit/s", "DA..FCS bits of the flow received per second",
             bits_per_second(octets));
  // A running estimate (gain 1/16): the state at the end, forgetting a warm-up within ~16 frames.
  stats.level("jitter", "ns",
              "RFC 3550 interarrival jitter at the end: J += (|D| - J) / 16 over consecutive "
              "frames, D the change in transit time (queue entry to last bit received)",
              value_of([this] { return frames.value() > 0 ? jitter_ps / 1000.0 : std::nan(""); }));
}

void Sink::watch_flow(std::uint32_t flow, const std::string& component) {
  flows_.emplace(flow, std::make_unique<Flow>(context_.stats, component));
}

double jitter_step(double j, double d) {
  // With a constant transit time (d = 0) the estimate decays towards 0 into the subnormal
  // numbers and stays there: below a few subnormal steps j / 16 rounds to nothing. Arithmetic
  // on a subnormal operand takes the FPU's slow path (about a hundred cycles, every frame for
  // the rest of the run), so that case is done here on the significand instead, with the same
  // result: j = m 2^-1074, j / 16 rounds to the nearest (even) multiple of 2^-1074, and the sum
  // is exact.
  if (d == 0 && j < std::numeric_limits<double>::min()) {
    std::uint64_t m = 0;
    std::memcpy(&m, &j, sizeof m);  // j >= 0 and subnormal (or 0): its bits are m
    const std::uint64_t rest = m & 15;
    std::uint64_t q = m >> 4;
    if (rest > 8 || (rest == 8 && (q & 1) != 0)) ++q;
    m -= q;
    std::memcpy(&j, &m, sizeof j);
    return j;
  }
  return j + (d - j) / 16.0;
}

void Sink::record_flow(const Frame& frame, Picoseconds now) {
  if (last_flow_ == nullptr || last_flow_id_ != frame.flow) {
    const auto it = flows_.find(frame.flow);
    if (it == flows_.end()) return;
    last_flow_id_ = frame.flow;
    last_flow_ = it->second.get();
  }
  Flow& f = *last_flow_;
  const Picoseconds transit = now - frame.queued_ps;
  if (f.frames.value() > 0) {
    const double d = std::abs(static_cast<double>(transit - f.last_transit_ps));
    f.jitter_ps = jitter_step(f.jitter_ps, d);
  }
  f.last_transit_ps = transit;
  ++f.frames;
  f.octets += frame.size();
  f.delay.record(transit);
  const std::uint64_t sequence =
      frame.id - static_cast<std::uint64_t>(frame.flow) * kFrameIdCreator;
  f.highest_sequence = std::max(f.highest_sequence, sequence);
}

Picoseconds Sink::service_time_ps(std::size_t bytes) const {
  return round_to_ps(8.0 * static_cast<double>(bytes) * 1e6 / params_.drain_mbps);
}

void Sink::mac_receive(FramePtr frame, Picoseconds now) {
  settle_if_due(now);
  ++frames_received_;
  octets_received_ += frame->size();
  latency_.record(now - frame->queued_ps);
  if (params_.drain_mbps <= 0) {
    record_flow(*frame, now);
    ++frames_consumed_;
    events.emit(EventKind::deliver, now, frame.get());
    return;  // consumed at once; the frame returns to the pool
  }
  const auto size = static_cast<std::int64_t>(frame->size());
  if (backlog_bytes_ + size > params_.rx_queue_bytes) {
    ++rx_queue_overflow_;
    events.emit(EventKind::rx_drop, now, frame.get(), "rx_queue_overflow");
    return;
  }
  record_flow(*frame, now);
  backlog_bytes_ += size;
  queue_.push_back(std::move(frame));
  mac_.set_rx_backlog(backlog_bytes_);
  if (!serving_) {
    serving_ = true;
    service_end_ps_ = now + service_time_ps(queue_.front()->size());
    due_ps_ = service_end_ps_;
    work_.notify(to_sc_time(service_end_ps_ - now));
  }
}

void Sink::settle(Picoseconds now) {
  while (serving_ && service_end_ps_ <= now) complete_service();
}

void Sink::complete_service() {
  // The frame at the head has been consumed at service_end_ps_.
  const Picoseconds at = service_end_ps_;
  FramePtr frame = std::move(queue_.front());
  queue_.pop_front();
  backlog_bytes_ -= static_cast<std::int64_t>(frame->size());
  ++frames_consumed_;
  events.emit(EventKind::deliver, at, frame.get());
  mac_.set_rx_backlog(backlog_bytes_);
  if (queue_.empty()) {
    serving_ = false;
    due_ps_ = kForeverPs;
  } else {
    service_end_ps_ = at + service_time_ps(queue_.front()->size());
    due_ps_ = service_end_ps_;
  }
}

void Sink::drain_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  mac_.settle_station(now);  // settles this sink too, after the station's arrivals
  settle(now);               // (a no-op after the above; keeps the sink live on its own)
  if (serving_) work_.notify(to_sc_time(service_end_ps_ - now));
}

}  // namespace gbesim
