// Host applications over the windowed transport (or UDP), through the NIC, the bus and the
// driver, against an ideal peer or a second host.

#include <gtest/gtest.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

// Station a is served by host h's NIC (82540EM profile) on a 64-bit/66 MHz bus, which keeps up
// with the wire; b is an ideal peer unless a second host takes it.
std::string scenario(const std::string& app, const std::string& cpu = "{}",
                     const std::string& nic_extra = "", const std::string& extra_hosts = "") {
  return R"({"name": "t", "description": "", "duration_ns": 20000000,
      "stations": {"a": {}, "b": {}}, "links": [{"between": ["a", "b"], "cable_m": 10}],
      "hosts": {"h": {"pci": {"width_bits": 64, "clock_mhz": 66},
        "nic": {"station": "a", "profile": "intel-82540em")" +
         nic_extra + R"(}, "cpu": )" + cpu + R"(, "app": )" + app + "}" + extra_hosts + "}}";
}

// Closed form: a 1460-byte MSS rides in a 1518-byte frame that takes 1538 byte times on the
// wire (preamble, SFD and gap), so the application can get at most 1460 / 1538 x 1000 Mb/s =
// 949.28 Mb/s. With nothing else in the way the stream must get within 2 % of it.
TEST(HostBulk, ReceiveOnAFastBusReachesTheWireGoodput) {
  gbesim::testing::SimFixture sim(
      scenario(R"({"kind": "bulk", "peer": "b", "direction": "receive"})"));
  sim.run();
  const double goodput = sim.scalar("h.stack", "receive_throughput");
  EXPECT_LE(goodput, 1460.0 / 1538.0 * 1e9);
  EXPECT_GT(goodput, 0.98 * 1460.0 / 1538.0 * 1e9);
  EXPECT_EQ(sim.scalar("b.stack", "segments_retransmitted"), 0);
  // What the receiver read is what the sender has had acknowledged, up to one window in flight.
  const double read = sim.scalar("h.stack", "app_bytes_received");
  const double acked = sim.scalar("b.stack", "send_throughput") * 0.02 / 8;
  EXPECT_LE(acked, read);
  EXPECT_LE(read - acked, 65535);
  // Conservation at the NIC: every frame that arrived was taken by the driver (and given to the
  // stack) or is still inside; none dropped.
  EXPECT_EQ(sim.scalar("h.nic", "frames_arrived"),
            sim.scalar("h.nic", "frames_taken") + sim.scalar("h.nic", "frames_inside"));
  EXPECT_EQ(sim.scalar("h.nic", "frames_taken"),
            sim.scalar("h.stack", "frames_received") + sim.scalar("h.driver", "frames_in_handler"));
  // One ACK per two segments: the receiver sent half as many frames as it took, give or take one.
  EXPECT_NEAR(sim.scalar("h.stack", "frames_sent"), sim.scalar("h.stack", "frames_received") / 2,
              1.0);
}

// Jumbo end to end: MTU 8996 (9014-byte frames in five 2 KB buffers each) on 64/66; the MSS,
// MTU - 40 = 8956 bytes, rides in a frame taking 9034 byte times, so the stream can get at most
// 8956 / 9034 x 1000 = 991.37 Mb/s, and gets within 2 % of it.
TEST(HostBulk, JumboMtuEndToEnd) {
  std::string text = scenario(R"({"kind": "bulk", "peer": "b", "direction": "receive"})");
  text.replace(text.find(R"("stations": {"a": {}, "b": {}})"), 30,
               R"("stations": {"a": {"mac": {"max_frame_bytes": 9014}},
                               "b": {"mac": {"max_frame_bytes": 9014}}})");
  text.replace(text.rfind("}}}"), 3, R"(, "transport": {"mtu": 8996}}}})");
  gbesim::testing::SimFixture sim(text);
  sim.run();
  const double bound = 8956.0 / 9034.0 * 1e9;
  EXPECT_LE(sim.scalar("h.stack", "receive_throughput"), bound);
  EXPECT_GT(sim.scalar("h.stack", "receive_throughput"), 0.98 * bound);
  EXPECT_EQ(sim.scalar("h.nic", "rx_fifo_overflow"), 0);
}

// iperf -u -l 1470 -b 500M for 20 ms: datagrams at t = k x 23.52 us, k = 0 .. 850, so 851 are
// sent; every one arrives but those still on their way at the end.
TEST(HostUdp, ConstantRateSendsOnScheduleAndLosesNothing) {
  gbesim::testing::SimFixture sim(scenario(
      R"({"kind": "udp", "peer": "b", "direction": "send", "request_bytes": 1470, "rate_bps": 5e8})"));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_sent"), 851);
  EXPECT_GE(sim.scalar("b.stack", "udp_datagrams_received"), 849);
  EXPECT_LE(sim.scalar("b.stack", "udp_datagrams_lost"), 0);
}

// An 8000-byte datagram (8008 with its UDP header) crosses a 1500-byte MTU in 1480-byte
// fragments: 6 frames each.
TEST(HostUdp, LargeDatagramsTravelAsIpFragments) {
  gbesim::testing::SimFixture sim(scenario(
      R"({"kind": "udp", "peer": "b", "direction": "send", "request_bytes": 8000, "rate_bps": 2e8})"));
  sim.run();
  const double received = sim.scalar("b.stack", "udp_datagrams_received");
  EXPECT_GT(received, 50);
  EXPECT_EQ(sim.scalar("h.stack", "frames_sent"), 6 * sim.scalar("h.stack", "udp_datagrams_sent"));
  EXPECT_GE(sim.scalar("b.stack", "frames_received"), 6 * received);
  EXPECT_LE(sim.scalar("b.stack", "frames_received"), 6 * received + 6);
}

// A 500 Mb/s iperf UDP flow of 1470-byte datagrams whose ends keep iperf 2.0.2's report ring
// of 21 (20 usable); h's end is the flow's `direction`, h's driver block `driver`.
std::string ring_scenario(const std::string& direction, const std::string& driver) {
  std::string text = scenario(R"({"kind": "udp", "peer": "b", "direction": ")" + direction +
                              R"(", "request_bytes": 1470, "rate_bps": 5e8,
                                    "report_ring_slots": 21})");
  text.replace(text.rfind("}}}"), 3, R"(, "driver": )" + driver + "}}}");
  return text;
}

