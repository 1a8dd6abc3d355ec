// Hosts in networks: several applications on one host, a file server's clients, light hosts, and
// teams of NICs (docs/host.md, "Several applications", "File server", "Light hosts", "Teaming").

#include <gtest/gtest.h>

#include <tuple>
#include <utility>
#include <vector>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

// A light host "srv" on station s serves a file to an ideal client on station c over 10 m of
// Cat 5 (55.6 ns each way): one 8 KB record per millisecond for 9.5 ms, so requests k = 0 .. 9.
std::string file_scenario(double read_share, const std::string& cpu) {
  return R"({"name": "t", "description": "", "duration_ns": 9500000,
      "stations": {"s": {}, "c": {}}, "links": [{"between": ["s", "c"], "cable_m": 10}],
      "hosts": {"srv": {"station": "s", "cpu": )" +
         cpu + R"(, "transport": {"nagle": false},
        "app": {"kind": "file", "peer": "c", "direction": "receive", "request_bytes": 8192,
                "read_share": )" +
         std::to_string(read_share) + R"(, "rate_bps": 65536000}}}})";
}

// A read is a 64-byte request (a 122-byte frame: 1040 ns on the wire with its preamble) and an
// 8256-byte answer (five 1460-byte segments in 1518-byte frames, 12304 ns apart with preamble and
// gap, then 956 bytes in a 1014-byte frame, 8176 ns): 1040 + 5 x 12304 + 8176 = 70736 ns on the
// wire, plus 2 x 55.6 ns of cable = 70847.2 ns. A write is the same frames the other way round,
// and one more: the server acknowledges segments 5 and 6 (one ACK per two) before its answer is
// written, so the answer waits behind that 64-byte frame, 672 ns with preamble and gap. A server
// that costs nothing answers at once.
void expect_round_trips(double share, const std::string& cpu, double ns) {
  gbesim::testing::SimFixture sim(file_scenario(share, cpu));
  sim.run();
  EXPECT_EQ(sim.scalar("c.stack", "requests_completed"), 10);
  EXPECT_NEAR(sim.scalar("c.stack", "round_trip_min"), ns, 1e-6);
  EXPECT_NEAR(sim.scalar("c.stack", "round_trip_max"), ns, 1e-6);
  EXPECT_EQ(sim.scalar("c.stack", "file_reads"), share == 1.0 ? 10 : 0);
  EXPECT_EQ(sim.scalar("srv.stack", "file_writes"), share == 1.0 ? 0 : 10);
  if (cpu == "{}") return;
  // Busy time is the sum of the costs: per interrupt, per frame in, 20 calls, the data frames out.
  const double data_out = share == 1.0 ? 60 : 10;
  EXPECT_NEAR(sim.scalar("srv.cpu", "cpu_busy_time"),
              1e3 * (2000 * sim.scalar("srv.cpu", "interrupts") +
                     1000 * sim.scalar("srv.cpu", "frames_delivered") + 3000 * 20 + 500 * data_out),
              0.5);
}

TEST(HostFile, AReadRoundTripByHand) {
  expect_round_trips(1.0, "{}", 70847.2);
}

TEST(HostFile, AWriteRoundTripByHand) {
  expect_round_trips(0.0, "{}", 70847.2 + 672);
}

// The same with a server CPU that costs: 2000 ns per interrupt, 1000 per received frame, 3000 per
// application call, 500 per sent data frame (ACKs free). A read waits for the request frame's
// interrupt (3000), the receive call (3000), the write call (3000) and six frames posted (3000):
// 12,000 ns more. A write's last segment costs 3000, the two calls 6000, one frame 500: 9500 more
// (the earlier segments are taken while the rest are still on the wire, and the ACK leaves while
// the CPU makes the calls).
const char* kServerCpu = R"({"interrupt_ns": 2000, "per_packet_ns": 1000, "per_request_ns": 3000,
                             "per_sent_packet_ns": 500})";

TEST(HostFile, ALightServersCpuCostsAddToAReadByHand) {
  expect_round_trips(1.0, kServerCpu, 70847.2 + 12000);
}

