// The half-duplex transmit side of the Clause 4 MAC: CSMA/CD with carrier extension and frame
// bursting, following the procedural model of 802.3 4.2.7-4.2.10 (TransmitLinkMgmt, Deference,
// WatchForCollision, BackOff, BurstTimer). docs/mac.md lists the rules and the choices made.
//
// One process (hd_process) runs at each instant something happens to this station: a frame
// ready, deference over, a collision reaching us, a frame, jam or backoff ending. Deference is
// computed from the signal history (CollisionDomain::deference_release) and re-checked at the
// instant it ends, so a station that is only deferring costs one activation per busy period of
// the medium, not one per frame of someone else's burst. A burst's next frame starts at its
// fill's end without a wake of its own when nothing watches the station (hd_fill_done).

#include <algorithm>
#include <stdexcept>

#include "models/common/speed_modes.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

void Mac::attach_medium(HalfDuplexMedium* medium, std::size_t index, Settleable* port) {
  incoming_ = port;
  medium_ = medium;
  station_index_ = index;
  medium_wakes_ = medium->keeps_wakes();
}

Picoseconds Mac::hd_wire_bits(std::size_t frame_bytes, bool first_of_transmission) const {
  // Carrier extension pads the first frame of a transmission to slotTime bits, DA to the end of
  // the extension (4.2.3.4); later frames of a burst need none.
  const Picoseconds slot_bits = slot_ps_ / bit_ps_;
  Picoseconds bits = 8 * static_cast<Picoseconds>(frame_bytes);
  if (first_of_transmission && params_.carrier_extension && bits < slot_bits) bits = slot_bits;
  return bits;
}

void Mac::hd_wake(Picoseconds at) {
  // An earlier pending wake stays; hd_process re-arms from the state when it comes. `at` is
  // never in the past, but a lazy fill's next frame may start (as of its fill's end) later than
  // that instant, and a late burst's frames later still: the delay counts from the present.
  if (at >= wake_at_ps_) return;
  const Picoseconds now = now_ps();
  if (at < now) throw std::logic_error("internal error: a half-duplex wake set in the past");
  wake_at_ps_ = at;
  if (medium_wakes_) {
    medium_->wake(station_index_, at);  // wake_up, then
    return;
  }
  hd_wake_.notify(to_sc_time(at - now));
}

void Mac::on_signal_arrival(Picoseconds at) {
  if (late_until_ps_ != 0) {
    // Another station began: the burst is caught up to this instant and goes on on time, woken
    // at its phase's end as if it had never been late.
    hd_catch_up(now_ps());
    hd_burst_on_time();
    if (state_ == MacTxState::transmitting) {
      hd_wake(hd_phase_wake(frame_end_ps_));
    } else if (state_ == MacTxState::burst_fill) {
      hd_wake(hd_phase_wake(fill_lazy_ ? lazy_frame_end_ps_ : fill_end_ps_));
    }
  }
  const bool sending = state_ == MacTxState::transmitting || state_ == MacTxState::burst_fill;
  if (!sending || at >= collision_at_ps_) return;
  const Picoseconds phase_end = state_ == MacTxState::transmitting ? frame_end_ps_
                                : fill_lazy_                       ? lazy_frame_end_ps_
                                                                   : fill_end_ps_;
  if (at >= phase_end) return;  // our signal is gone (or this phase is over) by then
  collision_at_ps_ = at;
  hd_wake(hd_phase_wake(phase_end));
}

Picoseconds Mac::hd_phase_wake(Picoseconds phase_end) const {
  const Picoseconds at = collision_at_ps_;
  // A late burst wakes where its limit may end it (a settle catches up the frames before).
  if (at >= phase_end) return phase_end < late_until_ps_ ? late_until_ps_ : phase_end;
  if (!lazy_fill_allowed_) return at;
  // The jam's end, as hd_collision will find it: from the collision in a fill, from the end of
  // the preamble and SFD (or the collision, if later) in a frame.
  if (state_ == MacTxState::burst_fill && at < fill_end_ps_) return at + jam_ps_;
  const Picoseconds start = state_ == MacTxState::burst_fill ? fill_end_ps_ : frame_start_ps_;
  return std::max(at, start + kPreambleSfdBits * bit_ps_) + jam_ps_;
}

