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
inline std::uint64_t address_key(const std::uint8_t* octets) {
  std::uint64_t key = 0;
  std::memcpy(&key, octets, 6);
  return key;
}

}  // namespace gbesim
