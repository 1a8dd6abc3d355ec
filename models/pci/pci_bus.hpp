#pragma once
// A PCI / PCI-X bus segment: central arbiter, masters and targets, transactions timed to the bus
// clock edge. Pure logic (no SystemC): PciBusModule (pci_bus_module.hpp) is its timing shell.
//
// Models (conventional PCI 2.2): per-master REQ#/GNT# (one pair for all the functions of a
// multi-function chip) with a round-robin or fixed-priority arbiter, hidden arbitration (the next
// master is granted during the current transaction and starts after one idle clock), bus parking; a
// transaction = address phase (+1 clock for a dual-address cycle), DEVSEL# (fast/medium/slow), the
// target's initial latency, data phases with subsequent wait states, one turnaround clock; 64-bit
// transfers; Memory Read / Read Line / Read Multiple with the target disconnecting at the
// cache-line / prefetch boundary, Memory Write (optionally disconnected at an address boundary,
// throttled by a posted-write buffer that drains at a memory rate) and Memory Write and Invalidate
// (whole lines, even after the latency timer); the master latency timer; Retry and delayed reads
// for targets slower than 16 clocks. PCI-X 1.0: attribute phase, decode A/B/C, no subsequent wait
// states, latency-timer ends only at 128-byte disconnect boundaries, split reads: each request (a
// sequence of up to the master's MMRBC) answered with a Split Response and completed by the target
// as a master in completions of up to its split_read_bytes, up to the master's outstanding-split
// limit in flight. A target may be a bridge's face on the segment (forward()): it takes split
// read requests and posted writes for another segment (pcix_bridge.hpp), answers the reads with
// the completions the bridge hands back, and takes writes while its posted-write buffer has
// room (a full buffer: Retry; a nearly full one: a disconnect at an ADB). Does not model: parity
// (PAR, PERR#, SERR#), target or master abort, I/O and configuration cycles, INTx# and Interrupt
// Acknowledge, LOCK#, fast back-to-back transactions, ordering rules (a read does not wait for
// posted writes ahead of it to drain), a target disconnecting on a full posted-write buffer (it
// inserts wait states instead), or PCI-X 2.0.
//
// Time: clock edge k is at k x period ps (edge 0 at time 0). A request made at time t is first
// sampled at the first edge strictly after t (setup), so what happens at an edge never depends on
// the order in which simulation processes run at that instant. The arbiter's choice for edge k
// depends only on what was sampled at k - 1; when it starts a transaction it is therefore taken
// at k - 1's time (next_event_ps says so), with the same outcome, so that a transaction which
// follows another costs its shell no wake-up of its own.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/histogram.hpp"
#include "models/common/hook.hpp"
#include "models/common/stats.hpp"
#include "models/common/time.hpp"
#include "models/pci/dma_bus.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {

enum class PciEnding {
  complete,        // the master had no more to move in this request
  disconnect,      // the target stopped at its boundary (prefetch, cache line, address)
  latency_timer,   // the latency timer expired with GNT# removed
  retry,           // the target stopped before any data (delayed read not ready)
  split_response,  // PCI-X: the target will complete the read later
};
const char* to_string(PciEnding e);

// What one transaction did; clocks are edge numbers.
struct PciTransaction {
  std::size_t master = 0;
  std::size_t target = 0;
  PciCommand command = PciCommand::memory_write;
  bool split_completion = false;  // the target returning split-read data as a master
  std::int64_t start_clock = 0;   // the address phase is clock [start, start + 1)
  std::int64_t end_clock = 0;     // the edge at which the last data phase (or the stop) completes
  std::int64_t data_phases = 0;
  std::int64_t bytes = 0;
  std::int64_t address_clocks = 0, wait_clocks = 0, turnaround_clocks = 0;
  PciEnding ending = PciEnding::complete;
  std::uint64_t frame_id = 0;  // the frame whose data it moves (PciRequest::frame_id)
};

// A split read request (a sequence) a bridge's target took, to forward.
struct PciSplitRead {
  std::size_t requester = 0;
  std::uint64_t id = 0;
  PciCommand command = PciCommand::memory_read;
  std::uint64_t address = 0;
  std::int64_t bytes = 0;
  std::uint64_t frame_id = 0;
};

