#include "models/pci/pci_bus.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace gbesim {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::int64_t kAdbBytes = 128;  // PCI-X allowable disconnect boundary

// A list of at most N items kept in place (push_back beyond N is a logic error). Its slots are
// not initialised until used: finish() makes one per transaction, and zeroing them cost a
// quarter of its time.
template <typename T, std::size_t N>
class SmallList {
  static_assert(std::is_trivially_destructible_v<T>);  // nothing to end when it goes

 public:
  void push_back(const T& x) {
    assert(size_ < N);
    ::new (static_cast<void*>(storage_ + size_++ * sizeof(T))) T(x);
  }
  const T* begin() const { return std::launder(reinterpret_cast<const T*>(storage_)); }
  const T* end() const { return begin() + size_; }

 private:
  alignas(T) unsigned char storage_[N * sizeof(T)];
  std::size_t size_ = 0;
};

// i mod n for i < 2n, without a division (the arbiter's rotations ask it at every decision).
std::size_t wrap(std::size_t i, std::size_t n) {
  return i >= n ? i - n : i;
}

std::int64_t round_up(std::int64_t x, std::int64_t to) {
  return (x + to - 1) / to * to;
}

}  // namespace

bool is_read(PciCommand c) {
  return c == PciCommand::memory_read || c == PciCommand::memory_read_line ||
         c == PciCommand::memory_read_multiple;
}

const char* to_string(PciCommand c) {
  return choice_name(c).data();  // a view of a string literal: terminated
}

const char* to_string(PciEnding e) {
  switch (e) {
    case PciEnding::complete:
      return "complete";
    case PciEnding::disconnect:
      return "disconnect";
    case PciEnding::latency_timer:
      return "latency_timer";
    case PciEnding::retry:
      return "retry";
    case PciEnding::split_response:
      return "split_response";
  }
  return "?";
}

const ModelVocabulary& PciBus::vocabulary() {
  static const ModelVocabulary v{
      "pci",
      "<host>.pci.<master> (masters: nic, driver, each DMA master, <target>.completer)",
      "a PCI / PCI-X bus segment: each transaction's phases, per master (docs/pci.md)",
      {EventKind::bus_request, EventKind::bus_grant, EventKind::bus_address, EventKind::bus_wait,
       EventKind::bus_data, EventKind::bus_turnaround, EventKind::bus_end}};
  return v;
}

std::vector<std::string> PciBus::parts() const {
  std::vector<std::string> out;
  for (const Master& m : masters_) out.push_back(m.name);
  return out;
}

PciBus::PciBus(const PciBusParams& params, StatRegistry& stats, const std::string& component)
    : params_(params),
      registry_(stats),
      period_ps_(pci_clock_period_ps(params.clock_mhz)),
      pcix_(params.mode == PciMode::pcix),
      fixed_priority_(params.arbiter == PciArbiter::fixed_priority),
      park_last_(params.parking == PciParking::last),
      holder_(kNone),
      rr_last_(kNone),
      stats_(stats, component),
      address_clocks_(stats_, "address_clocks", "clocks",
                      "clocks in address phases (with dual-address and PCI-X attribute clocks)"),
      wait_clocks_(stats_, "wait_clocks", "clocks",
                   "clocks waiting on DEVSEL#, the target's initial latency, subsequent wait "
                   "states, a posted-write buffer, or before a Retry / Split Response"),
      data_clocks_(stats_, "data_clocks", "clocks", "clocks in which a data phase completed"),
      turnaround_clocks_(stats_, "turnaround_clocks", "clocks",
                         "turnaround clocks: after every transaction, and on reads between the "
                         "address and the data"),
      transactions_(stats_, "transactions", "transactions", "transactions, of every ending"),
      retries_(stats_, "retries", "transactions", "transactions ended by Retry (no data)"),
      disconnects_(stats_, "disconnects", "transactions",
                   "transactions the target disconnected at a boundary"),
      latency_timer_stops_(stats_, "latency_timer_stops", "transactions",
                           "bursts ended by the master latency timer with GNT# removed"),
      split_responses_(stats_, "split_responses", "transactions",
                       "PCI-X read requests answered with a Split Response"),
      bytes_read_(stats_, "bytes_read", "bytes",
                  "bytes read: target -> master, incl. PCI-X split completions"),
      bytes_written_(stats_, "bytes_written", "bytes", "bytes written: master -> target") {
  const char* bins[] = {"transactions_0_phases",        "transactions_1_phase",
                        "transactions_2_to_4_phases",   "transactions_5_to_16_phases",
                        "transactions_17_to_64_phases", "transactions_65_plus_phases"};
  for (const char* b : bins)
    length_bins_.emplace_back(stats_, b, "transactions", "transactions by data phases");
  auto elapsed_clocks = [this](const StatContext& c) {
    return static_cast<double>(c.elapsed_ps / period_ps_);
  };
  auto busy = [this]() {
    return static_cast<double>(address_clocks_.value() + wait_clocks_.value() +
                               data_clocks_.value() + turnaround_clocks_.value());
  };
  stats_.total("elapsed_clocks", "clocks", "bus clocks in the run", elapsed_clocks);
  stats_.total("idle_clocks", "clocks", "clocks with no transaction (incl. arbitration)",
               [elapsed_clocks, busy](const StatContext& c) {
                 return std::max(0.0, elapsed_clocks(c) - busy());
               });
  stats_.ratio("utilisation", "fraction", "share of clocks not idle", value_of(busy),
               elapsed_clocks, fraction_of_span());
  stats_.ratio("data_share", "fraction", "share of clocks completing a data phase",
               value_of(data_clocks_), elapsed_clocks, fraction_of_span());
  stats_.level("peak_mbps", "MB/s", "theoretical peak: width x clock (10^6 bytes/s)",
               [this](const StatContext&) {
                 return static_cast<double>(width_bytes()) * 1e6 / static_cast<double>(period_ps_);
               });
  stats_.rate("read_mbps", "MB/s", "bytes read per second (10^6 bytes/s)",
              megabytes_per_second(bytes_read_));
  stats_.rate("write_mbps", "MB/s", "bytes written per second (10^6 bytes/s)",
              megabytes_per_second(bytes_written_));
  // The transaction-length histogram covers the transactions since a restart.
  stats_.on_restart([this](Picoseconds) { phases_.clear(); });
  stats_.summary("data_phases_mean", "phases", "mean data phases per transaction with data",
                 [this](const StatContext&) { return phases_.mean(); });
  stats_.summary("data_phases_p50", "phases", "median data phases per transaction with data",
                 [this](const StatContext&) { return static_cast<double>(phases_.quantile(0.5)); });
  stats_.summary("data_phases_max", "phases", "longest transaction",
                 [this](const StatContext&) { return static_cast<double>(phases_.max()); });
}

