#include "models/common/mac_address.hpp"

#include <cstdio>

namespace gbesim {

MacAddress MacAddress::for_station(std::uint32_t index) {
  return {{0x02, 0x00, 0x00, 0x00, static_cast<std::uint8_t>(index >> 8),
           static_cast<std::uint8_t>(index & 0xFF)}};
}

std::optional<MacAddress> MacAddress::parse(std::string_view text) {
  if (text.size() != 17) return std::nullopt;
  MacAddress out;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  const char separator = text[2];
  if (separator != ':' && separator != '-') return std::nullopt;
  for (int i = 0; i < 6; ++i) {
    const int hi = hex(text[3 * i]);
    const int lo = hex(text[3 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    if (i < 5 && text[3 * i + 2] != separator) return std::nullopt;
    out.octets[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

std::string MacAddress::to_string() const {
  char buf[18];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", octets[0], octets[1], octets[2],
                octets[3], octets[4], octets[5]);
  return buf;
}

}  // namespace gbesim
