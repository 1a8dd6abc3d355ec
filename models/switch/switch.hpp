#pragma once
// An output-queued Ethernet switch (IEEE 802.1D relay): ports at their own speed and duplex,
// each a Clause 4 MAC (promiscuous) whose client is the switch.
//
// Models: store-and-forward (a frame is forwarded at its last FCS bit, once its MAC has checked
// it) and cut-through (once `cut_through_bytes` after the SFD have arrived, on a full-duplex input
// whose rate is at least every output's; otherwise that frame is stored and forwarded); a
// forwarding latency; a switching fabric of finite capacity that frames cross one at a time in
// the order they are ready; output queues with per-port byte and frame limits and a shared pool,
// tail drop, up to 8 strict-priority queues by 802.1p; a learning table with lazy ageing and a
// size limit, flooding of unknown, multicast and broadcast destinations, and filtering of frames
// whose destination is on the port they came in by (each priority queue has the port's limits);
// 802.3x PAUSE towards a sender when the bytes its port has brought into the switch and not yet
// sent pass the port MAC's pause_xoff_bytes (released at pause_xon_bytes) -- the MAC's own PAUSE
// machinery (docs/mac.md). Fidelity: exact to the picosecond at every port's bit time; one
// forwarding decision per frame. Same-instant order: arrivals due at one instant are handled in
// port order, then by arrival. Does not model: spanning tree, VLAN membership, link aggregation,
// per-flow queueing, input queueing other than the fabric's backlog, errors a cut-through frame
// picks up on its input (the copy forwarded is the frame as sent; the error is counted at the input
// port).

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/common/frame.hpp"
#include "models/common/histogram.hpp"
#include "models/common/hook.hpp"
#include "models/common/ring_queue.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/mac/mac.hpp"
#include "models/switch/switch_params.hpp"

namespace gbesim {

class Switch;

// One port: its MAC, its output queues and its counters (component "<switch>.port<n>").
class SwitchPort : public sc_core::sc_module, public MacClient {
 public:
  SwitchPort(sc_core::sc_module_name name, Switch& owner, std::size_t index, const MacParams& mac,
             const MacConfig& config, std::size_t queues, SimContext& context);

  Mac& mac() { return mac_; }
  std::size_t index() const { return index_; }
  // The port's output occupancy (the frame being sent included).
  std::int64_t queued_bytes() const { return bytes_; }
  std::int64_t queued_frames() const { return frames_; }

  // MacClient: the port's MAC hands over received frames and reports sent ones.
  void mac_receive(FramePtr frame, Picoseconds now) override;
  void mac_tx_started(const Frame& frame, Picoseconds at) override;
  void mac_tx_done(const Frame& frame, Picoseconds at, bool sent) override;
  void mac_rejected(const Frame& frame, Picoseconds at) override;
  void settle(Picoseconds now) override;
  // A frame starts towards this port on a full-duplex link; its first bit arrives at `first_bit`.
  void frame_arriving(const Frame& frame, Picoseconds first_bit);
  // A cable is plugged in: the port takes part in flooding, and in the switch's settling.
  void set_up();
  bool up() const { return up_; }

 private:
  friend class Switch;
  struct Queued {
    FramePtr frame;
    std::size_t ingress;
    std::size_t queue;
    bool shared;  // took bytes from the shared pool
    Picoseconds enqueued_ps;
  };
  struct Sending {
    std::size_t ingress = 0;
    std::size_t queue = 0;
    bool shared = false;
    Picoseconds enqueued_ps = 0;
    std::int64_t bytes = 0;
  };
  // Hands the next frame (highest priority first) to the MAC when it has none.
  void feed();

  Switch& owner_;
  const std::size_t index_;
  Mac mac_;
  std::vector<RingQueue<Queued>> queues_;  // by priority, highest last
  std::size_t queued_ = 0;                 // frames in all of them
  bool in_mac_ = false;                    // a frame handed to the MAC and not yet done
  std::uint64_t in_mac_id_ = 0;
  Sending sending_;  // its accounting
  bool up_ = false;
  std::int64_t bytes_ = 0;         // output occupancy, bytes
  std::int64_t shared_bytes_ = 0;  // ... of which in the shared pool
  // Per priority queue: each has the port's limits of its own.
  std::vector<std::int64_t> queue_bytes_, queue_shared_, queue_frames_;
  std::int64_t frames_ = 0;         // ... frames
  std::int64_t held_bytes_ = 0;     // bytes this port brought in, not yet sent or dropped
  RingQueue<std::uint64_t> early_;  // ids forwarded by cut-through, not yet received whole
  Histogram depth_;

