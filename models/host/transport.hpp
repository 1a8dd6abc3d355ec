#pragma once
// gbesim's simple windowed reliable transport: one byte stream each way between two hosts,
// carried in TCP-format segments (models/host/ip_frame.hpp). What it does:
// - MSS from the MTU (MSS = MTU - 40); a fixed send window (at most 65535 bytes, no scaling),
//   further limited by the receiver's advertised free buffer;
// - segments of a full MSS, or the rest of what the application wrote when it is less: with
//   Nagle's rule (RFC 896, the default) only when nothing is unacknowledged, without it (as
//   TCP_NODELAY) at once; never a short segment because the window is nearly shut (sender
//   silly-window avoidance) unless nothing is in flight;
// - cumulative ACKs, delayed: one ACK per `ack_every` in-order data segments (2 = RFC 1122's
//   every second full segment), or when the delayed-ACK timer runs out; an out-of-order or
//   duplicate segment is discarded and ACKed at once; ACKs ride on data going the other way;
// - loss recovery (`recovery`): go_back_n (the default): after `dupack_threshold` duplicate ACKs
//   or a retransmission timeout (fixed, no back-off) the sender resends from the first
//   unacknowledged byte, and the receiver discards out-of-order data; newreno: the receiver keeps
//   out-of-order data within its window and ACKs at once when a hole fills, the sender resends
//   the one missing segment at the third duplicate ACK and then one per partial ACK until all it
//   had sent is acknowledged (RFC 6582), sending new data meanwhile as the window allows; a
//   timeout goes back to the first unacknowledged byte;
// - congestion: none (`fixed`, the default: the window is all there is), or `aimd`: with
//   go_back_n a congestion window halved at a duplicate-ACK loss, one MSS after a timeout, grown
//   by one MSS per window acknowledged (no slow start or fast recovery); with newreno, RFC 5681's:
//   slow start below ssthresh, ssthresh half the data in flight at a loss, the window inflated by
//   one MSS per duplicate ACK during fast recovery and deflated to ssthresh when it ends;
// - window updates when the application frees a useful amount of buffer; a zero window is
//   probed on the retransmission timer.
// What it is not: a whole TCP. Does not model: the handshake or teardown (the stream exists from
// time 0, sequence numbers start at 0), SACK, timestamps, RTT estimation or RTO back-off, or
// 1-byte window probes (a probe is an empty segment with PSH).
//
// Pure logic: the owner feeds segments and timer expiries in, takes the segments it must send
// out (take_output) and keeps a timer running to next_deadline().

#include <cstdint>
#include <map>
#include <vector>

#include "models/common/time.hpp"
#include "models/host/app_params.hpp"
#include "models/host/ip_frame.hpp"

namespace gbesim {

int window_shift_for(std::int64_t window_bytes);

class Connection {
 public:
  // header: addresses and ports of the segments this end sends.
  Connection(const TransportParams& params, const IpPacket& header);

  std::int64_t mss() const { return mss_; }
  // RFC 1323 window scale: the smallest shift that fits window_bytes in the header's 16 bits
  // (both ends use the same parameters, so both agree on it).
  int window_shift() const { return shift_; }
  // Application side. Room in the send buffer (written, not yet acknowledged, at most
  // socket_bytes); write appends n bytes (n <= send_space()) and sends what the window allows.
  std::int64_t send_space() const { return params_.socket_bytes - (write_end_ - snd_una_); }
  void write(std::int64_t n, Picoseconds now);
  // Bytes received in order and not yet read; read consumes n <= readable().
  std::int64_t readable() const { return rcv_nxt_ - read_; }
  void read(std::int64_t n, Picoseconds now);
  // Everything written has been acknowledged.
  bool all_acknowledged() const { return snd_una_ == write_end_; }

  // Network side.
  void receive(const IpPacket& segment, Picoseconds now);
  void on_timer(Picoseconds now);
  Picoseconds next_deadline() const;  // kForeverPs when no timer runs
  std::vector<IpPacket> take_output();

  struct Counts {
    std::uint64_t segments_sent = 0;  // with data, first transmissions
    std::uint64_t retransmitted = 0;  // data segments sent again
    std::uint64_t acks_sent = 0;      // pure ACKs (incl. window updates and probes' answers)
    std::uint64_t segments_received = 0;
    std::uint64_t discarded = 0;  // out of order or duplicate data
    std::uint64_t timeouts = 0;
    std::uint64_t fast_retransmits = 0;
    std::uint64_t probes = 0;
    std::int64_t smallest_cwnd = 0;  // aimd: the lowest the congestion window went
    std::int64_t bytes_acknowledged = 0;
    std::int64_t bytes_received = 0;  // in order
  };
  const Counts& counts() const { return counts_; }

 private:
  void transmit(Picoseconds now);
  void send_ack();
  // Receive side: data at `sequence` (in or out of order); true: ACK it at once.
  bool take_data(std::int64_t sequence, std::int64_t bytes, Picoseconds now);
  // Send side: an ACK that moves the left edge to `ack`, and a duplicate ACK.
  void acknowledged(std::int64_t ack, Picoseconds now);
  void duplicate_ack(Picoseconds now);
  void resend_one(Picoseconds now);  // the segment at the first unacknowledged byte
  std::int64_t in_flight() const { return snd_max_ - snd_una_; }
  bool newreno() const { return params_.recovery == Recovery::newreno; }
  void emit(std::int64_t sequence, std::int64_t bytes, std::uint8_t flags);
  std::uint16_t advertised_window() const;
  static std::int64_t unwrap(std::uint32_t value, std::int64_t near);

  const TransportParams params_;
  const std::int64_t mss_;
  const int shift_;
  IpPacket header_;
  std::vector<IpPacket> out_;
  // Send side (stream offsets).
  std::int64_t write_end_ = 0;
  std::int64_t snd_una_ = 0;
  std::int64_t snd_nxt_ = 0;
  std::int64_t snd_max_ = 0;
  std::int64_t peer_edge_;  // acknowledged + advertised window
  std::int64_t cwnd_;       // congestion window (aimd), else the window
  std::int64_t ssthresh_;   // newreno with aimd: slow start below it
  int dupacks_ = 0;
  bool recovering_ = false;  // newreno: in fast recovery until recover_ is acknowledged
  std::int64_t recover_ = 0;
  Picoseconds rto_at_ = kForeverPs;
  // Receive side.
  std::int64_t rcv_nxt_ = 0;
  std::int64_t read_ = 0;
  std::int64_t advertised_edge_;
  std::map<std::int64_t, std::int64_t> out_of_order_;  // newreno: start -> end, beyond rcv_nxt_
  std::int64_t unacked_segments_ = 0;
  Picoseconds ack_at_ = kForeverPs;
  Counts counts_;
};

}  // namespace gbesim
