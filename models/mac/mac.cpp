#include "models/mac/mac.hpp"

#include <algorithm>

#include "models/common/speed_modes.hpp"

namespace gbesim {

using sc_core::SC_ZERO_TIME;

std::string_view to_string(MacTxState state) {
  switch (state) {
    case MacTxState::idle:
      return "idle";
    case MacTxState::transmitting:
      return "transmitting";
    case MacTxState::interframe_gap:
      return "interframe_gap";
    case MacTxState::paused:
      return "paused";
    case MacTxState::deferring:
      return "deferring";
    case MacTxState::jamming:
      return "jamming";
    case MacTxState::backoff:
      return "backoff";
    case MacTxState::burst_fill:
      return "burst_fill";
  }
  return "?";
}

const ModelVocabulary& Mac::vocabulary() {
  static const ModelVocabulary v = [] {
    ModelVocabulary m{
        "mac",
        "<station>.mac, <switch>.port<n>.mac",
        "IEEE 802.3 Clause 4 MAC (docs/mac.md)",
        {EventKind::enqueue, EventKind::drop, EventKind::tx_start, EventKind::tx_end,
         EventKind::rx_ok, EventKind::rx_drop, EventKind::pause_tx, EventKind::pause_rx,
         EventKind::collision, EventKind::late_collision, EventKind::jam_end, EventKind::backoff,
         EventKind::burst_start, EventKind::burst_end}};
    StateVariable state{"tx_state", "the transmit side's state", 3};
    for (unsigned s = 0; s < kMacTxStates; ++s)
      state.states.push_back(to_string(static_cast<MacTxState>(s)));
    m.state = {state,
               {"transmitting", "1 from a frame's first preamble bit to its last bit"},
               {"paused", "full duplex: 1 while a received PAUSE holds frames back"},
               {"collision", "half duplex: 1 while our transmission meets another signal"}};
    return m;
  }();
  return v;
}

std::vector<TracedValue> Mac::trace_state() {
  enable_exact_trace();
  const ModelVocabulary& v = vocabulary();
  std::vector<TracedValue> out = {traced(v, "tx_state", tx_state_value_),
                                  traced(v, "transmitting", transmitting_)};
  out.push_back(half_duplex_ ? traced(v, "collision", collision_) : traced(v, "paused", paused_));
  return out;
}

Mac::Mac(sc_core::sc_module_name name, const MacParams& params, const MacConfig& config,
         SimContext& context)
    : sc_module(name),
      params_(params),
      config_(config),
      context_(context),
      bit_ps_(bit_time_ps(config.rate_mbps)),
      ifg_ps_(params.ifg_bits * bit_time_ps(config.rate_mbps)),
      filter_{config.address, params.max_frame_bytes, params.promiscuous, params.accept_multicast},
      half_duplex_(params.duplex == Duplex::half),
      slot_ps_(slot_time_bits_at(params, config.rate_mbps) * bit_time_ps(config.rate_mbps)),
      ifg_part1_ps_(params.ifg_part1_bits * bit_time_ps(config.rate_mbps)),
      jam_ps_(params.jam_bits * bit_time_ps(config.rate_mbps)),
      burst_limit_ps_(params.burst_limit_bits * bit_time_ps(config.rate_mbps)),
      queue_(static_cast<std::size_t>(params.tx_queue_frames)),
      backoff_rng_(context.rng_for(this->name())),
      stats_(context.stats, this->name(), half_duplex_, bit_ps_,
             [this](const StatContext& c) { return paused_time_ps(c.elapsed_ps); }) {
  if (half_duplex_) {
    SC_METHOD(hd_process);
    sensitive << kick_ << hd_wake_;
    dont_initialize();
  } else {
    SC_METHOD(tx_process);
    sensitive << kick_ << tx_wake_;
    dont_initialize();
  }
  SC_METHOD(pause_refresh_process);
  sensitive << refresh_;
  dont_initialize();
}

double Mac::paused_time_ps(Picoseconds elapsed) const {
  const Picoseconds open = state_ == MacTxState::paused ? elapsed - paused_since_ps_ : 0;
  return static_cast<double>(paused_ps_ + static_cast<std::uint64_t>(open));
}

Picoseconds Mac::frame_time_ps(std::size_t bytes) const {
  return (kPreambleSfdBytes + static_cast<Picoseconds>(bytes)) * 8 * bit_ps_;
}

bool Mac::enqueue(FramePtr frame) {
  const Picoseconds now = station_now();
  const std::int64_t limit =
      params_.max_frame_bytes + (is_vlan_tagged(frame->bytes) ? kQTagBytes : 0);
  if (static_cast<std::int64_t>(frame->size()) > limit) {
    drop(std::move(frame), "frame_too_long");
    return false;
  }
  if (queue_.full()) {
    drop(std::move(frame), "tx_queue_full");
    return false;
  }
  // A frame relayed by a switch keeps the time its source queued it: latency is end to end.
  if (frame->hops == 0) frame->queued_ps = now;
  events.emit(EventKind::enqueue, now, frame.get());
  queue_.push(std::move(frame));
  if (state_ == MacTxState::idle || state_ == MacTxState::paused) kick_.notify(SC_ZERO_TIME);
  return true;
}

void Mac::drop(FramePtr frame, std::string_view reason) {
  ++stats_.tx_queue_drops;
  const Picoseconds now = station_now();
  if (client_ != nullptr) client_->mac_tx_done(*frame, now, false);
  events.emit(EventKind::drop, now, frame.get(), reason);
}

void Mac::send_pause(std::uint16_t quanta) {
  // Our own decisions and the receiver's are made on time from here on (late transmit). Ours
  // are caught up on only before this instant: a frame of ours ending now is decided by the
  // process that comes now, after this request, as on time (the PAUSE goes first).
  transmit_on_time(now_ps() - 1);
  if (port_ != nullptr) port_->pause_coming(now_ps());
  control_pending_ = true;
  control_quanta_ = quanta;
  events.emit(EventKind::pause_tx, now_ps(), nullptr, std::string_view{}, quanta);
  if (state_ == MacTxState::idle || state_ == MacTxState::paused) kick_.notify(SC_ZERO_TIME);
}

void Mac::set_rx_backlog(std::int64_t bytes) {
  if (!params_.pause_tx_enabled) return;
  if (!xoff_active_ && bytes >= params_.pause_xoff_bytes) {
    xoff_active_ = true;
    send_pause(static_cast<std::uint16_t>(params_.pause_quanta));
  } else if (xoff_active_ && bytes <= params_.pause_xon_bytes) {
    xoff_active_ = false;
    next_refresh_ps_ = kForeverPs;
    refresh_.cancel();
    if (params_.pause_send_xon) send_pause(0);
  }
}

void Mac::check_refresh(Picoseconds now) {
  if (xoff_active_ && next_refresh_ps_ <= now) {
    next_refresh_ps_ = kForeverPs;  // re-armed when this XOFF has been sent
    send_pause(static_cast<std::uint16_t>(params_.pause_quanta));
  }
}

void Mac::pause_refresh_process() {
  ++context_.activations;
  settle_station(now_ps());
}

void Mac::settle_station(Picoseconds now) {
  finish_due(now);
  settle_others(now);
}

void Mac::settle_others(Picoseconds now) {
  if (medium_ != nullptr) {
    hd_settle(now);
    // A late burst's frames arrived by now are on their way (to us, too) before we take them.
    medium_->settle_late_sender(now);
  }
  settle_around(now);
}

void Mac::settle_around(Picoseconds now) {
  if (incoming_ != nullptr) incoming_->settle_if_due(now);
  if (client_ != nullptr) client_->settle_if_due(now);
  for (Settleable* s : suppliers_) s->settle_if_due(now);
  check_refresh(now);
}

void Mac::set_state(MacTxState state, Picoseconds at) {
  if (medium_ != nullptr) {
    // Half duplex: how far back this station's deference may still look (its waiting frame's
    // ready time), for what the medium may forget.
    const bool waiting = state == MacTxState::deferring || state == MacTxState::backoff;
    const Picoseconds since = waiting ? ready_ps_ : kForeverPs;
    if (since != reported_since_ps_) {
      reported_since_ps_ = since;
      medium_->waiting_since(station_index_, since);
    }
  }
  if (state == state_) return;
  if (state == MacTxState::paused) paused_since_ps_ = at;
  // Paused, a PAUSE arriving may release us at its arrival: the link must deliver at once then.
  // Otherwise every decision settles the link first (late delivery).
  if (link_in_ != nullptr && (state == MacTxState::paused) != (state_ == MacTxState::paused))
    link_in_->station_watches(state == MacTxState::paused);
  state_ = state;
  tx_state_value_ = static_cast<unsigned>(state);
  // Our signal is on the wire: a frame, jam, or the extension filling a gap inside a burst.
  transmitting_ = state == MacTxState::transmitting || state == MacTxState::jamming ||
                  state == MacTxState::burst_fill;
  paused_ = state == MacTxState::paused;
  state_changed(state, at);
}

void Mac::tx_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  if (late_tx_) {
    // Woken after kLateFrames frames, or kicked while idle: every frame end by now is caught up
    // on (settle_station), then the station decides now if nothing is on its way.
    if (tx_alarm_.at() <= now) tx_alarm_.fired();
    settle_station(now);
    if (!in_flight_) decide(now);
    if (in_flight_ && tx_alarm_.at() == kForeverPs) {
      const Picoseconds slot = tx_end_ps_ - tx_start_ps_ + ifg_ps_;
      tx_alarm_.set(tx_end_ps_ + (kLateFrames - 1) * slot);
    }
    return;
  }
  // A kick notified while idle or paused can arrive after this process committed a frame in the
  // same instant: the frame's own wake decides what follows.
  if (in_flight_ && now < tx_alarm_.at()) return;
  if (tx_alarm_.at() <= now) tx_alarm_.fired();
  finish_due(now);
  if (in_flight_) {
    // Exact tracing only: the committed frame starts now.
    set_state(MacTxState::transmitting, now);
    tx_alarm_.set(tx_end_ps_);
    return;
  }
  settle_station(now);
  decide(now);
}