std::size_t PciBus::add_target(const std::string& name, const PciTargetParams& params) {
  Target t;
  t.name = name;
  t.params = params;
  t.devsel_clocks = devsel_clocks(params.devsel);
  if (params.memory_write_mbps > 0) t.ps_per_byte = round_to_ps(1e6 / params.memory_write_mbps);
  if (params.memory_read_mbps > 0) t.read_ps_per_byte = round_to_ps(1e6 / params.memory_read_mbps);
  if (params.memory_mbps > 0) {  // one memory port: each direction at most its rate
    const Picoseconds shared = round_to_ps(1e6 / params.memory_mbps);
    t.ps_per_byte = std::max(t.ps_per_byte, shared);
    t.read_ps_per_byte = std::max(t.read_ps_per_byte, shared);
    t.shared_memory = true;
  }
  if (t.ps_per_byte > 0 || t.read_ps_per_byte > 0) add_memory_stats(t);
  targets_.push_back(t);
  const std::size_t index = targets_.size() - 1;
  if (pcix() && params.split_read_bytes > 0) {
    PciMasterParams completer;
    completer.width_bits = params_.width_bits;
    targets_[index].completer = add_master(name + ".completer", completer, nullptr);
    masters_[targets_[index].completer].completer_for = static_cast<std::int64_t>(index);
  }
  return index;
}

void PciBus::add_memory_stats(Target& t) {
  master_groups_.emplace_back(registry_, stats_.component() + "." + t.name);
  StatGroup& g = master_groups_.back();
  master_counters_.emplace_back(g, "read_busy_ps", "ps",
                                "time its read path (memory_read_mbps or memory_mbps) delivered "
                                "split-read data");
  t.read_busy_ps = &master_counters_.back();
  master_counters_.emplace_back(g, "write_busy_ps", "ps",
                                "time its posted-write buffer drained (memory_write_mbps or "
                                "memory_mbps)");
  t.write_busy_ps = &master_counters_.back();
  const Counter& r = *t.read_busy_ps;
  const Counter& w = *t.write_busy_ps;
  g.ratio("read_path_utilisation", "fraction", "share of time its read path was delivering",
          value_of(r), elapsed_ps(), fraction_of_span());
  g.ratio("write_path_utilisation", "fraction", "share of time its posted writes were draining",
          value_of(w), elapsed_ps(), fraction_of_span());
  const bool shared = t.shared_memory;
  g.ratio(
      "memory_utilisation", "fraction",
      "share of time its memory was busy: reads and writes together on one port "
      "(memory_mbps), else the busier of its two paths",
      [&r, &w, shared](const StatContext&) {
        return shared ? static_cast<double>(r.value() + w.value())
                      : static_cast<double>(std::max(r.value(), w.value()));
      },
      elapsed_ps(), fraction_of_span());
}

std::size_t PciBus::add_master(const std::string& name, const PciMasterParams& params,
                               PciMasterClient* client) {
  Master m;
  m.name = name;
  m.params = params;
  m.client = client;
  master_groups_.emplace_back(registry_, stats_.component() + "." + name);
  StatGroup& g = master_groups_.back();
  master_counters_.emplace_back(g, "transactions", "transactions", "transactions it mastered");
  m.transactions = &master_counters_.back();
  master_counters_.emplace_back(g, "bytes_read", "bytes", "bytes it read");
  m.bytes_read = &master_counters_.back();
  master_counters_.emplace_back(g, "bytes_written", "bytes", "bytes it wrote");
  m.bytes_written = &master_counters_.back();
  master_counters_.emplace_back(g, "retries", "transactions", "its transactions ended by Retry");
  m.retries = &master_counters_.back();
  g.rate("read_mbps", "MB/s", "bytes it read per second (10^6 bytes/s)",
         megabytes_per_second(*m.bytes_read));
  g.rate("write_mbps", "MB/s", "bytes it wrote per second (10^6 bytes/s)",
         megabytes_per_second(*m.bytes_written));
  m.line = masters_.size();
  masters_.push_back(std::move(m));
  return masters_.size() - 1;
}

void PciBus::share_request_line(std::size_t master, std::size_t with) {
  masters_.at(master).line = masters_.at(with).line;
  lines_shared_ = true;
}

void PciBus::forward(std::size_t target, PciForwarder* forwarder, std::int64_t posted_write_bytes,
                     bool done_on_delivery) {
  Target& t = targets_.at(target);
  if (!pcix() || t.params.split_read_bytes <= 0)
    throw std::logic_error("PciBus::forward: a PCI-X target with split reads");
  t.forwarder = forwarder;
  t.posted_free = posted_write_bytes;
  t.done_on_delivery = done_on_delivery;
}

