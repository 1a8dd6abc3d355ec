#include "models/host/host_stack.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {

namespace {

IpPacket header_for(bool sender, std::uint32_t source, std::uint32_t destination,
                    std::uint16_t sender_port) {
  IpPacket p;
  p.source = source;
  p.destination = destination;
  p.source_port = sender ? sender_port : kDataPort;
  p.destination_port = sender ? kDataPort : sender_port;
  return p;
}

}  // namespace

const ModelVocabulary& HostStack::vocabulary() {
  static const ModelVocabulary v{
      "stack",
      "<host>.stack (several: <host>.stack_<peer>), <station>.stack (an ideal endpoint)",
      "one end of a host application: the windowed transport or UDP (docs/host.md)",
      {EventKind::segment_sent, EventKind::segment_received, EventKind::segment_dropped,
       EventKind::datagram_sent, EventKind::datagram_received, EventKind::datagram_dropped}};
  return v;
}

HostStack::HostStack(sc_core::sc_module_name name, const AppParams& app,
                     const TransportParams& transport, bool sender, const FrameHeader& ethernet,
                     std::uint32_t ip_source, std::uint32_t ip_destination, std::uint64_t creator,
                     SimContext& context, std::uint16_t sender_port)
    : sc_module(name),
      app_(app),
      transport_(transport),
      sender_(sender),
      udp_(app.kind == AppKind::udp),
      file_(app.kind == AppKind::file),
      reply_(app.kind == AppKind::ping_pong  ? app.request_bytes
             : app.kind == AppKind::requests ? app.reply_bytes
                                             : 0),
      answered_(reply_ > 0 || file_),
      paced_(app.rate_bps > 0 && (app.kind == AppKind::requests || file_)),
      outstanding_(app.kind == AppKind::ping_pong ? 1 : app.outstanding),
      creator_(creator),
      ethernet_(ethernet),
      context_(context),
      connection_(transport, header_for(sender, ip_source, ip_destination, sender_port)),
      udp_header_(header_for(sender, ip_source, ip_destination, sender_port)),
      stats_(context.stats, std::string(this->name())),
      app_sent_(stats_, "app_bytes_sent", "bytes",
                "bytes the application wrote (or sent in datagrams)"),
      app_received_(stats_, "app_bytes_received", "bytes", "bytes the application received"),
      requests_issued_(
          stats_, "requests_issued", "requests",
          "messages (requests, replies, ping-pong messages) the application began to write"),
      completed_(stats_, "requests_completed", "requests",
                 "receiving end: messages fully received; sending end of requests with replies "
                 "and ping-pong: answers fully received"),
      frames_out_(stats_, "frames_sent", "frames", "frames the stack handed down"),
      frames_in_(stats_, "frames_received", "frames", "frames the stack was given"),
      udp_sent_(stats_, "udp_datagrams_sent", "datagrams", "UDP datagrams sent"),
      udp_received_(stats_, "udp_datagrams_received", "datagrams",
                    "UDP datagrams received whole (all fragments)"),
      udp_fragments_lost_(stats_, "udp_incomplete", "datagrams",
                          "UDP datagrams abandoned with fragments missing"),
      udp_buffer_drops_(stats_, "udp_receive_buffer_drops", "datagrams",
                        "UDP datagrams dropped whole because the socket's receive buffer was "
                        "full (transport.udp_receive_buffer_bytes; Linux: Udp InErrors)"),
      round_trip_(stats_, "round_trip",
                  "request written to its answer received (requests with replies, ping-pong)") {
  udp_header_.protocol = kProtocolUdp;
  declare_formulas();
  SC_METHOD(timer_process);
  sensitive << timer_;
  dont_initialize();
}

