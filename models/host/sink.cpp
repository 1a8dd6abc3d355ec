#include "models/host/sink.hpp"

#include <cmath>

namespace gbesim {

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
  stats_.formula("throughput", "bit/s", "DA..FCS bits delivered per second",
                 [this](const StatContext& c) {
                   return 8.0 * static_cast<double>(octets_received_.value()) * c.per_second();
                 });
  mac.attach_client(this);
  SC_METHOD(drain_process);
  sensitive << work_;
  dont_initialize();
}

Picoseconds Sink::service_time_ps(std::size_t bytes) const {
  return static_cast<Picoseconds>(
      std::llround(8.0 * static_cast<double>(bytes) * 1e6 / params_.drain_mbps));
}

void Sink::mac_receive(FramePtr frame, Picoseconds now) {
  ++frames_received_;
  octets_received_ += frame->size();
  latency_.record(now - frame->queued_ps);
  if (params_.drain_mbps <= 0) {
    ++frames_consumed_;
    events({EventKind::deliver, now, frame.get()});
    return;  // consumed at once; the frame returns to the pool
  }
  const auto size = static_cast<std::int64_t>(frame->size());
  if (backlog_bytes_ + size > params_.rx_queue_bytes) {
    ++rx_queue_overflow_;
    events({EventKind::rx_drop, now, frame.get(), "rx_queue_overflow"});
    return;
  }
  backlog_bytes_ += size;
  queue_.push_back(std::move(frame));
  mac_.set_rx_backlog(backlog_bytes_);
  if (!serving_) {
    serving_ = true;
    work_.notify(to_sc_time(service_time_ps(queue_.front()->size())));
  }
}

void Sink::drain_process() {
  ++context_.activations;
  // The frame at the head has been consumed.
  FramePtr frame = std::move(queue_.front());
  queue_.pop_front();
  backlog_bytes_ -= static_cast<std::int64_t>(frame->size());
  ++frames_consumed_;
  events({EventKind::deliver, now_ps(), frame.get()});
  mac_.set_rx_backlog(backlog_bytes_);
  if (queue_.empty()) {
    serving_ = false;
  } else {
    work_.notify(to_sc_time(service_time_ps(queue_.front()->size())));
  }
}

}  // namespace gbesim
