#include "models/host/app_params.hpp"

namespace gbesim {

const ChoiceList<Congestion>& choice_list(Congestion) {
  static const ChoiceList<Congestion> list = {
      {Congestion::fixed, "fixed", "the window is all there is"},
      {Congestion::aimd, "aimd",
       "a congestion window, halved when the sender goes back after duplicate ACKs, one MSS "
       "after a timeout, and grown by one MSS per window's worth of ACKs (Reno-like, no slow "
       "start)"},
  };
  return list;
}

const ChoiceList<Recovery>& choice_list(Recovery) {
  static const ChoiceList<Recovery> list = {
      {Recovery::go_back_n, "go_back_n",
       "after duplicate ACKs or a timeout the sender resends from the first unacknowledged byte; "
       "the receiver discards out-of-order data"},
      {Recovery::newreno, "newreno",
       "TCP's fast retransmit and fast recovery (RFC 5681) with NewReno's partial ACKs (RFC "
       "6582): one segment resent per hole, new data sent meanwhile, slow start after a timeout "
       "(with congestion aimd); the receiver keeps out-of-order data and ACKs at once when a "
       "hole fills"},
  };
  return list;
}

const ChoiceList<AppKind>& choice_list(AppKind) {
  static const ChoiceList<AppKind> list = {
      {AppKind::none, "", "no application"},
      {AppKind::bulk, "bulk", "an iperf-like stream"},
      {AppKind::requests, "requests", "IOmeter-like transfers of request_bytes"},
      {AppKind::ping_pong, "ping_pong", "netPIPE-like echo of request_bytes"},
      {AppKind::udp, "udp", "datagrams at rate_bps"},
      {AppKind::file, "file",
       "a file server's clients reading and writing records of request_bytes (read_share of "
       "them reads)"},
  };
  return list;
}

const ChoiceList<AppDirection>& choice_list(AppDirection) {
  static const ChoiceList<AppDirection> list = {
      {AppDirection::receive, "receive",
       "the peer sends; file: this host is the server (the peer's requests come in)"},
      {AppDirection::send, "send", "this host sends; file: this host is the client"},
  };
  return list;
}

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
        .choice("congestion", &TransportParams::congestion)
        .choice("recovery", &TransportParams::recovery)
        .boolean("nagle", &TransportParams::nagle,
                 "Nagle's rule (RFC 896): a short segment only when nothing is unacknowledged; "
                 "false is TCP_NODELAY (netPIPE sets it)");
    return t;
  }();
  return table;
}

const ChoiceList<AppNetwork>& choice_list(AppNetwork) {
  static const ChoiceList<AppNetwork> list = {
      {AppNetwork::ip, "ip", "TCP/IP or UDP/IP"},
      {AppNetwork::ipx, "ipx",
       "IPX (NetWare's NCP; the frames stay the windowed transport's IPv4, only a team's load "
       "balancing tells them apart)"},
  };
  return list;
}

const ParamTable<AppParams>& app_param_table() {
  static const ParamTable<AppParams> table = [] {
    ParamTable<AppParams> t("app", "the host's application against one peer station");
    t.choice("kind", &AppParams::kind)
        .reference("peer", &AppParams::peer, "station",
                   "the station at the other end: ideal (no host) or served by another host's NIC")
        .choice("direction", &AppParams::direction,
                "this host's data direction: receive (the peer sends) or send; file: receive is "
                "the server (the peer's requests come in), send the client")
        .integer("request_bytes", &AppParams::request_bytes, "bytes", 1, 1LL << 30,
                 "bulk: size of each write/read call; requests: request size; ping_pong: "
                 "message size; udp: datagram payload (iperf -l); file: the record size")
        .integer("reply_bytes", &AppParams::reply_bytes, "bytes", 0, 1LL << 30,
                 "requests: the receiver answers each request with this many bytes; 0: no "
                 "answer, the requests stream")
        .integer("outstanding", &AppParams::outstanding, "requests", 1, 1024,
                 "requests with reply_bytes > 0, file: requests issued and not yet answered")
        .real("rate_bps", &AppParams::rate_bps, "bit/s", 0, 1e12,
              "udp: datagram payload bits per second (iperf -b); requests and file: the "
              "offered load, request_bytes x 8 per request (request k starts no earlier than "
              "start_ns + k x request_bytes x 8 / rate_bps); 0: as fast as the sender can")
        .real("read_share", &AppParams::read_share, "fraction", 0, 1,
              "file: the share of requests that read a record (the others write one), spread "
              "evenly: request k reads when floor((k + 1) x share) > floor(k x share)")
        .integer("control_bytes", &AppParams::control_bytes, "bytes", 1, 65536,
                 "file: bytes of a read request and of a write's acknowledgement; a record "
                 "travels with this header (assumption: 64, an NCP/SMB-sized header)")
        .integer("start_ns", &AppParams::start_ns, "ns", 0, 1LL << 50,
                 "the application starts at this time")
        .integer("stop_ns", &AppParams::stop_ns, "ns", 0, 1LL << 50,
                 "no new request, write or datagram from this time on (what is under way "
                 "finishes); 0: the application runs to the end")
        .choice("network", &AppParams::network,
                "the network protocol the application's traffic stands for, as a NIC team's load "
                "balancing sees it (hosts.<h>.team.balances)")
        .integer("report_ring_slots", &AppParams::report_ring_slots, "reports", 0, 1 << 20,
                 "udp: iperf 2.0.x's ring of reports between the thread that sends or reads the "
                 "datagrams and its reporter thread (NUM_REPORT_STRUCTS, 700 in 2.0.2), one "
                 "report per datagram; the reporter empties it once per OS timer tick (it waits "
                 "with usleep(0), which sleeps to the next tick), and the traffic thread, finding "
                 "it full (slots - 1 reports), sleeps to the next tick as well (each end's host's "
                 "driver.tick_us); an ideal peer's end has none; 0: no reporter");
    return t;
  }();
  return table;
}

}  // namespace gbesim