void HostStack::declare_formulas() {
  stats_.rate("receive_throughput", "bit/s", "application bytes received, per second",
              bits_per_second(app_received_));
  stats_.rate("send_throughput", "bit/s",
              "application bytes the peer acknowledged (udp: sent), per second",
              bits_per_second([this] {
                return udp_ ? static_cast<double>(app_sent_.value())
                            : static_cast<double>(connection_.counts().bytes_acknowledged);
              }));
  stats_.rate("requests_per_second", "1/s", "requests_completed per second",
              per_second(completed_));
  auto count = [this](const char* name, const char* unit, const char* doc,
                      std::uint64_t Connection::Counts::*field) {
    stats_.total(name, unit, doc, value_of([this, field] {
                   return static_cast<double>(connection_.counts().*field);
                 }));
  };
  if (!udp_) {
    count("segments_sent", "segments", "data segments sent the first time",
          &Connection::Counts::segments_sent);
    count("segments_retransmitted", "segments",
          "data segments sent again (a resent hole, or go-back-N)",
          &Connection::Counts::retransmitted);
    count("acks_sent", "segments", "pure ACKs sent (incl. window updates)",
          &Connection::Counts::acks_sent);
    count("segments_discarded", "segments", "received out of order or twice, discarded",
          &Connection::Counts::discarded);
    count("timeouts", "timeouts", "retransmission timeouts", &Connection::Counts::timeouts);
    count("fast_retransmits", "events",
          "losses found by duplicate ACKs (a fast retransmit, or go-back-N)",
          &Connection::Counts::fast_retransmits);
  } else {
    stats_.total("udp_datagrams_lost", "datagrams",
                 "receiving end: datagrams numbered up to the last one seen but not received",
                 value_of([this] {
                   return sender_ ? 0.0
                                  : static_cast<double>(highest_datagram_ + 1) -
                                        static_cast<double>(udp_received_.value());
                 }));
  }
  if (file_) {
    // Record bytes moved by completed requests (at the client: answered; at the server: served).
    const double record_bits = 8.0 * static_cast<double>(app_.request_bytes);
    stats_.total("file_reads", "requests", "file requests that read a record, done",
                 value_of(file_reads_));
    stats_.total("file_writes", "requests", "file requests that wrote a record, done",
                 value_of(file_writes_));
    stats_.rate(
        "read_throughput", "bit/s", "record bits read per second (requests done)",
        per_second([this, record_bits] { return record_bits * static_cast<double>(file_reads_); }));
    stats_.rate("write_throughput", "bit/s", "record bits written per second (requests done)",
                per_second([this, record_bits] {
                  return record_bits * static_cast<double>(file_writes_);
                }));
  }
}

std::optional<AppCall> HostStack::poll(Picoseconds now) {
  const Picoseconds start = app_.start_ns * 1000;
  if (now < start) {
    if (timer_at_ > start) arm_timer(start, now);
    return std::nullopt;
  }
  if (udp_) {
    if (!sender_) {
      if (datagrams_done_ > 0 && !report_ring_full(now)) return AppCall{AppCall::complete, 0, true};
      return std::nullopt;
    }
    if (stopped(now) || report_ring_full(now)) return std::nullopt;
    std::int64_t queued = 0;
    for (const auto& p : out_) queued += static_cast<std::int64_t>(p.payload);
    if (queued >= transport_.socket_bytes) return std::nullopt;  // the runner wakes us as it takes
    if (now < next_datagram_ps_) {
      if (timer_at_ > next_datagram_ps_) arm_timer(next_datagram_ps_, now);
      return std::nullopt;
    }
    return AppCall{AppCall::datagram, app_.request_bytes, true};
  }

  // Take in what has arrived, message by message; a message complete is a receive call to make.
  if ((!sender_ || answered_) && completions_pending_ == 0) {
    while (connection_.readable() > 0) {
      if (read_left_ == 0) read_left_ = in_size(read_++);
      const std::int64_t n = std::min(connection_.readable(), read_left_);
      connection_.read(n, now);
      read_left_ -= n;
      app_received_ += static_cast<std::uint64_t>(n);
      if (read_left_ == 0) {
        ++completions_pending_;
        break;
      }
    }
    after_change(now, false);
  }
  if (completions_pending_ > 0) return AppCall{AppCall::complete, 0, true};
  // Write: the sender its requests, the receiver the replies it owes.
  std::int64_t size = 0;
  if (write_left_ == 0) {
    if (sender_ && (!answered_ || in_flight_ < outstanding_) && !stopped(now)) {
      const Picoseconds at = next_request_ps();
      if (now < at) {
        if (timer_at_ > at) arm_timer(at, now);
        return std::nullopt;
      }
      size = out_size(written_);
    }
    if (!sender_ && replies_owed_ > 0) size = out_size(written_);
    if (size == 0) return std::nullopt;
  }
  const std::int64_t left = write_left_ > 0 ? write_left_ : size;
  const std::int64_t chunk = std::min(left, connection_.send_space());
  if (chunk < std::min(left, connection_.mss())) return std::nullopt;  // woken by ACKs
  return AppCall{AppCall::write, chunk, write_left_ == 0};
}

void HostStack::perform(const AppCall& call, Picoseconds now) {
  switch (call.kind) {
    case AppCall::complete:
      if (udp_) {
        --datagrams_done_;
        take_report_slot(now);
        if (!queued_charges_.empty()) {
          queued_charge_ -= queued_charges_.front();
          queued_charges_.pop_front();
        }
        ++completed_;
        break;
      }
      --completions_pending_;
      ++completed_;
      if (sender_ && answered_) {
        --in_flight_;
        round_trip_.record(now - issued_.front());
        issued_.pop_front();
      } else if (answered_) {
        ++replies_owed_;
      }
      if (file_) count_file_request(done_);
      ++done_;
      break;
    case AppCall::write: {
      if (call.new_request) {
        write_left_ = out_size(written_++);
        ++requests_issued_;
        if (sender_ && answered_) {
          ++in_flight_;
          issued_.push_back(now);
        }
        if (!sender_) --replies_owed_;
      }
      write_left_ -= call.bytes;
      app_sent_ += static_cast<std::uint64_t>(call.bytes);
      connection_.write(call.bytes, now);
      break;
    }
    case AppCall::datagram:
      take_report_slot(now);
      send_datagram(now);
      break;
  }
  after_change(now, false);
}

