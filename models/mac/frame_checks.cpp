#include "models/mac/frame_checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "models/common/crc32.hpp"
#include "models/common/speed_modes.hpp"

namespace gbesim {

std::string_view to_string(RxVerdict verdict) {
  switch (verdict) {
    case RxVerdict::ok:
      return "ok";
    case RxVerdict::undersize:
      return "undersize";
    case RxVerdict::filtered:
      return "address_filtered";
    case RxVerdict::too_long:
      return "frame_too_long";
    case RxVerdict::fcs_error:
      return "fcs_error";
    case RxVerdict::length_error:
      return "length_error";
    case RxVerdict::length_out_of_range:
      return "length_out_of_range";
    case RxVerdict::mac_control:
      return "mac_control";
  }
  return "unknown";
}

RxFilter::RxFilter(const MacAddress& own_address, std::int64_t max_frame, bool promiscuous_mode,
                   bool multicast)
    : own(own_address),
      max_frame_bytes(max_frame),
      promiscuous(promiscuous_mode),
      accept_multicast(multicast),
      own_key(address_key(own_address.octets.data())) {}

bool verifying_intact_fcs() {
  static const bool verify = [] {
    const char* v = std::getenv("GBESIM_VERIFY_FCS");
    return v != nullptr && std::string_view(v) == "1";
  }();
  return verify;
}

RxVerdict check_received_frame(const std::vector<std::uint8_t>& bytes, const RxFilter& filter,
                               bool fcs_intact) {
  const auto size = static_cast<std::int64_t>(bytes.size());
  if (size < kMinFrameBytes) return RxVerdict::undersize;

  static const std::uint64_t kPause = address_key(MacAddress::pause_multicast().octets.data());
  const std::uint64_t da = address_key(bytes.data());
  const bool group = (bytes[0] & 1U) != 0;
  const bool for_us = da == filter.own_key ||
                      (group && (da == kBroadcastKey || da == kPause || filter.accept_multicast));
  if (!for_us && !filter.promiscuous) return RxVerdict::filtered;

  const std::int64_t limit = filter.max_frame_bytes + (is_vlan_tagged(bytes) ? kQTagBytes : 0);
  if (size > limit) return RxVerdict::too_long;
  if (!fcs_intact || verifying_intact_fcs()) {
    if (!fcs_ok(bytes.data(), bytes.size())) {
      if (fcs_intact) {
        std::fprintf(stderr,
                     "gbesim: internal error: a frame marked intact fails its FCS check (bytes "
                     "changed without clearing Frame::fcs_intact)\n");
        std::abort();
      }
      return RxVerdict::fcs_error;
    }
  }

  const std::uint16_t length_type = length_type_of(bytes);
  if (length_type <= 1500) {
    // A length field: it must match the data received, except that data padded to the minimum
    // frame may carry a shorter length (4.2.4.2.3; 3.2.6).
    const auto present = static_cast<std::int64_t>(client_octets(bytes));
    const bool padded_min = size == kMinFrameBytes && length_type < present;
    if (length_type != present && !padded_min) return RxVerdict::length_error;
  } else if (length_type < 0x0600) {
    return RxVerdict::length_out_of_range;
  } else if (length_type == kEtherTypeMacControl) {
    return RxVerdict::mac_control;
  }
  return RxVerdict::ok;
}

std::size_t client_octets(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() - client_data_offset(bytes) - kFcsBytes;
}

void build_pause_frame(Frame& frame, const MacAddress& source, std::uint16_t quanta) {
  FrameHeader header;
  header.destination = MacAddress::pause_multicast();
  header.source = source;
  header.length_type = kEtherTypeMacControl;
  build_frame(frame, header, 0, 0);  // 46 bytes of zero client data, FCS written
  const std::size_t at = kHeaderBytes;
  frame.bytes[at] = kOpcodePause >> 8;
  frame.bytes[at + 1] = kOpcodePause & 0xFF;
  frame.bytes[at + 2] = static_cast<std::uint8_t>(quanta >> 8);
  frame.bytes[at + 3] = static_cast<std::uint8_t>(quanta & 0xFF);
  write_fcs(frame.bytes.data(), frame.bytes.size() - kFcsBytes);
  frame.fcs_intact = true;
}

std::optional<MacControl> parse_mac_control(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < static_cast<std::size_t>(kMinFrameBytes)) return std::nullopt;
  if (length_type_of(bytes) != kEtherTypeMacControl) return std::nullopt;
  const std::size_t at = client_data_offset(bytes);
  MacControl control;
  control.opcode = static_cast<std::uint16_t>(bytes[at] << 8 | bytes[at + 1]);
  control.pause_quanta = static_cast<std::uint16_t>(bytes[at + 2] << 8 | bytes[at + 3]);
  return control;
}

}  // namespace gbesim
