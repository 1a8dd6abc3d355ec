#pragma once
// IEEE 802.3 Clause 4 MAC, full duplex here and half duplex (CSMA/CD with carrier extension and
// frame bursting, Clause 4.2.3 / 4.2.3.2.4) in mac_half_duplex.cpp against a shared medium, with
// Clause 31 MAC Control PAUSE (Annex 31B) in full duplex.
//
// Models: transmit queue -> framing (preamble+SFD 8 bytes, frame, inter-frame gap) exact to the
// bit time at 10/100/1000/10000 Mb/s; receive checks (undersize, address filter, too long, FCS,
// length field), Clause 30 counters; PAUSE reception (no new data frame starts while the pause
// timer runs: timer = quanta x 512 bit times from the last bit of the PAUSE frame) and PAUSE
// generation from the client's receive backlog (XOFF at a threshold, refresh at half the pause
// time, optional XON).
// Fidelity: event-driven and exact to the bit time. The MAC decides on its next frame when it
// becomes ready -- at the end of the previous frame, on an enqueue while idle, or when a pause
// expires -- which is where 802.3's MAC Control passes a request to the MAC (31B.3.7): a PAUSE
// arriving during the inter-frame gap that follows does not hold back the frame already passed
// down. The frame then starts once the gap since the last frame has passed. One kernel
// activation per frame (at its end); the tx_start event is announced at the decision with its
// exact future time. With exact tracing enabled (VCD) the MAC also wakes at each frame start so
// that sampled state variables change on the right edge.
// Does not model: the MAC-PHY interface clocking (GMII byte lanes), PAUSE frames sent while a PAUSE
// frame is in flight being merged, other MAC Control opcodes (counted as unsupported), or the IPG
// shrinkage allowed at 10 Gb/s (DIC).

#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/common/alarm.hpp"
#include "models/common/event.hpp"
#include "models/common/frame.hpp"
#include "models/common/full_duplex.hpp"
#include "models/common/half_duplex.hpp"
#include "models/common/hook.hpp"
#include "models/common/settle.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/speed_modes.hpp"
#include "models/common/stats.hpp"
#include "models/mac/frame_checks.hpp"
#include "models/mac/mac_params.hpp"
#include "models/mac/mac_stats.hpp"
#include "models/mac/tx_queue.hpp"

namespace gbesim {

// The MAC's one client, what sits above it: a sink, a NIC, an application's ideal endpoint, a light
// host's CPU or a switch port. It receives the accepted frames and is told what became of every
// frame the MAC transmits and of every frame it rejects. The MAC calls the transmit and rejection
// calls before its trace hook (events) sees the same moment, so a client may act at once (queue
// its next frame); an accepted frame is traced (rx_ok) before the client takes it. No client
// controls anything through the trace hook. settle(now) completes the client's own timed work due
// by now (consuming frames).
class MacClient : public Settleable {
 public:
  // Called at the instant the last FCS bit of an accepted frame has arrived.
  virtual void mac_receive(FramePtr frame, Picoseconds now) = 0;
  // A frame's first preamble bit leaves (in half duplex: at every attempt).
  virtual void mac_tx_started(const Frame& /*frame*/, Picoseconds /*at*/) {}
  // A frame's last bit has left (sent), or the MAC gave it up (not sent: refused at the queue,
  // too many collisions, a late collision, too long deferred).
  virtual void mac_tx_done(const Frame& /*frame*/, Picoseconds /*at*/, bool /*sent*/) {}
  // A received frame the MAC rejected at its end (FCS, length, address, too long).
  virtual void mac_rejected(const Frame& /*frame*/, Picoseconds /*at*/) {}
  // True if a frame handed over later than `now` with its arrival time as `now` gives the same
  // results: the client acts on nothing at the moment of the call (FullDuplexStation).
  virtual bool takes_late_delivery() const { return false; }
  // True if the client acts on none of the MAC's transmit calls (mac_tx_started, mac_tx_done) and
  // its own timed work, if any, runs in processes that settle the station first: the MAC may
  // then make its transmit decisions late (Mac::transmit_late).
  virtual bool takes_late_transmit() const { return false; }
};

// The transmit side's state; paused is full duplex only, deferring..backoff half duplex only.
enum class MacTxState : unsigned {
  idle = 0,
  transmitting = 1,
  interframe_gap = 2,
  paused = 3,
  deferring = 4,
  jamming = 5,
  backoff = 6,
  burst_fill = 7,
};
inline constexpr unsigned kMacTxStates = 8;
std::string_view to_string(MacTxState state);

struct MacConfig {
  std::int64_t rate_mbps = 1000;
  MacAddress address;
  std::uint32_t station = 0;  // 1-based station number, for MAC Control frame ids
};

class Mac : public sc_core::sc_module, public FullDuplexStation, public HalfDuplexStation {
 public:
  SC_HAS_PROCESS(Mac);
  Mac(sc_core::sc_module_name name, const MacParams& params, const MacConfig& config,
      SimContext& context);