void Mac::finish_frame(Picoseconds now) {
  // The last FCS bit has left: the frame is done and the inter-frame gap starts.
  FramePtr frame = std::move(in_flight_);
  ++stats_.frames_transmitted_ok;
  stats_.frame_octets_transmitted += frame->size();
  stats_.octets_transmitted_ok += client_octets(frame->bytes);
  stats_.tx_busy_ps += static_cast<std::uint64_t>(now - tx_start_ps_);
  if (address_key(frame->bytes.data()) == kBroadcastKey) {
    ++stats_.broadcast_frames_transmitted_ok;
  } else if ((frame->bytes[0] & 1U) != 0) {
    ++stats_.multicast_frames_transmitted_ok;
  }
  if (length_type_of(frame->bytes) == kEtherTypeMacControl) {
    ++stats_.pause_mac_ctrl_frames_transmitted;
    // While the backlog stays above xon, refresh the XOFF after half its pause time, counted
    // from its transmission and never sooner than one PAUSE frame slot (672 bit times).
    const auto control = parse_mac_control(frame->bytes);
    if (xoff_active_ && control && control->pause_quanta > 0) {
      const Picoseconds interval =
          std::max<Picoseconds>(control->pause_quanta * kPauseQuantumBits / 2,
                                (kPreambleSfdBytes + kMinFrameBytes) * 8 + kInterFrameGapBits) *
          bit_ps_;
      next_refresh_ps_ = now + interval;
      refresh_.cancel();  // an earlier pending notification would otherwise win
      refresh_.notify(to_sc_time(interval));
    }
  }
  if (client_ != nullptr) client_->mac_tx_done(*frame, now, true);
  events.emit(EventKind::tx_end, now, frame.get());
  next_free_ps_ = now + ifg_ps_;
  set_state(MacTxState::interframe_gap, now);
  if (port_ != nullptr) port_->carry(std::move(frame), tx_start_ps_, now);
}

