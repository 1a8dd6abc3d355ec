#include "models/common/crc32.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/common/rng.hpp"

namespace gbesim {
namespace {

std::uint32_t crc_of(const std::string& s) {
  return crc32(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// Bit-at-a-time CRC-32 straight from the definition: the independent reference.
std::uint32_t crc32_bitwise(const std::uint8_t* data, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFF;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= data[i];
    for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ 0xEDB88320 : c >> 1;
  }
  return ~c;
}

TEST(Crc32, MatchesTheStandardCheckValue) {
  // The CRC-32/IEEE "check" value of the ASCII digits 1..9.
  EXPECT_EQ(crc_of("123456789"), 0xCBF43926u);
}

TEST(Crc32, MatchesKnownVectors) {
  EXPECT_EQ(crc_of(""), 0x00000000u);
  EXPECT_EQ(crc_of("a"), 0xE8B7BE43u);
  EXPECT_EQ(crc_of("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
}

TEST(Crc32, FastPathsAgreeWithTheBitwiseDefinitionForEveryLengthAndAlignment) {
  RngStream rng(7, "crc");
  std::vector<std::uint8_t> buffer(4200);
  for (auto& b : buffer) b = static_cast<std::uint8_t>(rng.next_u64());
  for (std::size_t offset : {0u, 1u, 3u, 8u, 13u}) {
    for (std::size_t n = 0; n <= 2100; ++n) {
      const std::uint8_t* p = buffer.data() + offset;
      const std::uint32_t expected = crc32_bitwise(p, n);
      ASSERT_EQ(crc32(p, n), expected) << "length " << n << " offset " << offset;
      ASSERT_EQ(crc32_portable(p, n), expected) << "length " << n << " offset " << offset;
    }
  }
  for (std::size_t n : {4096u, 4100u, 4199u}) {
    ASSERT_EQ(crc32(buffer.data(), n), crc32_bitwise(buffer.data(), n)) << n;
  }
}

TEST(Crc32, AnIntactFrameLeavesTheConstantResidue) {
  std::vector<std::uint8_t> frame(64 + 4);
  for (std::size_t i = 0; i < 64; ++i) frame[i] = static_cast<std::uint8_t>(i * 7);
  write_fcs(frame.data(), 64);
  EXPECT_EQ(crc32(frame.data(), frame.size()), kCrc32Residue);
  EXPECT_TRUE(fcs_ok(frame.data(), frame.size()));
  frame[10] ^= 0x10;  // one flipped bit anywhere is caught
  EXPECT_FALSE(fcs_ok(frame.data(), frame.size()));
}

TEST(Crc32, FcsIsTransmittedLeastSignificantByteFirst) {
  std::string digits = "123456789";
  std::vector<std::uint8_t> bytes(digits.begin(), digits.end());
  bytes.resize(bytes.size() + 4);
  write_fcs(bytes.data(), 9);
  EXPECT_EQ(bytes[9], 0x26);
  EXPECT_EQ(bytes[10], 0x39);
  EXPECT_EQ(bytes[11], 0xF4);
  EXPECT_EQ(bytes[12], 0xCB);
}

}  // namespace
}  // namespace gbesim
