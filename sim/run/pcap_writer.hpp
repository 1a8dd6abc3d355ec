#pragma once
// Nanosecond-resolution pcap (libpcap savefile with magic 0xA1B23C4D) of Ethernet frames with
// their FCS: the link-type word is 0x24000001 = LINKTYPE_ETHERNET (1) with the "FCS length
// present" flag (0x04000000) and an FCS of 2 x 16 bits (0x20000000), so Wireshark/tshark show
// and check the FCS. Timestamps are simulated time truncated to the nanosecond.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "models/common/time.hpp"
#include "sim/support/atomic_file.hpp"

namespace gbesim {

inline constexpr std::uint32_t kPcapMagicNanoseconds = 0xA1B23C4D;
inline constexpr std::uint32_t kPcapLinkTypeEthernetWithFcs = 0x24000001;

class PcapWriter {
 public:
  explicit PcapWriter(const std::filesystem::path& path, std::uint32_t snap_length = 65535);
  void write(Picoseconds timestamp_ps, const std::vector<std::uint8_t>& bytes);
  void commit() { file_.commit(); }
  std::uint64_t records() const { return records_; }

 private:
  AtomicFile file_;
  std::uint32_t snap_length_;
  std::uint64_t records_ = 0;
};

// pcapng (one section, little-endian) with one interface per station: an Interface Description
// Block each (LINKTYPE_ETHERNET, if_name the station, if_tsresol 9 = nanoseconds, if_fcslen 4),
// then an Enhanced Packet Block per frame whose epb_flags carry the direction (inbound 01,
// outbound 10, bits 0-1) and the FCS length (4, bits 5-8). Interfaces are added before the
// first packet.
class PcapngWriter {
 public:
  explicit PcapngWriter(const std::filesystem::path& path, std::uint32_t snap_length = 65535);
  // Returns the interface id (0, 1, ... in the order added).
  std::uint32_t add_interface(const std::string& name);
  void write(std::uint32_t interface, Picoseconds timestamp_ps, bool outbound,
             const std::vector<std::uint8_t>& bytes);
  void commit() { file_.commit(); }
  std::uint64_t records() const { return records_; }

 private:
  AtomicFile file_;
  std::uint32_t snap_length_;
  std::uint32_t interfaces_ = 0;
  std::uint64_t records_ = 0;
};

}  // namespace gbesim
