#include "models/host/ip_frame.hpp"

#include <gtest/gtest.h>

#include "models/common/crc32.hpp"
#include "models/common/rng.hpp"

namespace gbesim {
namespace {

FrameHeader ethernet() {
  FrameHeader h;
  h.source = MacAddress::for_station(1);
  h.destination = MacAddress::for_station(2);
  return h;
}

// RFC 1071 section 3's worked example: the words 0001 f203 f4f5 f6f7 sum to ddf2 (one's
// complement), so the checksum is its complement 220d.
TEST(InternetChecksum, MatchesRfc1071Example) {
  const std::uint8_t data[] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(internet_checksum(data, sizeof data), 0x220d);
}

// The checksum sums the bytes eight at a time in the machine's order; against the definition
// (big-endian 16-bit words one by one, an odd byte padded) on every length to 100 bytes and
// random ones to 9,000, every alignment, and initial sums up to 0xFFFF.
TEST(InternetChecksum, MatchesTheWordByWordDefinition) {
  RngStream rng(7, "checksum");
  std::vector<std::uint8_t> buffer(9016);
  for (auto& b : buffer) b = static_cast<std::uint8_t>(rng.uniform_range(0, 255));
  auto reference = [](const std::uint8_t* d, std::size_t n, std::uint32_t initial) {
    std::uint64_t s = initial;
    for (std::size_t i = 0; i < n; i += 2)
      s += (std::uint32_t{d[i]} << 8) | (i + 1 < n ? d[i + 1] : 0);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return static_cast<std::uint16_t>(~s & 0xFFFF);
  };
  for (std::size_t n = 0; n < 1200; ++n) {
    const std::size_t length = n < 100 ? n : static_cast<std::size_t>(rng.uniform_range(0, 9000));
    const std::size_t offset = n % 8;
    const auto initial = static_cast<std::uint32_t>(rng.uniform_range(0, 0xFFFF));
    ASSERT_EQ(internet_checksum(buffer.data() + offset, length, initial),
              reference(buffer.data() + offset, length, initial))
        << length << " bytes at " << offset << ", initial " << initial;
  }
  std::vector<std::uint8_t> ones(4000, 0xFF);  // the largest sums: the carries fold back
  EXPECT_EQ(internet_checksum(ones.data(), ones.size(), 0xFFFF),
            reference(ones.data(), ones.size(), 0xFFFF));
}

TEST(IpFrame, FullTcpSegmentHasTheRightSizeAndValidChecksums) {
  IpPacket p;
  p.source = ipv4_for_station(1);
  p.destination = ipv4_for_station(2);
  p.source_port = 49152;
  p.destination_port = 5001;
  p.sequence = 0xFFFFFF00U;  // wraps inside the payload pattern
  p.acknowledgement = 12345;
  p.window = 65535;
  p.payload = 1460;
  Frame f;
  build_ip_frame(f, ethernet(), p);
  ASSERT_EQ(f.size(), 1518U);  // 14 + 20 + 20 + 1460 + 4
  EXPECT_TRUE(fcs_ok(f.bytes.data(), f.size()));
  const std::uint8_t* ip = f.bytes.data() + 14;
  EXPECT_EQ(internet_checksum(ip, 20), 0);  // a valid header sums to 0xFFFF
  // TCP checksum over the pseudo-header and the segment verifies to 0 as well.
  std::vector<std::uint8_t> pseudo = {ip[12], ip[13], ip[14], ip[15], ip[16], ip[17],
                                      ip[18], ip[19], 0,      6,      0x05,   0xC8};  // 1480
  pseudo.insert(pseudo.end(), ip + 20, ip + 20 + 1480);
  EXPECT_EQ(internet_checksum(pseudo.data(), pseudo.size()), 0);
  const auto q = parse_ip_frame(f);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->sequence, p.sequence);
  EXPECT_EQ(q->acknowledgement, 12345U);
  EXPECT_EQ(q->payload, 1460U);
  EXPECT_EQ(q->window, 65535);
  EXPECT_EQ(q->source_port, 49152);
  EXPECT_EQ(q->flags, kTcpAck);
}

// The payload is the pattern (first + i) mod 256 and its checksum is worked out from whole
// periods of it: against the bytes written and the checksum's definition over them, for UDP
// datagrams of every length to 1,600 bytes and past the jumbo frame's 9,000, and TCP segments
// at every starting byte of the pattern.
TEST(IpFrame, PayloadAndChecksumMatchTheDefinitionAtEveryLengthAndStart) {
  auto check = [](const IpPacket& p, std::size_t l4_head) {
    Frame f;
    build_ip_frame(f, ethernet(), p);
    const std::uint8_t* ip = f.bytes.data() + 14;
    const std::uint8_t* data = ip + 20 + l4_head;
    const std::uint32_t first = p.protocol == kProtocolTcp ? p.sequence : 0;
    for (std::size_t i = 0; i < p.payload; ++i)
      ASSERT_EQ(data[i], static_cast<std::uint8_t>(first + i)) << "byte " << i;
    const std::size_t l4_bytes = l4_head + p.payload;
    std::vector<std::uint8_t> segment = {ip[12],
                                         ip[13],
                                         ip[14],
                                         ip[15],
                                         ip[16],
                                         ip[17],
                                         ip[18],
                                         ip[19],
                                         0,
                                         p.protocol,
                                         static_cast<std::uint8_t>(l4_bytes >> 8),
                                         static_cast<std::uint8_t>(l4_bytes)};
    segment.insert(segment.end(), ip + 20, ip + 20 + l4_bytes);
    // Word by word, an odd byte padded; a valid checksum makes the whole sum 0xFFFF.
    std::uint64_t s = 0;
    for (std::size_t i = 0; i < segment.size(); i += 2)
      s += (std::uint32_t{segment[i]} << 8) | (i + 1 < segment.size() ? segment[i + 1] : 0);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    ASSERT_EQ(s, 0xFFFFU) << p.payload << " bytes from " << first;
    ASSERT_TRUE(fcs_ok(f.bytes.data(), f.size()));
  };
  IpPacket udp;
  udp.protocol = kProtocolUdp;
  udp.source = ipv4_for_station(3);
  udp.destination = ipv4_for_station(4);
  udp.source_port = 5001;
  udp.destination_port = 5001;
  for (std::size_t n = 0; n <= 9100; n += n < 1600 ? 1 : 37) {
    udp.payload = n;
    udp.udp_length = static_cast<std::uint16_t>(8 + n);
    check(udp, kUdpHeaderBytes);
  }
  IpPacket tcp;
  tcp.source = ipv4_for_station(1);
  tcp.destination = ipv4_for_station(2);
  for (std::uint32_t first = 0; first < 256; ++first) {
    tcp.sequence = 0xFFFFFF00U + first * 0x01010101U;  // every low byte, other bytes changing
    tcp.payload = 1 + (first * 97) % 1460;
    check(tcp, kTcpHeaderBytes);
  }
}

TEST(IpFrame, PureAckIsPaddedToTheMinimumFrame) {
  IpPacket p;
  p.payload = 0;
  Frame f;
  build_ip_frame(f, ethernet(), p);
  EXPECT_EQ(f.size(), 64U);  // 54 bytes of headers, padded
  EXPECT_TRUE(f.fcs_intact);
  const auto q = parse_ip_frame(f);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->payload, 0U);  // the IP total length (40), not the padding, counts
}

