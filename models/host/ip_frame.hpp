#pragma once
// IPv4 packets carrying the host applications' traffic, as real bytes inside Ethernet frames
// (EtherType 0x0800): an IPv4 header (RFC 791, 20 bytes, no options, header checksum) and a TCP
// header (RFC 793, 20 bytes, no options) or a UDP header (RFC 768, 8 bytes), both with their
// pseudo-header checksums, so a capture decodes in Wireshark/tshark. The transport that fills the
// TCP fields is gbesim's simple windowed transport (models/host/transport.hpp), not TCP: it uses
// the header layout, not TCP's congestion control or options.
// A UDP datagram larger than the MTU travels as IPv4 fragments (offsets in 8-byte units); only
// the first fragment carries the UDP header, and its checksum is left 0 (none): one frame cannot
// sum the whole datagram.
// Does not model: IP or TCP options (no MSS or window-scale option), the DF flag (never set),
// TOS/ECN (0), or any receive check beyond the IPv4 header checksum: parse_ip_frame does not
// verify TCP/UDP checksums (the MAC checks the FCS).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "models/common/frame.hpp"

namespace gbesim {

inline constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr std::size_t kIpv4HeaderBytes = 20;
inline constexpr std::size_t kTcpHeaderBytes = 20;
inline constexpr std::size_t kUdpHeaderBytes = 8;
inline constexpr std::uint8_t kProtocolTcp = 6;
inline constexpr std::uint8_t kProtocolUdp = 17;

// TCP flag bits used by the transport.
inline constexpr std::uint8_t kTcpAck = 0x10;
inline constexpr std::uint8_t kTcpPsh = 0x08;

// 10.0.0.n for the station numbered n (1, 2, ...).
inline std::uint32_t ipv4_for_station(std::uint32_t number) {
  return 0x0A00'0000U | number;
}

struct IpPacket {
  std::uint32_t source = 0;
  std::uint32_t destination = 0;
  std::uint8_t protocol = kProtocolTcp;
  std::uint16_t identification = 0;
  std::uint16_t fragment_offset_8 = 0;  // in 8-byte units
  bool more_fragments = false;
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  // TCP
  std::uint32_t sequence = 0;
  std::uint32_t acknowledgement = 0;
  std::uint8_t flags = kTcpAck;
  std::uint16_t window = 0;  // bytes (no window scaling; the transport caps its window at 65535)
  // UDP: the whole datagram's length incl. its header (first fragment only carries it).
  std::uint16_t udp_length = 0;
  // Bytes after the transport header (or after the IP header in a non-first fragment).
  std::size_t payload = 0;
};

// The IP packet size (header + transport header + payload) of a packet.
std::size_t ip_packet_bytes(const IpPacket& packet);

// Writes the Ethernet header, the IP packet (payload bytes (first payload byte + i) mod 256, where
// the first is the TCP sequence number, or 0 for UDP) and padding and FCS into frame.bytes.
void build_ip_frame(Frame& frame, const FrameHeader& ethernet, const IpPacket& packet);

// Decodes a frame built by build_ip_frame (or any untagged/tagged IPv4 frame without options):
// nullopt if it is not IPv4 TCP/UDP or its IP header checksum is wrong.
std::optional<IpPacket> parse_ip_frame(const Frame& frame);

// The RFC 1071 one's-complement sum, folded and complemented.
std::uint16_t internet_checksum(const std::uint8_t* data, std::size_t length,
                                std::uint32_t initial = 0);

}  // namespace gbesim
