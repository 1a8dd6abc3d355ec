#pragma once
// Receive-side checks of the Clause 4 MAC (4.2.4.2, 4.2.9) and the Clause 31 MAC Control frame
// format, as plain functions: what the MAC does with the bytes of one received frame (undersize,
// address filter, too long, FCS, length field, in that order), and building/parsing PAUSE.
// Exact on the bytes. Does not model: alignment errors or dribble bits (a frame is whole bytes),
// errors the PHY signals (RX_ER, false carrier), or multicast hash filtering (group addresses are
// accepted all or none; broadcast and the PAUSE address always).

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "models/common/frame.hpp"
#include "models/common/mac_address.hpp"

namespace gbesim {

enum class RxVerdict : std::uint8_t {
  ok,
  undersize,            // shorter than 64 bytes: a fragment, silently discarded
  filtered,             // not addressed to this station (not an error)
  too_long,             // longer than the maximum frame size (+4 if tagged)
  fcs_error,            // FCS does not match
  length_error,         // length field inconsistent with the data actually received
  length_out_of_range,  // length/type field between 1501 and 1535
  mac_control,          // a valid MAC Control frame (type 0x8808): not for the client
};

std::string_view to_string(RxVerdict verdict);

struct RxFilter {
  RxFilter(const MacAddress& own_address, std::int64_t max_frame, bool promiscuous_mode,
           bool multicast);
  MacAddress own;
  std::int64_t max_frame_bytes = 1518;
  bool promiscuous = false;
  bool accept_multicast = true;
  std::uint64_t own_key = 0;  // the address as a 48-bit number, for one-compare matching
};

// fcs_intact: the bytes are known to be those their FCS was written for (Frame::fcs_intact), so
// the CRC is not run -- unless the environment has GBESIM_VERIFY_FCS=1 (the test suite sets it),
// when it is, and a frame so marked whose check fails stops the process: a place that changed
// bytes without clearing the mark.
RxVerdict check_received_frame(const std::vector<std::uint8_t>& bytes, const RxFilter& filter,
                               bool fcs_intact = false);
// True when GBESIM_VERIFY_FCS=1 (read once).
bool verifying_intact_fcs();

// Bytes of MAC client data and padding: what Clause 30's aOctets*OK count.
std::size_t client_octets(const std::vector<std::uint8_t>& bytes);

// Clause 31 MAC Control.
inline constexpr std::uint16_t kOpcodePause = 0x0001;

struct MacControl {
  std::uint16_t opcode = 0;
  std::uint16_t pause_quanta = 0;  // meaningful for PAUSE only
};

// A PAUSE frame (802.3 Annex 31B.2): DA 01-80-C2-00-00-01, type 0x8808, opcode 0x0001, the
// 16-bit pause_time in quanta of 512 bit times, zero padding to 64 bytes, FCS.
void build_pause_frame(Frame& frame, const MacAddress& source, std::uint16_t quanta);
// The opcode and parameter of a MAC Control frame; nullopt if the frame is not one.
std::optional<MacControl> parse_mac_control(const std::vector<std::uint8_t>& bytes);

}  // namespace gbesim