void PciBus::complete_split(std::size_t target, const PciSplitRead& read, std::uint64_t address,
                            std::int64_t bytes, bool last, Picoseconds at) {
  Completion c;
  c.requester = read.requester;
  c.id = read.id;
  c.bytes = bytes;
  c.address = address;
  c.ready = edge_after(at);
  c.frame_id = read.frame_id;
  c.last = last;
  masters_[targets_.at(target).completer].completions.push_back(c);
  if (active_) cut_at_latency_timer(a_);  // the completer asks: the burst under way may end
}

void PciBus::release_posted(std::size_t target, std::int64_t bytes) {
  targets_.at(target).posted_free += bytes;
}

void PciBus::deliver_done(std::size_t master, const PciRequest& r, Picoseconds at) {
  if (masters_.at(master).client) masters_[master].client->pci_done(r, at);
}

void PciBus::request(std::size_t master, const PciRequest& r, Picoseconds now) {
  if (r.bytes <= 0) return;
  Pending p;
  p.request = r;
  p.id = next_id_++;
  p.visible = edge_after(now);
  masters_[master].queue.push_back(p);
  if (events.connected()) {
    Event e{EventKind::bus_request, now};
    e.detail = to_string(r.command);
    e.bytes = r.bytes;
    e.frame_id = r.frame_id;
    e.part = masters_[master].name;
    events(e);
  }
  if (active_) {
    // A transaction may have been started up to one clock before its first edge (see
    // next_event_ps); its owner asking again in that clock holds REQ# from that first edge on,
    // as start() would have found it asking.
    if (master == a_.t.master && a_.owner_requests_from < 0) {
      a_.owner_requests_from = edge_after(now);  // a new request: REQ# from its edge on
    }
    cut_at_latency_timer(a_);
  }
}

bool PciBus::idle() const {
  if (active_) return false;
  for (const Master& m : masters_)
    if (!m.queue.empty() || !m.awaiting.empty() || !m.completions.empty()) return false;
  return true;
}

std::int64_t PciBus::ready_edge(std::size_t m) const {
  const Master& x = masters_[m];
  if (x.completer_for >= 0) {
    if (x.completions.empty()) return -1;
    return std::max(x.completions.front().ready, x.not_before);
  }
  if (x.queue.empty()) return -1;
  const Pending& p = x.queue.front();
  const Target& t = targets_[p.request.target];
  if (pcix() && is_read(p.request.command) && t.params.split_read_bytes > 0 &&
      x.outstanding >= x.params.max_outstanding_splits)
    return -1;
  return std::max(p.visible, x.not_before);
}

template <typename Requesting>
std::size_t PciBus::function_of_line(std::size_t line, std::size_t rr_last,
                                     const Requesting& requesting) const {
  if (!lines_shared_) return requesting(line) ? line : kNone;
  const std::size_t n = masters_.size();
  const std::size_t last =
      rr_last != kNone && masters_[rr_last].line == line ? rr_last : masters_[line].line_last;
  // None yet: the first first (from the one before it).
  const std::size_t from = last != kNone ? last : line == 0 ? n - 1 : line - 1;
  for (std::size_t i = 1; i <= n; ++i) {
    const std::size_t m = wrap(from + i, n);
    if (masters_[m].line == line && requesting(m)) return m;
  }
  return kNone;
}

std::size_t PciBus::arbitrate(std::int64_t edge, std::size_t holder, std::size_t rr_last,
                              std::size_t owner_if_requesting) const {
  const std::size_t n = masters_.size();
  auto requesting = [&](std::size_t m) {
    if (active_ && m == a_.t.master) return m == owner_if_requesting;
    return requesting_by(m, edge);
  };
  // The arbiter sees REQ# lines: a line is its first function's index.
  if (fixed_priority_) {
    std::size_t best_line = kNone, best = kNone;
    for (std::size_t l = 0; l < n; ++l) {
      if (masters_[l].line != l) continue;
      if (best_line != kNone && masters_[l].params.priority >= masters_[best_line].params.priority)
        continue;
      const std::size_t f = function_of_line(l, rr_last, requesting);
      if (f != kNone) best_line = l, best = f;
    }
    if (best != kNone) return best;
  } else {
    // Rotating priority: the lines after the last one granted, that one last. Before anyone
    // has been granted, line 0 comes first.
    const std::size_t from = rr_last == kNone ? n - 1 : masters_[rr_last].line;
    for (std::size_t i = 1; i <= n; ++i) {
      const std::size_t l = wrap(from + i, n);
      if (masters_[l].line != l) continue;
      const std::size_t f = function_of_line(l, rr_last, requesting);
      if (f != kNone) return f;
    }
  }
  return park_last_ ? holder : kNone;
}

std::int64_t PciBus::termination_edge(const Active& a) const {
  const std::size_t owner = a.t.master;
  const std::int64_t s = a.t.start_clock;
  // GNT# as the owner samples it at edge e is the arbiter's choice at e - 1; the master stops
  // at the first edge e >= s + latency timer at which GNT# is not its own. The choice can only
  // change where a request becomes visible, so only those edges need looking at.
  const std::int64_t first = std::max(s, s + masters_[owner].params.latency_timer_clocks - 1);
  std::vector<std::int64_t>& edges = scratch_edges_;
  edges.assign(1, first);
  for (std::size_t m = 0; m < masters_.size(); ++m) {
    if (m == owner) continue;
    const std::int64_t r = ready_edge(m);
    if (r >= 0) edges.push_back(std::max(first, r));
  }
  if (a.owner_requests_from > first) edges.push_back(a.owner_requests_from);
  std::sort(edges.begin(), edges.end());
  for (std::int64_t j : edges) {
    const bool owner_requesting = a.owner_requests_from >= 0 && a.owner_requests_from <= j;
    const std::size_t w = arbitrate(j, owner, owner, owner_requesting ? owner : kNone);
    // GNT# stays with the owner's chip while another of its functions is the one asking.
    if (w != kNone && masters_[w].line != masters_[owner].line) return j + 1;
  }
  return -1;
}

