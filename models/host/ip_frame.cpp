#include "models/host/ip_frame.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "models/common/crc32.hpp"
#include "models/common/speed_modes.hpp"

namespace gbesim {

namespace {

void put16(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}
void put32(std::uint8_t* p, std::uint32_t v) {
  put16(p, v >> 16);
  put16(p + 2, v & 0xFFFF);
}
std::uint32_t get16(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0] << 8 | p[1]);
}
std::uint32_t get32(const std::uint8_t* p) {
  return get16(p) << 16 | get16(p + 2);
}

std::uint32_t fold16(std::uint64_t s) {
  while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
  return static_cast<std::uint32_t>(s);
}

// The one's complement sum of the big-endian 16-bit words of data (an odd last byte padded with
// a zero), added to `sum`. The sum is the same in either byte order (RFC 1071, 2.(B)): the bytes
// are summed as this machine holds them, eight at a time, and the folded sum swapped once
// ([RFC1071], docs/references.md).
std::uint32_t sum16(const std::uint8_t* data, std::size_t length, std::uint32_t sum) {
  std::uint64_t s = 0;
  std::size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, data + i, 4);
    std::memcpy(&b, data + i + 4, 4);
    s += std::uint64_t{a} + b;
  }
  for (; i + 2 <= length; i += 2) {
    std::uint16_t w = 0;
    std::memcpy(&w, data + i, 2);
    s += w;
  }
  if (i < length) {
    const std::uint8_t last[2] = {data[i], 0};
    std::uint16_t w = 0;
    std::memcpy(&w, last, 2);
    s += w;
  }
  std::uint32_t folded = fold16(s);
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    folded = ((folded & 0xFF) << 8) | (folded >> 8);
  return fold16(std::uint64_t{folded} + sum);
}

// sum16 of `length` counting-pattern bytes from `first`, without reading them: a period (an even
// number of bytes, so every period's words are the same) sums to the same at every repetition, and
// n copies of a one's complement sum add to n times it, folded. Only the last partial period
// is summed. A period holds non-zero bytes, so the sum is never the all-zero 0.
std::uint32_t pattern_sum(std::size_t length, std::uint8_t first) {
  static const std::array<std::uint32_t, kCountingPeriod> period_sums = [] {
    std::array<std::uint32_t, kCountingPeriod> sums{};
    for (std::size_t f = 0; f < kCountingPeriod; ++f)
      sums[f] = sum16(counting_pattern() + f, kCountingPeriod, 0);
    return sums;
  }();
  const std::size_t periods = length / kCountingPeriod;
  const std::uint32_t rest = sum16(counting_pattern() + first, length % kCountingPeriod, 0);
  if (periods == 0) return rest;
  return fold16(std::uint64_t{period_sums[first]} * periods + rest);
}

std::size_t transport_header_bytes(const IpPacket& p) {
  if (p.fragment_offset_8 != 0) return 0;
  return p.protocol == kProtocolTcp ? kTcpHeaderBytes : kUdpHeaderBytes;
}

}  // namespace

std::uint16_t internet_checksum(const std::uint8_t* data, std::size_t length,
                                std::uint32_t initial) {
  return static_cast<std::uint16_t>(~sum16(data, length, initial) & 0xFFFF);
}

std::size_t ip_packet_bytes(const IpPacket& packet) {
  return kIpv4HeaderBytes + transport_header_bytes(packet) + packet.payload;
}