  // Client side. Sources that feed the queue register as suppliers (in flow order) so that
  // frames they have due are queued before the MAC decides.
  bool enqueue(FramePtr frame);  // false when dropped (queue full, frame too long)
  void add_supplier(Settleable* supplier) { suppliers_.push_back(supplier); }
  // A supplier that keeps the queue filled (a saturated source): half duplex asks it whether a
  // burst can go on late (Mac, "Late bursts").
  void add_queue_keeper(const QueueKeeper* keeper) { keepers_.push_back(keeper); }
  const TxQueue& tx_queue() const { return queue_; }
  TxQueue& tx_queue() { return queue_; }
  void attach_client(MacClient* client) { client_ = client; }
  // The client's receive backlog in bytes; MAC Control sends PAUSE from it.
  void set_rx_backlog(std::int64_t bytes);
  // Queue a PAUSE frame now, as MAC Control would (also for tests and scripted scenarios).
  void send_pause(std::uint16_t quanta);

  // Medium side: the port frames leave by, and the link direction that delivers to us (settling
  // it delivers every frame that has arrived by then).
  void attach_port(FullDuplexPort* port) override { port_ = port; }
  void attach_incoming(FullDuplexIncoming* incoming) override {
    incoming_ = incoming;
    link_in_ = incoming;
  }
  // `at` is the instant the last FCS bit arrived: now, or earlier with late delivery.
  void receive(FramePtr frame, Picoseconds at) override;
  // No trace observer, no exact tracing, and a client that takes late delivery (or none). In
  // full duplex every decision of the MAC settles the link first, and only while paused can an
  // arrival (a PAUSE) make it act at once, so it watches then (FullDuplexIncoming::
  // station_watches); in half duplex its decisions come from the medium's signals alone.
  bool takes_late_delivery() const override;
  // Finishes the frame on the wire if its last bit has left by `now` (counters, hand-over to
  // the link). The link calls this on behalf of the receiver before delivering.
  void finish_due(Picoseconds now) override {
    if (in_flight_ && tx_end_ps_ <= now) {
      if (late_tx_) {
        catch_up(now);
      } else {
        finish_frame(tx_end_ps_);
      }
    }
  }
  // Brings everything this station's decisions depend on up to `now`, in the defined order:
  // its own frame's end, arrivals (after the sender's frame ends), the client's consumption, the
  // sources, then the PAUSE refresh timer. Every process of the station calls it first.
  void settle_station(Picoseconds now) override;
  // Whether settle_station(now) has anything to do beyond settling its client: a frame of its
  // own ended, a half-duplex medium, an arrival or a source due, the PAUSE refresh due. A switch
  // settling its ports skips the others (their client is the switch, settling already).
  bool due_besides_client(Picoseconds now) const {
    if ((in_flight_ && tx_end_ps_ <= now) || medium_ != nullptr) return true;
    if (incoming_ != nullptr && incoming_->due_ps() <= now) return true;
    for (const Settleable* s : suppliers_)
      if (s->due_ps() <= now) return true;
    return xoff_active_ && next_refresh_ps_ <= now;
  }
  // Wake at every frame start too, so the traced state changes exactly on its edges.
  void enable_exact_trace() { exact_trace_ = true; }
  // Late transmit (full duplex): with nothing that watches this MAC (no trace observer, no exact
  // tracing), a client that takes it (MacClient::takes_late_transmit), no PAUSE of its own and an
  // outgoing direction that delivers late, nothing outside the station sees a frame end at its
  // instant: the MAC wakes once every kLateFrames frames, and every settle of the station (each
  // of its processes, the link on the receiver's behalf, every stop of the kernel) first catches
  // up on the frame ends by then -- each one finished, the station settled and the next frame
  // decided as of that frame's end (catch_up). A PAUSE on its way to us ends it
  // (may_be_paused). Call once every observer is connected, before the run; returns whether on.
  // In half duplex, late bursts instead: see bursts_late.
  bool transmit_late();
  bool transmits_late() const { return late_tx_; }
  // Late bursts (half duplex): with nothing that watches this MAC, a client that takes late
  // transmit, and every port of the domain delivering late, a burst whose queue a keeper keeps
  // filled (add_queue_keeper) and that no other signal is known to reach wakes only at the
  // instant its burst limit could end it (burst start + burstLimit - IFG, or kLateBurstBits
  // after its first frame's end if sooner) rather than at each frame's end. Every settle of any
  // station of the domain first catches it up (HalfDuplexMedium::settle_late_sender): each frame
  // that ended by then finished, the station settled and the next frame started, as of its end. A
  // signal told to arrive (another station begins) catches it up to that instant and ends it: the
  // rest of the burst is on time.
  bool bursts_late() const { return late_burst_allowed_; }
  void catch_up_burst(Picoseconds now) override;
  static constexpr Picoseconds kLateFrames = 64;
  void may_be_paused(Picoseconds now) override;
  // The instant the station is deciding at: the kernel's, or a frame end being caught up on.
  Picoseconds station_now() const { return catching_up_ ? catch_up_ps_ : now_ps(); }