inline void PciBus::cut_at_latency_timer(Active& a) const {
  if (a.uncut_phases == 0) return;
  a.last = static_cast<std::size_t>(a.uncut_phases - 1);
  // A split completion is written in one burst (its chunk is at most split_read_bytes).
  if (a.t.split_completion) return;
  // A cut takes effect after the latency timer's expiry (termination_edge returns an edge past
  // it): a burst whose last phase completes by then has nothing to ask the arbiter.
  const std::int64_t expiry = std::max(
      a.t.start_clock, a.t.start_clock + masters_[a.t.master].params.latency_timer_clocks - 1);
  if (a.last < a.generated() && a.edge(a.last) <= expiry + 1) return;
  const std::int64_t term = termination_edge(a);
  if (term < 0) return;
  // The first phase completing after term, or the last.
  std::size_t i = 0;
  if (a.regular) {
    if (a.first_edge <= term)
      i = std::min(a.last,
                   static_cast<std::size_t>((term - a.first_edge) / (1 + a.subsequent_wait)) + 1);
  } else {
    while (i < a.last) {
      if (i >= a.edges.size()) generate_phases(a, i + kPhaseBlock);
      if (a.edges[i] > term) break;
      ++i;
    }
  }
  // Memory Write and Invalidate finishes its cache line; PCI-X stops only at a 128-byte boundary.
  std::int64_t boundary = 0;
  if (a.t.command == PciCommand::memory_write_invalidate)
    boundary = targets_[a.t.target].params.cache_line_bytes;
  if (pcix()) boundary = std::max(boundary, kAdbBytes);
  if (boundary > 0) {
    if (i >= a.generated()) generate_phases(a, i + 1);
    std::int64_t done = a.bytes_through(i);
    while (i < a.last && (a.address0 + done) % boundary != 0) {
      if (i + 1 >= a.generated()) generate_phases(a, i + 1 + kPhaseBlock);
      done += a.bytes_of(++i);
    }
  }
  a.last = i;
}

void PciBus::generate_phases(Active& a, std::size_t count) const {
  if (a.regular) return;  // worked out where asked
  const std::size_t have = a.edges.size();
  if (have >= count || a.bytes_left <= 0) return;
  const std::int64_t width = a.width_bytes;
  // Bus widths are powers of two (4, 8 bytes): the offset in a word is a mask, not a division.
  const auto offset =
      (width & (width - 1)) == 0
          ? static_cast<std::int64_t>(a.next_address & static_cast<std::uint64_t>(width - 1))
          : static_cast<std::int64_t>(a.next_address % static_cast<std::uint64_t>(width));
  // The first phase may be partial, and so may the last: every phase between is a whole word.
  const auto to_come = static_cast<std::size_t>((offset + a.bytes_left + width - 1) / width);
  const std::size_t n = std::min(count - have, to_come);
  const bool posted = a.posted_capacity_bytes > 0;
  a.edges.resize(have + n);
  a.phase_bytes.resize(have + n);
  if (posted) a.drained_after.resize(have + n);  // read only of a posted write (finish_data)
  std::int64_t* edges = a.edges.data() + have;
  std::int64_t* bytes = a.phase_bytes.data() + have;
  const std::int64_t step = 1 + a.subsequent_wait;
  std::int64_t edge = have == 0 ? a.first_edge : a.edges[have - 1] + step;
  std::int64_t left = a.bytes_left;
  std::int64_t size = width - offset;
  for (std::size_t i = 0; i < n; ++i) {
    size = std::min(size, left);
    if (posted) {
      // Room for these bytes once the buffer has drained to capacity - size (a division only
      // when the buffer holds the phase back).
      const Picoseconds room_at =
          a.drained - (a.posted_capacity_bytes - size) * a.posted_ps_per_byte;
      if (room_at > time_of(edge)) edge = std::max(edge, edge_at_or_after(room_at));
      a.drained = std::max(a.drained, time_of(edge)) + size * a.posted_ps_per_byte;
      a.drained_after[have + i] = a.drained;
    }
    edges[i] = edge;
    bytes[i] = size;
    left -= size;
    edge += step;
    size = width;
  }
  a.next_address += static_cast<std::uint64_t>(a.bytes_left - left);
  a.bytes_left = left;
}

void PciBus::decide(std::int64_t edge) {
  const std::size_t before = holder_;
  holder_ = arbitrate(edge - 1, holder_, rr_last_, kNone);
  decided_through_ = edge;
  if (holder_ == kNone || !requesting_by(holder_, edge)) return;
  start(holder_, edge);
  if (events.connected()) {
    if (holder_ != before) report(EventKind::bus_grant, edge - 1, a_.t);
    report_start(a_);
  }
  tell_forwarder();  // after this bus's own events: the far bus may report at once
}

void PciBus::report(EventKind kind, std::int64_t edge, const PciTransaction& t,
                    std::string_view detail, std::int64_t value, std::int64_t bytes) const {
  Event e{kind, time_of(edge)};
  e.detail = detail;
  e.value = value;
  e.bytes = bytes;
  e.frame_id = t.frame_id;
  e.part = masters_[t.master].name;
  events(e);
}

