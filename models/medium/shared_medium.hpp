#pragma once
// A half-duplex collision domain: N stations, a one-way propagation delay for every ordered pair
// (given as a matrix, or derived from cable lengths to a central repeater). Each station's
// transmission reaches every other station after that pair's delay; a station that is
// transmitting when another signal reaches it detects a collision at that instant; a station
// that wants to transmit defers to the signals that have reached it (802.3 4.2.3.2).
//
// Fidelity: exact to the picosecond. A repeater is modelled by its effect on timing: a signal
// entering at one port leaves every other port after the repeater delay, so a collision shows at
// each station exactly when the second signal (or the repeater's jam, which starts then) reaches
// it. Does not model: the repeater's own minimum jam length (collision enforcement), signal
// levels, or errors other than collisions.
//
// Frames that arrive intact (no other signal at the receiver during them, and the receiver not
// transmitting) are handed to the addressed station (every other station for group addresses,
// and promiscuous stations too) at the instant their last bit, or extension, arrives.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/common/alarm.hpp"
#include "models/common/event.hpp"
#include "models/common/frame.hpp"
#include "models/common/half_duplex.hpp"
#include "models/common/min_tree.hpp"
#include "models/common/settle.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/common/wake_heap.hpp"
#include "models/medium/collision_domain.hpp"
#include "models/medium/shared_medium_stats.hpp"

namespace gbesim {

class SharedMedium;

// Deliveries to one station; its settle() hands over every frame that has arrived by then.
class MediumPort : public sc_core::sc_module, public Settleable {
 public:
  SC_HAS_PROCESS(MediumPort);
  MediumPort(sc_core::sc_module_name name, SharedMedium& medium, std::size_t index,
             SimContext& context);

  void attach(HalfDuplexStation* receiver) { receiver_ = receiver; }
  // A frame from `sender` whose first bit reaches this station at `from` and whose last bit
  // (or extension) at `at`.
  void schedule(FramePtr frame, std::size_t sender, Picoseconds from, Picoseconds at);
  // Delivers every frame arrived by `now`, each with the instant it arrived.
  void settle(Picoseconds now) override;
  // Late delivery, as LinkDirection::deliver_late, for a receiver that takes it and no carrier
  // trace: frames wait until the receiving station settles itself (each of its processes does,
  // first) or kLateBatch of them are waiting. Whether a frame arrived damaged is judged by the
  // medium meanwhile (SharedMedium::judge_until), while the history still holds the signals it
  // depends on. Call before the run; returns whether it is on.
  bool deliver_late();
  bool delivers_late() const { return deliver_late_; }
  // Fewer than a link's: every station of a domain holds its own copy of each broadcast frame
  // (16 x 1,518 bytes per station at most, while it sends nothing itself, plus the frames of a
  // late burst handed over at once: at most Mac::kLateBurstBits of them).
  static constexpr std::size_t kLateBatch = 16;
  // Settles the receiving station at `now` (every frame arrived by then is delivered).
  void settle_receiver(Picoseconds now);

  // Carrier at this station (another station's signal present), for VCD traces.
  void enable_carrier_trace() { carrier_trace_ = true; }
  void add_carrier_edge(Picoseconds at, int change);
  const bool& trace_carrier() const { return carrier_; }
  // What a station's port keeps for waveform traces (the carrier: the whole medium traces it
  // from now on).
  static const ModelVocabulary& vocabulary();
  std::vector<TracedValue> trace_state();

 private:
  void deliver_process();
  void carrier_process();
  void arm();

  struct Pending {
    FramePtr frame;
    std::size_t sender;
    Picoseconds from;
    Picoseconds at;
  };
  SharedMedium& medium_;
  const std::size_t index_;
  SimContext& context_;
  HalfDuplexStation* receiver_ = nullptr;
  std::deque<Pending> pending_;  // in arrival order
  sc_core::sc_event arrival_;
  Alarm armed_{arrival_};  // arrival_, for one instant at a time
  bool deliver_late_ = false;
  bool carrier_trace_ = false;
  bool carrier_ = false;
  int signals_present_ = 0;
  std::deque<std::pair<Picoseconds, int>> carrier_edges_;
  sc_core::sc_event carrier_edge_;
};

class SharedMedium : public sc_core::sc_module, public HalfDuplexMedium {
 public:
  SC_HAS_PROCESS(SharedMedium);
  // From this many stations on, the medium keeps the stations' wakes (keeps_wakes): one
  // SystemC event and process for them all, instead of one each. Measured (docs/medium.md): from
  // here on the kernel's work per activation -- its timed queue, the event's trigger, the
  // process switch, each a cache miss on an object of its own -- costs more than the medium's
  // queue; below, about the same, and the medium's pass is one call more. The environment
  // variable GBESIM_MEDIUM_WAKES=stations or =medium makes every domain do one or the other
  // (the differential tests run both).
  static constexpr std::size_t kWakesKeptFrom = 32;
  // delay_ps[i][k]: one-way delay from station i to station k, in attach order.
  SharedMedium(sc_core::sc_module_name name, std::vector<std::vector<Picoseconds>> delay_ps,
               const std::vector<std::string>& station_names, std::int64_t rate_mbps,
               SimContext& context);