void Mac::hd_settle(Picoseconds now) {
  if (late_until_ps_ != 0 && !catching_up_) hd_catch_up(now);
  if (state_ == MacTxState::burst_fill && collision_at_ps_ <= now &&
      collision_at_ps_ < fill_end_ps_) {
    hd_collision(collision_at_ps_);
    return;
  }
  if (fill_lazy_ && fill_end_ps_ <= now) hd_fill_done();
  if (state_ == MacTxState::transmitting && collision_at_ps_ <= now &&
      collision_at_ps_ < frame_end_ps_)
    hd_collision(collision_at_ps_);
}

void Mac::catch_up_burst(Picoseconds now) {
  if (late_until_ps_ != 0 && !catching_up_) hd_catch_up(now);
}

void Mac::hd_catch_up(Picoseconds now) {
  // What hd_process does at each of the burst's frame ends, as of that instant (station_now):
  // the station settled (arrivals, client, sources), the frame finished and delivered, the next
  // one taken from the queue; its fill's end starts it (hd_fill_done, as a lazy fill does at any
  // settle). The frame ending at or after late_until_ps_ may end the burst: it gets its wake.
  catching_up_ = true;
  while (late_until_ps_ != 0) {
    if (fill_lazy_ && fill_end_ps_ <= now) {
      catch_up_ps_ = fill_end_ps_;
      hd_fill_done();
      continue;
    }
    if (state_ != MacTxState::transmitting || frame_end_ps_ > now ||
        frame_end_ps_ >= late_until_ps_ || collision_at_ps_ < frame_end_ps_)
      break;
    const Picoseconds end = frame_end_ps_;
    catch_up_ps_ = end;
    settle_around(end);
    hd_frame_done(end);
  }
  catching_up_ = false;
}

Picoseconds Mac::hd_late_until(Picoseconds now) const {
  // Where the limit may end the burst, or kLateBurstBits from now if that is sooner (a burst
  // limit far above the standard's would otherwise let a late burst hold its frames unbounded).
  const Picoseconds until =
      std::min(burst_start_ps_ + burst_limit_ps_ - ifg_ps_, now + kLateBurstBits * bit_ps_);
  if (lazy_frame_end_ps_ >= until) return 0;  // the next frame may be the burst's last
  // The frames that can leave the queue before then: each takes a preamble, a byte and a gap.
  const Picoseconds shortest = (kPreambleSfdBits + 8) * bit_ps_ + ifg_ps_;
  const auto pops = static_cast<std::uint64_t>((until - now) / shortest) + 1;
  const bool kept = std::any_of(keepers_.begin(), keepers_.end(), [&](const QueueKeeper* k) {
    return k->keeps_queue_filled(until, pops);
  });
  return kept ? until : 0;
}

void Mac::hd_burst_on_time() {
  late_until_ps_ = 0;
  medium_->late_sender(station_index_, kForeverPs);
}

void Mac::on_medium_closed(Picoseconds now) {
  if (state_ != MacTxState::deferring || !waiting_for_close_) return;
  waiting_for_close_ = false;
  const auto release =
      medium_->deference_release(station_index_, ready_ps_, ifg_ps_, ifg_part1_ps_);
  if (!release) {
    waiting_for_close_ = true;
    medium_->wait_for_close(station_index_);
  } else {
    hd_wake(std::max(*release, now));
  }
}

