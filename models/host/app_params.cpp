#include "models/host/app_params.hpp"

namespace gbesim {

const ParamTable<TransportParams>& transport_param_table() {
  static const ParamTable<TransportParams> table = [] {
    ParamTable<TransportParams> t("transport",
                                  "the host's simple windowed reliable transport (docs/host.md)");
    t.integer("mtu", &TransportParams::mtu, "bytes", 576, 16110,
              "IP MTU: frames carry up to MTU + 18 bytes (DA..FCS), MSS = MTU - 40; jumbo frames "
              "of 4088, 9014, 16128 bytes are MTU 4070, 8996, 16110")
        .integer("window_bytes", &TransportParams::window_bytes, "bytes", 1024, 1 << 30,
                 "fixed window and receive buffer; above 65535 both ends use the RFC 1323 window "
                 "scale, the smallest shift that fits it in the header's 16 bits (a 1 MB window: "
                 "shift 5, advertised in 32-byte units)")
        .integer("socket_bytes", &TransportParams::socket_bytes, "bytes", 1024, 1 << 26,
                 "send buffer: bytes written and not yet acknowledged")
        .integer("ack_every", &TransportParams::ack_every, "segments", 1, 64,
                 "delayed ACK: one ACK per this many in-order data segments")
        .integer("delayed_ack_us", &TransportParams::delayed_ack_us, "us", 1, 1'000'000,
                 "delayed ACK timer: an ACK at the latest this long after unacknowledged data "
                 "(200 ms: Windows 2000; RFC 1122 allows up to 500 ms)")
        .integer("rto_us", &TransportParams::rto_us, "us", 10, 10'000'000,
                 "retransmission timeout (fixed): go back to the first unacknowledged byte")
        .integer("dupack_threshold", &TransportParams::dupack_threshold, "ACKs", 1, 64,
                 "duplicate ACKs that make the sender go back to the first unacknowledged byte")
        .choice("congestion", &TransportParams::congestion, {"fixed", "aimd"},
                "fixed: the window is all there is; aimd: a congestion window, halved when the "
                "sender goes back after duplicate ACKs, one MSS after a timeout, and grown by "
                "one MSS per window's worth of ACKs (Reno-like, no slow start)")
        .boolean("nagle", &TransportParams::nagle,
                 "Nagle's rule (RFC 896): a short segment only when nothing is unacknowledged; "
                 "false is TCP_NODELAY (netPIPE sets it)");
    return t;
  }();
  return table;
}

const ParamTable<AppParams>& app_param_table() {
  static const ParamTable<AppParams> table = [] {
    ParamTable<AppParams> t("app", "the host's application against one peer station");
    t.choice("kind", &AppParams::kind, app_kinds(),
             "bulk: an iperf-like stream; requests: IOmeter-like transfers of request_bytes; "
             "ping_pong: netPIPE-like echo of request_bytes; udp: datagrams at rate_bps")
        .reference("peer", &AppParams::peer, "station",
                   "the station at the other end: ideal (no host) or served by another host's NIC")
        .choice("direction", &AppParams::direction, {"receive", "send"},
                "this host's data direction: receive (the peer sends) or send")
        .integer("request_bytes", &AppParams::request_bytes, "bytes", 1, 1LL << 30,
                 "bulk: size of each write/read call; requests: request size; ping_pong: "
                 "message size; udp: datagram payload (iperf -l)")
        .integer("reply_bytes", &AppParams::reply_bytes, "bytes", 0, 1LL << 30,
                 "requests: the receiver answers each request with this many bytes; 0: no "
                 "answer, the requests stream")
        .integer("outstanding", &AppParams::outstanding, "requests", 1, 1024,
                 "requests with reply_bytes > 0: requests issued and not yet answered")
        .real("rate_bps", &AppParams::rate_bps, "bit/s", 0, 1e12,
              "udp: datagram payload bits per second (iperf -b); 0: as fast as the sender can")
        .integer("start_ns", &AppParams::start_ns, "ns", 0, 1LL << 50,
                 "the application starts at this time");
    return t;
  }();
  return table;
}

}  // namespace gbesim