void build_ip_frame(Frame& frame, const FrameHeader& ethernet, const IpPacket& p) {
  FrameHeader header = ethernet;
  header.length_type = kEtherTypeIpv4;
  const std::size_t head = header_bytes(header);
  const std::size_t ip_bytes = ip_packet_bytes(p);
  const std::size_t frame_bytes =
      std::max<std::size_t>(head + ip_bytes + kFcsBytes, static_cast<std::size_t>(kMinFrameBytes));
  auto& b = frame.bytes;
  b.assign(frame_bytes, 0);
  std::copy(header.destination.octets.begin(), header.destination.octets.end(), b.begin());
  std::copy(header.source.octets.begin(), header.source.octets.end(), b.begin() + 6);
  std::size_t at = 12;
  if (header.vlan_tci) {
    put16(&b[at], kEtherTypeVlan);
    put16(&b[at + 2], *header.vlan_tci);
    at += 4;
  }
  put16(&b[at], kEtherTypeIpv4);
  std::uint8_t* ip = &b[head];
  ip[0] = 0x45;  // version 4, 5 words
  put16(ip + 2, static_cast<std::uint32_t>(ip_bytes));
  put16(ip + 4, p.identification);
  put16(ip + 6, (p.more_fragments ? 0x2000U : 0U) | (p.fragment_offset_8 & 0x1FFFU));
  ip[8] = 64;  // time to live
  ip[9] = p.protocol;
  put32(ip + 12, p.source);
  put32(ip + 16, p.destination);
  put16(ip + 10, internet_checksum(ip, kIpv4HeaderBytes));

  std::uint8_t* l4 = ip + kIpv4HeaderBytes;
  const std::size_t l4_head = transport_header_bytes(p);
  std::uint8_t* data = l4 + l4_head;
  const std::uint32_t first = p.protocol == kProtocolTcp ? p.sequence : 0;
  fill_counting_pattern(data, p.payload, static_cast<std::uint8_t>(first));
  if (l4_head == 0) {
    write_fcs(b.data(), b.size() - kFcsBytes);
    frame.fcs_intact = true;
    return;
  }
  put16(l4, p.source_port);
  put16(l4 + 2, p.destination_port);
  const std::size_t l4_bytes = l4_head + p.payload;
  if (p.protocol == kProtocolTcp) {
    put32(l4 + 4, p.sequence);
    put32(l4 + 8, p.acknowledgement);
    l4[12] = 0x50;  // 5 words, no options
    l4[13] = p.flags;
    put16(l4 + 14, p.window);
  } else {
    put16(l4 + 4, p.udp_length);
  }
  // Checksum over the pseudo-header (addresses, protocol, length) and the segment. A UDP datagram
  // in fragments is checksummed over all of it, which this frame alone cannot do: it is left 0.
  const bool whole = p.protocol == kProtocolTcp || !p.more_fragments;
  if (whole) {
    std::uint8_t pseudo[12];
    put32(pseudo, p.source);
    put32(pseudo + 4, p.destination);
    pseudo[8] = 0;
    pseudo[9] = p.protocol;
    put16(pseudo + 10, static_cast<std::uint32_t>(l4_bytes));
    // The header's words, then the payload's: the header is an even number of bytes, so the
    // payload's words are its own pairs of bytes and its sum is the pattern's.
    const std::uint32_t head = sum16(l4, l4_head, sum16(pseudo, sizeof pseudo, 0));
    const std::uint32_t sum =
        fold16(std::uint64_t{head} + pattern_sum(p.payload, static_cast<std::uint8_t>(first)));
    auto checksum = static_cast<std::uint16_t>(~sum & 0xFFFF);
    if (p.protocol == kProtocolUdp && checksum == 0) checksum = 0xFFFF;
    put16(l4 + (p.protocol == kProtocolTcp ? 16 : 6), checksum);
  }
  write_fcs(b.data(), b.size() - kFcsBytes);
  frame.fcs_intact = true;
}

std::optional<IpPacket> parse_ip_frame(const Frame& frame) {
  const auto& b = frame.bytes;
  if (b.size() < static_cast<std::size_t>(kMinFrameBytes)) return std::nullopt;
  if (length_type_of(b) != kEtherTypeIpv4) return std::nullopt;
  const std::uint8_t* ip = b.data() + client_data_offset(b);
  if (ip[0] != 0x45 || internet_checksum(ip, kIpv4HeaderBytes) != 0) return std::nullopt;
  IpPacket p;
  const std::size_t ip_bytes = get16(ip + 2);
  p.identification = static_cast<std::uint16_t>(get16(ip + 4));
  const std::uint32_t fragment = get16(ip + 6);
  p.more_fragments = (fragment & 0x2000U) != 0;
  p.fragment_offset_8 = static_cast<std::uint16_t>(fragment & 0x1FFFU);
  p.protocol = ip[9];
  p.source = get32(ip + 12);
  p.destination = get32(ip + 16);
  if (p.protocol != kProtocolTcp && p.protocol != kProtocolUdp) return std::nullopt;
  const std::size_t l4_head = transport_header_bytes(p);
  if (ip_bytes < kIpv4HeaderBytes + l4_head) return std::nullopt;
  p.payload = ip_bytes - kIpv4HeaderBytes - l4_head;
  if (l4_head == 0) return p;
  const std::uint8_t* l4 = ip + kIpv4HeaderBytes;
  p.source_port = static_cast<std::uint16_t>(get16(l4));
  p.destination_port = static_cast<std::uint16_t>(get16(l4 + 2));
  if (p.protocol == kProtocolTcp) {
    p.sequence = get32(l4 + 4);
    p.acknowledgement = get32(l4 + 8);
    p.flags = l4[13];
    p.window = static_cast<std::uint16_t>(get16(l4 + 14));
  } else {
    p.udp_length = static_cast<std::uint16_t>(get16(l4 + 4));
  }
  return p;
}

}  // namespace gbesim