void Mac::hd_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  // Settled first: a lazy fill's next frame starting re-asks for this very wake.
  settle_station(now);
  if (wake_at_ps_ <= now) wake_at_ps_ = kForeverPs;  // this is that wake
  switch (state_) {
    case MacTxState::idle:
      if (!hol_) hd_next_frame(now);
      if (hol_) hd_try(now);
      return;
    case MacTxState::deferring:
      if (!waiting_for_close_) hd_try(now);
      return;
    case MacTxState::backoff:
      if (now >= backoff_end_ps_) {
        set_state(MacTxState::deferring, now);
        hd_try(now);
      } else {
        hd_wake(backoff_end_ps_);
      }
      return;
    // A collision that has reached us was settled first (hd_settle): we are jamming then.
    case MacTxState::transmitting:
      if (now >= frame_end_ps_) {
        hd_frame_done(now);
      } else {
        hd_wake(hd_phase_wake(frame_end_ps_));
      }
      return;
    case MacTxState::burst_fill:
      if (now >= fill_end_ps_) {
        hd_fill_done();  // woken at the fill's end (a lazy fill was done by settle_station)
      } else {
        hd_wake(hd_phase_wake(fill_lazy_ ? lazy_frame_end_ps_ : fill_end_ps_));
      }
      return;
    case MacTxState::jamming:
      if (now >= jam_end_ps_) {
        hd_jam_done(now);
      } else {
        hd_wake(jam_end_ps_);
      }
      return;
    case MacTxState::interframe_gap:
    case MacTxState::paused:
      return;  // full duplex only
  }
}

void Mac::hd_next_frame(Picoseconds now) {
  hol_.reset();
  if (queue_.empty()) return;
  hol_ = queue_.pop();
  hol_since_ps_ = now;
  ready_ps_ = now;
  attempts_ = 0;
  collisions_seen_ = 0;
}

void Mac::hd_try(Picoseconds now) {
  const auto release =
      medium_->deference_release(station_index_, ready_ps_, ifg_ps_, ifg_part1_ps_);
  if (!release) {
    // The busy period's end is not known yet: its sender will tell the medium.
    set_state(MacTxState::deferring, now);
    waiting_for_close_ = true;
    medium_->wait_for_close(station_index_);
    return;
  }
  if (*release > now) {
    set_state(MacTxState::deferring, now);
    hd_wake(*release);
    return;
  }
  hd_start(now, false);
}

void Mac::hd_start(Picoseconds now, bool in_burst) {
  if (!in_burst) {
    // A new transmission: the burst timer starts with its first preamble bit (BurstTimer).
    if (attempts_ == 0 && now > ready_ps_ &&
        medium_->first_signal_from(station_index_, ready_ps_) < now)
      ++stats_.deferred_transmissions;
    attempt_start_ps_ = now;
    first_of_transmission_ = true;
    bursting_ = params_.frame_bursting;
    burst_start_ps_ = now;
    medium_->begin(station_index_, now);
    if (bursting_) events.emit(EventKind::burst_start, now, hol_.get());
  } else {
    first_of_transmission_ = false;
  }
  ++attempts_;
  ++stats_.attempts_started;
  frame_start_ps_ = now;
  data_end_ps_ = now + (kPreambleSfdBits + 8 * static_cast<Picoseconds>(hol_->size())) * bit_ps_;
  frame_end_ps_ =
      now + (kPreambleSfdBits + hd_wire_bits(hol_->size(), first_of_transmission_)) * bit_ps_;
  // A signal already here, or arriving at this very instant, collides at once.
  collision_at_ps_ = medium_->first_signal_from(station_index_, now);
  waiting_for_close_ = false;
  set_state(MacTxState::transmitting, now);
  if (client_ != nullptr) client_->mac_tx_started(*hol_, now);
  events.emit(EventKind::tx_start, now, hol_.get());
  hd_wake(hd_phase_wake(frame_end_ps_));
}

