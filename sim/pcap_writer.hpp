#pragma once
// Nanosecond-resolution pcap (libpcap savefile with magic 0xA1B23C4D) of Ethernet frames with
// their FCS: the link-type word is 0x24000001 = LINKTYPE_ETHERNET (1) with the "FCS length
// present" flag (0x04000000) and an FCS of 2 x 16 bits (0x20000000), so Wireshark/tshark show
// and check the FCS. Timestamps are simulated time truncated to the nanosecond.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "models/common/time.hpp"
#include "sim/atomic_file.hpp"

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

}  // namespace gbesim