  // Half duplex: this MAC is station `index` of a collision domain (mac.duplex = "half"), and
  // `port` delivers the medium's frames to it.
  void attach_medium(HalfDuplexMedium* medium, std::size_t index, Settleable* port);
  bool half_duplex() const { return half_duplex_; }
  // From the medium: another station's signal reaches us at `at` (>= now).
  void on_signal_arrival(Picoseconds at) override;
  // From the medium: a transmission's end has just become known.
  void on_medium_closed(Picoseconds now) override;
  // The wake asked of the medium (medium_wakes_) has come -- unless this instant's run, for a
  // kick that came first, took it already and asked for none or a later one: as with the
  // kernel, whose timed wake and kick at one instant are one run.
  void wake_up(Picoseconds at) override {
    if (at == wake_at_ps_) hd_process();
  }
  void settled_at_every_stop() override { lazy_fill_allowed_ = true; }
  // Statistics the collision domain aggregates.
  std::uint64_t frame_octets_transmitted() const { return stats_.frame_octets_transmitted.value(); }
  std::uint64_t attempts_made() const { return stats_.attempts_started.value(); }
  std::uint64_t bursts() const { return stats_.bursts.value(); }
  std::uint64_t frames_transmitted_ok() const { return stats_.frames_transmitted_ok.value(); }
  std::uint64_t octets_transmitted_ok() const { return stats_.octets_transmitted_ok.value(); }
  std::uint64_t collisions() const { return stats_.collisions.value(); }
  std::uint64_t excessive_collision_drops() const {
    return stats_.frames_aborted_excessive_collisions.value();
  }
  std::uint64_t late_collisions() const { return stats_.late_collisions.value(); }
  std::uint64_t late_collision_drops() const {
    return stats_.frames_aborted_late_collision.value();
  }
  std::uint64_t frame_check_sequence_errors() const {
    return stats_.frame_check_sequence_errors.value();
  }
  std::uint64_t frames_in_bursts() const { return stats_.frames_in_bursts.value(); }
  Picoseconds slot_time_ps() const { return slot_ps_; }
  Picoseconds max_gap_ps() const override { return ifg_ps_ + ifg_part1_ps_; }
  Picoseconds ifg_ps() const override { return ifg_ps_; }
  // A frame of 4 bytes or more (every source's, host's and NIC's is 64 or more).
  Picoseconds shortest_signal_ps() const override { return kPreambleSfdBits * bit_ps_ + jam_ps_; }
  HalfDuplexCounts half_duplex_counts(Picoseconds elapsed) const override;
  const MacAddress& station_address() const override { return config_.address; }
  bool promiscuous() const override { return params_.promiscuous; }
  // Half duplex: time the frame (or burst fill) on the wire at `elapsed` has been sent without a
  // collision so far; 0 when nothing unharmed is in progress.
  Picoseconds clean_in_progress_ps(Picoseconds elapsed) const {
    if (state_ == MacTxState::transmitting && collision_at_ps_ >= elapsed)
      return elapsed - frame_start_ps_;
    if (state_ == MacTxState::burst_fill && collision_at_ps_ >= elapsed)
      return elapsed - frame_end_ps_;
    return 0;
  }

