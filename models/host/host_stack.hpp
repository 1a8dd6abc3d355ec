#pragma once
// A host's protocol stack and application (docs/host.md): the windowed transport or UDP, and one
// application against one peer -- a bulk stream (iperf-like), IOmeter-like requests, a netPIPE-like
// ping-pong, constant-rate UDP (iperf -u -l L -b B) or a file server's client reading and writing
// records. Every application is one of two ends:
// the data sender ("send") or the data receiver ("receive"); a ping-pong's "send" end starts.
//
// The stack only decides; whoever runs it supplies the time. A host's CPU (NicDriver) asks
// poll() for the application's next call, spends its cost, then perform()s it; an ideal endpoint
// (IdealEndpoint) performs every call at once. Received frames go in through receive(); frames to
// send come out of take_frame(); protocol timers (delayed ACK, retransmission, pacing) run on the
// stack's own SystemC process, and wake() fires whenever there is new work for the runner.
//
// What a call costs the CPU (CpuParams, charged by NicDriver): per_request_ns for each
// send/receive call the application makes (a request started or completed, a datagram),
// per_byte_ns for the bytes a send call copies in; per_sent_packet_ns for each frame the driver
// posts, per_packet_ns + per_byte_ns x frame bytes for each it takes in the interrupt handler
// (the copy to the application), and per_checksum_byte_ns per frame byte, sent or received,
// unless the NIC offloads checksums.
// One HostStack is one connection; a host running several holds one each (StackSet).
// A UDP receiving end queues whole datagrams for the application's receive calls; with
// transport.udp_receive_buffer_bytes it drops one whose charge (its fragments' true sizes) would
// take the queue's to the buffer's size or beyond, as Linux's sock_queue_rcv_skb does. With
// app.report_ring_slots a UDP end is iperf 2.0.2: one report per datagram sent or read goes into a
// ring its reporter empties at each OS tick; while the ring is full the end makes no call until
// the next tick (so at most slots - 1 datagrams per tick, 69,900/s at 700 slots and HZ 100).
// Does not model: ARP or ICMP (addresses are fixed), or IP reassembly timeouts (an incomplete
// datagram is abandoned once it is 1024 datagrams behind the newest; reassembly takes no buffer).

#include <cstdint>
#include <deque>
#include <map>
#include <optional>

#include <systemc>

#include "models/common/frame.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/app_params.hpp"
#include "models/host/ip_frame.hpp"
#include "models/host/transport.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

// The data receiver's (server's) port, iperf's; a data sender's (client's) port is kSenderPort
// plus the application's number in the scenario, so every connection has its own port pair.
inline constexpr std::uint16_t kDataPort = 5001;
inline constexpr std::uint16_t kSenderPort = 49152;

// Frame id creators of host stacks (see kFrameIdCreator): this + the station number for the
// first application end at a station; kMoreEndsCreatorBase + the end's number in the scenario for
// any further end at the same station.
inline constexpr std::uint64_t kHostCreatorBase = 0x10000;
inline constexpr std::uint64_t kMoreEndsCreatorBase = 2'000'000;

struct AppCall {
  enum Kind { write, complete, datagram } kind = write;
  std::int64_t bytes = 0;    // write/datagram: bytes copied in
  bool new_request = false;  // a send/receive call of its own (per_request_ns)
};