void PciBus::report_start(const Active& a) {
  // What start() fixed: the address phase, where the data begin (a latency-timer cut only ever
  // shortens a burst after its first phase), or where the target stops a Retry or Split Response.
  const PciTransaction& t = a.t;
  report(EventKind::bus_address, t.start_clock, t,
         t.split_completion ? "split_completion" : to_string(t.command));
  std::int64_t at = t.start_clock + t.address_clocks;
  if (t.ending == PciEnding::retry || t.ending == PciEnding::split_response) {
    if (t.end_clock > at) report(EventKind::bus_wait, at, t);
    return;
  }
  if (is_read(t.command) && !t.split_completion) report(EventKind::bus_turnaround, at++, t);
  const std::int64_t data = a.edge(0) - 1;  // the first data phase's clock
  if (data > at) report(EventKind::bus_wait, at, t);
  report(EventKind::bus_data, data, t);
}

void PciBus::renew_active() {
  Numbers edges = std::move(spare_.edges);
  Numbers phase_bytes = std::move(spare_.phase_bytes);
  Numbers drained_after = std::move(spare_.drained_after);
  a_ = Active();
  a_.edges = std::move(edges);
  a_.phase_bytes = std::move(phase_bytes);
  a_.drained_after = std::move(drained_after);
  a_.edges.clear();
  a_.phase_bytes.clear();
  a_.drained_after.clear();
}

void PciBus::start(std::size_t m, std::int64_t s) {
  Master& x = masters_[m];
  rr_last_ = m;
  masters_[x.line].line_last = m;
  renew_active();
  Active& a = a_;
  a.t.master = m;
  a.t.start_clock = s;
  // A split completion is as wide as both ends of it: a 32-bit requester takes it 32 bits wide.
  std::int64_t width_bits = std::min(params_.width_bits, x.params.width_bits);
  if (x.completer_for >= 0 && !x.completions.empty())
    width_bits = std::min(width_bits, masters_[x.completions.front().requester].params.width_bits);
  const std::int64_t width = width_bits / 8;
  std::int64_t address_clocks = x.params.dual_address_cycle ? 2 : 1;
  if (pcix()) ++address_clocks;  // the attribute phase
  a.t.address_clocks = address_clocks;
  if (x.completer_for >= 0) {
    start_completion(x, s, a);
  } else if (!start_request(x, s, a)) {
    active_ = true;  // the target ended it before any data
    return;
  }

  // The data phases: the first may be partial (address not aligned to the width), so may the
  // last.
  a.width_bytes = width;
  a.next_address = a.address0;
  const auto offset0 = static_cast<std::int64_t>(a.address0 % static_cast<std::uint64_t>(width));
  a.uncut_phases = a.bytes_left > 0 ? (offset0 + a.bytes_left + width - 1) / width : 0;
  a.regular = a.posted_capacity_bytes == 0;
  a.total_bytes = a.bytes_left;
  a.first_bytes = std::min(width - offset0, a.bytes_left);
  generate_phases(a, kPhaseBlock);
  active_ = true;
  cut_at_latency_timer(a_);
  if (a_.forward_reserved > 0) forward_at_start(a_);
}

// The steps of start() and finish() are inline: each has one caller and runs once per
// transaction, so naming them costs the bus nothing.
inline void PciBus::start_completion(const Master& x, std::int64_t s, Active& a) const {
  // PCI-X split completion: the target returns read data to the requester, which decodes it
  // at speed A; a completion is written in one burst.
  const Completion& c = x.completions.front();
  a.t.target = static_cast<std::size_t>(x.completer_for);
  a.t.command = PciCommand::memory_write;
  a.t.split_completion = true;
  a.address0 = c.address;
  a.t.frame_id = c.frame_id;
  a.bytes_left = c.bytes;
  a.first_edge = s + a.t.address_clocks + 1 + 1;
  if (x.completions.size() > 1) a.owner_requests_from = s;  // REQ# held through the transaction
}

