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
  struct Transmission {
    Picoseconds start = 0;
    Picoseconds stop = kForeverPs;  // open until the sender ends it
    std::uint64_t serial = 0;       // its place in all_ (begin order)
  };
  // Every transmission of every station in the order they began (start times never decrease),
  // for the queries that look at the signals present after an instant: they scan back from the
  // newest only as far as a transmission could still be present (start + longest transmission
  // + largest delay), plus the open ones, instead of every station's history.
  struct Entry {
    std::size_t station;
    Picoseconds start;
    Picoseconds stop;
  };
  // Calls f(entry) for every transmission the stations' histories hold that may still be present
  // anywhere after `from`: all that are open, and the ended ones not provably gone by then (f
  // filters exactly). Open ones may be visited twice: f must be idempotent.
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
  // Every signal as seen at `station` (its own transmissions included, marked own), into
  // scratch_ (reused between calls: the queries run on every decision).
  const std::vector<Interval>& seen_at(std::size_t station) const;

  std::vector<std::vector<Picoseconds>> delay_;
  std::vector<std::vector<Picoseconds>> delay_to_;  // delay_to_[k][i] = delay_[i][k]: contiguous
  Picoseconds max_delay_ = 0;
  std::vector<RingQueue<Transmission>> history_;
  RingQueue<Entry> all_;
  std::uint64_t first_serial_ = 0;  // serial of all_.front()
  std::uint64_t next_serial_ = 0;
  std::vector<std::uint64_t> open_;   // serials of the transmissions not yet ended
  std::vector<std::size_t> sending_;  // their stations, in station order
  Picoseconds longest_ = 0;           // the longest ended transmission so far
  mutable std::vector<Interval> scratch_;
  struct Period {
    Picoseconds start;
    Picoseconds end;
    bool own;
  };
  mutable std::vector<Period> periods_;
};

}  // namespace gbesim