TEST(HostFile, ALightServersCpuCostsAddToAWriteByHand) {
  expect_round_trips(0.0, kServerCpu, 70847.2 + 9500);
}

// A quarter of the requests read (k = 3 and 7 of 0 .. 9): the client receives 2 records with
// their headers and 8 acknowledgements, the server 8 records and 2 read requests.
TEST(HostFile, TheReadShareSpreadsReadsEvenly) {
  gbesim::testing::SimFixture sim(file_scenario(0.25, "{}"));
  sim.run();
  EXPECT_EQ(sim.scalar("c.stack", "file_reads"), 2);
  EXPECT_EQ(sim.scalar("c.stack", "file_writes"), 8);
  EXPECT_EQ(sim.scalar("srv.stack", "file_reads"), 2);
  EXPECT_EQ(sim.scalar("srv.stack", "file_writes"), 8);
  EXPECT_EQ(sim.scalar("c.stack", "app_bytes_received"), 2 * 8256 + 8 * 64);
  EXPECT_EQ(sim.scalar("srv.stack", "app_bytes_received"), 8 * 8256 + 2 * 64);
  // Record bits per second over the 9.5 ms run.
  EXPECT_NEAR(sim.scalar("c.stack", "read_throughput"), 2 * 8192 * 8 / 9.5e-3, 1e-6);
}

// Host h (82540EM on 64/66) behind a switch with ideal peers b and c, on gigabit ports.
std::string switched(const std::string& host, const std::string& more_stations = "",
                     const std::string& more_links = "") {
  return R"({"name": "t", "description": "", "duration_ns": 20000000,
      "stations": {"a": {}, "b": {}, "c": {})" +
         more_stations + R"(},
      "switches": {"sw": {"ports": [{"count": 4, "rate_mbps": 1000}]}},
      "links": [{"between": ["a", "sw:1"], "cable_m": 10}, {"between": ["b", "sw:2"], "cable_m": 10},
                {"between": ["c", "sw:3"], "cable_m": 10})" +
         more_links + R"(],
      "hosts": {"h": {"pci": {"width_bits": 64, "clock_mhz": 66},
        "nic": {"station": "a", "profile": "intel-82540em"}, )" +
         host + "}}}";
}

// Two streams into h over its one gigabit port (ends: h's end and its peer's): together they get
// at most the wire's goodput (1460 / 1538 of 1 Gb/s) and within 2 % of it; neither starves
// (each gets at least 40 %); each end read what its peer end has had acknowledged, up to a window.
void expect_two_streams_share_the_wire(
    gbesim::testing::SimFixture& sim,
    const std::vector<std::pair<std::string, std::string>>& ends) {
  const double wire = 1460.0 / 1538.0 * 1e9;
  double total = 0;
  for (const auto& [mine, theirs] : ends) {
    const double rate = sim.scalar(mine, "receive_throughput");
    EXPECT_GT(rate, 0.4 * wire) << mine;
    total += rate;
    const double read = sim.scalar(mine, "app_bytes_received");
    const double acked = sim.scalar(theirs, "send_throughput") * 0.02 / 8;
    EXPECT_LE(acked, read) << mine;
    EXPECT_LE(read - acked, 65535) << mine;
  }
  EXPECT_LE(total, wire);
  EXPECT_GT(total, 0.98 * wire);
}

// Two connections on one host and one NIC, with two peers.
TEST(HostApps, TwoConnectionsShareOneNic) {
  gbesim::testing::SimFixture sim(
      switched(R"("apps": [{"kind": "bulk", "peer": "b"}, {"kind": "bulk", "peer": "c"}])"));
  sim.run();
  expect_two_streams_share_the_wire(sim, {{"h.stack_b", "b.stack"}, {"h.stack_c", "c.stack"}});
}

// A client's own transport block sets the end it runs for another host's application: the light
// host cl acknowledges every segment (ack_every 1) where h's settings (the default, 2) would have
// it acknowledge every second, so it sends exactly one ACK per data frame it receives.
TEST(HostApps, APeersOwnTransportSetsTheEndsItRuns) {
  gbesim::testing::SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 5000000,
      "stations": {"a": {}, "b": {}}, "links": [{"between": ["a", "b"], "cable_m": 10}],
      "hosts": {"h": {"nic": {"station": "a", "profile": "intel-82540em"},
                      "pci": {"width_bits": 64, "clock_mhz": 66},
                      "apps": [{"kind": "bulk", "peer": "b", "direction": "send"}]},
                "cl": {"station": "b", "cpu": {}, "transport": {"ack_every": 1}}}})");
  sim.run();
  const double received = sim.scalar("cl.stack", "frames_received");
  EXPECT_GT(received, 300);
  EXPECT_EQ(sim.scalar("cl.stack", "acks_sent"), received);
}