  const MacAddress& address() const { return config_.address; }
  std::int64_t rate_mbps() const { return config_.rate_mbps; }
  Picoseconds bit_ps() const { return bit_ps_; }
  const MacParams& params() const { return params_; }
  // Duration on the wire of preamble+SFD and a frame of `bytes` DA..FCS.
  Picoseconds frame_time_ps(std::size_t bytes) const;
  Picoseconds pause_until_ps() const { return pause_until_ps_; }

  // What a MAC reports (its events) and keeps for waveform traces.
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;
  // (state, time it takes effect); may be announced ahead of time like tx_start.
  Hook<MacTxState, Picoseconds> state_changed;

  // The state variables this MAC has (paused in full duplex, collision in half), as plain values
  // that change exactly at their edges from now on (exact tracing: see enable_exact_trace).
  std::vector<TracedValue> trace_state();

 private:
  void tx_process();
  void pause_refresh_process();
  void check_refresh(Picoseconds now);
  void finish_frame(Picoseconds now);
  void decide(Picoseconds now);
  void commit(FramePtr frame, Picoseconds now);
  void set_state(MacTxState state, Picoseconds at);
  // settle_station(now) after the station's own frame end.
  void settle_others(Picoseconds now);
  // Late transmit: every frame end by `now`, in order, as tx_process would have met it.
  void catch_up(Picoseconds now);
  // Ends late transmit at `now`: caught up, the frame on the wire gets its wake at its end.
  void transmit_on_time(Picoseconds now);

  // Half duplex (mac_half_duplex.cpp).
  void hd_process();
  void hd_next_frame(Picoseconds now);
  void hd_try(Picoseconds now);
  void hd_start(Picoseconds now, bool in_burst);
  void hd_frame_done(Picoseconds now);
  void hd_collision(Picoseconds at);
  // What a station settles at any instant `now`, in the order it happened: a collision in a
  // burst's fill, the fill's end (a lazy fill: the next frame started then), a collision in the
  // frame on the wire.
  void hd_settle(Picoseconds now);
  // The wake for a phase of our signal (a frame, or a fill and, if lazy, the frame after it)
  // ending at `phase_end`: at its end, or at the collision that cuts it short -- or, unwatched,
  // at the end of the jam that collision starts (the collision itself is settled then, or at any
  // settle before, as of its instant).
  Picoseconds hd_phase_wake(Picoseconds phase_end) const;
  void hd_jam_done(Picoseconds now);
  void hd_fill_done();
  void hd_drop(std::string_view reason, Counter& counter, Picoseconds now);
  void hd_wake(Picoseconds at);
  // Late bursts: every frame of the burst that ended by `now` and before late_until_ps_.
  void hd_catch_up(Picoseconds now);
  // Whether the burst going on at `now` may go on late (see bursts_late): until when, or 0.
  Picoseconds hd_late_until(Picoseconds now) const;
  // A late burst catches up at most this many bit times of frames at once (the standard's
  // burstLimit): bounds the frames its receivers hold whatever burst_limit_bits is.
  static constexpr Picoseconds kLateBurstBits = 65'536;
  // Ends a late burst (caught up): what is left of it wakes on time.
  void hd_burst_on_time();
  // settle_others without the half-duplex transmit side: arrivals, client, sources, refresh.
  void settle_around(Picoseconds now);
  Picoseconds hd_wire_bits(std::size_t frame_bytes, bool first_of_transmission) const;
  void drop(FramePtr frame, std::string_view reason);
  void handle_mac_control(const Frame& frame, Picoseconds now);
  // Time spent paused by `elapsed`, the pause going on included (the paused_time statistic).
  double paused_time_ps(Picoseconds elapsed) const;

  const MacParams params_;
  const MacConfig config_;
  SimContext& context_;
  const Picoseconds bit_ps_;
  const Picoseconds ifg_ps_;
  const RxFilter filter_;
  const bool half_duplex_;
  const Picoseconds slot_ps_;
  const Picoseconds ifg_part1_ps_;
  const Picoseconds jam_ps_;
  const Picoseconds burst_limit_ps_;

  TxQueue queue_;
  MacClient* client_ = nullptr;
  FullDuplexPort* port_ = nullptr;
  Settleable* incoming_ = nullptr;         // the link direction or medium port delivering to us
  FullDuplexIncoming* link_in_ = nullptr;  // the same, full duplex only
  std::vector<Settleable*> suppliers_;
  std::vector<const QueueKeeper*> keepers_;