inline bool PciBus::start_request(Master& x, std::int64_t s, Active& a) {
  Pending& p = x.queue.front();
  const Target& t = targets_[p.request.target];
  const bool read = is_read(p.request.command);
  const std::int64_t address_clocks = a.t.address_clocks;
  a.t.target = p.request.target;
  a.t.command = p.request.command;
  a.t.frame_id = p.request.frame_id;
  const std::int64_t done = pcix() && read && t.params.split_read_bytes > 0 ? p.requested : p.moved;
  const std::int64_t remaining = p.request.bytes - done;
  const std::uint64_t address = p.request.address + static_cast<std::uint64_t>(done);
  a.address0 = address;
  const std::int64_t line = t.params.cache_line_bytes;
  if (a.t.command == PciCommand::memory_write_invalidate &&
      (static_cast<std::int64_t>(address % static_cast<std::uint64_t>(line)) != 0 ||
       remaining % line != 0))
    a.t.command = PciCommand::memory_write;  // not whole lines: an ordinary write

  if (pcix() && read && t.params.split_read_bytes > 0) {
    // Split Response: the target takes the request and will complete it as a master.
    a.t.ending = PciEnding::split_response;
    a.t.end_clock = s + address_clocks + t.devsel_clocks + 1;
    const std::int64_t sequence =
        x.params.mmrbc_bytes > 0 ? x.params.mmrbc_bytes : t.params.split_read_bytes;
    a.split_chunk = std::min(remaining, sequence);
    return false;
  }
  bool delayed_served = false;
  if (!pcix() && read && t.params.read_latency_clocks > 16) {
    // Delayed transaction: the first attempt is retried while the target fetches; a retry
    // after the data has arrived is served at the fastest timing.
    if (p.delayed_ready < 0) p.delayed_ready = s + t.params.read_latency_clocks;
    if (s < p.delayed_ready) {
      a.t.ending = PciEnding::retry;
      a.t.end_clock = s + address_clocks + t.devsel_clocks;
      return false;
    }
    delayed_served = true;
  }
  a.first_edge = s + address_clocks + initial_latency(t, read, delayed_served);
  if (!pcix()) a.subsequent_wait = t.params.subsequent_wait_clocks;
  std::int64_t limit = burst_limit(t, a.t.command, address, remaining, read);
  if (!read && t.forwarder) {
    // A bridge takes what its posted-write buffer has room for, disconnecting at an ADB short of
    // a full buffer, and retries the write when it has no room for one.
    std::int64_t room = t.posted_free;
    if (room < limit)
      room = (static_cast<std::int64_t>(address) + room) / kAdbBytes * kAdbBytes -
             static_cast<std::int64_t>(address);
    if (room <= 0) {
      a.t.ending = PciEnding::retry;
      a.t.end_clock = s + address_clocks + t.devsel_clocks;
      return false;
    }
    limit = std::min(limit, room);
    a.forward_reserved = limit;
  }
  if (limit < remaining) a.uncut_ending = PciEnding::disconnect;
  a.bytes_left = limit;
  if (!read && t.params.posted_write_bytes > 0) {
    a.posted_capacity_bytes = t.params.posted_write_bytes;
    a.posted_ps_per_byte = t.ps_per_byte;
    a.drained = t.drained_ps;
  }
  // The owner has work after this transaction: it keeps REQ# asserted through it.
  if (x.queue.size() > 1 || limit < remaining) a.owner_requests_from = s;
  return true;
}

inline std::int64_t PciBus::initial_latency(const Target& t, bool read, bool delayed_served) const {
  if (pcix()) {
    // Registered protocol: the target decodes (A/B/C) after the attribute phase; latencies
    // beyond the minimum add initial wait states.
    const std::int64_t extra = read ? std::max<std::int64_t>(0, t.params.read_latency_clocks - 2)
                                    : std::max<std::int64_t>(0, t.params.write_latency_clocks - 1);
    return t.devsel_clocks + (read ? 2 : 1) + extra;
  }
  // Target initial latency, FRAME# to the first TRDY#: at least DEVSEL#, and 2 on a read (the
  // AD turnaround).
  return read ? std::max({delayed_served ? 2 : t.params.read_latency_clocks, t.devsel_clocks,
                          std::int64_t{2}})
              : std::max({t.params.write_latency_clocks, t.devsel_clocks, std::int64_t{1}});
}

inline std::int64_t PciBus::burst_limit(const Target& t, PciCommand command, std::uint64_t address,
                                        std::int64_t remaining, bool read) {
  const std::int64_t line = t.params.cache_line_bytes;
  std::int64_t limit = remaining;
  if (read) {
    std::int64_t end;
    if (command == PciCommand::memory_read_multiple)
      end = round_up(static_cast<std::int64_t>(address) + t.params.prefetch_bytes, line);
    else
      end = (static_cast<std::int64_t>(address) / line + 1) * line;
    limit = std::min(limit, end - static_cast<std::int64_t>(address));
  } else if (t.params.write_disconnect_bytes > 0) {
    const std::int64_t b = t.params.write_disconnect_bytes;
    limit = std::min(limit, (static_cast<std::int64_t>(address) / b + 1) * b -
                                static_cast<std::int64_t>(address));
  }
  return limit;
}

// What a finished transaction tells the masters' clients once the bus state is settled: at most
// two progress reports and one completion, in fixed arrays (nothing allocated).
struct PciBus::Outcome {
  SmallList<std::pair<std::size_t, PciRequest>, 2> done;
  SmallList<std::pair<std::size_t, std::pair<PciRequest, std::int64_t>>, 2> progress;
};

void PciBus::finish() {
  active_ = false;
  Active& a = a_;  // until the next start()
  PciTransaction& t = a.t;
  Master& x = masters_[t.master];
  const bool read = is_read(t.command) && !t.split_completion;
  if (t.ending != PciEnding::retry && t.ending != PciEnding::split_response) {
    t.data_phases = static_cast<std::int64_t>(a.last) + 1;
    t.end_clock = a.edge(a.last);
    t.bytes += a.bytes_through(a.last);
    t.ending = static_cast<std::int64_t>(a.last) + 1 < a.uncut_phases ? PciEnding::latency_timer
                                                                      : a.uncut_ending;
  }
  // Clock accounting: [start, end) plus the turnaround clock after it.
  const std::int64_t read_turnaround = read && t.data_phases > 0 ? 1 : 0;
  t.turnaround_clocks = 1 + read_turnaround;
  t.wait_clocks = t.end_clock - t.start_clock - t.address_clocks - t.data_phases - read_turnaround;
  bus_free_edge_ = t.end_clock + 1;
  holder_ = t.master;
  count(t);
  ++*x.transactions;
  const Picoseconds at = time_of(t.end_clock);

  // State first, then the masters' callbacks (which may request more).
  Outcome outcome;
  if (t.split_completion) {
    finish_split_completion(x, t, outcome);
  } else if (t.ending == PciEnding::retry) {
    x.not_before = t.end_clock + x.params.retry_backoff_clocks;
    ++*x.retries;
  } else if (t.ending == PciEnding::split_response) {
    finish_split_response(x, a);
  } else {
    finish_data(x, a, read, outcome);
  }
  if (events.connected()) {
    report(EventKind::bus_turnaround, t.end_clock, t);
    report(EventKind::bus_end, t.end_clock + 1, t, to_string(t.ending), t.data_phases, t.bytes);
  }
  // Its storage serves the next transaction; the rest of a_ stays as it is until then.
  std::swap(spare_.edges, a.edges);
  std::swap(spare_.phase_bytes, a.phase_bytes);
  std::swap(spare_.drained_after, a.drained_after);
  for (const auto& [m, pr] : outcome.progress)
    if (masters_[m].client) masters_[m].client->pci_progress(pr.first, pr.second, at);
  for (const auto& [m, r] : outcome.done)
    if (masters_[m].client) masters_[m].client->pci_done(r, at);
  tell_forwarder();
}