TEST(IpFrame, CorruptHeaderIsRejected) {
  IpPacket p;
  p.payload = 100;
  Frame f;
  build_ip_frame(f, ethernet(), p);
  f.bytes[14 + 8] ^= 1;  // TTL
  EXPECT_FALSE(parse_ip_frame(f));
}

TEST(IpFrame, UdpFragmentsCarryOffsetsAndOnlyTheFirstTheHeader) {
  IpPacket first;
  first.protocol = kProtocolUdp;
  first.udp_length = 3008;  // 3000 bytes of data
  first.more_fragments = true;
  first.payload = 1480 - 8;
  Frame f;
  build_ip_frame(f, ethernet(), first);
  EXPECT_EQ(f.size(), 1518U);
  auto q = parse_ip_frame(f);
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->more_fragments);
  EXPECT_EQ(q->udp_length, 3008);
  EXPECT_EQ(q->payload, 1472U);
  IpPacket second = first;
  second.fragment_offset_8 = 1480 / 8;
  second.more_fragments = false;
  second.payload = 3008 - 1480;
  build_ip_frame(f, ethernet(), second);
  q = parse_ip_frame(f);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->fragment_offset_8, 185);
  EXPECT_EQ(q->payload, 1528U);
  EXPECT_FALSE(q->more_fragments);
}

}  // namespace
}  // namespace gbesim