// The bridge behind a forwarded target (PciBus::forward).
class PciForwarder {
 public:
  virtual ~PciForwarder() = default;
  // The target took a split read request at `at` (its Split Response's end).
  virtual void forward_read(std::size_t target, const PciSplitRead& read, Picoseconds at) = 0;
  // The target takes `bytes` at `address` of master's write request r into its posted-write
  // buffer: the first ADB of them (or all, if fewer) is in at first_at, the last byte at all_at;
  // `last`: the request is all taken.
  virtual void forward_write(std::size_t target, std::size_t master, const PciRequest& r,
                             std::uint64_t address, std::int64_t bytes, bool last,
                             Picoseconds first_at, Picoseconds all_at) = 0;
};

class PciBus : public DmaBus {
 public:
  PciBus(const PciBusParams& params, StatRegistry& stats, const std::string& component);
  PciBus(const PciBus&) = delete;
  PciBus& operator=(const PciBus&) = delete;

  std::size_t add_target(const std::string& name, const PciTargetParams& params) override;
  std::size_t add_master(const std::string& name, const PciMasterParams& params,
                         PciMasterClient* client) override;

  // The master asks for a transfer at time now; requests of one master are served in order
  // (PCI-X split reads may overlap).
  void request(std::size_t master, const PciRequest& r, Picoseconds now) override;
  // The functions of a multi-function chip share its one REQ# / GNT# pair: the arbiter sees one
  // requester (asserting REQ# while any function has work), grants it in its turn, and the chip
  // gives the bus to its functions in rotation; GNT# stays with the chip while another of its
  // functions waits, so one function's latency timer does not end a burst for a sibling.
  void share_request_line(std::size_t master, std::size_t with) override;

  // Target `target` (PCI-X, with split_read_bytes > 0) is a bridge's face on this segment: reads
  // are forwarded, answered by complete_split(); writes go into a posted-write buffer of
  // posted_write_bytes that release_posted() empties. With done_on_delivery a write's master
  // hears pci_done when the forwarder calls deliver_done() (its data reached the far target),
  // else when the buffer took it.
  void forward(std::size_t target, PciForwarder* forwarder, std::int64_t posted_write_bytes,
               bool done_on_delivery);
  // Completion data for a forwarded read, ready to go from the first edge after `at`.
  void complete_split(std::size_t target, const PciSplitRead& read, std::uint64_t address,
                      std::int64_t bytes, bool last, Picoseconds at);
  void release_posted(std::size_t target, std::int64_t bytes);
  void deliver_done(std::size_t master, const PciRequest& r, Picoseconds at);

  // Event-driven stepping: the next instant the bus has something to do (kForeverPs if none),
  // and doing everything due at or before now.
  Picoseconds next_event_ps() const override;
  // Every event may reach a master: the bus is woken at each (one call, not two).
  Picoseconds next_wake_ps() const override { return PciBus::next_event_ps(); }
  void advance(Picoseconds now) override;

  Picoseconds period_ps() const { return period_ps_; }
  static constexpr std::size_t kPhaseBlock = 16384;
  // Data phases of the transaction in progress worked out so far (they are generated a block
  // at a time, as the bus gets to them).
  std::size_t phases_generated() const { return active_ ? a_.edges.size() : 0; }
  std::int64_t width_bytes() const { return params_.width_bits / 8; }
  const PciBusParams& params() const { return params_; }
  std::size_t master_count() const { return masters_.size(); }
  const std::string& master_name(std::size_t m) const { return masters_[m].name; }
  bool idle() const override;  // nothing in progress nor pending

  // Each transaction's phases as events (`events`, part: the master): bus_request when a master
  // asks, bus_grant when GNT# moves to it, then bus_address, a read's bus_turnaround, bus_wait,
  // bus_data, bus_turnaround and bus_end, each at the clock edge where that phase begins (the
  // last where the transaction's turnaround clock ends). Reported as soon as known: a phase
  // may be announced ahead of its time, never after it.
  static const ModelVocabulary& vocabulary();
  std::vector<std::string> parts() const override;