void PciBus::tell_forwarder() {
  if (!forward_) return;
  const Forwarded f = *forward_;
  forward_.reset();
  PciForwarder& to = *targets_[f.target].forwarder;
  if (f.read)
    to.forward_read(f.target, f.split, f.at);
  else
    to.forward_write(f.target, f.master, f.request, f.address, f.bytes, f.last, f.at, f.all_at);
}

void PciBus::forward_write(const Pending& p, const Active& a, std::int64_t offset,
                           std::int64_t bytes, std::size_t phase, bool last) {
  Forwarded f;
  f.target = a.t.target;
  f.master = a.t.master;
  f.request = p.request;
  f.address = a.address0 + static_cast<std::uint64_t>(offset);
  f.bytes = bytes;
  f.last = last;
  // When its first ADB (or all of it, if less) is in, and its last byte.
  const std::int64_t first = std::min(bytes, kAdbBytes);
  std::int64_t arrived = 0;
  std::size_t i = phase;
  while (arrived < first) arrived += a.bytes_of(i++);
  f.at = time_of(a.edge(i - 1));
  while (arrived < bytes) arrived += a.bytes_of(i++);
  f.all_at = time_of(a.edge(i - 1));
  forward_ = f;
}

void PciBus::forward_at_start(Active& a) {
  Target& t = targets_[a.t.target];
  t.posted_free -= a.forward_reserved;
  const std::int64_t expiry = a.t.start_clock + masters_[a.t.master].params.latency_timer_clocks;
  std::int64_t certain = 0;
  std::size_t n = 0;
  while (n <= a.last && n < a.generated() && a.edge(n) <= expiry) certain += a.bytes_of(n++);
  while (n <= a.last && n < a.generated() &&
         (a.address0 + static_cast<std::uint64_t>(certain)) % kAdbBytes != 0)
    certain += a.bytes_of(n++);
  if (certain == 0) return;
  const Pending& p = masters_[a.t.master].queue.front();
  a.forwarded_at_start = certain;
  forward_write(p, a, 0, certain, 0, p.moved + certain == p.request.bytes);
}

inline void PciBus::finish_split_completion(Master& x, const PciTransaction& t, Outcome& outcome) {
  const Completion c = x.completions.front();
  x.completions.pop_front();
  Master& r = masters_[c.requester];
  // A sequence's last completion frees one of the requester's outstanding slots; if it was
  // waiting for one, its REQ# is up as the completion's last data phase completes (the
  // completion's attribute carried the byte count, so the requester knows it is the last).
  const bool was_blocked = r.outstanding >= r.params.max_outstanding_splits;
  if (c.last) --r.outstanding;
  *r.bytes_read += static_cast<std::uint64_t>(c.bytes);
  const Target& from = targets_[static_cast<std::size_t>(x.completer_for)];
  if (from.read_busy_ps && from.read_ps_per_byte > 0)  // its read path delivered these
    *from.read_busy_ps += static_cast<std::uint64_t>(c.bytes * from.read_ps_per_byte);
  for (std::size_t i = 0; i < r.awaiting.size(); ++i) {
    Pending& p = r.awaiting[i];
    if (p.id != c.id) continue;
    p.moved += c.bytes;
    outcome.progress.push_back({c.requester, {p.request, c.bytes}});
    if (p.moved == p.request.bytes) {
      outcome.done.push_back({c.requester, p.request});
      r.awaiting.erase(r.awaiting.begin() + static_cast<std::ptrdiff_t>(i));
    }
    break;
  }
  for (Pending& p : r.queue) {
    if (p.id != c.id) continue;
    p.moved += c.bytes;
    outcome.progress.push_back({c.requester, {p.request, c.bytes}});
    break;
  }
  if (!r.queue.empty() && c.last && was_blocked)
    r.queue.front().visible = std::max(r.queue.front().visible, t.end_clock);
}

inline void PciBus::finish_split_response(Master& x, const Active& a) {
  const PciTransaction& t = a.t;
  Pending& p = x.queue.front();
  Target& target = targets_[p.request.target];
  if (target.forwarder) {  // a bridge: the completions come from the far side
    forward_ = Forwarded{};
    forward_->target = p.request.target;
    forward_->read = true;
    forward_->at = time_of(t.end_clock);
    forward_->split = {t.master, p.id, p.request.command, a.address0, a.split_chunk, t.frame_id};
  }
  // The sequence comes back in completions of up to the target's split_read_bytes, in order; with
  // a read path of limited rate, each piece is ready once that path has delivered it.
  const std::int64_t piece = target.params.split_read_bytes;
  for (std::int64_t offset = 0; !target.forwarder && offset < a.split_chunk; offset += piece) {
    Completion c;
    c.requester = t.master;
    c.id = p.id;
    c.bytes = std::min(piece, a.split_chunk - offset);
    c.address = a.address0 + static_cast<std::uint64_t>(offset);
    c.ready = t.end_clock + target.params.read_latency_clocks;
    if (target.shared_memory) {  // the memory port is busy with posted writes' draining too
      target.drained_ps =
          std::max(target.drained_ps, time_of(c.ready)) + c.bytes * target.read_ps_per_byte;
      c.ready = edge_at_or_after(target.drained_ps);
    } else if (target.read_ps_per_byte > 0) {
      const Picoseconds took = c.bytes * target.read_ps_per_byte;
      target.read_free_edge =
          std::max(target.read_free_edge, c.ready) + (took + period_ps_ - 1) / period_ps_;
      c.ready = target.read_free_edge;
    }
    c.frame_id = t.frame_id;
    c.last = offset + piece >= a.split_chunk;
    masters_[target.completer].completions.push_back(c);
  }
  p.requested += a.split_chunk;
  ++x.outstanding;
  if (p.requested == p.request.bytes) {
    x.awaiting.push_back(p);
    x.queue.pop_front();
  }
}

