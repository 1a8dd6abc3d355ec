#include "models/medium/full_duplex_link.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {

LinkDirection::LinkDirection(sc_core::sc_module_name name, Picoseconds delay_ps, double ber,
                             SimContext& context)
    : sc_module(name),
      delay_ps_(delay_ps),
      context_(context),
      stats_(context.stats, this->name()),
      frames_carried_(stats_, "frames_carried", "frames", "frames that reached the far end"),
      frames_corrupted_(stats_, "frames_corrupted", "frames",
                        "frames with at least one bit flipped by the error process"),
      bit_errors_(stats_, "bit_errors", "bits", "bits flipped by the error process"),
      busy_ps_(stats_, "busy_time", "ps", "time the direction carried preamble, SFD or frame") {
  stats_.rate("utilisation", "fraction", "share of time carrying preamble, SFD or frame",
              share_of_time(busy_ps_));
  if (ber > 0) {
    ber_injector_.emplace(ber, context.rng_for(this->name()));
    injector_ = [this](Frame& f) { return ber_injector_->corrupt(f); };
  }
  update_due();
  SC_METHOD(deliver_process);
  sensitive << arrival_;
  dont_initialize();
  SC_METHOD(carrier_process);
  sensitive << carrier_edge_;
  dont_initialize();
}

const ModelVocabulary& LinkDirection::vocabulary() {
  static const ModelVocabulary v{
      "link",
      "link<i>.to_<station> (in the VCD: <station>.rx_carrier)",
      "one direction of a full-duplex link (docs/full-duplex-link.md)",
      {},
      {{"rx_carrier", "1 from a frame's first preamble bit to its last bit at the receiver"}}};
  return v;
}

std::vector<TracedValue> LinkDirection::trace_state() {
  enable_carrier_trace();
  return {traced(vocabulary(), "rx_carrier", carrier_)};
}

void LinkDirection::started(const Frame& frame, Picoseconds tx_start_ps) {
  if (carrier_trace_) add_carrier_edge(tx_start_ps + delay_ps_, true);
  arriving(frame, tx_start_ps + delay_ps_);
}

void LinkDirection::add_carrier_edge(Picoseconds at_ps, bool on) {
  if (carrier_edges_.empty()) carrier_edge_.notify(to_sc_time(at_ps - now_ps()));
  carrier_edges_.push_back({at_ps, on});
}

void LinkDirection::carry(FramePtr frame, Picoseconds tx_start_ps, Picoseconds tx_end_ps) {
  if (injector_) {
    const std::uint64_t flipped = injector_(*frame);
    if (flipped > 0) {
      frame->fcs_intact = false;  // whatever the error process changed
      ++frames_corrupted_;
      bit_errors_ += flipped;
    }
  }
  busy_ps_ += static_cast<std::uint64_t>(tx_end_ps - tx_start_ps);
  uncarried_end_ps_ = kForeverPs;
  if (carrier_trace_) add_carrier_edge(tx_end_ps + delay_ps_, false);
  in_flight_.push_back({std::move(frame), tx_end_ps + delay_ps_});
  update_due();
  arm();
}

void LinkDirection::settle(Picoseconds now) {
  if (sender_ != nullptr) sender_->finish_due(now);
  while (!in_flight_.empty() && in_flight_.front().rx_end_ps <= now) {
    InFlight arrived = std::move(in_flight_.front());
    in_flight_.pop_front();
    ++frames_carried_;
    if (receiver_ != nullptr) receiver_->receive(std::move(arrived.frame), arrived.rx_end_ps);
  }
  update_due();
  if (deliver_late_) arm();
}

bool LinkDirection::deliver_late() {
  deliver_late_ = receiver_ != nullptr && receiver_->takes_late_delivery() &&
                  !arriving.connected() && !carrier_trace_;
  watched_ = !deliver_late_;  // before the run every MAC is idle, not paused
  arm();
  return deliver_late_;
}

