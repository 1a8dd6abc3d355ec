#pragma once
// Same-instant order. Several processes often act at the same picosecond (a frame ends, a PAUSE
// arrives, the application consumes a frame, a source queues one); the SystemC kernel runs them in
// an order it does not define, and an extra traced signal can change it. So every component whose
// timed work can affect a decision exposes settle(now): "do everything you have due at or before
// now". A process first settles, in a fixed order, everything its decision depends on; settling is
// idempotent, so whichever process runs first at an instant does the work in the defined order and
// the others find it done. The order at one instant, per station, is documented in docs/mac.md.

#include "models/common/time.hpp"

namespace gbesim {

class Settleable {
 public:
  virtual ~Settleable() = default;
  virtual void settle(Picoseconds now) = 0;
  // The earliest instant at which this component has work that settle() would do: callers skip
  // the call (the common case, on the per-frame path) when it is still in the future.
  Picoseconds due_ps() const { return due_ps_; }
  void settle_if_due(Picoseconds now) {
    if (due_ps_ <= now) settle(now);
  }

 protected:
  Picoseconds due_ps_ = kForeverPs;
};

}  // namespace gbesim
