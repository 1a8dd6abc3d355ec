#pragma once
// When a NIC raises its interrupt: plain logic, no kernel. Frames become visible to the host
// (received frames written back, transmit completions); the moderation scheme says from when the
// interrupt may fire: "none" at once; "coalesce" once coalesce_frames are pending or coalesce_us
// after the first; "itr" (Intel 8254x) each direction's cause after its packet timer (restarted
// by every frame: RDTR, TIDV) or its absolute timer (from the first: RADV, TADV), whichever ends
// first, and never sooner than the ITR interval after the last interrupt. The handler takes
// everything pending. The NIC (models/nic/nic) runs the timer.

#include <cstdint>
#include <utility>

#include "models/common/time.hpp"
#include "models/nic/nic_params.hpp"

namespace gbesim {

// What sets the instant an interrupt may fire.
enum class InterruptCause {
  immediate,       // "none": at once
  coalesce_count,  // coalesce: coalesce_frames pending
  coalesce_time,   // coalesce: coalesce_us after the first
  rx_timer,        // itr: RDTR or RADV
  tx_timer,        // itr: TIDV or TADV
  itr_hold,        // itr: a timer had ended; the ITR interval since the last interrupt holds it
};
const char* to_string(InterruptCause c);

class InterruptModeration {
 public:
  explicit InterruptModeration(const NicParams& params) : params_(params) {}

  // n frames became visible at `now` (transmit: completions, else received frames).
  void frames_visible(std::int64_t n, Picoseconds now, bool transmit);
  // The handler took every pending frame and completion.
  void taken();
  // The interrupt was raised at `now`.
  void raised(Picoseconds now) { last_raise_ps_ = now; }

  bool pending() const { return frames_ > 0; }
  // The earliest instant the interrupt may fire for what is pending; kForeverPs if nothing is
  // pending or the scheme waits for more.
  Picoseconds ready_ps() const { return ready().first; }
  // Which rule sets ready_ps().
  InterruptCause cause() const { return ready().second; }
  // itr: a timer has ended by `now` and the ITR interval still holds the interrupt.
  bool held_by_itr(Picoseconds now) const;

 private:
  struct Pending {
    std::int64_t count = 0;
    Picoseconds first = 0;
    Picoseconds last = 0;
  };
  std::pair<Picoseconds, InterruptCause> ready() const;
  // itr: when the receive and the transmit timers end (kForeverPs: nothing pending).
  std::pair<Picoseconds, Picoseconds> timers() const;
  Picoseconds itr_floor() const { return last_raise_ps_ + params_.itr_256ns * 256'000; }

  const NicParams& params_;
  std::int64_t frames_ = 0;  // receive frames and transmit completions together
  Picoseconds first_ps_ = 0;
  Picoseconds last_ps_ = 0;
  Pending rx_;  // by direction, for RDTR/RADV and TIDV/TADV
  Pending tx_;
  Picoseconds last_raise_ps_ = -kForeverPs;
};

}  // namespace gbesim