bool HostStack::is_read(std::int64_t k) const {
  const double share = app_.read_share;
  return std::floor(static_cast<double>(k + 1) * share) >
         std::floor(static_cast<double>(k) * share);
}

std::int64_t HostStack::out_size(std::int64_t k) const {
  if (file_) {
    // The client's request k; the server's answer to it.
    const bool small = is_read(k) == sender_;
    return small ? app_.control_bytes : app_.request_bytes + app_.control_bytes;
  }
  return sender_ ? app_.request_bytes : reply_;
}

std::int64_t HostStack::in_size(std::int64_t k) const {
  if (file_) {
    const bool small = is_read(k) != sender_;
    return small ? app_.control_bytes : app_.request_bytes + app_.control_bytes;
  }
  return sender_ ? reply_ : app_.request_bytes;
}

Picoseconds HostStack::next_request_ps() const {
  if (!paced_) return 0;
  const double interval_ps = 8.0 * static_cast<double>(app_.request_bytes) / app_.rate_bps * 1e12;
  return app_.start_ns * 1000 +
         static_cast<Picoseconds>(std::llround(interval_ps * static_cast<double>(written_)));
}

void HostStack::count_file_request(std::int64_t k) {
  if (is_read(k))
    ++file_reads_;
  else
    ++file_writes_;
}

void HostStack::send_datagram(Picoseconds now) {
  const std::int64_t total = app_.request_bytes + static_cast<std::int64_t>(kUdpHeaderBytes);
  const std::int64_t per_fragment =
      (transport_.mtu - static_cast<std::int64_t>(kIpv4HeaderBytes)) / 8 * 8;
  IpPacket p = udp_header_;
  p.identification = static_cast<std::uint16_t>(datagrams_sent_);
  p.udp_length = static_cast<std::uint16_t>(total);
  for (std::int64_t offset = 0; offset < total; offset += per_fragment) {
    const std::int64_t data = std::min(per_fragment, total - offset);
    p.fragment_offset_8 = static_cast<std::uint16_t>(offset / 8);
    p.more_fragments = offset + data < total;
    p.payload = static_cast<std::size_t>(
        offset == 0 ? data - static_cast<std::int64_t>(kUdpHeaderBytes) : data);
    out_.push_back(p);
  }
  ++datagrams_sent_;
  ++udp_sent_;
  app_sent_ += static_cast<std::uint64_t>(app_.request_bytes);
  report_datagram(EventKind::datagram_sent, now, app_.request_bytes);
  if (app_.rate_bps > 0) {
    const double interval_ps = 8.0 * static_cast<double>(app_.request_bytes) / app_.rate_bps * 1e12;
    next_datagram_ps_ =
        app_.start_ns * 1000 +
        static_cast<Picoseconds>(std::llround(interval_ps * static_cast<double>(datagrams_sent_)));
  }
}

void HostStack::report_datagram(EventKind kind, Picoseconds at, std::int64_t bytes,
                                std::string_view detail) const {
  if (!events.connected()) return;
  Event e{kind, at};
  e.bytes = bytes;
  e.detail = detail;
  events(e);
}

bool HostStack::report_ring_full(Picoseconds now) {
  if (app_.report_ring_slots <= 0) return false;
  const Picoseconds tick = transport_.tick_us * 1'000'000;
  const std::int64_t k = now / tick;
  if (k != ring_tick_) {  // the reporter has emptied it at the tick
    ring_tick_ = k;
    ring_used_ = 0;
  }
  if (ring_used_ < app_.report_ring_slots - 1) return false;
  const Picoseconds next = (k + 1) * tick;
  if (timer_at_ > next) arm_timer(next, now);
  return true;
}

void HostStack::take_report_slot(Picoseconds now) {
  if (app_.report_ring_slots <= 0) return;
  report_ring_full(now);  // brings the ring to this tick
  ++ring_used_;
}