  MacTxState state_ = MacTxState::idle;
  unsigned tx_state_value_ = 0;
  bool transmitting_ = false;
  bool paused_ = false;
  bool exact_trace_ = false;
  bool collision_ = false;
  bool late_tx_ = false;      // transmit_late
  bool catching_up_ = false;  // inside catch_up, deciding at catch_up_ps_
  Picoseconds catch_up_ps_ = 0;

  // Half duplex state: the frame at the head of the line, its attempt, deference and burst.
  HalfDuplexMedium* medium_ = nullptr;
  Picoseconds reported_since_ps_ = kForeverPs;  // the last waiting_since told to the medium
  std::size_t station_index_ = 0;
  RngStream backoff_rng_;
  FramePtr hol_;                         // the frame being sent (taken from the queue)
  Picoseconds hol_since_ps_ = 0;         // when it became the head of the line
  Picoseconds ready_ps_ = 0;             // from when it may go (after backoff)
  std::int64_t attempts_ = 0;            // attempts made for hol_
  std::int64_t collisions_seen_ = 0;     // collisions hol_ met
  bool first_attempt_deferred_ = false;  // hol_'s first attempt waited for carrier
  bool waiting_for_close_ = false;
  Picoseconds attempt_start_ps_ = 0;  // first preamble bit of the current transmission
  Picoseconds frame_start_ps_ = 0;    // first preamble bit of the current frame
  Picoseconds frame_end_ps_ = 0;      // its last bit, extension included
  Picoseconds data_end_ps_ = 0;       // its last FCS bit
  Picoseconds fill_end_ps_ = 0;       // burst fill: when the next frame starts
  // A fill with no signal known to arrive in it, whose next frame starts at the station's next
  // settle (or wake) as of fill_end_ps_ rather than by a wake of its own: allowed when the port
  // settles the station at every stop of the kernel (settled_at_every_stop) and nothing watches.
  // The same condition lets a collision be settled at its jam's end rather than by a wake at the
  // instant it reaches us (hd_phase_wake).
  bool lazy_fill_allowed_ = false;
  bool fill_lazy_ = false;
  bool late_burst_allowed_ = false;  // bursts_late
  // While the burst goes on late: the instant it may end by its limit (its frames ending before
  // it continue the burst); 0 otherwise.
  Picoseconds late_until_ps_ = 0;
  Picoseconds lazy_frame_end_ps_ = 0;  // the end of the frame after a lazy fill
  Picoseconds collision_at_ps_ = kForeverPs;
  Picoseconds jam_end_ps_ = 0;
  Picoseconds backoff_end_ps_ = 0;
  Picoseconds wake_at_ps_ = kForeverPs;  // pending wake of hd_process
  bool medium_wakes_ = false;            // kept by the medium (HalfDuplexMedium::keeps_wakes)
  bool bursting_ = false;
  bool first_of_transmission_ = true;  // the current frame opened its transmission
  bool late_ = false;                  // the collision being jammed was late
  bool jam_in_fill_ = false;           // ... and hit a burst's fill, not a frame
  std::int64_t burst_frames_ = 0;      // frames sent in the current burst
  Picoseconds burst_start_ps_ = 0;
  sc_core::sc_event hd_wake_;
  FramePtr in_flight_;  // committed to or on the wire
  Picoseconds tx_start_ps_ = 0;
  Picoseconds tx_end_ps_ = 0;
  Picoseconds next_free_ps_ = 0;  // earliest start allowed by the inter-frame gap
  Picoseconds pause_until_ps_ = 0;
  Picoseconds paused_since_ps_ = 0;
  std::uint64_t paused_ps_ = 0;  // closed pause intervals; the open one is added when reported
  bool control_pending_ = false;
  std::uint64_t control_sequence_ = 0;
  std::uint16_t control_quanta_ = 0;
  bool xoff_active_ = false;
  Picoseconds next_refresh_ps_ = kForeverPs;
  sc_core::sc_event kick_;
  // Full duplex: the transmit process's one timed wake (a frame's start or end, a pause's end),
  // a notification of its own in its static sensitivity rather than next_trigger's timeout
  // (SystemC triggers a statically sensitive method for less).
  sc_core::sc_event tx_wake_;
  Alarm tx_alarm_{tx_wake_};
  sc_core::sc_event refresh_;

  MacStats stats_;
};

}  // namespace gbesim