void Mac::decide(Picoseconds now) {
  if (control_pending_) {
    // MAC Control frames are not held by PAUSE (31B.3.7).
    control_pending_ = false;
    FramePtr frame = context_.frames.acquire();
    frame->id = (kControlCreatorBase + config_.station) * kFrameIdCreator + ++control_sequence_;
    build_pause_frame(*frame, config_.address, control_quanta_);
    frame->queued_ps = now;
    commit(std::move(frame), now);
    return;
  }
  if (queue_.empty()) {
    set_state(MacTxState::idle, now);
    tx_alarm_.set(kForeverPs);  // woken by enqueue or a control request
    return;
  }
  if (now < pause_until_ps_) {
    set_state(MacTxState::paused, now);
    tx_alarm_.set(pause_until_ps_);  // or a kick: a frame to send, a PAUSE received
    return;
  }
  commit(queue_.pop(), now);
}

void Mac::commit(FramePtr frame, Picoseconds now) {
  // The frame is passed to the MAC now and goes once the inter-frame gap has passed.
  if (state_ == MacTxState::paused)
    paused_ps_ += static_cast<std::uint64_t>(now - paused_since_ps_);
  tx_start_ps_ = std::max(now, next_free_ps_);
  tx_end_ps_ = tx_start_ps_ + frame_time_ps(frame->size());
  if (client_ != nullptr) client_->mac_tx_started(*frame, tx_start_ps_);
  events.emit(EventKind::tx_start, tx_start_ps_, frame.get());
  if (port_ != nullptr) port_->started(*frame, tx_start_ps_);
  in_flight_ = std::move(frame);
  if (tx_start_ps_ > now && exact_trace_) {
    set_state(MacTxState::interframe_gap, now);
    tx_alarm_.set(tx_start_ps_);
    return;
  }
  set_state(MacTxState::transmitting, tx_start_ps_);
  if (!late_tx_) {
    tx_alarm_.set(tx_end_ps_);
  } else if (port_ != nullptr) {
    port_->committed(tx_end_ps_);  // the wake set in tx_process is pending
  }
}

