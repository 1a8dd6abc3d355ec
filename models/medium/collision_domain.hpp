#pragma once
// The signal history of a half-duplex collision domain, as plain C++: who transmitted when, and
// what each station therefore senses. Station i's transmission [start, stop) is present at
// station k over [start + d(i,k), stop + d(i,k)); a transmission's stop is unknown ("open") until
// its sender ends it, so nothing here ever assumes a future the sender has not decided yet.
//
// The rules shared by every query (docs/medium.md):
//  - a MAC deciding at instant t senses only signals that arrived strictly before t; a signal
//    arriving exactly at t is not deferred to but collides with a transmission started at t;
//  - signals that touch (one arrives as another leaves) make one continuous carrier.
//
// Exact to the picosecond for fixed delays. Does not model: signal content or levels (a signal is
// present or not; damage is decided by overlap alone), PHY carrier-sense or collision-detect
// latency and delay jitter (fold them into d(i,k)), or a repeater's jam echo to colliding ports.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/common/ring_queue.hpp"
#include "models/common/time.hpp"

namespace gbesim {

class CollisionDomain {
 public:
  // delay_ps[i][k]: one-way propagation from station i to station k (the diagonal is unused).
  explicit CollisionDomain(std::vector<std::vector<Picoseconds>> delay_ps);

  std::size_t size() const { return delay_.size(); }
  Picoseconds delay(std::size_t from, std::size_t to) const { return delay_[from][to]; }
  Picoseconds max_delay() const { return max_delay_; }

  void begin(std::size_t station, Picoseconds start);
  void end(std::size_t station, Picoseconds stop);
  bool transmitting(std::size_t station) const;
  // The stations transmitting now, in station order.
  const std::vector<std::size_t>& transmitting_stations() const { return sending_; }
  // True if a transmission not yet ended has reached `station` by `t` (arrived at or before t).
  bool open_signal_by(std::size_t station, Picoseconds t) const;
  // Start of the station's current transmission (valid while transmitting).
  Picoseconds current_start(std::size_t station) const;

  // The first instant at or after t0 at which a frame waiting since t0 may start, following the
  // 802.3 Deference process (4.2.8): after a busy period (carrier or own transmission) the gap is
  // `ifg_ps`; after one that did not include our own transmission, carrier in its first
  // `part1_ps` restarts the gap and carrier in the rest is ignored. nullopt while the answer
  // depends on a transmission whose end is not known yet. Valid with what is known now; a caller
  // re-asks at the instant returned (later arrivals can only push it back).
  std::optional<Picoseconds> deference_release(std::size_t station, Picoseconds t0,
                                               Picoseconds ifg_ps, Picoseconds part1_ps) const;

  // The earliest instant at or after `from` at which another station's signal is present at
  // `station` (the collision onset for a transmission started at `from`), or kForeverPs.
  Picoseconds first_signal_from(std::size_t station, Picoseconds from) const;

  // True if over [from, to) at `receiver` no signal but `sender`'s was present and the receiver
  // did not transmit: the frame arrived intact.
  bool clear_reception(std::size_t sender, std::size_t receiver, Picoseconds from,
                       Picoseconds to) const;

  // Forgets transmissions whose signal had left every station before `horizon`: callers pass
  // the earliest instant any deference still has to look back to (the oldest waiting frame's
  // ready time) less the gap.
  void prune(Picoseconds horizon);

 private:
  struct Entry {
    std::size_t station;
    Picoseconds start;
    Picoseconds stop;  // kForeverPs while open
  };
  // Calls f(entry) for every transmission that may still be present anywhere after `from`: the
  // ended ones whose signal had not left every station by then (scanning back from the newest
  // end only that far), then the open ones. f filters exactly.
  template <typename F>
  void for_each_recent(Picoseconds from, F&& f) const;
  struct Interval {
    Picoseconds arrive;
    Picoseconds leave;  // kForeverPs while open
    bool own;
  };
  // Arrival order (then leaving order): the order the busy periods are merged in.
  static bool before(const Interval& a, const Interval& b) {
    return a.arrive != b.arrive ? a.arrive < b.arrive : a.leave < b.leave;
  }
  // The busy periods at `station` (signals, its own transmissions marked own, merged where they
  // overlap or touch), into periods_: of every transmission whose signal may be present there at
  // or after `from`, or of every kept one if that is all of them. Returns true in that case
  // (the whole kept history); otherwise only periods that start at or after `from` are sure to
  // be whole (an earlier one may lack signals that had left by `from`).
  bool periods_from(std::size_t station, Picoseconds from) const;

  std::vector<std::vector<Picoseconds>> delay_;
  std::vector<std::vector<Picoseconds>> delay_to_;  // delay_to_[k][i] = delay_[i][k]: contiguous
  Picoseconds max_delay_ = 0;
  // Ended transmissions in the order they ended (stops never decrease), back to what prune
  // keeps; the queries scan back from the newest only as far as a signal could still be present.
  RingQueue<Entry> ended_;
  std::vector<Entry> open_;              // transmissions not yet ended, in begin order
  std::vector<std::size_t> sending_;     // their stations, in station order
  std::vector<Picoseconds> open_start_;  // each station's open transmission's start, or -1
  // Each station's latest Deference cycle followed, by the start of its busy period, and the t0
  // it was followed for (kForeverPs: none yet); prune's latest horizon.
  mutable std::vector<Picoseconds> cycle_start_;
  mutable std::vector<Picoseconds> cycle_t0_;
  Picoseconds pruned_to_ = -kForeverPs;
  mutable std::vector<Interval> scratch_;
  struct Period {
    Picoseconds start;
    Picoseconds end;
    bool own;
  };
  mutable std::vector<Period> periods_;
};

}  // namespace gbesim
