#include "models/pci/pcie_link.hpp"

#include <algorithm>
#include <functional>

namespace gbesim {

namespace {

constexpr std::int64_t kFramingBytes = 8;   // STP 1 + sequence number 2 + LCRC 4 + END 1
constexpr std::int64_t kCreditBytes = 16;   // one data credit
constexpr std::uint64_t kPageBytes = 4096;  // no request crosses a 4 KB boundary

std::int64_t dwords(std::uint64_t address, std::int64_t bytes) {
  return (static_cast<std::int64_t>(address % 4) + bytes + 3) / 4;
}

// Puts `value` in a free slot of `slots` (one listed in `free`, else a new one): its index.
template <typename Slots, typename T>
std::uint32_t put_in_slot(Slots& slots, std::vector<std::uint32_t>& free, const T& value) {
  if (free.empty()) {
    slots.push_back(value);
    return static_cast<std::uint32_t>(slots.size() - 1);
  }
  const std::uint32_t i = free.back();
  free.pop_back();
  slots[i] = value;
  return i;
}

// Bytes from address to the next multiple of `boundary`.
std::int64_t to_boundary(std::uint64_t address, std::int64_t boundary) {
  const auto b = static_cast<std::uint64_t>(boundary);
  return static_cast<std::int64_t>(b - address % b);
}

}  // namespace

const char* to_string(PciePacketKind k) {
  switch (k) {
    case PciePacketKind::memory_write:
      return "memory_write";
    case PciePacketKind::read_request:
      return "read_request";
    case PciePacketKind::completion:
      return "completion";
    case PciePacketKind::ack:
      return "ack";
    case PciePacketKind::update_fc:
      return "update_fc";
  }
  return "?";
}

const ModelVocabulary& PcieLink::vocabulary() {
  static const ModelVocabulary v{
      "pcie",
      "<host>.pci.up, <host>.pci.down",
      "a PCI Express 1.x link: every packet on each direction (docs/pci.md)",
      {EventKind::tlp_start, EventKind::tlp_end, EventKind::dllp_start, EventKind::dllp_end,
       EventKind::credit_stall}};
  return v;
}

std::int64_t pcie_tlp_bytes(std::int64_t payload_bytes, std::uint64_t address, bool four_dw_header,
                            bool ecrc) {
  const std::int64_t header = four_dw_header ? 16 : 12;
  const std::int64_t data = payload_bytes > 0 ? 4 * dwords(address, payload_bytes) : 0;
  return kFramingBytes + header + data + (ecrc ? 4 : 0);
}

PcieLink::PcieLink(const PciBusParams& params, StatRegistry& stats, const std::string& component)
    : params_(params), registry_(stats), stats_(stats, component) {
  static_assert(sizeof(Packet) <= 72, "a packet is copied at every step: keep it small");
  const std::int64_t ack_symbols = pcie_ack_interval_symbols(params);
  ack_interval_ps_ = ack_symbols * kPcieSymbolPs;
  skp_interval_ps_ = params.skp_interval_symbols * kPcieSymbolPs;
  latency_ps_ = params.link_latency_ns * 1000;
  for (Direction& d : dirs_) {
    d.posted_headers = params.posted_header_credits;
    d.posted_data = params.posted_data_credits;
    d.nonposted_headers = params.nonposted_header_credits;
    d.next_skp = skp_interval_ps_;
  }
  const char* names[2] = {"up", "down"};
  const char* whats[2] = {"upstream (endpoint -> root complex)",
                          "downstream (root complex -> endpoint)"};
  for (int i = 0; i < 2; ++i) {
    const Direction* d = &dirs_[i];
    const std::string n = names[i];
    const std::string w = whats[i];
    stats_.total("tlps_" + n, "packets", "TLPs sent " + w, value_of(d->tlps_sent));
    stats_.total("dllps_" + n, "packets", "DLLPs (Ack, UpdateFC) sent " + w,
                 value_of(d->dllps_sent));
    stats_.total("skps_" + n, "ordered sets", "SKP ordered sets sent " + w, value_of(d->skps));
    stats_.total("wire_bytes_" + n, "bytes", "bytes of TLPs and DLLPs sent " + w,
                 value_of(d->wire_bytes));
    stats_.total("payload_bytes_" + n, "bytes", "TLP payload bytes sent " + w,
                 value_of(d->payload_bytes));
    stats_.rate("utilisation_" + n, "fraction",
                "share of time the " + n + " direction sends packets or SKPs",
                share_of_time([d] { return static_cast<double>(d->busy_ps); }));
    stats_.total("credit_stalls_" + n, "stalls",
                 "times a TLP waited " + w + " for the receiver's flow-control credits",
                 value_of(d->stalls));
    stats_.rate("credit_stall_share_" + n, "fraction",
                "share of time a TLP waited " + w + " for credits",
                share_of_time([d] { return static_cast<double>(d->stall_ps); }));
  }
  // After a warm-up: each direction's busy time since, over the time since.
  stats_.on_restart([this](Picoseconds now) {
    restarted_ps_ = now;
    for (int i = 0; i < 2; ++i) busy_at_restart_ps_[i] = dirs_[i].busy_ps;
  });
  stats_.summary("utilisation", "fraction", "the busier direction's utilisation",
                 [this](const StatContext& c) {
                   return static_cast<double>(std::max(dirs_[0].busy_ps - busy_at_restart_ps_[0],
                                                       dirs_[1].busy_ps - busy_at_restart_ps_[1])) /
                          static_cast<double>(c.elapsed_ps - restarted_ps_);
                 });
  stats_.level("peak_mbps", "MB/s",
               "raw rate per direction: 250 MB/s per lane (10^6 bytes/s, after 8b/10b)",
               [this](const StatContext&) { return 250.0 * static_cast<double>(params_.lanes); });
  stats_.rate("read_mbps", "MB/s", "bytes read (completion payload) per second",
              megabytes_per_second([this] {
                double b = 0;
                for (const Master& m : masters_) b += static_cast<double>(m.bytes_read);
                return b;
              }));
  stats_.rate("write_mbps", "MB/s", "bytes written (posted payload) per second",
              megabytes_per_second([this] {
                double b = 0;
                for (const Master& m : masters_) b += static_cast<double>(m.bytes_written);
                return b;
              }));
  stats_.level("ack_interval_ns", "ns", "Ack / UpdateFC interval in use",
               [this](const StatContext&) { return static_cast<double>(ack_interval_ps_) / 1e3; });
}

std::size_t PcieLink::add_target(const std::string& name, const PciTargetParams& params) {
  targets_.push_back({name, params});
  return targets_.size() - 1;
}

std::size_t PcieLink::add_master(const std::string& name, const PciMasterParams& params,
                                 PciMasterClient* client) {
  Master m;
  m.name = name;
  m.params = params;
  m.client = client;
  masters_.push_back(std::move(m));
  const std::size_t index = masters_.size() - 1;
  master_groups_.emplace_back(registry_, stats_.component() + "." + name);
  StatGroup& g = master_groups_.back();
  // masters_ grows: the master by its index.
  const Quantity read = [this, index] { return static_cast<double>(masters_[index].bytes_read); };
  const Quantity written = [this, index] {
    return static_cast<double>(masters_[index].bytes_written);
  };
  g.total("bytes_read", "bytes", "bytes it read", value_of(read));
  g.total("bytes_written", "bytes", "bytes it wrote", value_of(written));
  g.rate("read_mbps", "MB/s", "bytes it read per second (10^6 bytes/s)",
         megabytes_per_second(read));
  g.rate("write_mbps", "MB/s", "bytes it wrote per second (10^6 bytes/s)",
         megabytes_per_second(written));
  return index;
}

void PcieLink::schedule(Picoseconds at, Step step, int direction) {
  Due e;
  e.at = at;
  e.seq = next_seq_++;
  e.step = step;
  e.direction = direction;
  agenda_.push_back(e);
  std::push_heap(agenda_.begin(), agenda_.end(), std::greater<Due>());
}

std::uint32_t PcieLink::schedule(Picoseconds at, Step step, int direction, const Packet& packet) {
  Due e;
  e.at = at;
  e.seq = next_seq_++;
  e.step = step;
  e.direction = direction;
  e.packet = put_in_slot(packets_, free_packets_, packet);
  agenda_.push_back(e);
  std::push_heap(agenda_.begin(), agenda_.end(), std::greater<Due>());
  return e.packet;
}

void PcieLink::request(std::size_t master, const PciRequest& r, Picoseconds now) {
  if (r.bytes <= 0) return;
  masters_[master].queue.push_back(r);
  serve(master, now);
}

PcieLink::Read* PcieLink::find_read(Master& m, std::uint64_t id) {
  for (Read& r : m.reads)
    if (r.id == id) return &r;
  return nullptr;
}

// Turns the master's requests into TLPs, in order: a write at once (posted), a read as far as
// its tags allow; a read still waiting for tags holds back what follows it.
void PcieLink::serve(std::size_t index, Picoseconds now) {
  Master& m = masters_[index];
  const bool four_dw = m.params.dual_address_cycle;
  bool queued[2] = {false, false};
  while (!m.queue.empty()) {
    const PciRequest& r = m.queue.front();
    const int dir = direction_from(!target_at_root(r.target));
    if (!is_read(r.command)) {
      std::uint64_t address = r.address;
      std::int64_t left = r.bytes;
      while (left > 0) {
        const std::int64_t n = std::min(left, to_boundary(address, params_.max_payload_bytes));
        Packet p;
        p.kind = PciePacketKind::memory_write;
        p.payload_bytes = n;
        p.wire_bytes = pcie_tlp_bytes(n, address, four_dw, params_.ecrc);
        p.master = index;
        p.address = address;
        p.last = n == left;
        p.frame_id = r.frame_id;
        if (p.last) p.write = put_in_slot(writes_, free_writes_, r);
        dirs_[dir].tlps.push_back(p);
        address += static_cast<std::uint64_t>(n);
        left -= n;
      }
      queued[dir] = true;
      m.queue.pop_front();
      continue;
    }
    if (!m.head_open) {  // the head read gets its record (the back of `reads`)
      Read rd;
      rd.id = next_read_++;
      rd.request = r;
      m.reads.push_back(rd);
      m.head_open = true;
    }
    Read& rd = m.reads.back();
    while (rd.requested < r.bytes && m.tags_in_use < m.params.max_outstanding_splits) {
      const std::uint64_t address = r.address + static_cast<std::uint64_t>(rd.requested);
      const std::int64_t n = std::min({r.bytes - rd.requested, params_.max_read_request_bytes,
                                       to_boundary(address, kPageBytes)});
      Packet p;
      p.kind = PciePacketKind::read_request;
      p.wire_bytes = pcie_tlp_bytes(0, address, four_dw, params_.ecrc);
      p.payload_bytes = 0;
      p.master = index;
      p.read = rd.id;
      p.target = r.target;
      p.address = address;
      p.asked_bytes = n;
      p.frame_id = r.frame_id;
      p.final = rd.requested + n == r.bytes;
      dirs_[dir].tlps.push_back(p);
      rd.requested += n;
      ++m.tags_in_use;
      queued[dir] = true;
    }
    if (rd.requested < r.bytes) break;  // out of tags: the rest waits
    m.head_open = false;
    m.queue.pop_front();
  }
  for (int d = 0; d < 2; ++d)
    if (queued[d]) kick(d, now);
}

bool PcieLink::credits_allow(const Direction& d, const Packet& p) const {
  switch (p.kind) {
    case PciePacketKind::memory_write:
      return d.posted_headers >= 1 &&
             d.posted_data >= (p.payload_bytes + kCreditBytes - 1) / kCreditBytes;
    case PciePacketKind::read_request:
      return d.nonposted_headers >= 1;
    default:
      return true;
  }
}

// The start of a packet that is ready at t: after the SKP ordered sets due by then (each at the
// first packet boundary at or after its due time).
Picoseconds PcieLink::after_skps(Direction& d, Picoseconds t) {
  if (skp_interval_ps_ == 0) return t;
  const Picoseconds skp_ps = kPcieSkpSymbols * kPcieSymbolPs;
  while (d.next_skp <= t) {
    if (d.free_at <= d.next_skp && d.next_skp + skp_ps <= t) {
      // Sent while the link was idle, all before t: count them at once.
      const std::int64_t n = (t - skp_ps - d.next_skp) / skp_interval_ps_ + 1;
      d.next_skp += n * skp_interval_ps_;
      d.skps += static_cast<std::uint64_t>(n);
      d.busy_ps += n * skp_ps;
      continue;
    }
    const Picoseconds s = std::max(d.next_skp, d.free_at);
    d.free_at = s + skp_ps;
    ++d.skps;
    d.busy_ps += skp_ps;
    d.next_skp += skp_interval_ps_;
    t = std::max(t, d.free_at);
  }
  return t;
}

void PcieLink::kick(int direction, Picoseconds now) {
  Direction& d = dirs_[direction];
  if (d.busy) return;
  if (!d.dllps.empty()) {
    d.current = d.dllps.front();
    d.dllps.pop_front();
  } else if (!d.tlps.empty()) {
    const Packet& head = d.tlps.front();
    if (!credits_allow(d, head)) {
      if (!d.stalled) {
        d.stalled = true;
        d.stalled_since = now;
        ++d.stalls;
        if (events.connected()) report(EventKind::credit_stall, now, direction, head);
      }
      return;
    }
    if (d.stalled) {
      d.stall_ps += now - d.stalled_since;
      d.stalled = false;
    }
    if (head.kind == PciePacketKind::memory_write) {
      d.posted_headers -= 1;
      d.posted_data -= (head.payload_bytes + kCreditBytes - 1) / kCreditBytes;
    } else if (head.kind == PciePacketKind::read_request) {
      d.nonposted_headers -= 1;
    }
    d.current = head;
    d.tlps.pop_front();
  } else {
    return;
  }
  const Packet& p = d.current;
  const Picoseconds start = after_skps(d, std::max(now, d.free_at));
  const Picoseconds end = start + packet_ps(p.wire_bytes);
  d.busy = true;
  d.current_start = start;
  d.free_at = end;
  d.busy_ps += end - start;
  d.wire_bytes += static_cast<std::uint64_t>(p.wire_bytes);
  d.payload_bytes += static_cast<std::uint64_t>(p.payload_bytes);
  if (p.kind == PciePacketKind::ack || p.kind == PciePacketKind::update_fc)
    ++d.dllps_sent;
  else
    ++d.tlps_sent;
  schedule(end, Step::sent, direction);
  if (events.connected()) {
    const bool dllp = p.kind == PciePacketKind::ack || p.kind == PciePacketKind::update_fc;
    report(dllp ? EventKind::dllp_start : EventKind::tlp_start, start, direction, p);
  }
}

void PcieLink::report(EventKind kind, Picoseconds at, int direction, const Packet& p) const {
  Event e{kind, at};
  e.detail = to_string(p.kind);
  e.bytes = p.wire_bytes;
  if (kind == EventKind::tlp_start || kind == EventKind::tlp_end) e.value = p.payload_bytes;
  e.frame_id = p.frame_id;
  e.part = direction == 0 ? "up" : "down";
  events(e);
}

void PcieLink::sent(int direction, Picoseconds at) {
  Direction& d = dirs_[direction];
  d.busy = false;
  if (events.connected()) {
    const bool dllp =
        d.current.kind == PciePacketKind::ack || d.current.kind == PciePacketKind::update_fc;
    report(dllp ? EventKind::dllp_end : EventKind::tlp_end, at, direction, d.current);
  }
  // The packet as its arrival keeps it (its slot stays until then): the next takes d.current.
  const Packet& p = packets_[schedule(at + latency_ps_, Step::arrived, direction, d.current)];
  kick(direction, at);
  if (p.kind == PciePacketKind::memory_write) {
    Master& m = masters_[p.master];
    m.bytes_written += static_cast<std::uint64_t>(p.payload_bytes);
    if (p.last) {
      const PciRequest r = writes_[p.write];
      free_writes_.push_back(p.write);
      if (m.client != nullptr) {
        m.client->pci_progress(r, r.bytes, at);
        m.client->pci_done(r, at);
      }
    }
  }
}

void PcieLink::arrived(int direction, const Packet& p, Picoseconds at) {
  Direction& d = dirs_[direction];
  if (p.kind == PciePacketKind::ack) return;
  if (p.kind == PciePacketKind::update_fc) {
    // Credits return to the transmitter of the other direction.
    Direction& back = dirs_[opposite(direction)];
    back.posted_headers += p.posted_headers;
    back.posted_data += p.posted_data;
    back.nonposted_headers += p.nonposted_headers;
    kick(opposite(direction), at);
    return;
  }
  // A TLP: the receiver owes an Ack, and credits once it has consumed it (on arrival).
  if (!d.ack_scheduled) {
    d.ack_scheduled = true;
    schedule(at + ack_interval_ps_, Step::ack_due, direction);
  }
  if (p.kind == PciePacketKind::memory_write) {
    d.freed_posted_headers += 1;
    d.freed_posted_data += (p.payload_bytes + kCreditBytes - 1) / kCreditBytes;
  } else if (p.kind == PciePacketKind::read_request) {
    d.freed_nonposted_headers += 1;
    schedule(at + targets_[p.target].params.completion_latency_ns * 1000, Step::completions_ready,
             opposite(direction), p);
  } else if (p.kind == PciePacketKind::completion) {
    Master& m = masters_[p.master];
    Read* r = find_read(m, p.read);
    if (r == nullptr) return;
    r->received += p.payload_bytes;
    m.bytes_read += static_cast<std::uint64_t>(p.payload_bytes);
    if (p.last) --m.tags_in_use;
    const PciRequest request = r->request;
    const bool done = r->received == request.bytes;
    if (done)
      m.reads.erase(std::find_if(m.reads.begin(), m.reads.end(),
                                 [&](const Read& x) { return x.id == p.read; }));
    if (m.client != nullptr) m.client->pci_progress(request, p.payload_bytes, at);
    if (p.last) serve(p.master, at);  // a tag is free
    if (done && m.client != nullptr) m.client->pci_done(request, at);
  }
}

// The receiver of `direction` acknowledges what it has and returns the credits it freed, on
// the other direction.
void PcieLink::ack_due(int direction, Picoseconds at) {
  Direction& d = dirs_[direction];
  d.ack_scheduled = false;
  Direction& back = dirs_[opposite(direction)];
  auto dllp = [&](PciePacketKind kind, std::int64_t posted_headers, std::int64_t posted_data,
                  std::int64_t nonposted_headers) {
    Packet p;
    p.kind = kind;
    p.wire_bytes = kPcieDllpBytes;
    p.posted_headers = posted_headers;
    p.posted_data = posted_data;
    p.nonposted_headers = nonposted_headers;
    back.dllps.push_back(p);
  };
  dllp(PciePacketKind::ack, 0, 0, 0);
  if (d.freed_posted_headers > 0)
    dllp(PciePacketKind::update_fc, d.freed_posted_headers, d.freed_posted_data, 0);
  if (d.freed_nonposted_headers > 0)
    dllp(PciePacketKind::update_fc, 0, 0, d.freed_nonposted_headers);
  d.freed_posted_headers = d.freed_posted_data = d.freed_nonposted_headers = 0;
  kick(opposite(direction), at);
}

// The completer answers a read request: completions end at its completion boundary and at
// Max_Payload_Size; all of them are queued at once, in address order.
void PcieLink::completions_ready(int direction, const Packet& request, Picoseconds at) {
  const std::int64_t boundary =
      std::min(targets_[request.target].params.completion_bytes, params_.max_payload_bytes);
  std::uint64_t address = request.address;
  std::int64_t left = request.asked_bytes;
  while (left > 0) {
    const std::int64_t n = std::min(left, to_boundary(address, boundary));
    Packet c;
    c.kind = PciePacketKind::completion;
    c.payload_bytes = n;
    c.wire_bytes = pcie_tlp_bytes(n, address, false, params_.ecrc);
    c.master = request.master;
    c.read = request.read;
    c.frame_id = request.frame_id;
    c.last = n == left;
    c.final = c.last && request.final;
    dirs_[direction].tlps.push_back(c);
    address += static_cast<std::uint64_t>(n);
    left -= n;
  }
  kick(direction, at);
}

Picoseconds PcieLink::next_event_ps() const {
  return agenda_.empty() ? kForeverPs : agenda_.front().at;
}

bool PcieLink::calls_master(const Packet& p) const {
  const bool write = p.kind == PciePacketKind::memory_write;
  if (!write && p.kind != PciePacketKind::completion) return false;
  const PciMasterClient* client = masters_[p.master].client;
  if (client == nullptr) return false;
  return write ? p.last : p.final || client->follows_progress();
}

// When a step itself calls a master: a write's last TLP when it has been sent; a completion
// the master follows when it arrives, so its own sending the link's latency before that;
// kForeverPs for every other step.
Picoseconds PcieLink::calls_master_at(const Due& e) const {
  if (e.step == Step::sent) {
    const Packet& p = dirs_[e.direction].current;  // a direction sends one packet at a time
    if (!calls_master(p)) return kForeverPs;
    return p.kind == PciePacketKind::completion ? e.at + latency_ps_ : e.at;
  }
  if (e.step == Step::arrived && packets_[e.packet].kind == PciePacketKind::completion &&
      calls_master(packets_[e.packet]))
    return e.at;
  return kForeverPs;
}

// Any other step calls a master only through a packet not yet started: queued now, or queued
// later behind what is queued (Acks, SKPs and credits only delay a direction's TLPs). Such a
// packet starts no sooner than the first step due, nor before its direction has sent what it is
// sending and what is ahead of it. Not yet queued, it is a completion of a read in progress,
// ending no sooner than the read's bytes not yet on their way have been sent, or a request a
// master has waiting (a write's last TLP, a read's completions).
Picoseconds PcieLink::next_wake_ps() const {
  if (agenda_.empty()) return kForeverPs;
  const Picoseconds first = agenda_.front().at;
  if (events.connected()) return first;  // traces keep every packet's events in time order
  Picoseconds wake = kForeverPs;
  for (const Due& e : agenda_) wake = std::min(wake, calls_master_at(e));
  // Each direction: when what it has queued will have been sent, at the earliest.
  Picoseconds drained[2];
  for (int x = 0; x < 2; ++x) {
    const Direction& d = dirs_[x];
    Picoseconds end = d.busy ? std::max(first, d.free_at) : first;
    for (const Packet& p : d.tlps) {
      end += packet_ps(p.wire_bytes);
      if (end >= wake) break;
      if (calls_master(p)) wake = end;
    }
    drained[x] = end;
  }
  const Picoseconds shortest = packet_ps(pcie_tlp_bytes(4, 0, false, false));
  // Completion payload on its way to each master: queued, being sent, or arriving.
  auto on_the_way = [&](std::size_t master, int x) {
    std::int64_t bytes = 0;
    auto add = [&](const Packet& p) {
      if (p.kind == PciePacketKind::completion && p.master == master) bytes += p.payload_bytes;
    };
    for (const Packet& p : dirs_[x].tlps) add(p);
    if (dirs_[x].busy) add(dirs_[x].current);
    for (const Due& e : agenda_)
      if (e.step == Step::arrived && e.direction == x) add(packets_[e.packet]);
    return bytes;
  };
  for (std::size_t i = 0; i < masters_.size(); ++i) {
    const Master& m = masters_[i];
    if (m.client == nullptr) continue;
    for (const Read& rd : m.reads) {
      const int x = opposite(direction_from(!target_at_root(rd.request.target)));
      const std::int64_t left = rd.request.bytes - rd.received - on_the_way(i, x);
      // A master's bytes on their way may be another read's: then only the shortest is sure.
      const Picoseconds send = m.client->follows_progress() || left <= 0
                                   ? shortest
                                   : packet_ps(pcie_tlp_bytes(left, 0, false, false));
      wake = std::min(wake, drained[x] + send);
    }
    for (std::size_t q = m.head_open ? 1 : 0; q < m.queue.size(); ++q) {
      const PciRequest& r = m.queue[q];
      const int x = direction_from(!target_at_root(r.target));
      if (is_read(r.command))
        wake = std::min(wake, drained[opposite(x)] +
                                  (m.client->follows_progress()
                                       ? shortest
                                       : packet_ps(pcie_tlp_bytes(r.bytes, 0, false, false))));
      else
        wake = std::min(wake, drained[x] + shortest);
    }
  }
  return wake;
}

void PcieLink::advance(Picoseconds now) {
  while (!agenda_.empty() && agenda_.front().at <= now) {
    std::pop_heap(agenda_.begin(), agenda_.end(), std::greater<Due>());
    const Due e = agenda_.back();
    agenda_.pop_back();
    switch (e.step) {
      case Step::sent:
        sent(e.direction, e.at);
        break;
      case Step::arrived:
        arrived(e.direction, packets_[e.packet], e.at);
        break;
      case Step::ack_due:
        ack_due(e.direction, e.at);
        break;
      case Step::completions_ready:
        completions_ready(e.direction, packets_[e.packet], e.at);
        break;
    }
    // Its slot is free once it is done with: what it scheduled went to others (a deque's
    // elements stay where they are as it grows).
    if (e.packet != kNoPacket) free_packets_.push_back(e.packet);
  }
}

bool PcieLink::idle() const {
  for (const Master& m : masters_)
    if (!m.queue.empty() || !m.reads.empty()) return false;
  for (const Direction& d : dirs_)
    if (d.busy || !d.tlps.empty() || !d.dllps.empty()) return false;
  return agenda_.empty();
}

}  // namespace gbesim
