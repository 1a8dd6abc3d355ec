#include "models/host/transport.hpp"

#include <algorithm>

namespace gbesim {

Connection::Connection(const TransportParams& params, const IpPacket& header)
    : params_(params),
      mss_(params.mtu - static_cast<std::int64_t>(kIpv4HeaderBytes + kTcpHeaderBytes)),
      shift_(window_shift_for(params.window_bytes)),
      header_(header),
      peer_edge_(params.window_bytes),
      cwnd_(params.window_bytes),
      ssthresh_(params.window_bytes),
      advertised_edge_(params.window_bytes) {
  header_.protocol = kProtocolTcp;
  counts_.smallest_cwnd = cwnd_;
}

int window_shift_for(std::int64_t window_bytes) {
  int shift = 0;
  while ((window_bytes >> shift) > 65535) ++shift;
  return shift;
}

std::int64_t Connection::unwrap(std::uint32_t value, std::int64_t near) {
  return near + static_cast<std::int32_t>(value - static_cast<std::uint32_t>(near));
}

std::uint16_t Connection::advertised_window() const {
  const std::int64_t free = params_.window_bytes - (rcv_nxt_ - read_);
  return static_cast<std::uint16_t>(std::clamp<std::int64_t>(free >> shift_, 0, 65535));
}

void Connection::emit(std::int64_t sequence, std::int64_t bytes, std::uint8_t flags) {
  IpPacket p = header_;
  p.sequence = static_cast<std::uint32_t>(sequence);
  p.acknowledgement = static_cast<std::uint32_t>(rcv_nxt_);
  p.flags = flags;
  p.window = advertised_window();
  p.payload = static_cast<std::size_t>(bytes);
  out_.push_back(p);
  // Every segment carries the cumulative ACK: nothing is owed any more.
  unacked_segments_ = 0;
  ack_at_ = kForeverPs;
  advertised_edge_ = rcv_nxt_ + (static_cast<std::int64_t>(p.window) << shift_);
}

void Connection::send_ack() {
  ++counts_.acks_sent;
  emit(snd_nxt_, 0, kTcpAck);
}

void Connection::write(std::int64_t n, Picoseconds now) {
  write_end_ += n;
  transmit(now);
}

void Connection::read(std::int64_t n, Picoseconds now) {
  read_ += n;
  // A window update only when the window last announced was small enough to hold the sender up
  // (under two segments or half the buffer) and it has since grown by a full segment or half the
  // buffer, whichever is less (receiver silly-window avoidance, RFC 1122 4.2.3.3); otherwise
  // the next ACK carries the new window.
  const std::int64_t small = std::min(params_.window_bytes / 2, 2 * mss_);
  const std::int64_t edge = rcv_nxt_ + (static_cast<std::int64_t>(advertised_window()) << shift_);
  if (advertised_edge_ - rcv_nxt_ < small &&
      edge - advertised_edge_ >= std::min(params_.window_bytes / 2, mss_))
    send_ack();
  (void)now;
}

void Connection::transmit(Picoseconds now) {
  while (true) {
    const std::int64_t edge =
        std::min(snd_una_ + std::min(params_.window_bytes, cwnd_), peer_edge_);
    const std::int64_t available = write_end_ - snd_nxt_;
    const std::int64_t room = edge - snd_nxt_;
    std::int64_t n = std::min({mss_, available, room});
    if (n <= 0) break;
    // A short segment only for the tail of what was written, or to keep something in flight;
    // with Nagle's rule, the tail too waits while anything is unacknowledged.
    if (n < mss_ && (n < available || params_.nagle) && snd_nxt_ > snd_una_) break;
    const bool retransmission = snd_nxt_ < snd_max_;
    if (retransmission) {
      n = std::min(n, snd_max_ - snd_nxt_);
      ++counts_.retransmitted;
    } else {
      ++counts_.segments_sent;
    }
    emit(snd_nxt_, n, n == available ? kTcpAck | kTcpPsh : kTcpAck);
    snd_nxt_ += n;
    snd_max_ = std::max(snd_max_, snd_nxt_);
    if (rto_at_ == kForeverPs) rto_at_ = now + params_.rto_us * kPsPerUs;
  }
  // Data waiting behind a shut window with nothing in flight: probe on the retransmission timer.
  if (write_end_ > snd_nxt_ && snd_una_ == snd_max_ && rto_at_ == kForeverPs)
    rto_at_ = now + params_.rto_us * kPsPerUs;
}

bool Connection::take_data(std::int64_t sequence, std::int64_t bytes, Picoseconds now) {
  const std::int64_t end = sequence + bytes;
  const bool fits = end <= read_ + params_.window_bytes;
  const bool in_order = newreno() ? sequence <= rcv_nxt_ && end > rcv_nxt_ : sequence == rcv_nxt_;
  if (in_order && fits) {
    const std::int64_t before = rcv_nxt_;
    rcv_nxt_ = end;
    // Data kept out of order that now follows on (newreno): a hole filled, ACKed at once.
    const bool filled = !out_of_order_.empty();
    while (!out_of_order_.empty() && out_of_order_.begin()->first <= rcv_nxt_) {
      rcv_nxt_ = std::max(rcv_nxt_, out_of_order_.begin()->second);
      out_of_order_.erase(out_of_order_.begin());
    }
    counts_.bytes_received += rcv_nxt_ - before;
    if (filled || ++unacked_segments_ >= params_.ack_every) return true;
    if (ack_at_ == kForeverPs) ack_at_ = now + params_.delayed_ack_us * kPsPerUs;
    return false;
  }
  if (newreno() && sequence > rcv_nxt_ && fits) {
    std::int64_t& kept = out_of_order_[sequence];
    kept = std::max(kept, end);
  } else {
    ++counts_.discarded;
  }
  return true;  // a duplicate ACK tells the sender what is missing
}

void Connection::resend_one(Picoseconds now) {
  const std::int64_t n = std::min(mss_, snd_max_ - snd_una_);
  if (n <= 0) return;
  ++counts_.retransmitted;
  emit(snd_una_, n, kTcpAck);
  rto_at_ = now + params_.rto_us * kPsPerUs;
}

void Connection::acknowledged(std::int64_t ack, Picoseconds now) {
  const std::int64_t acked = ack - snd_una_;
  counts_.bytes_acknowledged += acked;
  const bool aimd = params_.congestion == Congestion::aimd;
  snd_una_ = ack;
  snd_nxt_ = std::max(snd_nxt_, snd_una_);
  dupacks_ = 0;
  rto_at_ = snd_una_ < snd_max_ ? now + params_.rto_us * kPsPerUs : kForeverPs;
  if (recovering_ && ack < recover_) {  // a partial ACK: the next hole (RFC 6582)
    if (aimd) cwnd_ = std::max(cwnd_ - acked + mss_, mss_);
    resend_one(now);
    return;
  }
  if (recovering_) {  // everything sent before the loss is acknowledged
    recovering_ = false;
    if (aimd) cwnd_ = ssthresh_;
    return;
  }
  if (!aimd) return;
  if (newreno() && cwnd_ < ssthresh_) {  // slow start
    cwnd_ = std::min(params_.window_bytes, cwnd_ + std::min(acked, mss_));
    return;
  }
  // Congestion avoidance: one MSS more per window's worth acknowledged.
  cwnd_ = std::min(params_.window_bytes, cwnd_ + std::max<std::int64_t>(1, mss_ * acked / cwnd_));
}

void Connection::duplicate_ack(Picoseconds now) {
  const bool aimd = params_.congestion == Congestion::aimd;
  ++dupacks_;
  if (newreno() && recovering_) {
    if (aimd) cwnd_ += mss_;  // a segment has left the network
    return;
  }
  if (dupacks_ != params_.dupack_threshold) return;
  ++counts_.fast_retransmits;
  if (!newreno()) {
    if (aimd) cwnd_ = std::max(cwnd_ / 2, 2 * mss_);
    snd_nxt_ = snd_una_;  // go back N
  } else {
    recovering_ = true;
    recover_ = snd_max_;
    if (aimd) {
      ssthresh_ = std::max(in_flight() / 2, 2 * mss_);
      cwnd_ = ssthresh_ + params_.dupack_threshold * mss_;
    }
    resend_one(now);
  }
  counts_.smallest_cwnd = std::min(counts_.smallest_cwnd, cwnd_);
}

void Connection::receive(const IpPacket& p, Picoseconds now) {
  ++counts_.segments_received;
  const std::size_t before = out_.size();
  bool ack_now = false;
  if (p.payload > 0) {
    ack_now = take_data(unwrap(p.sequence, rcv_nxt_), static_cast<std::int64_t>(p.payload), now);
  } else if ((p.flags & kTcpPsh) != 0) {
    ack_now = true;  // a window probe
  }
  if ((p.flags & kTcpAck) != 0) {
    const std::int64_t ack = unwrap(p.acknowledgement, snd_una_);
    const std::int64_t edge = ack + (static_cast<std::int64_t>(p.window) << shift_);
    if (ack > snd_una_ && ack <= snd_max_) {
      acknowledged(ack, now);
    } else if (ack == snd_una_ && p.payload == 0 && snd_max_ > snd_una_ && edge == peer_edge_) {
      duplicate_ack(now);
    }
    if (ack >= snd_una_) peer_edge_ = edge;
  }
  transmit(now);
  if (ack_now && out_.size() == before) send_ack();  // else the data just sent carries the ACK
}

Picoseconds Connection::next_deadline() const {
  return std::min(rto_at_, ack_at_);
}

void Connection::on_timer(Picoseconds now) {
  if (ack_at_ <= now) send_ack();
  if (rto_at_ <= now) {
    rto_at_ = kForeverPs;
    if (snd_una_ < snd_max_) {
      ++counts_.timeouts;
      snd_nxt_ = snd_una_;  // go back N
      recovering_ = false;
      if (params_.congestion == Congestion::aimd) {
        if (newreno()) ssthresh_ = std::max(in_flight() / 2, 2 * mss_);
        cwnd_ = mss_;
        counts_.smallest_cwnd = std::min(counts_.smallest_cwnd, cwnd_);
      }
    } else if (write_end_ > snd_nxt_) {
      ++counts_.probes;
      emit(snd_nxt_, 0, kTcpAck | kTcpPsh);
    }
    transmit(now);
    if (rto_at_ == kForeverPs && write_end_ > snd_una_) rto_at_ = now + params_.rto_us * kPsPerUs;
  }
}

std::vector<IpPacket> Connection::take_output() {
  std::vector<IpPacket> out;
  out.swap(out_);
  return out;
}

}  // namespace gbesim