bool Mac::transmit_late() {
  const bool unwatched = !exact_trace_ && !events.connected() && !state_changed.connected() &&
                         (client_ == nullptr || client_->takes_late_transmit());
  if (half_duplex_) {
    // lazy_fill_allowed_: our own port delivers late and settles us at every stop.
    late_burst_allowed_ = unwatched && lazy_fill_allowed_ && params_.frame_bursting &&
                          !keepers_.empty() && medium_->delivers_late_everywhere();
    return late_burst_allowed_;
  }
  late_tx_ = unwatched && port_ != nullptr && !params_.pause_tx_enabled &&
             port_->take_late_sender();  // last: the direction commits to it
  return late_tx_;
}

void Mac::catch_up(Picoseconds now) {
  // What tx_process does at a frame end, at each frame end by now in turn: the frame finished,
  // the station settled, the next frame decided -- all as of that instant (station_now), so the
  // saturated sources refilling the queue stamp their frames with it. Nothing here waits on the
  // kernel: the next frame's wake is the one tx_process set. A settle this causes elsewhere
  // (the link settles the sender of the other direction, which settles its incoming direction:
  // us) finds no frame of ours to finish while one is being decided.
  const bool outer = catching_up_;
  const Picoseconds outer_ps = catch_up_ps_;
  while (in_flight_ && tx_end_ps_ <= now) {
    const Picoseconds end = tx_end_ps_;
    catching_up_ = true;
    catch_up_ps_ = end;
    finish_frame(end);
    settle_others(end);
    decide(end);
  }
  catching_up_ = outer;
  catch_up_ps_ = outer_ps;
}

