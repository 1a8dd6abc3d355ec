#pragma once
// A full-duplex point-to-point link: two independent directions, each a constant propagation
// delay (cable length x ns per metre, rounded once to the picosecond) and an optional bit-error
// process. A frame whose last bit leaves one MAC at t arrives complete at the other at t + delay.
// Fidelity: exact timing; frames never overlap within a direction because the sending MAC
// serialises them. The PHYs' latency is a constant per direction (phy_tx_latency_ns +
// phy_rx_latency_ns added to the cable delay). Does not model: the PHY's symbols and coding,
// skew, signal quality (the 1000BASE-T link-level model predicts an error rate for the cable,
// which the bit-error process then applies).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include "models/common/ring_queue.hpp"

#include <systemc>

#include "models/common/alarm.hpp"
#include "models/common/event.hpp"
#include "models/common/full_duplex.hpp"
#include "models/common/hook.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/medium/bit_error_injector.hpp"
#include "models/medium/link_params.hpp"

namespace gbesim {

class LinkDirection : public sc_core::sc_module, public FullDuplexPort, public FullDuplexIncoming {
 public:
  SC_HAS_PROCESS(LinkDirection);
  LinkDirection(sc_core::sc_module_name name, Picoseconds delay_ps, double ber,
                SimContext& context);

  void attach_receiver(FullDuplexStation* receiver) { receiver_ = receiver; }
  void attach_sender(FullDuplexStation* sender) { sender_ = sender; }
  // Delivers every frame whose last bit has arrived by `now` (each with the instant it arrived),
  // after letting the sender finish a frame that ended by then (so a zero-length cable delivers
  // at the same instant).
  void settle(Picoseconds now) override;
  // Late delivery, for a receiver that takes it (FullDuplexStation::takes_late_delivery) with
  // nothing listening to this direction: while the receiver does not watch (station_watches),
  // frames wait in flight until it settles itself (each of its processes does, first) or until
  // kLateBatch of them have arrived, and are then delivered with their arrival times, instead
  // of waking a process of ours at each arrival: between two busy stations one SystemC
  // activation per frame instead of two. Results are the same either way; whoever reads
  // statistics between two runs of the kernel settles the receiver first
  // (Network::settle_late_deliveries). Call once every observer is connected, before the run;
  // returns whether it is on.
  bool deliver_late();
  // A sender may transmit late (Mac::transmit_late) into a direction that delivers late (its
  // frames are caught up on at each of the receiver's settles) or into one that delivers on time
  // with nobody listening to a frame's start (arriving, the carrier trace: a late sender tells
  // of a start only when it catches up): then the frame on the wire is told (committed), and the
  // direction wakes at its arrival, catches the sender up and delivers it -- one activation per
  // frame instead of one for each end. Call after deliver_late.
  bool take_late_sender() override {
    late_sender_ = deliver_late_ || (!arriving.connected() && !carrier_trace_);
    return late_sender_;
  }
  // Whether a late sender hands its frames over only when this direction wakes for them (it
  // delivers on time): then a stop of the kernel must catch the sender up (settle_sender).
  bool late_sender_on_time() const { return late_sender_ && !deliver_late_; }
  void settle_sender(Picoseconds now) {
    if (sender_ != nullptr) sender_->finish_due(now);
  }
  void committed(Picoseconds tx_end_ps) override {
    uncarried_end_ps_ = tx_end_ps;
    due_ps_ = std::min(due_ps_, tx_end_ps + delay_ps_);
    if (watched_) arm();
  }
  void pause_coming(Picoseconds now) override {
    if (receiver_ != nullptr) receiver_->may_be_paused(now);
  }
  static constexpr std::size_t kLateBatch = 64;
  void station_watches(bool watching) override;
  // Settles the receiving station at `now` (so every frame arrived by then is delivered, in the
  // station's order at that instant).
  void settle_receiver(Picoseconds now);
  // Replaces the bit-error process; returns the number of bits it flipped in the frame, which
  // must not be 0 if it changed any byte: a frame with flipped bits loses its Frame::fcs_intact
  // mark here, and a marked frame's CRC is not run again at the receiver.
  using ErrorInjector = std::function<std::uint64_t(Frame&)>;
  void set_error_injector(ErrorInjector injector) { injector_ = std::move(injector); }
  // Track carrier at the receiving end (first preamble bit to last FCS bit) for VCD tracing;
  // costs two more activations per frame, so it is off unless a trace asks for it.
  void enable_carrier_trace() { carrier_trace_ = true; }
  const bool& trace_carrier() const { return carrier_; }
  // What a link direction keeps for waveform traces (the carrier, traced from now on).
  static const ModelVocabulary& vocabulary();
  std::vector<TracedValue> trace_state();

  void started(const Frame& frame, Picoseconds tx_start_ps) override;
  // Told when a frame starts on its way: the frame and when its first preamble bit reaches the
  // receiver (a NIC's receive-early logic listens).
  Hook<const Frame&, Picoseconds> arriving;
  void carry(FramePtr frame, Picoseconds tx_start_ps, Picoseconds tx_end_ps) override;

  Picoseconds delay_ps() const { return delay_ps_; }

 private:
  void deliver_process();
  void carrier_process();
  void add_carrier_edge(Picoseconds at_ps, bool on);
  void update_due();
  void arm();

  struct InFlight {
    FramePtr frame;
    Picoseconds rx_end_ps;
  };
  struct CarrierEdge {
    Picoseconds at_ps;
    bool on;
  };

  const Picoseconds delay_ps_;
  SimContext& context_;
  FullDuplexStation* receiver_ = nullptr;
  FullDuplexStation* sender_ = nullptr;
  std::optional<BitErrorInjector> ber_injector_;
  ErrorInjector injector_;
  RingQueue<InFlight> in_flight_;
  sc_core::sc_event arrival_;
  Alarm armed_{arrival_};  // arrival_, for one instant at a time
  bool deliver_late_ = false;
  bool late_sender_ = false;                   // take_late_sender
  bool delivering_ = false;                    // in deliver_process
  Picoseconds uncarried_end_ps_ = kForeverPs;  // committed: a frame not handed over yet
  bool watched_ = true;  // the receiver watches arrivals (always, without late delivery)
  bool carrier_trace_ = false;
  bool carrier_ = false;
  RingQueue<CarrierEdge> carrier_edges_;
  sc_core::sc_event carrier_edge_;

  StatGroup stats_;
  Counter frames_carried_;
  Counter frames_corrupted_;
  Counter bit_errors_;
  Counter busy_ps_;
};

class FullDuplexLink : public sc_core::sc_module {
 public:
  // Directions are named after the station they deliver to: "to_<b>" carries a's frames.
  FullDuplexLink(sc_core::sc_module_name name, const LinkParams& params, double ns_per_m,
                 const std::string& a_name, const std::string& b_name, SimContext& context);
  void connect(FullDuplexStation& a, FullDuplexStation& b);
  LinkDirection& a_to_b() { return a_to_b_; }
  LinkDirection& b_to_a() { return b_to_a_; }
  Picoseconds delay_ps() const { return a_to_b_.delay_ps(); }

  static Picoseconds delay_for(double cable_m, double ns_per_m);
  // The cable's delay plus the PHYs' transmit and receive latencies.
  static Picoseconds delay_for(const LinkParams& params, double ns_per_m);

 private:
  LinkDirection a_to_b_;
  LinkDirection b_to_a_;
};

}  // namespace gbesim