// One ideal peer serving two connections: both of h's applications are with b, which runs two
// ends ("stack_a", "stack_a_2"), each its own connection, told apart by ports.
TEST(HostApps, AnIdealPeerServesSeveralConnections) {
  gbesim::testing::SimFixture sim(
      switched(R"("apps": [{"kind": "bulk", "peer": "b"}, {"kind": "bulk", "peer": "b"}])"));
  sim.run();
  expect_two_streams_share_the_wire(sim,
                                    {{"h.stack_b", "b.stack_a"}, {"h.stack_b_2", "b.stack_a_2"}});
}

// Two logical CPUs on separate cores: the applications' calls run on the second, each taking
// exactly per_request_ns (nothing shares its core), so that CPU's busy time is the calls times
// 2 us; the CPU % reported is the mean of the two, as Windows and IOmeter read it.
TEST(HostCpus, TheSecondCpuMakesTheCallsAndTheMeanIsReported) {
  gbesim::testing::SimFixture sim(switched(
      R"("cpu": {"clock_mhz": 1000, "per_request_ns": 2000, "per_packet_ns": 1000,
                 "logical_cpus": 2},
         "app": {"kind": "requests", "peer": "b", "direction": "receive", "request_bytes": 1024})"));
  sim.run();
  const double interrupt = sim.scalar("h.driver", "interrupt_cpu_utilisation");
  const double application = sim.scalar("h.driver", "application_cpu_utilisation");
  const double calls = sim.scalar("h.driver", "app_calls");
  EXPECT_GT(calls, 1000);
  EXPECT_NEAR(application, calls * 2000e-9 / 20e-3, 1e-12);
  EXPECT_GT(interrupt, 0.0);
  EXPECT_NEAR(sim.scalar("h.driver", "cpu_utilisation"), (interrupt + application) / 2, 1e-12);
}

// Per-client teaming: a second NIC on station a2 (switch port 4). b is the first client (NIC 1),
// c the second (NIC 2): each stream has its own gigabit port, so together they get nearly twice
// one wire's goodput; every frame to b leaves from a, every frame to c from a2. The bus is
// PCI-X 64/133 here: on 64/66 the two NICs' transmit reads fill the bus at about 1.6 Gb/s.
TEST(HostTeam, PerClientTeamingGivesEachClientItsOwnNic) {
  std::string text = switched(
      R"("team": {"mode": "per_client", "stations": ["a2"]},
         "apps": [{"kind": "bulk", "peer": "b", "direction": "send"},
                  {"kind": "bulk", "peer": "c", "direction": "send"}])",
      R"(, "a2": {})", R"(, {"between": ["a2", "sw:4"], "cable_m": 10})");
  const std::string bus = R"("width_bits": 64, "clock_mhz": 66)";
  text.replace(text.find(bus), bus.size(), R"("mode": "pcix", "width_bits": 64, "clock_mhz": 133)");
  gbesim::testing::SimFixture sim(text);
  sim.run();
  const double wire = 1460.0 / 1538.0 * 1e9;
  const double rb = sim.scalar("b.stack", "receive_throughput");
  const double rc = sim.scalar("c.stack", "receive_throughput");
  EXPECT_GT(rb, 0.95 * wire);
  EXPECT_GT(rc, 0.95 * wire);
  EXPECT_LE(rb, wire);
  EXPECT_LE(rc, wire);
  // Frames b received all came in at port 1 (from a), c's at port 4 (from a2); the switch
  // forwarded each port's frames to one client only.
  EXPECT_EQ(sim.scalar("sw.port1", "frames_in"), sim.scalar("a.mac", "frames_transmitted_ok"));
  EXPECT_EQ(sim.scalar("sw.port4", "frames_in"), sim.scalar("a2.mac", "frames_transmitted_ok"));
  // What a sent and b has not received is in the switch's queue for b, or on its way (at most
  // one frame arriving at the switch and one on the cable to b); likewise a2 and c.
  for (const auto& [nic, client, port] :
       {std::tuple{"a", "b", "sw.port2"}, std::tuple{"a2", "c", "sw.port3"}}) {
    const double sent = sim.scalar(std::string(nic) + ".mac", "frames_transmitted_ok");
    const double got = sim.scalar(std::string(client) + ".stack", "frames_received");
    EXPECT_LE(got, sent) << client;
    EXPECT_LE(sent - got, sim.scalar(port, "queued_frames") + 2) << client;
  }
  // The ACKs come back the same way: to a from b, to a2 from c.
  EXPECT_EQ(sim.scalar("h.nic", "frames_arrived"), sim.scalar("a.mac", "frames_received_ok"));
  EXPECT_EQ(sim.scalar("h.nic2", "frames_arrived"), sim.scalar("a2.mac", "frames_received_ok"));
}

