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

// The one-way delays between a domain's stations, exactly, in as little memory as they allow.
// A symmetric matrix that is a sum of per-station parts up to a few picoseconds (every one
// derived from cable lengths to a repeater: (cable_i + cable_k) x ns/m + devices, rounded) is
// kept as those parts and one byte per pair for the rest; otherwise 32-bit picoseconds when
// every delay fits (up to 2.1 ms; 64-bit beyond), with a transposed copy unless symmetric. With
// a thousand stations that is 1 MiB instead of 16: the loops over signals read one station's
// row of it at scattered places, and on this project's VM the misses in the full matrices were
// most of their time. The diagonal is not kept (a station's own signal has no delay).
class DelayMatrix {
 public:
  explicit DelayMatrix(const std::vector<std::vector<Picoseconds>>& delay_ps);
  // One station's delays: from every station to it (or from it to every station), but itself.
  class Row {
   public:
    Picoseconds operator[](std::size_t k) const {
      // In the sum form; a domain whose pairs all have the same rest reads none.
      if (part_ != nullptr) return own_ + part_[k] + (rest_ != nullptr ? rest_[k] : rest_min_);
      return wide_ != nullptr ? wide_[k] : narrow_[k];
    }
    // No more than operator[](k), found without reading the pair's rest in the sum form (a
    // cache miss in a large domain): a loop that needs the delay only below some bound skips
    // most pairs with this.
    Picoseconds at_least(std::size_t k) const {
      if (part_ != nullptr) return own_ + part_[k] + rest_min_;
      return wide_ != nullptr ? wide_[k] : narrow_[k];
    }

   private:
    friend class DelayMatrix;
    const std::int8_t* rest_ = nullptr;
    const Picoseconds* part_ = nullptr;
    Picoseconds own_ = 0;
    Picoseconds rest_min_ = 0;
    const std::int32_t* narrow_ = nullptr;
    const Picoseconds* wide_ = nullptr;
  };
  std::size_t size() const { return n_; }
  Picoseconds operator()(std::size_t from, std::size_t to) const {
    return from == to ? 0 : from_row(from)[to];
  }
  Row from_row(std::size_t from) const { return row(0, from); }
  Row to_row(std::size_t to) const { return row(symmetric_ ? 0 : 1, to); }
  Picoseconds max() const { return max_; }
  // The sum form, when the delays have it: delay(i, k) = part(i) + part(k) + a rest within
  // [rest_min(), rest_max()].
  bool has_parts() const { return !part_.empty(); }
  Picoseconds part(std::size_t i) const { return part_[i]; }
  Picoseconds rest_min() const { return rest_min_; }
  Picoseconds rest_max() const { return rest_max_; }
  // The memory the delays take.
  std::size_t bytes() const {
    return part_.size() * sizeof(Picoseconds) + rest_.size() +
           (narrow_[0].size() + narrow_[1].size()) * sizeof(std::int32_t) +
           (wide_[0].size() + wide_[1].size()) * sizeof(Picoseconds);
  }

 private:
  Row row(int matrix, std::size_t station) const;
  bool try_parts(const std::vector<std::vector<Picoseconds>>& delay_ps);
  std::size_t n_ = 0;
  bool symmetric_ = true;
  Picoseconds max_ = 0;
  // Sum form: delay(i, k) = part_[i] + part_[k] + rest_[i * n + k] (rest_ empty when every
  // pair's is rest_min_).
  std::vector<Picoseconds> part_;
  std::vector<std::int8_t> rest_;
  Picoseconds rest_min_ = 0;
  Picoseconds rest_max_ = 0;
  // Otherwise [0]: from-major (delay(i, k) at i * n + k); [1]: to-major, only when not
  // symmetric.
  std::vector<std::int32_t> narrow_[2];
  std::vector<Picoseconds> wide_[2];
};

class CollisionDomain {
 public:
  // delay_ps[i][k]: one-way propagation from station i to station k (the diagonal is unused).
  explicit CollisionDomain(std::vector<std::vector<Picoseconds>> delay_ps);