  // Stations attach in the order of the delay matrix; returns the station's index.
  std::size_t attach(HalfDuplexStation& station);
  const CollisionDomain& domain() const { return domain_; }
  MediumPort& port(std::size_t index) { return *ports_[index]; }
  std::size_t size() const { return stations_.size(); }

  // From the stations (HalfDuplexMedium), at the instant it happens.
  Picoseconds first_signal_from(std::size_t station, Picoseconds from) const override {
    return domain_.first_signal_from(station, from);
  }
  std::optional<Picoseconds> deference_release(std::size_t station, Picoseconds t0,
                                               Picoseconds ifg_ps,
                                               Picoseconds part1_ps) const override {
    return domain_.deference_release(station, t0, ifg_ps, part1_ps);
  }
  void begin(std::size_t station, Picoseconds now) override;
  void end(std::size_t station, Picoseconds now) override;
  void wait_for_close(std::size_t station) override {
    if (waiting_for_close_[station]) return;
    waiting_for_close_[station] = true;
    waiting_list_.push_back(station);
  }
  void waiting_since(std::size_t station, Picoseconds ready) override;
  // Finds every frame whose last bit reached its receiver by `now` intact or damaged (a damaged
  // one gets a bad FCS), once: at the first end of a transmission from then on or when its port
  // delivers it, whichever comes first (the history keeps what it needs until then).
  void judge_until(Picoseconds now);
  void deliver(std::size_t station, FramePtr frame, Picoseconds first_bit,
               Picoseconds last_bit) override;
  void account_success(Picoseconds preamble_ps, Picoseconds frame_ps,
                       Picoseconds extension_ps) override;
  bool delivers_late_everywhere() const override;
  void late_sender(std::size_t station, Picoseconds due) override {
    late_station_ = station;
    late_due_ps_ = due;
  }
  void enable_carrier_trace();
  bool keeps_wakes() const override { return keeps_wakes_; }
  void wake(std::size_t station, Picoseconds at) override {
    wakes_.set(station, at);
    if (!waking_ && at < wake_alarm_.at()) wake_alarm_.set(at);
  }

 private:
  void catch_up_late_sender(Picoseconds now) override;
  // Forgets the history nobody can look back to any more (every 16th end; GBESIM_PRUNE_EVERY).
  void prune_history(Picoseconds now);
  // Wakes every station whose wake is due, in station order, then re-arms for the next.
  void wake_process();
  // The time at least one station transmitted, up to `elapsed` (the busy_time statistic).
  double busy_ps(Picoseconds elapsed) const;

  CollisionDomain domain_;
  SimContext& context_;
  std::vector<HalfDuplexStation*> stations_;
  std::vector<std::uint64_t> address_keys_;
  std::vector<bool> promiscuous_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_address_;  // stations by address
  std::vector<std::size_t> promiscuous_list_;
  std::vector<std::size_t> recipients_;
  std::vector<std::unique_ptr<MediumPort>> ports_;
  std::vector<bool> waiting_for_close_;
  // For each transmitting station, the earliest arrival of another signal it was told of since
  // it began.
  std::vector<Picoseconds> first_told_;
  std::vector<std::size_t> waiting_list_;  // the stations waiting_for_close_ marks
  std::vector<std::size_t> closing_;       // those being told, while they are
  std::vector<std::size_t> merging_;       // scratch for putting waiting_list_ in order
  std::size_t waiting_in_order_ = 0;       // waiting_list_'s first entries, in station order
  bool carrier_trace_ = false;
  std::uint64_t ends_since_prune_ = 0;
  Picoseconds max_gap_ps_ = 0;  // the longest gap (and its first part) of any station
  Picoseconds longest_ifg_ps_ = 0;
  Picoseconds shortest_signal_ps_ = kForeverPs;
  // The earliest ready time of a waiting frame, kept over the stations' as they report them,
  // so that it is known at any end without looking at every station.
  MinTree waiting_;
  // Frames on their way to a port, not yet judged intact or damaged, earliest arrival first.
  struct Unjudged {
    Picoseconds at;    // last bit (or extension) at the receiver
    Picoseconds from;  // first bit there
    std::size_t sender;
    std::size_t receiver;
    Frame* frame;  // owned by the receiver's port until delivered, which judges it first
    bool operator>(const Unjudged& o) const { return at > o.at; }
  };
  std::vector<Unjudged> unjudged_;  // a heap (std::greater): earliest `at` at the front
  std::size_t late_station_ = 0;    // the station bursting late, while late_due_ps_ is set
  // Busy periods from the transmitters' side: union of [start, stop) over all stations.
  int open_ = 0;
  Picoseconds period_start_ = 0;
  Picoseconds period_end_ = 0;
  std::uint64_t busy_closed_ps_ = 0;
  // The stations' wakes, when the medium keeps them.
  bool keeps_wakes_ = false;
  WakeHeap wakes_;
  sc_core::sc_event wake_event_;
  Alarm wake_alarm_{wake_event_};
  bool waking_ = false;  // in wake_process: it re-arms when done

  SharedMediumStats stats_;
};

}  // namespace gbesim