// The reporter empties the ring at every tick of a 1 ms OS timer. The sender wants 42.5 datagrams
// per ms but makes at most 20 per tick, back to back from the tick on: 20 ticks in 20 ms, 400
// datagrams exactly.
TEST(HostUdp, TheReportRingAllowsSlotsLessOneDatagramsPerTick) {
  gbesim::testing::SimFixture sim(ring_scenario("send", R"({"tick_us": 1000})"));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_sent"), 400);
}

// The receiving end of the same: its application reads at most 20 datagrams per 1 ms tick while
// 42-43 arrive, and its socket buffer of 20,001 bytes at 2,000 bytes a datagram holds 10 (an 11th
// would take it to 22,000 >= 20,001). Every tick reads 20 (the 10 waiting, then 10 as they come)
// and leaves the buffer full again, so by the end 20 x 20 datagrams were read and 10 wait: 410
// were received, every other one that arrived was dropped at the socket.
TEST(HostUdp, ASlowReaderLosesWhatItsReceiveBufferCannotHold) {
  gbesim::testing::SimFixture sim(ring_scenario(
      "receive",
      R"({"tick_us": 1000, "udp_receive_buffer_bytes": 20001, "udp_truesize_bytes": 2000})"));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_received"), 410);
  EXPECT_EQ(sim.scalar("h.stack", "requests_completed"), 400);
  const double drops = sim.scalar("h.stack", "udp_receive_buffer_drops");
  EXPECT_GT(drops, 400);
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_lost"), drops);
  EXPECT_EQ(sim.scalar("h.stack", "frames_received"), 410 + drops);
}

// Without a receive buffer limit (the default) nothing is dropped: the datagrams wait.
TEST(HostUdp, WithoutABufferLimitASlowReaderDropsNothing) {
  gbesim::testing::SimFixture sim(ring_scenario("receive", R"({"tick_us": 1000})"));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "requests_completed"), 400);
  EXPECT_EQ(sim.scalar("h.stack", "udp_receive_buffer_drops"), 0);
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_received"),
            sim.scalar("h.stack", "frames_received"));
}