  std::size_t size() const { return delay_.size(); }
  Picoseconds delay(std::size_t from, std::size_t to) const { return delay_(from, to); }
  // The delays from `from` to every station, for loops over stations.
  DelayMatrix::Row delays_from(std::size_t from) const { return delay_.from_row(from); }
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
  // re-asks at the instant returned (later arrivals can only push it back). t0 is no later than
  // the present: every signal arriving before it has begun (the walk remembers where it got
  // to, and starts there next time).
  std::optional<Picoseconds> deference_release(std::size_t station, Picoseconds t0,
                                               Picoseconds ifg_ps, Picoseconds part1_ps) const;

  // The earliest instant at or after `from` at which another station's signal is present at
  // `station` (the collision onset for a transmission started at `from`), or kForeverPs.
  Picoseconds first_signal_from(std::size_t station, Picoseconds from) const;

  // True if over [from, to) at `receiver` no signal but `sender`'s was present and the receiver
  // did not transmit: the frame arrived intact.
  bool clear_reception(std::size_t sender, std::size_t receiver, Picoseconds from,
                       Picoseconds to) const;

  // A busy period at a station: signals (and its own transmissions, `own`) merged where they
  // overlap or touch.
  struct BusyPeriod {
    Picoseconds start;
    Picoseconds end;  // kForeverPs while a transmission in it is open
    bool own;
  };
  // The busy periods at `station` that deference_release looks at from `from` on: every one
  // that starts at or after `from` exactly, and every one that ends at or after it with its
  // end exactly (its start may be later, and its own flag missing, when it began before
  // `from`); periods, or parts of them, that ended before `from` may be among them. For tests
  // and tools.
  std::vector<BusyPeriod> busy_periods(std::size_t station, Picoseconds from) const {
    periods_from(station, from);
    return periods_;
  }

  // How the busy periods behind deference_release's answers were found so far: from the
  // repeater's (with the sum form) or merged at the station itself (without it, or where the
  // repeater's could differ). For tests and benchmarks.
  std::uint64_t periods_from_repeater() const { return from_repeater_; }
  std::uint64_t periods_merged_here() const { return merged_here_; }

  // Forgets transmissions whose signal had left every station before `horizon`.
  void prune(Picoseconds horizon);
  // Prunes to `wanted` (the earliest instant anything else still looks back to: a waiting
  // frame's ready time less the longest gap and its first part, a frame not yet judged), but
  // never past a transmission before every busy period it is in is over, at every station
  // (what gap follows a period depends on whether the station's own transmission is in it,
  // and on the signals that join them), and not at all unless
  // set_shortest_signal has said every signal lasts at least every gap. Returns the horizon
  // pruned to. docs/medium.md says why that is all any answer needs.
  Picoseconds prune_for_deference(Picoseconds wanted);
  // The shortest signal any station sends (a preamble and a jam) and the longest interframe
  // gap of any: pruning is on when the first is at least the second.
  void set_shortest_signal(Picoseconds shortest_ps, Picoseconds longest_ifg_ps) {
    prunable_ = shortest_ps >= longest_ifg_ps;
  }

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
  // The same periods from the busy periods at the repeater, when the delays have the sum form
  // (DelayMatrix): station i's signal reaches the repeater part(i) after it starts and station
  // k part(k) + a rest later, so the periods at k are the repeater's shifted by part(k) + rest.
  // They are the same periods at every station wherever no two signals come within the spread
  // of the rests of touching or parting, and the repeater's are kept as transmissions begin
  // and end, so a station asking costs the few periods after `from`, not every signal. Fills
  // periods_ with those that may still be present at `station` at or after `from` (any before
  // may be missing; all of them when `first` == 0, the whole history) and returns true; a
  // period holding the station's own transmission is merged again from its signals. Returns
  // false, having done nothing, where that does not hold: signals too close to call, no sum
  // form.
  bool repeater_periods(std::size_t station, Picoseconds from, std::size_t first) const;
  struct PeriodsHere;  // how repeater_periods maps a period at the repeater to one station
  // Brings repeater_periods_ up to date with repeater_signals_ from the first changed signal.
  void merge_at_repeater() const;
  void add_at_repeater(std::size_t station, Picoseconds start);
  void end_at_repeater(std::size_t station, Picoseconds stop);

