#include "models/common/frame.hpp"

#include <gtest/gtest.h>

#include "models/common/crc32.hpp"
#include "models/mac/frame_checks.hpp"

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
  EXPECT_EQ(f.bytes[18], 0);  // the counting pattern
  EXPECT_EQ(f.bytes[18 + 91], 91);
  EXPECT_EQ(f.bytes[18 + 92], 0x01);  // then the sequence number, big-endian, to the end
  EXPECT_EQ(f.bytes[18 + 99], 0x08);
  EXPECT_EQ(f.size(), 18u + 100 + 4);
}

TEST(Frame, TheBuilderMakesTheSameBytesAsBuildFrame) {
  // The builder's FCS comes from CRC linearity (a per-size template and the sequence bytes); it
  // must equal the FCS computed over the bytes, for every size, header and sequence.
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (const bool tagged : {false, true}) {
    FrameBuilder builder(header(tagged));
    for (int i = 0; i < 2000; ++i) {
      // A few sizes recur (templates are reused), many do not (more than the builder keeps), and
      // some client data is padded or shorter than the sequence.
      const std::size_t client = i % 7 == 0   ? next() % 12
                                 : i % 2 == 0 ? 46 + next() % 10
                                              : 30 + next() % 1500;
      const std::uint64_t sequence = i % 5 == 0 ? next() : next() % 1000;
      Frame fast;
      Frame slow;
      builder.build(fast, client, sequence);
      build_frame(slow, header(tagged), client, sequence);
      ASSERT_EQ(fast.bytes, slow.bytes) << "client " << client << " sequence " << sequence;
      ASSERT_TRUE(fcs_ok(fast.bytes.data(), fast.size()));
      const std::uint32_t direct = crc32_portable(fast.bytes.data(), fast.size() - kFcsBytes);
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(fast.bytes[fast.size() - 4 + k], static_cast<std::uint8_t>(direct >> (8 * k)));
    }
  }
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

TEST(Frame, EveryBuilderMarksItsFrameIntactAndThePoolForgetsTheMark) {
  FrameHeader h;
  h.destination = MacAddress::for_station(2);
  h.source = MacAddress::for_station(1);
  FramePool pool;
  {
    FramePtr a = pool.acquire();
    EXPECT_FALSE(a->fcs_intact);  // nothing written yet
    build_frame(*a, h, 100, 7);
    EXPECT_TRUE(a->fcs_intact);
    EXPECT_TRUE(fcs_ok(a->bytes.data(), a->size()));
    FramePtr copy = pool.copy(*a);
    EXPECT_TRUE(copy->fcs_intact);
    copy->bytes[20] ^= 0x40;
    copy->fcs_intact = false;
    FramePtr copy_of_changed = pool.copy(*copy);
    EXPECT_FALSE(copy_of_changed->fcs_intact);
  }
  FramePtr reused = pool.acquire();  // one of the frames above, bytes and all
  EXPECT_EQ(pool.allocated(), 3u);
  EXPECT_FALSE(reused->fcs_intact);
  FrameBuilder builder(h);
  for (std::size_t client : {46u, 1000u, 10u}) {  // template, template, padded (build_frame)
    Frame f;
    builder.build(f, client, 12345);
    EXPECT_TRUE(f.fcs_intact) << client;
    EXPECT_TRUE(fcs_ok(f.bytes.data(), f.size())) << client;
  }
  Frame pause;
  build_pause_frame(pause, h.source, 0xFFFF);
  EXPECT_TRUE(pause.fcs_intact);
  EXPECT_TRUE(fcs_ok(pause.bytes.data(), pause.size()));
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