void LinkDirection::station_watches(bool watching) {
  if (!deliver_late_ || watching == watched_) return;
  watched_ = watching;
  arm();
}

void LinkDirection::arm() {
  if (delivering_) return;  // deliver_process arms as it returns
  // arrival_ wakes us at the first arrival someone must see at once, or (late delivery, nobody
  // watching) when kLateBatch frames have arrived.
  Picoseconds first = kForeverPs;
  const std::size_t wake_at = (deliver_late_ && !watched_) ? kLateBatch - 1 : 0;
  if (in_flight_.size() > wake_at) first = in_flight_[wake_at].rx_end_ps;
  // A late sender's frame on the wire, watched: at its arrival (take_late_sender).
  if (late_sender_ && watched_ && uncarried_end_ps_ < kForeverPs)
    first = std::min(first, uncarried_end_ps_ + delay_ps_);
  // A sender that transmits late (Mac::transmit_late) hands over frames after they ended, so
  // the batch's last arrival may have passed already: then at once.
  if (late_sender_ && first < kForeverPs) first = std::max(first, now_ps());
  armed_.set(first);
}

void LinkDirection::update_due() {
  // With no cable, a frame the sender finishes at an instant arrives at that instant: such a
  // link is always due, so that the sender is settled first. A sender that transmits late may
  // not have handed over a frame that has arrived: due by then too (committed).
  if (delay_ps_ == 0) {
    due_ps_ = 0;
  } else {
    due_ps_ = in_flight_.empty() ? kForeverPs : in_flight_.front().rx_end_ps;
    if (uncarried_end_ps_ < kForeverPs) due_ps_ = std::min(due_ps_, uncarried_end_ps_ + delay_ps_);
  }
}

void LinkDirection::deliver_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  armed_.fired();
  // The frames a late sender hands over meanwhile are armed for once, below.
  delivering_ = true;
  settle_receiver(now);
  delivering_ = false;
  arm();
}

void LinkDirection::settle_receiver(Picoseconds now) {
  // Arrivals are part of the receiving station's order at this instant (docs/mac.md).
  if (receiver_ != nullptr) {
    receiver_->settle_station(now);
  } else {
    settle(now);
  }
}

void LinkDirection::carrier_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  while (!carrier_edges_.empty() && carrier_edges_.front().at_ps <= now) {
    carrier_ = carrier_edges_.front().on;
    carrier_edges_.pop_front();
  }
  if (!carrier_edges_.empty()) carrier_edge_.notify(to_sc_time(carrier_edges_.front().at_ps - now));
}

Picoseconds FullDuplexLink::delay_for(double cable_m, double ns_per_m) {
  return round_to_ps(cable_m * ns_per_m * 1000.0);
}

Picoseconds FullDuplexLink::delay_for(const LinkParams& params, double ns_per_m) {
  return delay_for(params.cable_m, ns_per_m) +
         round_to_ps((params.phy_tx_latency_ns + params.phy_rx_latency_ns) * 1000.0);
}

FullDuplexLink::FullDuplexLink(sc_core::sc_module_name name, const LinkParams& params,
                               double ns_per_m, const std::string& a_name,
                               const std::string& b_name, SimContext& context)
    : sc_module(name),
      a_to_b_(("to_" + b_name).c_str(), delay_for(params, ns_per_m), params.ber, context),
      b_to_a_(("to_" + a_name).c_str(), delay_for(params, ns_per_m), params.ber, context) {}

void FullDuplexLink::connect(FullDuplexStation& a, FullDuplexStation& b) {
  a.attach_port(&a_to_b_);
  a_to_b_.attach_sender(&a);
  a_to_b_.attach_receiver(&b);
  b.attach_incoming(&a_to_b_);
  b.attach_port(&b_to_a_);
  b_to_a_.attach_sender(&b);
  b_to_a_.attach_receiver(&a);
  a.attach_incoming(&b_to_a_);
}

}  // namespace gbesim
