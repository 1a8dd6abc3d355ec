#pragma once
// CRC-32 of IEEE 802.3 (3.2.9): generator 0x04C11DB7, processed LSB first (reflected form
// 0xEDB88320), register preset to all ones, result complemented. The FCS field carries the
// complemented CRC least-significant byte first, so a frame whose FCS is intact yields the
// constant residue kCrc32Residue when the CRC is run over DA..FCS.

#include <cstddef>
#include <cstdint>

namespace gbesim {

inline constexpr std::uint32_t kCrc32Residue = 0x2144DF1C;

std::uint32_t crc32(const std::uint8_t* data, std::size_t length);
// The CRC-32 of a message continued by more bytes: crc32_extend(crc32(a), b) == crc32(a + b),
// and crc32_extend(0, d) == crc32(d). For checksums of files read piece by piece.
std::uint32_t crc32_extend(std::uint32_t crc, const std::uint8_t* data, std::size_t length);
// The same, table-driven only (no carry-less multiply): the reference for tests and the path on
// processors without PCLMULQDQ.
std::uint32_t crc32_portable(const std::uint8_t* data, std::size_t length);

// The CRC register advanced over bytes (table-driven; no preset, no final complement):
// crc32(d) == ~crc32_register_update(0xFFFFFFFF, d). For messages of one length the update is
// linear over GF(2): update(r, a ^ b) == update(r, a) ^ update(0, b), which FrameBuilder uses.
std::uint32_t crc32_register_update(std::uint32_t reg, const std::uint8_t* data,
                                    std::size_t length);

// Appends nothing: writes the 4 FCS bytes of data[0..length) at data[length..length+4).
void write_fcs(std::uint8_t* data, std::size_t length);

// True when the last 4 bytes of frame[0..length) are the correct FCS of the bytes before them.
inline bool fcs_ok(const std::uint8_t* frame, std::size_t length) {
  return length >= 4 && crc32(frame, length) == kCrc32Residue;
}

}  // namespace gbesim
