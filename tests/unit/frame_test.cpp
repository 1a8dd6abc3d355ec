#include "models/common/frame.hpp"

#include <gtest/gtest.h>

#include "models/common/crc32.hpp"

namespace gbesim {
namespace {

FrameHeader header(bool tagged = false) {
  FrameHeader h;
  h.destination = MacAddress::for_station(2);
  h.source = MacAddress::for_station(1);
  if (tagged) h.vlan_tci = static_cast<std::uint16_t>(5 << 13 | 100);
  return h;
}

TEST(Frame, BuildsTheRequestedSizeWithAValidFcs) {
  for (std::size_t size : {64u, 65u, 128u, 1518u, 9018u}) {
    Frame f;
    build_frame(f, header(), client_bytes_for_frame_size(header(), size), 7);
    EXPECT_EQ(f.size(), size);
    EXPECT_TRUE(fcs_ok(f.bytes.data(), f.size())) << size;
  }
}

TEST(Frame, PadsShortClientDataToTheMinimumFrame) {
  Frame f;
  build_frame(f, header(), 10, 1);
  EXPECT_EQ(f.size(), 64u);  // 14 header + 46 data (10 + 36 pad) + 4 FCS
  for (std::size_t i = kHeaderBytes + 10; i < 60; ++i) EXPECT_EQ(f.bytes[i], 0) << i;
  Frame tagged;
  build_frame(tagged, header(true), 0, 1);
  EXPECT_EQ(tagged.size(), 64u);  // 18 header + 42 data + 4 FCS (802.3 3.2.7)
  EXPECT_EQ(min_client_data_bytes(header(true)), 42u);
}

TEST(Frame, FieldsAreWhereTheStandardPutsThem) {
  Frame f;
  build_frame(f, header(true), 100, 0x0102030405060708ULL);
  EXPECT_EQ(destination_of(f.bytes), MacAddress::for_station(2));
  EXPECT_EQ(source_of(f.bytes), MacAddress::for_station(1));
  EXPECT_TRUE(is_vlan_tagged(f.bytes));
  EXPECT_EQ(f.bytes[14], (5 << 5) | 0);  // PCP 5, DEI 0, VID high bits 0
  EXPECT_EQ(f.bytes[15], 100);
  EXPECT_EQ(length_type_of(f.bytes), kEtherTypeExperimental);
  EXPECT_EQ(client_data_offset(f.bytes), 18u);
  EXPECT_EQ(f.bytes[18], 0x01);  // sequence number, big-endian
  EXPECT_EQ(f.bytes[25], 0x08);
  EXPECT_EQ(f.bytes[26], 8);  // then the counting pattern
}

TEST(Frame, PoolRecyclesFramesInsteadOfAllocating) {
  FramePool pool;
  for (int i = 0; i < 1000; ++i) {
    FramePtr a = pool.acquire();
    FramePtr b = pool.acquire();
    EXPECT_NE(a.get(), b.get());
  }
  EXPECT_EQ(pool.allocated(), 2u);
  EXPECT_EQ(pool.frames_created(), 2000u);
}

TEST(MacAddressText, ParsesAndPrints) {
  const auto a = MacAddress::parse("02:00:00:00:0a:FF");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->to_string(), "02:00:00:00:0a:ff");
  EXPECT_TRUE(MacAddress::parse("02-00-00-00-0a-ff"));
  EXPECT_FALSE(MacAddress::parse("02:00:00:00:0a"));
  EXPECT_FALSE(MacAddress::parse("02:00:00:00:0a:fg"));
  EXPECT_FALSE(MacAddress::parse("02:00-00:00:0a:ff"));
  EXPECT_TRUE(MacAddress::pause_multicast().is_multicast());
  EXPECT_FALSE(MacAddress::for_station(3).is_multicast());
}

}  // namespace
}  // namespace gbesim