// IPX through a per-client team: two NetWare-like streams to b and c. With receive_ip_only the
// team spreads the sends (b's from a, c's from a2) but the IPX peers, having no ARP, send
// everything to the first NIC; with ip_only the IPX streams stay on the first NIC both ways.
std::string ipx_team(const std::string& balances) {
  return switched(R"("team": {"mode": "per_client", "balances": ")" + balances + R"(",
                              "stations": ["a2"]},
                     "apps": [{"kind": "bulk", "peer": "b", "direction": "send", "network": "ipx"},
                              {"kind": "bulk", "peer": "c", "direction": "send", "network": "ipx"}])",
                  R"(, "a2": {})", R"(, {"between": ["a2", "sw:4"], "cable_m": 10})");
}

TEST(HostTeam, ReceiveIpOnlySpreadsIpxSendsButNotWhatComesBack) {
  gbesim::testing::SimFixture sim(ipx_team("receive_ip_only"));
  sim.run();
  EXPECT_EQ(sim.scalar("sw.port4", "frames_in"), sim.scalar("a2.mac", "frames_transmitted_ok"));
  EXPECT_GT(sim.scalar("a2.mac", "frames_transmitted_ok"), 1000);
  EXPECT_GT(sim.scalar("a.mac", "frames_transmitted_ok"), 1000);
  EXPECT_EQ(sim.scalar("h.nic2", "frames_arrived"), 0);
  EXPECT_GT(sim.scalar("h.nic", "frames_arrived"), 1000);
}

TEST(HostTeam, IpOnlyKeepsIpxOnTheFirstNicBothWays) {
  gbesim::testing::SimFixture sim(ipx_team("ip_only"));
  sim.run();
  EXPECT_EQ(sim.scalar("a2.mac", "frames_transmitted_ok"), 0);
  EXPECT_EQ(sim.scalar("h.nic2", "frames_arrived"), 0);
  EXPECT_GT(sim.scalar("a.mac", "frames_transmitted_ok"), 1000);
}

// A team with a cable per NIC and no switch: a to b, a2 to c. Each client is served by the NIC
// cabled to it, whatever the order of the applications (c's comes first here, and a per-client
// count alone would give it the first NIC), so both streams get nearly one wire's goodput.
TEST(HostTeam, ACablePerTeamNicServesEachPeerThroughItsOwnCable) {
  gbesim::testing::SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 20000000,
      "stations": {"a": {}, "a2": {}, "b": {}, "c": {}},
      "links": [{"between": ["a", "b"], "cable_m": 10}, {"between": ["a2", "c"], "cable_m": 10}],
      "hosts": {"h": {"pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": 133},
        "nic": {"station": "a", "profile": "intel-82540em"},
        "team": {"mode": "per_client", "stations": ["a2"]},
        "apps": [{"kind": "bulk", "peer": "c", "direction": "send"},
                 {"kind": "bulk", "peer": "b", "direction": "send"}]}}})");
  sim.run();
  const double wire = 1460.0 / 1538.0 * 1e9;
  EXPECT_GT(sim.scalar("b.stack", "receive_throughput"), 0.95 * wire);
  EXPECT_GT(sim.scalar("c.stack", "receive_throughput"), 0.95 * wire);
  EXPECT_EQ(sim.scalar("a2.mac", "frames_transmitted_ok"),
            sim.scalar("c.mac", "frames_received_ok"));
  EXPECT_EQ(sim.scalar("a.mac", "frames_transmitted_ok"),
            sim.scalar("b.mac", "frames_received_ok"));
}

