#pragma once
// The boundary between a half-duplex station (a MAC; a switch port in half duplex later) and the
// shared medium it is attached to. Each side sees only the other's interface here, so models/mac
// and models/medium never include each other.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "models/common/frame.hpp"
#include "models/common/mac_address.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// What a station contributes to its collision domain's statistics: plain counts, which the
// domain sums over its stations (models/medium/shared_medium's domain-wide rows).
struct HalfDuplexCounts {
  std::uint64_t attempts = 0;  // transmission attempts started
  std::uint64_t frames_transmitted_ok = 0;
  std::uint64_t frame_octets_transmitted = 0;  // DA..FCS of frames sent OK
  std::uint64_t octets_transmitted_ok = 0;     // MAC client data and pad of frames sent OK
  std::uint64_t collisions = 0;
  std::uint64_t late_collisions = 0;
  std::uint64_t late_collision_drops = 0;
  std::uint64_t excessive_collision_drops = 0;
  std::uint64_t frame_check_sequence_errors = 0;  // frames received with a bad FCS
  std::uint64_t bursts = 0;
  std::uint64_t frames_in_bursts = 0;
  // Time the frame (or burst fill) on the wire at the end has been sent unharmed so far.
  Picoseconds clean_in_progress_ps = 0;
};

// A station on a shared medium, as the medium sees it.
class HalfDuplexStation {
 public:
  virtual ~HalfDuplexStation() = default;
  virtual const MacAddress& station_address() const = 0;
  virtual bool promiscuous() const = 0;
  // Another station's signal reaches us at `at` (>= now). Told only while this station has a
  // transmission of its own open on the medium (a later one asks first_signal_from), and only
  // of a signal arriving before every other it was told of since that transmission began: a
  // station collides at the first, and a phase it starts after it (burst fill, the next frame
  // of a burst) asks first_signal_from again.
  virtual void on_signal_arrival(Picoseconds at) = 0;
  // A transmission's end has just become known (asked for with wait_for_close).
  virtual void on_medium_closed(Picoseconds now) = 0;
  // A frame whose last bit (or extension) arrived at `at`: now, or earlier with late delivery; a
  // damaged one carries a bad FCS.
  virtual void receive(FramePtr frame, Picoseconds at) = 0;
  // True if receiving a frame later, with its arrival time, gives the same results: nothing acts
  // on a received frame at the moment of the call (a half-duplex MAC decides from the medium's
  // signals, never from the frames it receives). Asked once, when the run starts.
  virtual bool takes_late_delivery() const { return false; }
  // The station's port delivers late and settles the station at every stop of the kernel
  // (chunk, series interval, warm-up, end): what only the station itself would see may then also
  // wait for its next settle (a burst's next frame starting after its fill). Told once, when the
  // run starts.
  virtual void settled_at_every_stop() {}
  // Brings the station up to `now` before a delivery (its own frame's end first).
  virtual void settle_station(Picoseconds now) = 0;
  // A station bursting late (HalfDuplexMedium::late_sender): every frame of its burst that has
  // ended by `now` finished, as of its end, so that the frames due at their receivers by then
  // are on their way.
  virtual void catch_up_burst(Picoseconds /*now*/) {}
  // The station's longest gap (interframe gap and its first part): with the ready times the
  // station reports (HalfDuplexMedium::waiting_since), what the medium may forget.
  virtual Picoseconds max_gap_ps() const = 0;
  // The station's interframe gap, and the shortest signal it sends (a collided attempt's
  // preamble and SFD, then the jam): what the medium may forget is proven enough only when
  // every signal lasts at least every station's gap (docs/medium.md).
  virtual Picoseconds ifg_ps() const = 0;
  virtual Picoseconds shortest_signal_ps() const = 0;
  virtual HalfDuplexCounts half_duplex_counts(Picoseconds elapsed) const = 0;
  // The wake the station last asked the medium for (HalfDuplexMedium::wake), for `at`, has
  // come: now.
  virtual void wake_up(Picoseconds /*at*/) {}
};

// The shared medium, as a station sees it. `station` is the index attach() returned.
class HalfDuplexMedium {
 public:
  virtual ~HalfDuplexMedium() = default;
  // The earliest instant at or after `from` at which another station's signal is present at
  // `station`, or kForeverPs (802.3 collision detection).
  virtual Picoseconds first_signal_from(std::size_t station, Picoseconds from) const = 0;
  // The first instant at or after t0 at which a frame waiting since t0 may start (802.3 4.2.8
  // Deference); nullopt while it depends on a transmission whose end is not known yet.
  virtual std::optional<Picoseconds> deference_release(std::size_t station, Picoseconds t0,
                                                       Picoseconds ifg_ps,
                                                       Picoseconds part1_ps) const = 0;
  // The station starts or stops putting a signal on the medium.
  virtual void begin(std::size_t station, Picoseconds now) = 0;
  virtual void end(std::size_t station, Picoseconds now) = 0;
  // The station wants on_medium_closed at the next end of any transmission.
  virtual void wait_for_close(std::size_t station) = 0;
  // The instant the station's waiting frame became ready, the earliest its deference may still
  // look back to (kForeverPs when no frame waits: deferring or in backoff); told whenever it
  // changes.
  virtual void waiting_since(std::size_t station, Picoseconds ready) = 0;
  // A frame the station sent successfully: [first_bit, last_bit) at the sender, last_bit
  // including any extension.
  virtual void deliver(std::size_t station, FramePtr frame, Picoseconds first_bit,
                       Picoseconds last_bit) = 0;
  // The channel's use by successful transmissions, in time.
  virtual void account_success(Picoseconds preamble_ps, Picoseconds frame_ps,
                               Picoseconds extension_ps) = 0;

  // Wakes kept by the medium: on a large domain (SharedMedium::kWakesKeptFrom stations) the
  // medium keeps every station's wake in one queue behind one SystemC event, and calls
  // HalfDuplexStation::wake_up at the instant the station last asked for (`at` >= now; a new
  // one replaces any pending). Fixed when the medium is made; a station asks when it attaches.
  virtual bool keeps_wakes() const { return false; }
  virtual void wake(std::size_t /*station*/, Picoseconds /*at*/) {}

  // Late bursts (Mac: "Late bursts"). True when every station's port delivers late: a sender may
  // then hand over the frames of a burst after they ended, as long as each is on its way before
  // any station settles past its end. Asked once, when the run starts.
  virtual bool delivers_late_everywhere() const { return false; }
  // The station bursts late and its next frame ends at `due` (kForeverPs: it no longer does).
  virtual void late_sender(std::size_t /*station*/, Picoseconds /*due*/) {}
  // Every station calls this first when it settles: the late sender, if any, catches up to `now`
  // (HalfDuplexStation::catch_up_burst), so that what has arrived by then has been sent.
  void settle_late_sender(Picoseconds now) {
    if (late_due_ps_ <= now) catch_up_late_sender(now);
  }

 protected:
  virtual void catch_up_late_sender(Picoseconds /*now*/) {}
  Picoseconds late_due_ps_ = kForeverPs;
};

}  // namespace gbesim