void Mac::transmit_on_time(Picoseconds now) {
  if (!late_tx_) return;
  finish_due(now);
  late_tx_ = false;
  if (in_flight_) tx_alarm_.set(tx_end_ps_);
}

void Mac::may_be_paused(Picoseconds now) {
  if (params_.pause_rx_enabled) transmit_on_time(now);
}

bool Mac::takes_late_delivery() const {
  return !exact_trace_ && !events.connected() && !state_changed.connected() &&
         (client_ == nullptr || client_->takes_late_delivery());
}

void Mac::receive(FramePtr frame, Picoseconds at) {
  const RxVerdict verdict = check_received_frame(frame->bytes, filter_, frame->fcs_intact);
  switch (verdict) {
    case RxVerdict::ok:
      break;
    case RxVerdict::mac_control:
      break;
    case RxVerdict::undersize:
      ++stats_.undersize_frames;
      break;
    case RxVerdict::filtered:
      ++stats_.frames_filtered;
      break;
    case RxVerdict::too_long:
      ++stats_.frame_too_long_errors;
      break;
    case RxVerdict::fcs_error:
      ++stats_.frame_check_sequence_errors;
      break;
    case RxVerdict::length_error:
      ++stats_.in_range_length_errors;
      break;
    case RxVerdict::length_out_of_range:
      ++stats_.out_of_range_length_field;
      break;
  }
  if (verdict != RxVerdict::ok && verdict != RxVerdict::mac_control) {
    if (client_ != nullptr) client_->mac_rejected(*frame, at);
    events.emit(EventKind::rx_drop, at, frame.get(), to_string(verdict));
    return;
  }
  const std::size_t size = frame->size();
  ++stats_.frames_received_ok;
  stats_.frame_octets_received += size;
  stats_.octets_received_ok += client_octets(frame->bytes);
  const std::uint64_t da = address_key(frame->bytes.data());
  if (da == kBroadcastKey) {
    ++stats_.broadcast_frames_received_ok;
  } else if ((frame->bytes[0] & 1U) != 0) {
    ++stats_.multicast_frames_received_ok;
  }
  events.emit(EventKind::rx_ok, at, frame.get());
  // MAC Control frames addressed to us (or to the PAUSE address) are MAC Control's; any other
  // (seen only by a promiscuous MAC) goes to the client like data.
  if (verdict == RxVerdict::mac_control &&
      (da == filter_.own_key || da == address_key(MacAddress::pause_multicast().octets.data()))) {
    handle_mac_control(*frame, at);
    return;
  }
  if (client_ != nullptr) client_->mac_receive(std::move(frame), at);
}

void Mac::handle_mac_control(const Frame& frame, Picoseconds now) {
  const auto control = parse_mac_control(frame.bytes);
  if (!control || control->opcode != kOpcodePause) {
    ++stats_.unsupported_opcodes_received;
    return;
  }
  ++stats_.pause_mac_ctrl_frames_received;
  if (!params_.pause_rx_enabled) return;
  // pause_time counts quanta of 512 bit times from the end of the PAUSE frame; a new PAUSE
  // replaces the running timer, and zero releases it (31B.3.1).
  pause_until_ps_ = now + control->pause_quanta * kPauseQuantumBits * bit_ps_;
  events.emit(EventKind::pause_rx, now, &frame, std::string_view{}, control->pause_quanta);
  if (state_ == MacTxState::paused) kick_.notify(SC_ZERO_TIME);
}

}  // namespace gbesim