// netPIPE-like ping-pong of 64 bytes without interrupt moderation: each exchange starts when the
// previous answer is in, so the completed round trips add up to the run (less at most one).
// Each round trip carries two 64-byte... (104-byte) frames over the wire, at least 2 x 672 ns.
TEST(HostPingPong, RoundTripsFillTheRun) {
  gbesim::testing::SimFixture sim(
      scenario(R"({"kind": "ping_pong", "peer": "b", "direction": "send", "request_bytes": 64})",
               "{}", R"(, "itr_256ns": 0, "radv_1024ns": 0, "tidv_1024ns": 0, "tadv_1024ns": 0)"));
  sim.run();
  const double n = sim.scalar("h.stack", "requests_completed");
  const double mean_ns = sim.scalar("h.stack", "round_trip_mean");
  const double max_ns = sim.scalar("h.stack", "round_trip_max");
  EXPECT_GT(n, 1000);
  EXPECT_LE(n * mean_ns, 20e6 + 1);
  EXPECT_GT(n * mean_ns, 20e6 - max_ns);
  EXPECT_GT(sim.scalar("h.stack", "round_trip_min"), 2 * 672.0);
  // The peer has read as many pings, or one more whose answer is still on its way.
  EXPECT_GE(sim.scalar("b.stack", "requests_completed"), n);
  EXPECT_LE(sim.scalar("b.stack", "requests_completed"), n + 1);
}

// Two full hosts: h sends to host g (station b, same NIC, 32/33 bus, CPU costs); what g's
// application reads is what h has had acknowledged, up to a window.
TEST(HostBulk, BetweenTwoFullHosts) {
  const std::string g = R"(, "g": {"pci": {"width_bits": 32, "clock_mhz": 33},
      "nic": {"station": "b", "profile": "intel-82540em"},
      "cpu": {"interrupt_ns": 2000, "per_packet_ns": 1000, "per_sent_packet_ns": 1000}})";
  gbesim::testing::SimFixture sim(scenario(
      R"({"kind": "bulk", "peer": "b", "direction": "send"})",
      R"({"interrupt_ns": 2000, "per_packet_ns": 1000, "per_sent_packet_ns": 1000})", "", g));
  sim.run();
  const double read = sim.scalar("g.stack", "app_bytes_received");
  const double acked = sim.scalar("h.stack", "send_throughput") * 0.02 / 8;
  EXPECT_GT(read, 1e6);
  EXPECT_LE(acked, read);
  EXPECT_LE(read - acked, 65535);
  EXPECT_GT(sim.scalar("g.driver", "cpu_utilisation"), 0.05);
  EXPECT_GT(sim.scalar("h.driver", "cpu_utilisation"), 0.05);
  EXPECT_LE(sim.scalar("g.stack", "receive_throughput"), 1460.0 / 1538.0 * 1e9);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// Software checksums cost per_checksum_byte_ns per frame byte unless the NIC offloads them. A UDP
// sender of 1470-byte datagrams at 100 Mb/s sends at k x 117.6 us, k = 0 .. 170, in 20 ms:
// 171 frames of 14 + 20 + 8 + 1470 + 4 = 1516 bytes. At 1 ns per byte and no other cost (no
// cause-register read either) its CPU is busy exactly 171 x 1516 ns; with offload, not at all.
std::string checksum_scenario(bool offload) {
  std::string text = scenario(
      R"({"kind": "udp", "peer": "b", "direction": "send", "request_bytes": 1470, "rate_bps": 1e8})",
      R"({"per_checksum_byte_ns": 1, "read_icr": false})",
      std::string(R"(, "checksum_offload": )") + (offload ? "true" : "false"));
  return text;
}

TEST(HostCpu, SoftwareChecksumCostsPerByte) {
  gbesim::testing::SimFixture sim(checksum_scenario(false));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_sent"), 171);
  EXPECT_EQ(sim.scalar("h.driver", "cpu_busy_time"), 171.0 * 1516 * 1000);
}

// A CPU profile's copy cost: a UDP sender's send call copies its 1470 bytes at 2 / (0.81 x
// memory_mbps) ns per byte. On a Pentium III 500 (800 MB/s) that is 4,537.037 ns per call, 171
// calls in 20 ms; each charge rounds to a picosecond.
TEST(HostCpu, ACpuProfilesMemoryBandwidthSetsTheCopyCost) {
  gbesim::testing::SimFixture sim(scenario(
      R"({"kind": "udp", "peer": "b", "direction": "send", "request_bytes": 1470, "rate_bps": 1e8})",
      R"({"profile": "intel-pentium3-500", "read_icr": false})", ""));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_sent"), 171);
  EXPECT_NEAR(sim.scalar("h.driver", "cpu_busy_time"), 171.0 * 1470 * 2000 / (800 * 0.81) * 1000,
              171);
}

TEST(HostCpu, ChecksumOffloadSavesIt) {
  gbesim::testing::SimFixture sim(checksum_scenario(true));
  sim.run();
  EXPECT_EQ(sim.scalar("h.stack", "udp_datagrams_sent"), 171);
  EXPECT_EQ(sim.scalar("h.driver", "cpu_busy_time"), 0);
}

}  // namespace
}  // namespace gbesim