void Mac::hd_frame_done(Picoseconds now) {
  FramePtr frame = std::move(hol_);
  const std::size_t size = frame->size();
  ++stats_.frames_transmitted_ok;
  stats_.frame_octets_transmitted += size;
  stats_.octets_transmitted_ok += client_octets(frame->bytes);
  stats_.tx_busy_ps += static_cast<std::uint64_t>(now - frame_start_ps_);
  const MacAddress da = destination_of(frame->bytes);
  if (da.is_broadcast()) {
    ++stats_.broadcast_frames_transmitted_ok;
  } else if (da.is_multicast()) {
    ++stats_.multicast_frames_transmitted_ok;
  }
  if (collisions_seen_ == 1) ++stats_.single_collision_frames;
  if (collisions_seen_ > 1) ++stats_.multiple_collision_frames;
  stats_.access_delay.record(frame_start_ps_ - hol_since_ps_);
  medium_->account_success(kPreambleSfdBits * bit_ps_,
                           data_end_ps_ - frame_start_ps_ - kPreambleSfdBits * bit_ps_,
                           frame_end_ps_ - data_end_ps_);
  if (bursting_) {
    ++stats_.frames_in_bursts;
    if (first_of_transmission_) {
      ++stats_.bursts;
      burst_frames_ = 0;
    }
    ++burst_frames_;
  }
  if (client_ != nullptr) client_->mac_tx_done(*frame, now, true);
  events.emit(EventKind::tx_end, now, frame.get());
  medium_->deliver(station_index_, std::move(frame), frame_start_ps_, frame_end_ps_);

  hd_next_frame(now);
  // A burst goes on without deferring while the next frame would start before burstLimit bit
  // times have passed since the burst began; the gap is filled with extension. With nothing
  // queued the burst ends here (no trailing fill: 802.3 permits either).
  if (bursting_ && hol_ && now + ifg_ps_ < burst_start_ps_ + burst_limit_ps_) {
    fill_end_ps_ = now + ifg_ps_;
    collision_at_ps_ = medium_->first_signal_from(station_index_, now);
    set_state(MacTxState::burst_fill, now);
    // With no signal known to arrive in the fill, the next frame starts at its end without a
    // wake of its own: at the first settle from then on, as of then (hd_fill_done). A signal
    // arriving in the fill or that frame is still told (on_signal_arrival) and wakes us.
    fill_lazy_ = lazy_fill_allowed_ && collision_at_ps_ >= fill_end_ps_;
    if (fill_lazy_) {
      lazy_frame_end_ps_ =
          fill_end_ps_ + (kPreambleSfdBits + hd_wire_bits(hol_->size(), false)) * bit_ps_;
      // With no signal known to reach us at all, the burst may go on late (bursts_late).
      if (late_until_ps_ == 0 && late_burst_allowed_ && collision_at_ps_ == kForeverPs)
        late_until_ps_ = hd_late_until(now);
      if (late_until_ps_ != 0) {
        if (lazy_frame_end_ps_ < late_until_ps_) {
          medium_->late_sender(station_index_, lazy_frame_end_ps_);
        } else {
          hd_burst_on_time();  // the next frame may be the last: on time
        }
      }
      hd_wake(hd_phase_wake(lazy_frame_end_ps_));
      return;
    }
    if (late_until_ps_ != 0) hd_burst_on_time();
    hd_wake(hd_phase_wake(fill_end_ps_));
    return;
  }
  // A late burst goes on while its keeper fills the queue, up to its limit (hd_late_until).
  if (catching_up_) throw std::logic_error("internal error: a late burst ended before its time");
  if (late_until_ps_ != 0) hd_burst_on_time();
  if (bursting_) {
    events.emit(EventKind::burst_end, now, nullptr, std::string_view{}, burst_frames_);
    bursting_ = false;
  }
  medium_->end(station_index_, now);
  if (hol_) {
    hd_try(now);
  } else {
    set_state(MacTxState::idle, now);
  }
}

void Mac::hd_fill_done() {
  // The fill ended with no signal arrived in it: the burst's next frame started then (now, or
  // earlier for a lazy fill).
  fill_lazy_ = false;
  medium_->account_success(0, 0, fill_end_ps_ - frame_end_ps_);
  hd_start(fill_end_ps_, true);
}