class HostStack : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HostStack);
  // sender: this end sends the data (for ping_pong: starts). ethernet/ip: the headers of the
  // frames this end sends (its own and the peer's addresses). creator: makes frame ids unique
  // (see kFrameIdCreator).
  // sender_port: the data sender's (or client's) TCP/UDP port; the receiver's is kDataPort.
  HostStack(sc_core::sc_module_name name, const AppParams& app, const TransportParams& transport,
            bool sender, const FrameHeader& ethernet, std::uint32_t ip_source,
            std::uint32_t ip_destination, std::uint64_t creator, SimContext& context,
            std::uint16_t sender_port = kSenderPort);

  // The simulation's context (the activation count of the host's processes).
  SimContext& context() { return context_; }

  // The runner's side.
  std::optional<AppCall> poll(Picoseconds now);
  void perform(const AppCall& call, Picoseconds now);
  void receive(const Frame& frame, Picoseconds now);
  bool has_frames() const { return !out_.empty(); }
  FramePtr take_frame();
  // The same, sent from another of the host's addresses (a teamed NIC's).
  FramePtr take_frame(const MacAddress& source);
  // What identifies this end's packets among a host's: the peer's address and port, our port.
  std::uint32_t peer_ip() const { return udp_header_.destination; }
  std::uint16_t peer_port() const { return udp_header_.destination_port; }
  std::uint16_t own_port() const { return udp_header_.source_port; }
  // The next frame take_frame() gives is a pure TCP ACK (no payload).
  bool next_is_pure_ack() const;
  sc_core::sc_event& wake() { return wake_; }
  // What a stack reports.
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;

  std::int64_t mss() const { return connection_.mss(); }
  std::uint64_t requests_completed() const { return completed_.value(); }
  std::uint64_t app_bytes_received() const { return app_received_.value(); }
  // Bytes the peer has acknowledged (udp: sent).
  std::uint64_t app_bytes_acknowledged() const {
    return udp_ ? app_sent_.value()
                : static_cast<std::uint64_t>(connection_.counts().bytes_acknowledged);
  }

 private:
  // Collects the transport's segments and re-arms the timer; wake: tell the runner (not when
  // the runner itself is calling).
  void after_change(Picoseconds now, bool wake);
  void arm_timer(Picoseconds at, Picoseconds now);  // kForeverPs: stop it
  void timer_process();
  // The statistics computed when results are written (rates, the connection's counts).
  void declare_formulas();
  void send_datagram(Picoseconds now);
  // The size of the k-th message (0-based) this end writes and reads; a file request is a read
  // when is_read(k).
  std::int64_t out_size(std::int64_t k) const;
  std::int64_t in_size(std::int64_t k) const;
  bool is_read(std::int64_t k) const;
  bool stopped(Picoseconds now) const { return app_.stop_ns > 0 && now >= app_.stop_ns * 1000; }
  // The sender's next request (paced by rate_bps) may not start before this.
  Picoseconds next_request_ps() const;
  void count_file_request(std::int64_t k);  // request k is done (served, or answered)
  void udp_receive(const IpPacket& p, Picoseconds now);
  // iperf's report ring (app.report_ring_slots): full until the next tick (the timer is armed
  // for it); a report taken (one per datagram sent or read).
  bool report_ring_full(Picoseconds now);
  void take_report_slot(Picoseconds now);
  void report_datagram(EventKind kind, Picoseconds at, std::int64_t bytes,
                       std::string_view detail = {}) const;

  const AppParams app_;
  const TransportParams transport_;
  const bool sender_;
  const bool udp_;
  const bool file_;
  const std::int64_t reply_;        // bytes answering each request (0: none)
  const bool answered_;             // requests are answered (ping-pong, replies, file)
  const bool paced_;                // requests or file requests at rate_bps
  const std::int64_t outstanding_;  // requests in flight at most, when answered
  const std::uint64_t creator_;
  const FrameHeader ethernet_;
  SimContext& context_;
  Connection connection_;
  IpPacket udp_header_;
  std::deque<IpPacket> out_;
  std::uint64_t frame_sequence_ = 0;
  sc_core::sc_event timer_;
  sc_core::sc_event wake_;
  Picoseconds timer_at_ = kForeverPs;

  // Application state. Streams: the request being written (bytes left) and being read.
  std::int64_t write_left_ = 0;           // of the current message being written
  std::int64_t read_left_ = 0;            // of the message being received
  std::int64_t replies_owed_ = 0;         // requests received and not yet answered (receiver end)
  std::int64_t in_flight_ = 0;            // requests written and not yet answered (sender end)
  std::int64_t completions_pending_ = 0;  // messages received, receive call not yet made
  std::deque<Picoseconds> issued_;        // start times of requests in flight (for round trips)
  std::int64_t written_ = 0;              // messages begun writing
  std::int64_t read_ = 0;                 // messages begun reading
  std::int64_t done_ = 0;                 // messages completed (receive calls made)
  std::uint64_t file_reads_ = 0, file_writes_ = 0;  // file requests done
  // UDP.
  std::uint64_t datagrams_sent_ = 0;
  Picoseconds next_datagram_ps_ = 0;
  struct Reassembly {
    std::int64_t bytes = 0;
    std::int64_t total = -1;
    std::int64_t charge = 0;  // the fragments' true sizes (transport.udp_truesize_bytes)
  };
  std::map<std::uint16_t, Reassembly> reassembly_;
  std::int64_t datagrams_done_ = 0;          // complete datagrams waiting for their receive call
  std::deque<std::int64_t> queued_charges_;  // theirs, oldest first (with a receive buffer)
  std::int64_t queued_charge_ = 0;           // their sum
  std::int64_t highest_datagram_ = -1;
  std::int64_t ring_tick_ = -1;  // the tick the ring's reports were made in
  std::int64_t ring_used_ = 0;

  StatGroup stats_;
  Counter app_sent_, app_received_, requests_issued_, completed_, frames_out_, frames_in_,
      udp_sent_, udp_received_, udp_fragments_lost_, udp_buffer_drops_;
  Distribution round_trip_;
};

}  // namespace gbesim