  StatGroup stats_;
  Counter frames_in_;
  Counter octets_in_;
  Counter frames_out_;
  Counter octets_out_;
  Counter drops_buffer_full_;
  Counter drops_fabric_backlog_;
  Counter drops_too_long_;
  Counter frames_filtered_;
  Counter cut_through_frames_;
  Counter cut_through_errored_;
  Distribution queue_delay_;
};

class Switch : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Switch);
  // number: this switch's index among the scenario's switches (1-based), for port addresses.
  Switch(sc_core::sc_module_name name, const SwitchParams& params, const MacParams& port_mac,
         const std::vector<SwitchPortParams>& ports, std::uint32_t number, SimContext& context);

  const SwitchParams& params() const { return params_; }
  std::size_t port_count() const { return ports_.size(); }
  // Ports are numbered from 1, as on the front panel.
  SwitchPort& port(std::size_t number) { return *ports_.at(number - 1); }
  // The learned port (1-based) for an address, or 0.
  std::size_t learned_port(const MacAddress& address, Picoseconds now) const;
  std::size_t table_size() const { return table_.size(); }

  // Does everything due by `now`: frames that have arrived, frames ready to be forwarded.
  void settle(Picoseconds now);
  // A port has a cable plugged in (SwitchPort::set_up).
  void port_up(SwitchPort& port);

  // What the relay does, for traces: each event's `part` is the port it is about ("port<n>").
  // The ports' MACs report their own (PAUSE included) on their own hooks.
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;

 private:
  friend class SwitchPort;
  struct Pending {
    Picoseconds ready_ps;
    std::size_t ingress;
    std::uint64_t sequence;
    Picoseconds whole_ps;  // cut-through: when its last bit is in; kForeverPs otherwise
    bool crossed;          // through the fabric already
    std::size_t egress;    // decided at lookup (a port, or flood)
    FramePtr frame;
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const {
      if (a.ready_ps != b.ready_ps) return a.ready_ps > b.ready_ps;
      if (a.ingress != b.ingress) return a.ingress > b.ingress;
      return a.sequence > b.sequence;
    }
  };
  struct Learned {
    std::size_t port;  // 0-based
    Picoseconds seen_ps;
  };

  void process();
  void schedule(Pending p);
  void learn(const Frame& frame, std::size_t port, Picoseconds now);
  // Lookup, filtering and the fabric; then the copies go to their output queues.
  void forward(Pending p, Picoseconds now);
  void enqueue(std::size_t egress, FramePtr frame, std::size_t ingress, Picoseconds now);
  void release(SwitchPort& out, const SwitchPort::Sending& sending);
  std::size_t queue_of(const Frame& frame) const;
  // Where a frame from `ingress` goes: a port (0-based), flood, or filtered.
  std::size_t egress_of(const Frame& frame, std::size_t ingress, Picoseconds now);
  bool cut_through_allowed(std::size_t ingress, std::size_t egress) const;
  void report(EventKind kind, Picoseconds at, std::size_t port, const Frame& frame,
              std::string_view detail = {}, std::int64_t value = -1) const;

  const SwitchParams params_;
  SimContext& context_;
  const bool cut_through_;  // params_.mode, decided once
  const Picoseconds latency_ps_;
  const Picoseconds aging_ps_;
  std::vector<std::unique_ptr<SwitchPort>> ports_;
  // The ports with a cable, in port order: the only ones settled and fed. A port without one
  // receives nothing, so it never sends a PAUSE of its own, and no frame is ever queued for it
  // (flooding skips it; a learned port is one a frame came in by).
  std::vector<SwitchPort*> up_ports_;
  std::priority_queue<Pending, std::vector<Pending>, Later> pending_;
  std::uint64_t sequence_ = 0;
  sc_core::sc_event wake_;
  Picoseconds wake_at_ = kForeverPs;
  std::unordered_map<std::uint64_t, Learned> table_;
  Picoseconds fabric_free_ps_ = 0;
  std::vector<std::int64_t> fabric_backlog_;  // per ingress port, bytes waiting for the fabric
  std::int64_t shared_used_ = 0;
  bool settling_ = false;

  StatGroup stats_;
  Counter frames_received_;
  Counter frames_filtered_;
  Counter frames_unicast_;
  Counter frames_flooded_;
  Counter frames_dropped_fabric_;
  Counter copies_made_;
  Counter copies_sent_;
  Counter copies_dropped_;
  Counter addresses_learned_;
  Counter addresses_aged_;
  Counter table_full_;
  Counter fabric_busy_ps_;
};

}  // namespace gbesim
