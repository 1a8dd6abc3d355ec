#include "models/switch/switch.hpp"

#include <algorithm>

#include "models/common/speed_modes.hpp"

namespace gbesim {

namespace {

constexpr std::size_t kFlood = static_cast<std::size_t>(-1);
constexpr std::size_t kFiltered = static_cast<std::size_t>(-2);

MacParams port_mac_params(MacParams mac) {
  mac.promiscuous = true;   // a bridge port receives every frame (802.1D 8.5)
  mac.tx_queue_frames = 1;  // the switch's own output queues hold the rest
  return mac;
}

}  // namespace

const ModelVocabulary& Switch::vocabulary() {
  static const ModelVocabulary v{
      "switch",
      "<switch>.port<n> (PAUSE: the port's MAC, <switch>.port<n>.mac)",
      "an output-queued Ethernet switch's relay, per port (docs/switch.md)",
      {EventKind::frame_in, EventKind::forward, EventKind::filtered, EventKind::enqueue,
       EventKind::drop}};
  return v;
}

void Switch::report(EventKind kind, Picoseconds at, std::size_t port, const Frame& frame,
                    std::string_view detail, std::int64_t value) const {
  if (!events.connected()) return;
  Event e{kind, at, &frame, detail, value};
  e.part = ports_[port]->basename();
  events(e);
}

SwitchPort::SwitchPort(sc_core::sc_module_name name, Switch& owner, std::size_t index,
                       const MacParams& mac, const MacConfig& config, std::size_t queues,
                       SimContext& context)
    : sc_module(name),
      owner_(owner),
      index_(index),
      mac_("mac", port_mac_params(mac), config, context),
      queues_(queues),
      queue_bytes_(queues, 0),
      queue_shared_(queues, 0),
      queue_frames_(queues, 0),
      stats_(context.stats, this->name()),
      frames_in_(stats_, "frames_in", "frames",
                 "frames received whole and accepted by the port's MAC, handed to the relay"),
      octets_in_(stats_, "octets_in", "bytes", "DA..FCS bytes of frames_in"),
      frames_out_(stats_, "frames_out", "frames", "frames the port sent from its output queues"),
      octets_out_(stats_, "octets_out", "bytes", "DA..FCS bytes of frames_out"),
      drops_buffer_full_(stats_, "drops_buffer_full", "frames",
                         "frames for this output dropped: its buffer (and the shared pool) full, "
                         "or its frame limit reached"),
      drops_fabric_backlog_(stats_, "drops_fabric_backlog", "frames",
                            "frames from this input dropped: its backlog waiting for the fabric "
                            "would pass port_buffer_bytes"),
      drops_too_long_(stats_, "drops_too_long", "frames",
                      "frames for this output longer than its MAC's max_frame_bytes"),
      frames_filtered_(stats_, "frames_filtered", "frames",
                       "frames from this input whose destination was learned on this port"),
      cut_through_frames_(stats_, "cut_through_frames", "frames",
                          "frames from this input forwarded before their last bit arrived"),
      cut_through_errored_(stats_, "cut_through_errored", "frames",
                           "cut-through frames from this input that then failed the MAC's checks "
                           "(already forwarded)"),
      queue_delay_(stats_, "queue_delay",
                   "from entering the output queue to the first bit on the wire") {
  mac_.attach_client(this);
  due_ps_ = 0;  // the switch decides what is due (Switch::settle)
  // The occupancy histogram covers the admissions since a restart.
  stats_.on_restart([this](Picoseconds) { depth_.clear(); });
  stats_.summary("queue_depth_mean", "bytes",
                 "output occupancy seen by each admitted frame (itself included), mean",
                 [this](const StatContext&) { return depth_.mean(); });
  stats_.summary("queue_depth_p99", "bytes", "... 99th percentile",
                 [this](const StatContext&) { return static_cast<double>(depth_.quantile(0.99)); });
  stats_.summary("queue_depth_max", "bytes", "... largest",
                 [this](const StatContext&) { return static_cast<double>(depth_.max()); });
  stats_.level("queued_frames", "frames", "frames in the output queues at the end",
               [this](const StatContext&) { return static_cast<double>(frames_); });
}

void SwitchPort::settle(Picoseconds now) {
  owner_.settle(now);
}

void SwitchPort::mac_receive(FramePtr frame, Picoseconds now) {
  ++frames_in_;
  octets_in_ += frame->size();
  owner_.report(EventKind::frame_in, now, index_, *frame);
  owner_.learn(*frame, index_, now);
  if (!early_.empty() && early_.front() == frame->id) {
    early_.pop_front();  // forwarded by cut-through already
    return;
  }
  owner_.schedule({now + owner_.latency_ps_, index_, owner_.sequence_++, kForeverPs, false, kFlood,
                   std::move(frame)});
}

void SwitchPort::mac_rejected(const Frame& frame, Picoseconds) {
  if (!early_.empty() && early_.front() == frame.id) {
    early_.pop_front();
    ++cut_through_errored_;
  }
}

void SwitchPort::frame_arriving(const Frame& frame, Picoseconds first_bit) {
  if (!owner_.cut_through_ || frame.size() < kMinFrameBytes) return;
  // MAC Control frames end at the MAC; they are never relayed.
  if (destination_of(frame.bytes) == MacAddress::pause_multicast()) return;
  const Picoseconds bit = mac_.bit_ps();
  const Picoseconds cut = first_bit +
                          (kPreambleSfdBytes + owner_.params_.cut_through_bytes) * 8 * bit +
                          owner_.latency_ps_;
  const Picoseconds whole = first_bit + mac_.frame_time_ps(frame.size()) + owner_.latency_ps_;
  early_.push_back(frame.id);
  owner_.schedule(
      {cut, index_, owner_.sequence_++, whole, false, kFlood, owner_.context_.frames.copy(frame)});
}

void SwitchPort::set_up() {
  if (up_) return;
  up_ = true;
  owner_.port_up(*this);
}

void SwitchPort::feed() {
  while (!in_mac_ && queued_ > 0) {
    auto q = std::find_if(queues_.rbegin(), queues_.rend(),
                          [](const RingQueue<Queued>& r) { return !r.empty(); });
    if (q == queues_.rend()) return;
    Queued next = std::move(q->front());
    q->pop_front();
    --queued_;
    in_mac_ = true;
    in_mac_id_ = next.frame->id;
    sending_.ingress = next.ingress;
    sending_.queue = next.queue;
    sending_.shared = next.shared;
    sending_.enqueued_ps = next.enqueued_ps;
    sending_.bytes = static_cast<std::int64_t>(next.frame->size());
    // The MAC starts it once the inter-frame gap has passed (or refuses it: mac_tx_done).
    mac_.enqueue(std::move(next.frame));
  }
}

void SwitchPort::mac_tx_started(const Frame& frame, Picoseconds at) {
  if (in_mac_ && frame.id == in_mac_id_) queue_delay_.record(at - sending_.enqueued_ps);
}

void SwitchPort::mac_tx_done(const Frame& frame, Picoseconds at, bool sent) {
  if (!in_mac_ || frame.id != in_mac_id_) return;  // a PAUSE frame of our own
  in_mac_ = false;
  owner_.release(*this, sending_);
  if (sent) {
    ++frames_out_;
    octets_out_ += frame.size();
    ++owner_.copies_sent_;
  } else {
    ++drops_too_long_;
    ++owner_.copies_dropped_;
    owner_.report(EventKind::drop, at, index_, frame, "too_long");
  }
  // The next frame goes now, after everything due at this instant (Switch::settle feeds).
  if (!owner_.settling_) owner_.settle(at);
}

Switch::Switch(sc_core::sc_module_name name, const SwitchParams& params, const MacParams& port_mac,
               const std::vector<SwitchPortParams>& ports, std::uint32_t number,
               SimContext& context)
    : sc_module(name),
      params_(params),
      context_(context),
      cut_through_(params.mode == SwitchMode::cut_through),
      latency_ps_(round_to_ps(params.forwarding_latency_ns * 1000.0)),
      aging_ps_(round_to_ps(params.aging_s * 1e12)),
      fabric_backlog_(ports.size(), 0),
      stats_(context.stats, this->name()),
      frames_received_(stats_, "frames_received", "frames",
                       "frames handed to the relay by the ports' MACs (= filtered + unicast + "
                       "flooded + dropped at the fabric + in the relay)"),
      frames_filtered_(stats_, "frames_filtered", "frames",
                       "frames not forwarded: destination learned on their own port"),
      frames_unicast_(stats_, "frames_unicast", "frames", "frames sent to one learned port"),
      frames_flooded_(stats_, "frames_flooded", "frames",
                      "frames sent to every other port: unknown, multicast or broadcast "
                      "destination"),
      frames_dropped_fabric_(stats_, "frames_dropped_fabric", "frames",
                             "frames dropped waiting for the fabric"),
      copies_made_(stats_, "copies_made", "frames",
                   "frames offered to output queues, one per output (= copies_sent + "
                   "copies_dropped + queued)"),
      copies_sent_(stats_, "copies_sent", "frames", "frames the output ports sent"),
      copies_dropped_(stats_, "copies_dropped", "frames",
                      "frames dropped at an output (buffer full, too long)"),
      addresses_learned_(stats_, "addresses_learned", "addresses",
                         "source addresses entered in the learning table"),
      addresses_aged_(stats_, "addresses_aged", "addresses",
                      "entries found older than aging_s and forgotten"),
      table_full_(stats_, "table_full", "frames",
                  "source addresses not learned because the table was full"),
      fabric_busy_ps_(stats_, "fabric_committed_time", "ps",
                      "fabric time given to frames (some of it may lie past the end)",
                      params.fabric_mbps > 0) {
  std::uint32_t index = 0;
  for (const auto& p : ports) {
    ++index;
    MacParams mac = port_mac;
    mac.duplex = p.duplex;
    MacConfig config;
    config.rate_mbps = p.rate_mbps;
    // Locally administered: 02:53 ('S'):switch:00:port.
    config.address = MacAddress{{0x02, 0x53, static_cast<std::uint8_t>(number), 0,
                                 static_cast<std::uint8_t>(index >> 8),
                                 static_cast<std::uint8_t>(index & 0xFF)}};
    config.station = 100'000 + number * 1000 + index;  // MAC Control frame ids
    const std::string child = "port" + std::to_string(index);
    ports_.push_back(std::make_unique<SwitchPort>(child.c_str(), *this, index - 1, mac, config,
                                                  static_cast<std::size_t>(params.priority_queues),
                                                  context));
  }
  stats_.level("frames_in_relay", "frames",
               "frames between their ports' MACs and the output queues at the end",
               [this](const StatContext&) { return static_cast<double>(pending_.size()); });
  stats_.level("frames_queued", "frames", "frames in output queues at the end",
               [this](const StatContext&) {
                 std::int64_t n = 0;
                 for (const auto& p : ports_) n += p->frames_;
                 return static_cast<double>(n);
               });
  stats_.level("table_entries", "addresses", "entries in the learning table at the end",
               [this](const StatContext&) { return static_cast<double>(table_.size()); });
  if (params.fabric_mbps > 0)
    stats_.rate(
        "fabric_utilisation", "fraction", "share of time the fabric carried frames",
        [this](const StatContext& c) {
          // Frames committed to the fabric occupy it back to back up to
          // fabric_free_ps_; what lies past the end is not counted.
          const Picoseconds ahead = std::max<Picoseconds>(0, fabric_free_ps_ - c.elapsed_ps);
          return static_cast<double>(static_cast<Picoseconds>(fabric_busy_ps_.value()) - ahead) /
                 static_cast<double>(c.elapsed_ps);
        });
  SC_METHOD(process);
  sensitive << wake_;
  dont_initialize();
}

void Switch::schedule(Pending p) {
  const Picoseconds now = now_ps();
  const Picoseconds at = p.ready_ps;
  pending_.push(std::move(p));
  if (at < wake_at_ || wake_at_ < now) {
    wake_at_ = at;
    wake_.notify(to_sc_time(at - now));
  }
}

void Switch::process() {
  ++context_.activations;
  settle(now_ps());
}

void Switch::settle(Picoseconds now) {
  if (settling_) return;
  settling_ = true;
  // Frames sent and frames arrived by now, port by port; then every forwarding decision due.
  for (SwitchPort* p : up_ports_)
    if (p->mac_.due_besides_client(now)) p->mac_.settle_station(now);
  while (!pending_.empty() && pending_.top().ready_ps <= now) {
    // priority_queue::top is const: the frame is moved out before the pop.
    Pending p = std::move(const_cast<Pending&>(pending_.top()));
    pending_.pop();
    forward(std::move(p), now);
  }
  for (SwitchPort* p : up_ports_) p->feed();
  settling_ = false;
  if (!pending_.empty()) {
    const Picoseconds next = pending_.top().ready_ps;
    if (wake_at_ <= now || next < wake_at_) {
      wake_at_ = next;
      wake_.notify(to_sc_time(next - now));
    }
  }
}

void Switch::port_up(SwitchPort& port) {
  const auto at =
      std::lower_bound(up_ports_.begin(), up_ports_.end(), port.index(),
                       [](const SwitchPort* p, std::size_t index) { return p->index() < index; });
  up_ports_.insert(at, &port);
}

void Switch::learn(const Frame& frame, std::size_t port, Picoseconds now) {
  const MacAddress source = source_of(frame.bytes);
  if (source.is_multicast()) return;
  const std::uint64_t key = address_key(source.octets.data());
  auto it = table_.find(key);
  if (it != table_.end()) {
    if (now - it->second.seen_ps > aging_ps_) {
      ++addresses_aged_;
      ++addresses_learned_;
    }
    it->second = {port, now};
    return;
  }
  if (static_cast<std::int64_t>(table_.size()) >= params_.address_table_entries) {
    for (auto e = table_.begin(); e != table_.end();) {
      if (now - e->second.seen_ps > aging_ps_) {
        ++addresses_aged_;
        e = table_.erase(e);
      } else {
        ++e;
      }
    }
    if (static_cast<std::int64_t>(table_.size()) >= params_.address_table_entries) {
      ++table_full_;
      return;
    }
  }
  table_.emplace(key, Learned{port, now});
  ++addresses_learned_;
}

std::size_t Switch::learned_port(const MacAddress& address, Picoseconds now) const {
  const auto it = table_.find(address_key(address.octets.data()));
  if (it == table_.end() || now - it->second.seen_ps > aging_ps_) return 0;
  return it->second.port + 1;
}

std::size_t Switch::egress_of(const Frame& frame, std::size_t ingress, Picoseconds now) {
  const MacAddress destination = destination_of(frame.bytes);
  if (destination.is_multicast()) return kFlood;
  const auto it = table_.find(address_key(destination.octets.data()));
  if (it == table_.end()) return kFlood;
  if (now - it->second.seen_ps > aging_ps_) {
    ++addresses_aged_;
    table_.erase(it);
    return kFlood;
  }
  return it->second.port == ingress ? kFiltered : it->second.port;
}

bool Switch::cut_through_allowed(std::size_t ingress, std::size_t egress) const {
  const Picoseconds in_bit = ports_[ingress]->mac_.bit_ps();
  auto slower_or_equal = [&](std::size_t e) {
    return e == ingress || !ports_[e]->up_ || ports_[e]->mac_.bit_ps() >= in_bit;
  };
  if (egress != kFlood) return slower_or_equal(egress);
  for (std::size_t e = 0; e < ports_.size(); ++e)
    if (!slower_or_equal(e)) return false;
  return true;
}

void Switch::forward(Pending p, Picoseconds now) {
  const std::int64_t size = static_cast<std::int64_t>(p.frame->size());
  if (!p.crossed) {
    if (p.whole_ps != kForeverPs && p.whole_ps > now) {
      // Cut-through: only towards outputs no faster than the input; otherwise the frame waits
      // for its last bit.
      if (!cut_through_allowed(p.ingress, egress_of(*p.frame, p.ingress, now))) {
        p.ready_ps = p.whole_ps;
        p.whole_ps = kForeverPs;
        schedule(std::move(p));
        return;
      }
      ++ports_[p.ingress]->cut_through_frames_;
    }
    ++frames_received_;
    p.egress = egress_of(*p.frame, p.ingress, now);
    if (p.egress == kFiltered) {
      ++frames_filtered_;
      ++ports_[p.ingress]->frames_filtered_;
      report(EventKind::filtered, now, p.ingress, *p.frame);
      return;
    }
    if (params_.fabric_mbps > 0) {
      std::int64_t& backlog = fabric_backlog_[p.ingress];
      if (backlog + size > params_.port_buffer_bytes) {
        ++frames_dropped_fabric_;
        ++ports_[p.ingress]->drops_fabric_backlog_;
        report(EventKind::drop, now, p.ingress, *p.frame, "fabric_backlog");
        return;
      }
      report(EventKind::forward, now, p.ingress, *p.frame, p.egress == kFlood ? "flood" : "unicast",
             p.egress == kFlood ? -1 : static_cast<std::int64_t>(p.egress) + 1);
      ++(p.egress == kFlood ? frames_flooded_ : frames_unicast_);
      backlog += size;
      const Picoseconds start = std::max(now, fabric_free_ps_);
      const Picoseconds took =
          (size * 8 * 1'000'000 + params_.fabric_mbps - 1) / params_.fabric_mbps;
      fabric_free_ps_ = start + took;
      fabric_busy_ps_ += static_cast<std::uint64_t>(took);
      p.ready_ps = start + took;
      p.crossed = true;
      schedule(std::move(p));
      return;
    }
    ++(p.egress == kFlood ? frames_flooded_ : frames_unicast_);
    report(EventKind::forward, now, p.ingress, *p.frame, p.egress == kFlood ? "flood" : "unicast",
           p.egress == kFlood ? -1 : static_cast<std::int64_t>(p.egress) + 1);
  } else {
    fabric_backlog_[p.ingress] -= size;
  }
  ++p.frame->hops;
  if (p.egress != kFlood) {
    enqueue(p.egress, std::move(p.frame), p.ingress, now);
    return;
  }
  std::size_t last = kFlood;
  for (std::size_t e = 0; e < ports_.size(); ++e)
    if (e != p.ingress && ports_[e]->up_) last = e;
  for (std::size_t e = 0; e < ports_.size(); ++e) {
    if (e == p.ingress || !ports_[e]->up_) continue;
    if (e == last) {
      enqueue(e, std::move(p.frame), p.ingress, now);
    } else {
      enqueue(e, context_.frames.copy(*p.frame), p.ingress, now);
    }
  }
}

std::size_t Switch::queue_of(const Frame& frame) const {
  if (params_.priority_queues == 1 || !is_vlan_tagged(frame.bytes)) return 0;
  const std::size_t priority = frame.bytes[14] >> 5;  // 802.1Q PCP
  return priority * static_cast<std::size_t>(params_.priority_queues) / 8;
}

void Switch::enqueue(std::size_t egress, FramePtr frame, std::size_t ingress, Picoseconds now) {
  ++copies_made_;
  SwitchPort& out = *ports_[egress];
  const std::size_t q = queue_of(*frame);
  const std::int64_t size = static_cast<std::int64_t>(frame->size());
  bool shared = false;
  auto drop = [&] {
    ++out.drops_buffer_full_;
    ++copies_dropped_;
    report(EventKind::drop, now, egress, *frame, "buffer_full");
  };
  if (out.queue_frames_[q] >= params_.port_buffer_frames) return drop();
  if (out.queue_bytes_[q] - out.queue_shared_[q] + size > params_.port_buffer_bytes) {
    if (shared_used_ + size > params_.shared_buffer_bytes) return drop();
    shared = true;
    shared_used_ += size;
    out.shared_bytes_ += size;
    out.queue_shared_[q] += size;
  }
  out.bytes_ += size;
  ++out.frames_;
  out.queue_bytes_[q] += size;
  ++out.queue_frames_[q];
  out.depth_.record(out.bytes_);
  report(EventKind::enqueue, now, egress, *frame, std::string_view{}, out.bytes_);
  SwitchPort& in = *ports_[ingress];
  in.held_bytes_ += size;
  in.mac_.set_rx_backlog(in.held_bytes_);
  out.queues_[q].push_back({std::move(frame), ingress, q, shared, now});
  ++out.queued_;
}

void Switch::release(SwitchPort& out, const SwitchPort::Sending& s) {
  out.bytes_ -= s.bytes;
  --out.frames_;
  out.queue_bytes_[s.queue] -= s.bytes;
  --out.queue_frames_[s.queue];
  if (s.shared) {
    shared_used_ -= s.bytes;
    out.shared_bytes_ -= s.bytes;
    out.queue_shared_[s.queue] -= s.bytes;
  }
  SwitchPort& in = *ports_[s.ingress];
  in.held_bytes_ -= s.bytes;
  in.mac_.set_rx_backlog(in.held_bytes_);
}

}  // namespace gbesim
