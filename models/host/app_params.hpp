#pragma once
// Parameters of a host's protocol stack (the windowed transport) and of its application.

#include <cstdint>
#include <string>

#include "models/common/param_table.hpp"

namespace gbesim {

// fixed window, or aimd (halve on loss, +1 MSS per RTT).
enum class Congestion { fixed, aimd };
const ChoiceList<Congestion>& choice_list(Congestion);
// How a loss is recovered (docs/host.md, "Transport"): go_back_n resends everything from the first
// unacknowledged byte and the receiver discards out-of-order data; newreno is TCP's fast
// retransmit and fast recovery with NewReno's partial ACKs (RFC 5681, RFC 6582) and a receiver
// that keeps out-of-order data (RFC 1122 4.2.2.20).
enum class Recovery { go_back_n, newreno };
const ChoiceList<Recovery>& choice_list(Recovery);

struct TransportParams {
  std::int64_t mtu = 1500;                // IP MTU; frames are MTU + 18 bytes, MSS = MTU - 40
  std::int64_t window_bytes = 65535;      // fixed window = receive buffer (scaled above 65535)
  std::int64_t socket_bytes = 65536;      // send buffer: written and not yet acknowledged
  std::int64_t ack_every = 2;             // delayed ACK: one per this many in-order segments
  std::int64_t delayed_ack_us = 200'000;  // ... or this long after the first unacknowledged one
  std::int64_t rto_us = 10'000;       // retransmission timeout (go-back-N), also the probe timer
  std::int64_t dupack_threshold = 3;  // duplicate ACKs that trigger a go-back-N resend
  bool nagle = true;                  // hold a short segment while data is unacknowledged
  Congestion congestion = Congestion::fixed;
  Recovery recovery = Recovery::go_back_n;
  // Not keys of the transport: the OS of the host the end runs on (hosts.<h>.driver), set per end.
  std::int64_t udp_receive_buffer_bytes = 0;  // UDP socket receive buffer; 0: no limit
  std::int64_t udp_truesize_bytes = 0;        // a received fragment's charge on it; 0: its IP bytes
  std::int64_t tick_us = 10'000;              // the OS timer tick
};

const ParamTable<TransportParams>& transport_param_table();

// none: no application (the key is left out).
enum class AppKind { none, bulk, requests, ping_pong, udp, file };
const ChoiceList<AppKind>& choice_list(AppKind);
// This host's data direction: receive (the peer sends) or send.
enum class AppDirection { receive, send };
const ChoiceList<AppDirection>& choice_list(AppDirection);

// The network protocol an application's traffic stands for, as a NIC team's load balancing sees
// it (the frames are the windowed transport's IPv4 either way): ipx for NetWare's NCP.
enum class AppNetwork { ip, ipx };
const ChoiceList<AppNetwork>& choice_list(AppNetwork);

// The application a host runs against one peer station (an ideal endpoint, or the application's
// other end on the host whose NIC serves that station).
struct AppParams {
  AppKind kind = AppKind::none;
  std::string peer;  // the station at the other end
  AppDirection direction = AppDirection::receive;
  std::int64_t request_bytes = 65536;  // bulk: write/read call size; requests: request size;
                                       // ping_pong: message size; udp: datagram payload size
  std::int64_t reply_bytes = 0;        // requests: answer per request (0: none, a pure stream)
  std::int64_t outstanding = 1;        // requests with reply_bytes > 0: requests in flight
  double rate_bps = 0;      // udp: payload bit rate (iperf -b); requests, file: offered request
                            // (record) bits per second; 0: as fast as possible
  double read_share = 0.5;  // file: share of the requests that read a record
  std::int64_t control_bytes = 64;  // file: a read request, a write's acknowledgement (bytes)
  std::int64_t start_ns = 0;        // nothing is sent before this
  std::int64_t stop_ns = 0;         // no new request, write or datagram from this time; 0: never
  AppNetwork network = AppNetwork::ip;
  std::int64_t report_ring_slots = 0;  // udp: iperf's report ring (0: no reporter)
};

const ParamTable<AppParams>& app_param_table();

}  // namespace gbesim