  DelayMatrix delay_;
  Picoseconds max_delay_ = 0;
  // Ended transmissions in the order they ended (stops never decrease), back to what prune
  // keeps; the queries scan back from the newest only as far as a signal could still be present.
  RingQueue<Entry> ended_;
  std::vector<Entry> open_;              // transmissions not yet ended, in begin order
  std::vector<std::size_t> sending_;     // their stations, in station order
  std::vector<Picoseconds> open_start_;  // each station's open transmission's start, or -1
  // Each station's latest Deference cycle followed, and the t0 it was followed for
  // (kForeverPs: none yet): an instant from which a walk that takes the first busy period
  // starting there as a new cycle gives the station's answers for any t0 from cycle_t0_ on --
  // the start of the busy period of a cycle the walk passed through, or an instant at which
  // the station was not deferring and sensed no carrier.
  mutable std::vector<Picoseconds> cycle_start_;
  mutable std::vector<Picoseconds> cycle_t0_;
  // Whether every busy period the transmission ended_[j] is in, at any station, is over
  // before `horizon`.
  bool periods_over(std::size_t j, Picoseconds horizon) const;
  bool repeater_bounds_ = false;  // periods_over may read the repeater's periods
  Picoseconds max_part_ = 0;
  bool prunable_ = true;
  // Records a station's walk: from `start`, for t0 on.
  void remember(std::size_t station, Picoseconds start, Picoseconds t0) const;
  // Where deference_release's walk starts: the index in periods_ of a busy period at or before
  // t0 that every cycle followed from an earlier one passes through, or periods_.size() when
  // deferring is off at t0.
  std::size_t deference_start(std::size_t station, Picoseconds t0, Picoseconds ifg_ps) const;
  Picoseconds pruned_to_ = -kForeverPs;  // prune's latest horizon
  mutable std::vector<Interval> scratch_;
  mutable std::vector<BusyPeriod> periods_;
  // Merges signals in arrival order into periods_.
  void merge_periods(const std::vector<Interval>& seen) const;
  // With the sum form: every transmission kept as a signal at the repeater, in arrival order
  // (all the merge needs), and their busy periods there, merged up to the first signal changed
  // since (`merged_to_`).
  struct RepeaterSignal {
    Picoseconds arrive;
    Picoseconds leave;    // kForeverPs while open
    Picoseconds run_end;  // its period's end as merged up to it
    std::uint32_t station;
    bool run_unsure;  // its period, as merged up to it, may differ at some station
  };
  struct RepeaterPeriod {
    Picoseconds start;
    Picoseconds end;                     // kForeverPs while open
    std::uint32_t members, members_end;  // its signals, in repeater_signals_
    bool unsure;
  };
  // The first of [first, last) (signals in arrival order) that arrived at `arrive` or later.
  static const RepeaterSignal* first_arriving(const RepeaterSignal* first,
                                              const RepeaterSignal* last, Picoseconds arrive);
  mutable std::vector<RepeaterSignal> repeater_signals_;
  mutable std::vector<RepeaterPeriod> repeater_periods_;
  mutable std::size_t merged_to_ = 0;
  // Each station's signals among them, as their arrivals there, oldest first (a station's
  // transmissions follow one another, and prune forgets the oldest first). A period holds one of
  // them exactly when it arrived from the period's start to its end.
  std::vector<std::vector<Picoseconds>> at_repeater_;
  mutable std::uint64_t from_repeater_ = 0;
  mutable std::uint64_t merged_here_ = 0;
};

}  // namespace gbesim
