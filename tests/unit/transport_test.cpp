#include "models/host/transport.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <set>

namespace gbesim {
namespace {

// Two ends joined by a lossless, zero-delay "network" the test drives by hand: segments move only
// when deliver() is called, and a filter may drop them.
struct Pair {
  explicit Pair(TransportParams params = {}) : a(params, header(1, 2)), b(params, header(2, 1)) {}
  static IpPacket header(std::uint32_t from, std::uint32_t to) {
    IpPacket p;
    p.source = ipv4_for_station(from);
    p.destination = ipv4_for_station(to);
    return p;
  }
  // Moves everything each end has sent to the other until both are quiet; returns the segments
  // a sent (data and ACKs).
  std::vector<IpPacket> deliver(Picoseconds now,
                                const std::function<bool(const IpPacket&)>& drop = nullptr) {
    std::vector<IpPacket> from_a;
    for (int round = 0; round < 1000; ++round) {
      auto out_a = a.take_output();
      auto out_b = b.take_output();
      if (out_a.empty() && out_b.empty()) break;
      for (const auto& p : out_a) {
        from_a.push_back(p);
        if (!drop || !drop(p)) b.receive(p, now);
      }
      for (const auto& p : out_b) a.receive(p, now);
    }
    return from_a;
  }
  Connection a;
  Connection b;
};

// A filter for deliver(): loses the first data segment at each of these stream offsets (their
// resends go through).
std::function<bool(const IpPacket&)> lose_first(std::set<std::int64_t> sequences) {
  return [left = std::move(sequences)](const IpPacket& p) mutable {
    return p.payload > 0 && left.erase(p.sequence) > 0;
  };
}

std::int64_t data_segments(const std::vector<IpPacket>& v) {
  std::int64_t n = 0;
  for (const auto& p : v) n += p.payload > 0 ? 1 : 0;
  return n;
}

TEST(Transport, MssFollowsTheMtu) {
  TransportParams p;
  p.mtu = 9000;
  EXPECT_EQ(Connection(p, {}).mss(), 8960);
  EXPECT_EQ(Connection(TransportParams{}, {}).mss(), 1460);
}

// A 1 MB window (iperf -w 1M) needs the RFC 1323 scale: shift 5, so the sender may have 146,000
// bytes in flight and the receiver, having read nothing, advertises (1,048,576 - 146,000) >> 5.
TEST(Transport, AWindowAbove64KBIsScaled) {
  TransportParams p;
  p.window_bytes = 1 << 20;
  p.socket_bytes = 1 << 20;
  Pair n(p);
  EXPECT_EQ(n.a.window_shift(), 5);
  EXPECT_EQ(Connection(TransportParams{}, {}).window_shift(), 0);
  n.a.write(100 * 1460, 0);
  auto out = n.a.take_output();
  EXPECT_EQ(data_segments(out), 100);
  for (const auto& seg : out) n.b.receive(seg, 0);
  const auto acks = n.b.take_output();
  ASSERT_EQ(acks.size(), 50U);  // every second segment
  EXPECT_EQ(acks.back().window, (1048576 - 146000) >> 5);
  EXPECT_EQ(acks.back().window, 28205);
}

// Four full segments: the receiver ACKs every second one, at 2920 and 5840 bytes.
TEST(Transport, DelayedAckEverySecondSegment) {
  Pair n;
  n.a.write(4 * 1460, 0);
  auto out = n.a.take_output();
  ASSERT_EQ(out.size(), 4U);
  for (const auto& p : out) n.b.receive(p, 0);
  auto acks = n.b.take_output();
  ASSERT_EQ(acks.size(), 2U);
  EXPECT_EQ(acks[0].acknowledgement, 2920U);
  EXPECT_EQ(acks[1].acknowledgement, 5840U);
  EXPECT_EQ(acks[0].payload, 0U);
  EXPECT_EQ(n.b.readable(), 5840);
  EXPECT_EQ(n.b.next_deadline(), kForeverPs);  // nothing owed
}

// A lone segment is ACKed when the delayed-ACK timer runs out, not before.
TEST(Transport, LoneSegmentWaitsForTheDelayedAckTimer) {
  TransportParams params;
  params.delayed_ack_us = 200;
  Pair n(params);
  n.a.write(100, 0);
  for (const auto& p : n.a.take_output()) n.b.receive(p, 1000);
  EXPECT_TRUE(n.b.take_output().empty());
  EXPECT_EQ(n.b.next_deadline(), 1000 + 200 * kPsPerUs);
  n.b.on_timer(1000 + 200 * kPsPerUs);
  const auto acks = n.b.take_output();
  ASSERT_EQ(acks.size(), 1U);
  EXPECT_EQ(acks[0].acknowledgement, 100U);
}

// A 10,000-byte window holds six full segments (8760 bytes); the remaining 1240 would be a short
// segment with more data waiting, so it is not sent.
TEST(Transport, WindowLimitsWhatIsInFlight) {
  TransportParams params;
  params.window_bytes = 10'000;
  Pair n(params);
  n.a.write(100'000, 0);
  const auto out = n.a.take_output();
  EXPECT_EQ(data_segments(out), 6);
  // Delivering them, with the receiver reading what arrives, opens the window again (the delayed
  // ACK timer covers an odd segment) until the whole stream is acknowledged.
  for (const auto& p : out) n.b.receive(p, 0);
  for (int i = 0; i < 200 && !n.a.all_acknowledged(); ++i) {
    n.deliver(0);
    n.b.read(n.b.readable(), 0);
    n.deliver(0);
    n.a.on_timer(n.a.next_deadline());
    n.b.on_timer(n.b.next_deadline());
  }
  EXPECT_TRUE(n.a.all_acknowledged());
  EXPECT_EQ(n.a.counts().bytes_acknowledged, 100'000);
}

// Nagle: a second small write waits while the first is unacknowledged; without it, it goes.
TEST(Transport, NagleHoldsASecondShortSegment) {
  for (bool nagle : {true, false}) {
    TransportParams params;
    params.nagle = nagle;
    Pair n(params);
    n.a.write(100, 0);
    n.a.write(100, 0);
    EXPECT_EQ(data_segments(n.a.take_output()), nagle ? 1 : 2) << "nagle " << nagle;
  }
}

// Segment 2 of 10 is lost: the receiver discards the 8 after it, each answered by a duplicate ACK;
// the third makes the sender go back to byte 1460 and resend all 9 from there.
TEST(Transport, GoBackNAfterThreeDuplicateAcks) {
  TransportParams params;
  params.ack_every = 1;
  Pair n(params);
  n.a.write(10 * 1460, 0);
  n.deliver(0, lose_first({1460}));
  EXPECT_EQ(n.b.counts().discarded, 8U);
  EXPECT_EQ(n.a.counts().fast_retransmits, 1U);
  EXPECT_EQ(n.a.counts().retransmitted, 9U);
  EXPECT_TRUE(n.a.all_acknowledged());
  EXPECT_EQ(n.b.readable(), 14'600);
}

// The last segment is lost and no duplicate ACKs follow: the retransmission timer resends it.
TEST(Transport, TimeoutResendsTheTail) {
  TransportParams params;
  params.rto_us = 1000;
  Pair n(params);
  n.a.write(3 * 1460, 0);
  n.deliver(0, [](const IpPacket& p) { return p.sequence == 2920 && p.payload > 0; });
  EXPECT_FALSE(n.a.all_acknowledged());
  EXPECT_EQ(n.a.next_deadline(), 1000 * kPsPerUs);
  n.a.on_timer(1000 * kPsPerUs);
  n.deliver(1000 * kPsPerUs);
  n.b.on_timer(n.b.next_deadline());
  n.deliver(n.b.next_deadline());
  EXPECT_EQ(n.a.counts().timeouts, 1U);
  EXPECT_EQ(n.b.readable(), 3 * 1460);
}

// aimd: a duplicate-ACK loss halves the congestion window (65535 -> 32767), which then grows back.
TEST(Transport, AimdHalvesTheWindowOnLoss) {
  TransportParams params;
  params.congestion = Congestion::aimd;
  params.ack_every = 1;
  Pair n(params);
  n.a.write(40 * 1460, 0);
  n.deliver(0, lose_first({5 * 1460}));
  EXPECT_EQ(n.a.counts().smallest_cwnd, 65535 / 2);
  EXPECT_TRUE(n.a.all_acknowledged());
}

// newreno: the receiver keeps the eight segments after the lost one, so the sender resends that
// one alone (against go-back-N's nine above).
TEST(Transport, NewRenoResendsOnlyTheLostSegment) {
  TransportParams params;
  params.ack_every = 1;
  params.recovery = Recovery::newreno;
  Pair n(params);
  n.a.write(10 * 1460, 0);
  n.deliver(0, lose_first({1460}));
  EXPECT_EQ(n.b.counts().discarded, 0U);
  EXPECT_EQ(n.a.counts().fast_retransmits, 1U);
  EXPECT_EQ(n.a.counts().retransmitted, 1U);
  EXPECT_TRUE(n.a.all_acknowledged());
  EXPECT_EQ(n.b.readable(), 14'600);
}

// Two segments of one window lost: the ACK for the first hole's resend is partial (RFC 6582), so
// the second hole is resent at once, without a second fast retransmit or a timeout.
TEST(Transport, NewRenoPartialAckResendsTheNextHole) {
  TransportParams params;
  params.ack_every = 1;
  params.recovery = Recovery::newreno;
  Pair n(params);
  n.a.write(10 * 1460, 0);
  n.deliver(0, lose_first({1460, 4 * 1460}));
  EXPECT_EQ(n.a.counts().fast_retransmits, 1U);
  EXPECT_EQ(n.a.counts().retransmitted, 2U);
  EXPECT_EQ(n.a.counts().timeouts, 0U);
  EXPECT_TRUE(n.a.all_acknowledged());
  EXPECT_EQ(n.b.readable(), 14'600);
}

// newreno with aimd: 40 segments in flight (all fit the 65,535-byte window), the sixth lost. At
// the third duplicate ACK 34 segments are unacknowledged (51,100 bytes): ssthresh 25,550 and the
// window 25,550 + 3 x 1,460 = 29,930, its lowest (RFC 5681 3.2).
TEST(Transport, NewRenoHalvesTheDataInFlight) {
  TransportParams params;
  params.congestion = Congestion::aimd;
  params.recovery = Recovery::newreno;
  params.ack_every = 1;
  Pair n(params);
  n.a.write(40 * 1460, 0);
  n.deliver(0, lose_first({5 * 1460}));
  EXPECT_EQ(n.a.counts().smallest_cwnd, 25'550 + 3 * 1460);
  EXPECT_EQ(n.a.counts().retransmitted, 1U);
  EXPECT_TRUE(n.a.all_acknowledged());
}

}  // namespace
}  // namespace gbesim