inline void PciBus::finish_data(Master& x, const Active& a, bool read, Outcome& outcome) {
  const PciTransaction& t = a.t;
  Pending& p = x.queue.front();
  p.moved += t.bytes;
  p.delayed_ready = -1;
  if (read)
    *x.bytes_read += static_cast<std::uint64_t>(t.bytes);
  else
    *x.bytes_written += static_cast<std::uint64_t>(t.bytes);
  Target& target = targets_[t.target];
  if (!read && target.params.posted_write_bytes > 0) {
    target.drained_ps = a.drained_after[a.last];
    if (target.write_busy_ps && target.ps_per_byte > 0)
      *target.write_busy_ps += static_cast<std::uint64_t>(t.bytes * target.ps_per_byte);
  }
  const bool last = p.moved == p.request.bytes;
  if (!read && target.forwarder) {
    // What a cut left of the room taken at the start comes back; what was not forwarded then
    // goes now, all of it in.
    target.posted_free += a.forward_reserved - t.bytes;
    const std::int64_t rest = t.bytes - a.forwarded_at_start;
    if (rest > 0) {
      std::size_t phase = 0;
      for (std::int64_t b = 0; b < a.forwarded_at_start; ++phase) b += a.bytes_of(phase);
      forward_write(p, a, a.forwarded_at_start, rest, phase, last);
    }
  }
  outcome.progress.push_back({t.master, {p.request, t.bytes}});
  if (last) {
    if (read || !target.done_on_delivery) outcome.done.push_back({t.master, p.request});
    x.queue.pop_front();
  } else {
    p.visible = std::max(p.visible, t.end_clock);  // REQ# stays asserted for the rest
  }
}

void PciBus::count(const PciTransaction& t) {
  ++transactions_;
  address_clocks_ += static_cast<std::uint64_t>(t.address_clocks);
  wait_clocks_ += static_cast<std::uint64_t>(t.wait_clocks);
  data_clocks_ += static_cast<std::uint64_t>(t.data_phases);
  turnaround_clocks_ += static_cast<std::uint64_t>(t.turnaround_clocks);
  if (t.ending == PciEnding::retry) ++retries_;
  if (t.ending == PciEnding::disconnect) ++disconnects_;
  if (t.ending == PciEnding::latency_timer) ++latency_timer_stops_;
  if (t.ending == PciEnding::split_response) ++split_responses_;
  if (is_read(t.command) || t.split_completion)
    bytes_read_ += static_cast<std::uint64_t>(t.bytes);
  else
    bytes_written_ += static_cast<std::uint64_t>(t.bytes);
  const std::int64_t n = t.data_phases;
  if (n > 0) phases_.record(n);
  const std::size_t bin = n == 0 ? 0 : n == 1 ? 1 : n <= 4 ? 2 : n <= 16 ? 3 : n <= 64 ? 4 : 5;
  ++length_bins_[bin];
}

std::int64_t PciBus::next_decision_edge() const {
  std::int64_t first = -1;
  for (std::size_t m = 0; m < masters_.size(); ++m) {
    const std::int64_t r = ready_edge(m);
    if (r >= 0 && (first < 0 || r < first)) first = r;
  }
  if (first < 0) return -1;
  return std::max({bus_free_edge_, decided_through_ + 1, first});
}

Picoseconds PciBus::decision_due_ps(std::int64_t edge) const {
  // The arbiter's choice at `edge` rests on the REQ# lines sampled at edge - 1: on requests made
  // before time_of(edge - 1), all known from then on. If that choice starts a transaction, it is
  // taken then (a request made later is seen by the transaction in progress exactly as it would
  // have been seen by start(): see request()); if it does not, it waits for the edge itself,
  // where a request made meanwhile may still let a parked master start.
  const std::size_t w = arbitrate(edge - 1, holder_, rr_last_, kNone);
  const bool starts = w != kNone && requesting_by(w, edge);
  return time_of(starts ? edge - 1 : edge);
}

Picoseconds PciBus::next_event_ps() const {
  if (active_) {
    if (a_.generated() == 0) return time_of(a_.t.end_clock);
    // Not generated that far yet: wake at the last phase generated, to generate more.
    return time_of(a_.edge(std::min(a_.last, a_.generated() - 1)));
  }
  const std::int64_t edge = next_decision_edge();
  return edge < 0 ? kForeverPs : decision_due_ps(edge);
}

void PciBus::advance(Picoseconds now) {
  while (true) {
    if (active_) {
      if (next_event_ps() > now) return;
      if (a_.generated() > 0 && a_.last >= a_.generated())
        generate_phases(a_, a_.edges.size() + kPhaseBlock);
      else
        finish();
      continue;
    }
    const std::int64_t edge = next_decision_edge();
    if (edge < 0 || decision_due_ps(edge) > now) return;
    decide(edge);
  }
}

}  // namespace gbesim