void Mac::hd_collision(Picoseconds at) {
  const bool in_fill = state_ == MacTxState::burst_fill;
  fill_lazy_ = false;
  // Late: more than slotTime after the transmission's first preamble bit, or anywhere after the
  // first frame of a burst (WatchForCollision).
  late_ = in_fill || !first_of_transmission_ || at - attempt_start_ps_ > slot_ps_;
  collision_ = true;
  ++stats_.collisions;
  if (!in_fill) ++collisions_seen_;
  if (late_) ++stats_.late_collisions;
  events.emit(EventKind::collision, at, in_fill ? nullptr : hol_.get(), late_ ? "late" : "");
  if (late_) events.emit(EventKind::late_collision, at, in_fill ? nullptr : hol_.get());
  // Finish the preamble and SFD if still in them, then jam from the moment of detection.
  const Picoseconds from =
      in_fill ? at : std::max(at, frame_start_ps_ + kPreambleSfdBits * bit_ps_);
  jam_end_ps_ = from + jam_ps_;
  if (bursting_) {
    events.emit(EventKind::burst_end, at, nullptr, "collision");
    bursting_ = false;
  }
  jam_in_fill_ = in_fill;
  set_state(MacTxState::jamming, at);
  hd_wake(jam_end_ps_);
}

void Mac::hd_jam_done(Picoseconds now) {
  medium_->end(station_index_, now);
  collision_ = false;
  events.emit(EventKind::jam_end, now, jam_in_fill_ ? nullptr : hol_.get());
  if (jam_in_fill_) {
    // The frame before the fill was delivered; the next one has not been tried yet.
    ready_ps_ = now;
    attempts_ = 0;
    hd_try(now);
    return;
  }
  const bool no_retry = late_ && (config_.rate_mbps >= 1000 || !params_.retry_late_collisions);
  if (no_retry) {
    hd_drop("late_collision", stats_.frames_aborted_late_collision, now);
    return;
  }
  if (attempts_ >= params_.attempt_limit) {
    hd_drop("excessive_collisions", stats_.frames_aborted_excessive_collisions, now);
    return;
  }
  // Truncated binary exponential backoff: r uniform on [0, 2^min(attempts, backoffLimit)).
  const auto range = std::uint64_t{1} << std::min(attempts_, params_.backoff_limit);
  const auto slots = static_cast<std::int64_t>(backoff_rng_.uniform_below(range));
  events.emit(EventKind::backoff, now, hol_.get(), std::string_view{}, slots);
  backoff_end_ps_ = now + slots * slot_ps_;
  ready_ps_ = backoff_end_ps_;
  if (backoff_end_ps_ <= now) {
    set_state(MacTxState::deferring, now);
    hd_try(now);
  } else {
    set_state(MacTxState::backoff, now);
    hd_wake(backoff_end_ps_);
  }
}

void Mac::hd_drop(std::string_view reason, Counter& counter, Picoseconds now) {
  ++counter;
  if (client_ != nullptr) client_->mac_tx_done(*hol_, now, false);
  events.emit(EventKind::drop, now, hol_.get(), reason);
  hd_next_frame(now);
  if (hol_) {
    hd_try(now);
  } else {
    set_state(MacTxState::idle, now);
  }
}

HalfDuplexCounts Mac::half_duplex_counts(Picoseconds elapsed) const {
  HalfDuplexCounts c;
  c.attempts = attempts_made();
  c.frames_transmitted_ok = frames_transmitted_ok();
  c.frame_octets_transmitted = frame_octets_transmitted();
  c.octets_transmitted_ok = octets_transmitted_ok();
  c.collisions = collisions();
  c.late_collisions = late_collisions();
  c.late_collision_drops = late_collision_drops();
  c.excessive_collision_drops = excessive_collision_drops();
  c.frame_check_sequence_errors = frame_check_sequence_errors();
  c.bursts = bursts();
  c.frames_in_bursts = frames_in_bursts();
  c.clean_in_progress_ps = clean_in_progress_ps(elapsed);
  return c;
}

}  // namespace gbesim
