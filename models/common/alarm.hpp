#pragma once
// A SystemC event kept notified for at most one instant, which the owner moves as it changes:
// setting the same instant again costs nothing, another one cancels the pending notification
// first (SystemC would otherwise keep the earlier of the two).

#include <stdexcept>

#include <systemc>

#include "models/common/time.hpp"

namespace gbesim {

class Alarm {
 public:
  explicit Alarm(sc_core::sc_event& event) : event_(event) {}
  // Wake at `at` (>= now), or never (kForeverPs).
  void set(Picoseconds at) {
    if (at == at_) return;
    if (at_ != kForeverPs) event_.cancel();
    at_ = at;
    if (at == kForeverPs) return;
    const Picoseconds now = now_ps();
    // A model deciding late (a MAC catching up: Mac::transmit_late) must never get here with an
    // instant that has passed: the wake would be lost without a trace.
    if (at < now) throw std::logic_error("internal error: a wake-up set in the past");
    event_.notify(to_sc_time(at - now));
  }
  // Wake at `at`, or now if it has passed: for an owner whose work may be handed to it after it
  // fell due (a port receiving the frames of a late sender: Mac, "Late bursts").
  void set_or_now(Picoseconds at) {
    const Picoseconds now = at == kForeverPs ? 0 : now_ps();
    if (at < now) at = now;
    if (at == at_) return;  // the same instant (a past one: now) is pending already
    if (at_ != kForeverPs) event_.cancel();
    at_ = at;
    if (at == kForeverPs) return;
    event_.notify(to_sc_time(at - now));
  }
  // The notification has fired: nothing is pending.
  void fired() { at_ = kForeverPs; }
  // The pending instant (kForeverPs: none).
  Picoseconds at() const { return at_; }

 private:
  sc_core::sc_event& event_;
  Picoseconds at_ = kForeverPs;
};

}  // namespace gbesim
