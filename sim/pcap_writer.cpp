#include "sim/pcap_writer.hpp"

#include <algorithm>

namespace gbesim {
namespace {
void put32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));  // little-endian
}
void put16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
}  // namespace

PcapWriter::PcapWriter(const std::filesystem::path& path, std::uint32_t snap_length)
    : file_(path), snap_length_(snap_length) {
  std::uint8_t header[24] = {};
  put32(header, kPcapMagicNanoseconds);
  put16(header + 4, 2);  // version 2.4
  put16(header + 6, 4);
  put32(header + 8, 0);   // reserved (thiszone)
  put32(header + 12, 0);  // reserved (sigfigs)
  put32(header + 16, snap_length);
  put32(header + 20, kPcapLinkTypeEthernetWithFcs);
  file_.write(header, sizeof header);
}

void PcapWriter::write(Picoseconds timestamp_ps, const std::vector<std::uint8_t>& bytes) {
  const auto ns = static_cast<std::uint64_t>(timestamp_ps / kPsPerNs);
  const auto captured =
      static_cast<std::uint32_t>(std::min<std::size_t>(bytes.size(), snap_length_));
  std::uint8_t record[16];
  put32(record, static_cast<std::uint32_t>(ns / 1'000'000'000));
  put32(record + 4, static_cast<std::uint32_t>(ns % 1'000'000'000));
  put32(record + 8, captured);
  put32(record + 12, static_cast<std::uint32_t>(bytes.size()));
  file_.write(record, sizeof record);
  file_.write(bytes.data(), captured);
  ++records_;
}

}  // namespace gbesim
