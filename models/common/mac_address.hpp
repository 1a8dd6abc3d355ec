#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace gbesim {

struct MacAddress {
  std::array<std::uint8_t, 6> octets{};

  static MacAddress broadcast() { return {{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}}; }
  // 01-80-C2-00-00-01, the reserved multicast address PAUSE frames are sent to (802.3 31B.1).
  static MacAddress pause_multicast() { return {{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01}}; }
  // A locally administered unicast address for the station with the given index: 02:00:00:00:hi:lo.
  static MacAddress for_station(std::uint32_t index);
  // "aa:bb:cc:dd:ee:ff" or "aa-bb-cc-dd-ee-ff"; nullopt if malformed.
  static std::optional<MacAddress> parse(std::string_view text);

  bool is_multicast() const { return (octets[0] & 1U) != 0; }
  bool is_broadcast() const { return *this == broadcast(); }
  std::string to_string() const;

  friend bool operator==(const MacAddress& a, const MacAddress& b) { return a.octets == b.octets; }
  friend bool operator!=(const MacAddress& a, const MacAddress& b) { return !(a == b); }
};

// A MAC address read as a 48-bit number (first octet in the low byte): one compare to match.
// Two loads put together in registers: six bytes copied into a zeroed word would be read back
// across three stores, which the processor cannot forward (a stall on every received frame).
inline std::uint64_t address_key(const std::uint8_t* octets) {
  std::uint32_t low = 0;
  std::uint16_t high = 0;
  std::memcpy(&low, octets, 4);
  std::memcpy(&high, octets + 4, 2);
  return static_cast<std::uint64_t>(low) | static_cast<std::uint64_t>(high) << 32;
}

// FF-FF-FF-FF-FF-FF's key (the same in either byte order).
inline constexpr std::uint64_t kBroadcastKey = 0xFFFF'FFFF'FFFF;

}  // namespace gbesim
