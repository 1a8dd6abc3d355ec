#include "sim/run/pcap_writer.hpp"

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

namespace {

// A block: type, total length, body (padded to 4 bytes), total length again.
std::vector<std::uint8_t> block(std::uint32_t type, const std::vector<std::uint8_t>& body) {
  const std::size_t padded = (body.size() + 3) / 4 * 4;
  const auto total = static_cast<std::uint32_t>(12 + padded);
  std::vector<std::uint8_t> out(total, 0);
  put32(out.data(), type);
  put32(out.data() + 4, total);
  std::copy(body.begin(), body.end(), out.begin() + 8);
  put32(out.data() + total - 4, total);
  return out;
}

// An option: code, length, value padded to 4 bytes.
void option(std::vector<std::uint8_t>& body, std::uint16_t code, const std::uint8_t* value,
            std::size_t length) {
  const std::size_t at = body.size();
  body.resize(at + 4 + (length + 3) / 4 * 4, 0);
  put16(body.data() + at, code);
  put16(body.data() + at + 2, static_cast<std::uint16_t>(length));
  std::copy(value, value + length, body.begin() + static_cast<std::ptrdiff_t>(at + 4));
}

void end_of_options(std::vector<std::uint8_t>& body) {
  body.resize(body.size() + 4, 0);
}

}  // namespace

PcapngWriter::PcapngWriter(const std::filesystem::path& path, std::uint32_t snap_length)
    : file_(path), snap_length_(snap_length) {
  std::vector<std::uint8_t> shb(16, 0);
  put32(shb.data(), 0x1A2B3C4D);  // byte-order magic
  put16(shb.data() + 4, 1);       // version 1.0
  put16(shb.data() + 6, 0);
  put32(shb.data() + 8, 0xFFFFFFFF);  // section length: not given (-1)
  put32(shb.data() + 12, 0xFFFFFFFF);
  const auto b = block(0x0A0D0D0A, shb);
  file_.write(b.data(), b.size());
}

std::uint32_t PcapngWriter::add_interface(const std::string& name) {
  std::vector<std::uint8_t> idb(8, 0);
  put16(idb.data(), 1);  // LINKTYPE_ETHERNET
  put32(idb.data() + 4, snap_length_);
  option(idb, 2, reinterpret_cast<const std::uint8_t*>(name.data()), name.size());  // if_name
  const std::uint8_t nanoseconds = 9;
  option(idb, 9, &nanoseconds, 1);  // if_tsresol: 10^-9 s
  const std::uint8_t fcs = 4;
  option(idb, 13, &fcs, 1);  // if_fcslen: frames carry their 4-byte FCS
  end_of_options(idb);
  const auto b = block(0x00000001, idb);
  file_.write(b.data(), b.size());
  return interfaces_++;
}

void PcapngWriter::write(std::uint32_t interface, Picoseconds timestamp_ps, bool outbound,
                         const std::vector<std::uint8_t>& bytes) {
  const auto ns = static_cast<std::uint64_t>(timestamp_ps / kPsPerNs);
  const auto captured =
      static_cast<std::uint32_t>(std::min<std::size_t>(bytes.size(), snap_length_));
  std::vector<std::uint8_t> epb(20, 0);
  put32(epb.data(), interface);
  put32(epb.data() + 4, static_cast<std::uint32_t>(ns >> 32));
  put32(epb.data() + 8, static_cast<std::uint32_t>(ns));
  put32(epb.data() + 12, captured);
  put32(epb.data() + 16, static_cast<std::uint32_t>(bytes.size()));
  epb.insert(epb.end(), bytes.begin(), bytes.begin() + captured);
  epb.resize((epb.size() + 3) / 4 * 4, 0);
  std::uint8_t flags[4];
  put32(flags, (outbound ? 2U : 1U) | (4U << 5));  // direction; FCS length 4
  option(epb, 2, flags, 4);                        // epb_flags
  end_of_options(epb);
  const auto b = block(0x00000006, epb);
  file_.write(b.data(), b.size());
  ++records_;
}

}  // namespace gbesim