void HostStack::udp_receive(const IpPacket& p, Picoseconds now) {
  // Datagram numbers (the IP identification) unwrapped near the highest seen.
  const std::int64_t near = std::max<std::int64_t>(highest_datagram_, 0);
  const std::int64_t number = near + static_cast<std::int16_t>(static_cast<std::uint16_t>(
                                         p.identification - static_cast<std::uint16_t>(near)));
  Reassembly& r = reassembly_[number];
  r.bytes += static_cast<std::int64_t>(p.payload) + (p.fragment_offset_8 == 0 ? 8 : 0);
  r.charge += transport_.udp_truesize_bytes > 0 ? transport_.udp_truesize_bytes
                                                : static_cast<std::int64_t>(ip_packet_bytes(p));
  if (p.fragment_offset_8 == 0) r.total = p.udp_length;
  highest_datagram_ = std::max(highest_datagram_, number);
  if (r.total >= 0 && r.bytes >= r.total) {
    const std::int64_t payload = r.total - static_cast<std::int64_t>(kUdpHeaderBytes);
    const std::int64_t limit = transport_.udp_receive_buffer_bytes;
    if (limit > 0 && queued_charge_ + r.charge >= limit) {
      ++udp_buffer_drops_;
      report_datagram(EventKind::datagram_dropped, now, payload, "receive_buffer_full");
    } else {
      ++udp_received_;
      ++datagrams_done_;
      if (limit > 0) {
        queued_charges_.push_back(r.charge);
        queued_charge_ += r.charge;
      }
      app_received_ += static_cast<std::uint64_t>(payload);
      report_datagram(EventKind::datagram_received, now, payload);
    }
    reassembly_.erase(number);
  }
  // Datagrams far behind the newest will not complete: a fragment was lost.
  while (!reassembly_.empty() && reassembly_.begin()->first < highest_datagram_ - 1024) {
    const Reassembly lost = reassembly_.begin()->second;
    reassembly_.erase(reassembly_.begin());
    ++udp_fragments_lost_;
    report_datagram(EventKind::datagram_dropped, now,
                    lost.total < 0 ? -1 : lost.total - static_cast<std::int64_t>(kUdpHeaderBytes),
                    "fragments_missing");
  }
}

void HostStack::receive(const Frame& frame, Picoseconds now) {
  ++frames_in_;
  const auto p = parse_ip_frame(frame);
  if (!p) return;
  if (p->protocol == kProtocolUdp) {
    if (udp_) udp_receive(*p, now);
  } else if (!udp_) {
    const std::uint64_t discarded = connection_.counts().discarded;
    events.emit(EventKind::segment_received, now, &frame);
    connection_.receive(*p, now);
    if (events.connected() && connection_.counts().discarded != discarded)
      events.emit(EventKind::segment_dropped, now, &frame, "out_of_order");
  }
  after_change(now, true);
}

bool HostStack::next_is_pure_ack() const {
  return !out_.empty() && out_.front().protocol != kProtocolUdp && out_.front().payload == 0;
}

FramePtr HostStack::take_frame() {
  return take_frame(ethernet_.source);
}

FramePtr HostStack::take_frame(const MacAddress& source) {
  FramePtr frame = context_.frames.acquire();
  frame->flow = kHostFlow;
  frame->id = creator_ * kFrameIdCreator + ++frame_sequence_;
  FrameHeader header = ethernet_;
  header.source = source;
  build_ip_frame(*frame, header, out_.front());
  frame->queued_ps = now_ps();
  if (events.connected() && out_.front().protocol != kProtocolUdp)
    events.emit(EventKind::segment_sent, frame->queued_ps, frame.get(),
                out_.front().payload == 0 ? "ack" : "data");
  out_.pop_front();
  ++frames_out_;
  return frame;
}

void HostStack::after_change(Picoseconds now, bool wake) {
  for (auto& p : connection_.take_output()) out_.push_back(p);
  Picoseconds deadline = connection_.next_deadline();
  if (udp_ && sender_ && app_.rate_bps > 0 && next_datagram_ps_ > now && !stopped(now))
    deadline = std::min(deadline, next_datagram_ps_);
  if (paced_ && sender_ && write_left_ == 0 && !stopped(now)) {
    const Picoseconds at = next_request_ps();
    if (at > now && (!answered_ || in_flight_ < outstanding_)) deadline = std::min(deadline, at);
  }
  if (now < app_.start_ns * 1000) deadline = std::min(deadline, app_.start_ns * 1000);
  arm_timer(deadline, now);
  if (wake) wake_.notify(sc_core::SC_ZERO_TIME);
}

void HostStack::arm_timer(Picoseconds at, Picoseconds now) {
  if (at == timer_at_) return;
  timer_at_ = at;
  timer_.cancel();
  if (at < kForeverPs) timer_.notify(to_sc_time(std::max<Picoseconds>(at - now, 0)));
}

void HostStack::timer_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  timer_at_ = kForeverPs;
  if (connection_.next_deadline() <= now) connection_.on_timer(now);
  after_change(now, true);
}

}  // namespace gbesim