// A dual-port chip's two ports share its one REQ# / GNT# pair: three ports sending TCP to three
// clients on a 32-bit 33 MHz bus (a third of what three wires need), a and a2 one chip, a3 another
// chip's first port. The rotating arbiter grants the two chips in turn, so a3 moves about what a
// and a2 move together, and a and a2 share their chip's half evenly.
TEST(HostTeam, ThePortsOfADualPortChipShareItsBusInterface) {
  gbesim::testing::SimFixture sim(R"({"name": "t", "description": "", "duration_ns": 20000000,
      "stations": {"a": {}, "a2": {}, "a3": {}, "b": {}, "c": {}, "d": {}},
      "links": [{"between": ["a", "b"], "cable_m": 10}, {"between": ["a2", "c"], "cable_m": 10},
                {"between": ["a3", "d"], "cable_m": 10}],
      "hosts": {"h": {"nic": {"station": "a", "profile": "intel-82540em", "chip_ports": 2},
        "team": {"mode": "per_client", "stations": ["a2", "a3"]},
        "apps": [{"kind": "bulk", "peer": "b", "direction": "send"},
                 {"kind": "bulk", "peer": "c", "direction": "send"},
                 {"kind": "bulk", "peer": "d", "direction": "send"}]}}})");
  sim.run();
  const double a = sim.scalar("a.mac", "frames_transmitted_ok");
  const double a2 = sim.scalar("a2.mac", "frames_transmitted_ok");
  const double a3 = sim.scalar("a3.mac", "frames_transmitted_ok");
  EXPECT_GT(sim.scalar("h.pci", "utilisation"), 0.95);
  EXPECT_NEAR(a3 / (a + a2), 1.0, 0.15) << a << " " << a2 << " " << a3;
  EXPECT_NEAR(a / a2, 1.0, 0.15) << a << " " << a2;
}

// Round-robin teaming: UDP at 100 Mb/s to b and to c, 1470-byte datagrams, one frame each:
// every frame sent goes out of the next NIC, so a and a2 each send half of them (within one), each
// from its own address, and the clients lose nothing.
TEST(HostTeam, RoundRobinAlternatesEveryFrame) {
  gbesim::testing::SimFixture sim(switched(
      R"("team": {"mode": "round_robin", "stations": ["a2"]},
         "apps": [{"kind": "udp", "peer": "b", "direction": "send", "request_bytes": 1470,
                   "rate_bps": 1e8},
                  {"kind": "udp", "peer": "c", "direction": "send", "request_bytes": 1470,
                   "rate_bps": 1e8}])",
      R"(, "a2": {})", R"(, {"between": ["a2", "sw:4"], "cable_m": 10})"));
  sim.run();
  const double sent =
      sim.scalar("h.stack_b", "udp_datagrams_sent") + sim.scalar("h.stack_c", "udp_datagrams_sent");
  const double from_a = sim.scalar("a.mac", "frames_transmitted_ok");
  const double from_a2 = sim.scalar("a2.mac", "frames_transmitted_ok");
  EXPECT_EQ(sim.scalar("h.driver", "tx_frames_posted"), sent);
  EXPECT_NEAR(from_a, from_a2, 1);
  EXPECT_GE(from_a + from_a2, sent - 2);
  EXPECT_EQ(
      sim.scalar("b.stack", "udp_datagrams_lost") + sim.scalar("c.stack", "udp_datagrams_lost"), 0);
  EXPECT_GE(sim.scalar("b.stack", "udp_datagrams_received") +
                sim.scalar("c.stack", "udp_datagrams_received"),
            sent - 4);
}

}  // namespace
}  // namespace gbesim