 private:
  struct Pending {
    PciRequest request;
    std::uint64_t id = 0;
    std::int64_t moved = 0;           // bytes transferred
    std::int64_t requested = 0;       // PCI-X split reads: bytes asked for so far
    std::int64_t visible = 0;         // first edge at which this work can be sampled
    std::int64_t delayed_ready = -1;  // delayed read: edge from which the target has the data
  };
  struct Forwarded {  // what a bridge's target took, for its forwarder
    std::size_t target = 0;
    bool read = false;
    PciSplitRead split;  // a read
    std::size_t master = 0;
    PciRequest request;  // a write: `bytes` of it at `address`
    std::uint64_t address = 0;
    std::int64_t bytes = 0;
    bool last = false;
    Picoseconds at = 0;      // a read: when taken; a write: its first ADB in
    Picoseconds all_at = 0;  // a write: its last byte in
  };
  struct Completion {  // PCI-X: split-read data the target returns as a master
    std::size_t requester = 0;
    std::uint64_t id = 0;
    std::int64_t bytes = 0;
    std::uint64_t address = 0;
    std::int64_t ready = 0;  // edge
    std::uint64_t frame_id = 0;
    bool last = true;  // the last completion of its sequence (one read request)
  };
  struct Master {
    std::string name;
    PciMasterParams params;
    PciMasterClient* client = nullptr;
    std::deque<Pending> queue;
    std::vector<Pending> awaiting;    // split reads fully requested, completions outstanding
    std::int64_t outstanding = 0;     // split read sequences in flight
    std::int64_t not_before = 0;      // REQ# held off until this edge (after a Retry)
    std::int64_t completer_for = -1;  // >= 0: the completer of this target's split reads
    std::size_t line = 0;             // the master whose REQ# / GNT# pair it uses (itself, or
                                      // the first function of its chip)
    std::size_t line_last = static_cast<std::size_t>(-1);  // of a line's first function: the
                                                           // function granted last (-1: none)
    std::deque<Completion> completions;
    Counter* transactions = nullptr;
    Counter* bytes_read = nullptr;
    Counter* bytes_written = nullptr;
    Counter* retries = nullptr;
  };
  struct Target {
    std::string name;
    PciTargetParams params;
    std::int64_t devsel_clocks = 1;
    Picoseconds ps_per_byte = 0;        // posted-write drain
    Picoseconds drained_ps = 0;         // when the posted-write buffer will be empty
    Picoseconds read_ps_per_byte = 0;   // split completions' read path (0: no limit)
    std::int64_t read_free_edge = 0;    // the read path has delivered all it was asked for by then
    bool shared_memory = false;         // reads and the posted-write drain share drained_ps
    std::size_t completer = 0;          // its completer master (PCI-X split reads)
    Counter* read_busy_ps = nullptr;    // a memory rate: the time its read path worked,
    Counter* write_busy_ps = nullptr;   // and its posted-write drain
    PciForwarder* forwarder = nullptr;  // a bridge's face (forward())
    std::int64_t posted_free = 0;       // its posted-write buffer's room
    bool done_on_delivery = false;
  };
  // The data phases of a transaction are generated as far as they are needed, a block at a time:
  // a DMA request may be megabytes, and most of its phases lie beyond the latency timer's cut.
  // An allocator whose resize() leaves new numbers uninitialised: generate_phases writes every
  // one it adds, and zeroing them first cost as much as writing them.
  template <typename T>
  struct Uninitialised : std::allocator<T> {
    template <typename U>
    struct rebind {
      using other = Uninitialised<U>;
    };
    Uninitialised() = default;
    template <typename U>
    Uninitialised(const Uninitialised<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept {
      ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  };
  using Numbers = std::vector<std::int64_t, Uninitialised<std::int64_t>>;

  // A transaction's data phases. Without a posted-write buffer they are regular -- phase i
  // completes at first_edge + i x (1 + subsequent_wait) and moves a whole word, but the first
  // and the last -- and are worked out where asked (edge, bytes_of, bytes_through), not stored;
  // a posted write's, which the buffer may hold back, are generated into edges, phase_bytes and
  // drained_after as the bus reaches them (generate_phases).
  struct Active {
    PciTransaction t;
    bool regular = false;
    std::int64_t total_bytes = 0;  // regular: the uncut transaction's bytes
    std::int64_t first_bytes = 0;  // regular: its first phase's
    Numbers edges;                 // completion edge of each data phase generated so far
    Numbers phase_bytes;
    Numbers drained_after;  // posted-write state (Picoseconds) after each phase
    // The phases worked out so far (regular: all of them).
    std::size_t generated() const {
      return regular ? static_cast<std::size_t>(uncut_phases) : edges.size();
    }
    // Phase i's completion edge (i < generated()).
    std::int64_t edge(std::size_t i) const {
      return regular ? first_edge + static_cast<std::int64_t>(i) * (1 + subsequent_wait) : edges[i];
    }
    // The bytes of phase i, and of phases 0 .. i.
    std::int64_t bytes_of(std::size_t i) const {
      if (!regular) return phase_bytes[i];
      return i == 0 ? first_bytes : bytes_through(i) - bytes_through(i - 1);
    }
    std::int64_t bytes_through(std::size_t i) const {
      if (regular)
        return std::min(total_bytes, first_bytes + static_cast<std::int64_t>(i) * width_bytes);
      std::int64_t sum = 0;
      for (std::size_t k = 0; k <= i; ++k) sum += phase_bytes[k];
      return sum;
    }
    std::size_t last = 0;  // index of the last data phase (after truncation); may lie beyond
                           // the phases generated so far when nothing cuts the transaction
    std::int64_t uncut_phases = 0;
    // What generates the next phase.
    std::int64_t width_bytes = 4;
    std::int64_t first_edge = 0;
    std::int64_t subsequent_wait = 0;
    std::uint64_t next_address = 0;
    std::int64_t bytes_left = 0;
    std::int64_t posted_capacity_bytes = 0;  // 0: the target does not post writes
    Picoseconds posted_ps_per_byte = 0;
    Picoseconds drained = 0;
    PciEnding uncut_ending = PciEnding::complete;
    std::uint64_t address0 = 0;             // address of the first data phase
    std::int64_t split_chunk = 0;           // PCI-X split request: bytes asked for (a sequence)
    std::int64_t forward_reserved = 0;      // a write to a bridge: the room it took at the start
    std::int64_t forwarded_at_start = 0;    // and the bytes it forwarded then (those no cut can
                                            // take back)
    std::int64_t owner_requests_from = -1;  // the owner's REQ# (for more work) is sampled from
                                            // this edge on (-1: not asserted)
  };

  // Generates a's data phases up to `count` (or all of them).
  void generate_phases(Active& a, std::size_t count) const;

  std::int64_t edge_after(Picoseconds t) const { return t / period_ps_ + 1; }
  std::int64_t edge_at_or_after(Picoseconds t) const { return (t + period_ps_ - 1) / period_ps_; }
  Picoseconds time_of(std::int64_t edge) const { return edge * period_ps_; }
  bool pcix() const { return pcix_; }

  // Work the master can start (its first edge), or -1 if it has none it may start.
  std::int64_t ready_edge(std::size_t m) const;
  bool requesting_by(std::size_t m, std::int64_t edge) const {
    const std::int64_t r = ready_edge(m);
    return r >= 0 && r <= edge;
  }
  // The arbiter's choice from the REQ# lines sampled at `edge`; `holder` when nobody requests
  // and the bus parks.
  std::size_t arbitrate(std::int64_t edge, std::size_t holder, std::size_t rr_last,
                        std::size_t owner_if_requesting) const;
  // The function of line `line` the chip gives the bus to at `edge` (the next requesting one after
  // the last granted), kNone if none requests.
  template <typename Requesting>
  std::size_t function_of_line(std::size_t line, std::size_t rr_last,
                               const Requesting& requesting) const;
  // The edge at which the owner must end its burst: the first at or after its latency timer's
  // expiry at which it samples GNT# removed; -1 if none (yet).
  std::int64_t termination_edge(const Active& a) const;
  void cut_at_latency_timer(Active& a) const;
  // The next edge at which the arbiter decides who owns the bus (-1: nobody requests), and when
  // that decision can be taken.
  std::int64_t next_decision_edge() const;
  Picoseconds decision_due_ps(std::int64_t edge) const;
  void decide(std::int64_t edge);
  // Master m starts a transaction at edge s: the address phase, then the data phases its work
  // and the target allow, or the target's stop before any data (Retry, Split Response).
  void start(std::size_t m, std::int64_t s);
  // A PCI-X split completion: the completer writes the requester's read data in one burst.
  void start_completion(const Master& x, std::int64_t s, Active& a) const;
  // The master's next request: false when the target ends the transaction before any data
  // (Retry, Split Response); else a's data phases are set up but for their width.
  bool start_request(Master& x, std::int64_t s, Active& a);
  // Clocks from the address phase to the first data phase's completion.
  std::int64_t initial_latency(const Target& t, bool read, bool delayed_served) const;
  // How far the target goes before it disconnects (its prefetch, cache-line or address
  // boundary), at most `remaining`.
  static std::int64_t burst_limit(const Target& t, PciCommand command, std::uint64_t address,
                                  std::int64_t remaining, bool read);
  // The phases a transaction's start fixes (events connected).
  void report_start(const Active& a);
  void report(EventKind kind, std::int64_t edge, const PciTransaction& t,
              std::string_view detail = {}, std::int64_t value = -1, std::int64_t bytes = -1) const;
  // The transaction in progress ends: its figures, the masters' state, then their callbacks.
  void finish();
  // A write to a bridge's target: `bytes` of the transaction `a` from `offset` on, for its
  // forwarder (phases from `phase`; `last`: the request's last bytes).
  void forward_write(const Pending& p, const Active& a, std::int64_t offset, std::int64_t bytes,
                     std::size_t phase, bool last);
  // At its start: the bytes no latency-timer cut can take back (the phases before the timer
  // expires, to the ADB after them) are forwarded at once, cut through.
  void forward_at_start(Active& a);
  void tell_forwarder();
  struct Outcome;  // what a finished transaction tells the masters' clients
  void finish_split_completion(Master& x, const PciTransaction& t, Outcome& outcome);
  void finish_split_response(Master& x, const Active& a);
  void finish_data(Master& x, const Active& a, bool read, Outcome& outcome);
  // a_ becomes a default Active whose phase vectors reuse the last finished transaction's
  // storage (so that a transaction allocates nothing in steady state).
  void renew_active();
  void count(const PciTransaction& t);
  // A target with a memory rate: its statistics (<bus>.<target>).
  void add_memory_stats(Target& t);

  PciBusParams params_;
  StatRegistry& registry_;
  Picoseconds period_ps_;
  // The string-valued parameters, decided once (they are consulted every clock edge).
  bool pcix_ = false;
  bool fixed_priority_ = false;
  bool park_last_ = false;
  bool lines_shared_ = false;                        // some masters share a REQ# / GNT# pair
  Active spare_;                                     // storage for the next transaction
  mutable std::vector<std::int64_t> scratch_edges_;  // termination_edge's candidate edges
  std::vector<Master> masters_;
  std::vector<Target> targets_;
  bool active_ = false;
  Active a_;
  std::int64_t bus_free_edge_ = 0;     // first edge a new FRAME# may be driven
  std::int64_t decided_through_ = -1;  // last edge decide() has looked at
  std::size_t holder_;                 // GNT# as sampled at decided_through_ (npos: none)
  std::size_t rr_last_;                // the round-robin pointer: last master granted (npos: none)
  std::uint64_t next_id_ = 1;
  std::optional<Forwarded> forward_;  // start() or finish() has a forwarder to tell

  StatGroup stats_;
  Counter address_clocks_, wait_clocks_, data_clocks_, turnaround_clocks_, transactions_, retries_,
      disconnects_, latency_timer_stops_, split_responses_, bytes_read_, bytes_written_;
  Histogram phases_;                     // data phases per transaction
  std::deque<Counter> length_bins_;      // transactions by data phases: 0, 1, 2-4, 5-16, 17-64, 65+
  std::deque<Counter> master_counters_;  // and the targets' (a memory path's busy time)
  std::deque<StatGroup> master_groups_;  // and the groups of targets with a memory path
};

}  // namespace gbesim
