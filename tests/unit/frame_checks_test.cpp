#include "models/mac/frame_checks.hpp"

#include <array>

#include <gtest/gtest.h>

#include "models/common/crc32.hpp"

namespace gbesim {
namespace {

const MacAddress kUs = MacAddress::for_station(2);
const MacAddress kThem = MacAddress::for_station(1);

Frame make(std::size_t size, MacAddress da = kUs, std::uint16_t type = kEtherTypeExperimental) {
  FrameHeader h;
  h.destination = da;
  h.source = kThem;
  h.length_type = type;
  Frame f;
  build_frame(f, h, client_bytes_for_frame_size(h, size), 1);
  return f;
}

RxVerdict check(const Frame& f, bool promiscuous = false, std::int64_t max = 1518) {
  return check_received_frame(f.bytes, RxFilter(kUs, max, promiscuous, true));
}

TEST(FrameChecks, AcceptsAnIntactFrameForThisStation) {
  EXPECT_EQ(check(make(64)), RxVerdict::ok);
  EXPECT_EQ(check(make(1518)), RxVerdict::ok);
  EXPECT_EQ(check(make(64, MacAddress::broadcast())), RxVerdict::ok);
}

TEST(FrameChecks, DiscardsFragmentsShorterThan64Bytes) {
  Frame f = make(64);
  f.bytes.resize(63);
  EXPECT_EQ(check(f), RxVerdict::undersize);
}

TEST(FrameChecks, FiltersOtherStationsUnlessPromiscuous) {
  const Frame f = make(64, MacAddress::for_station(9));
  EXPECT_EQ(check(f), RxVerdict::filtered);
  EXPECT_EQ(check(f, true), RxVerdict::ok);
}

TEST(FrameChecks, RejectsFramesLongerThanTheMaximum) {
  EXPECT_EQ(check(make(1519)), RxVerdict::too_long);
  EXPECT_EQ(check(make(9018), false, 9018), RxVerdict::ok);
}

TEST(FrameChecks, ATaggedFrameMayBeFourBytesLonger) {
  FrameHeader h;
  h.destination = kUs;
  h.source = kThem;
  h.vlan_tci = 1;
  Frame f;
  build_frame(f, h, client_bytes_for_frame_size(h, 1522), 1);
  EXPECT_EQ(check(f), RxVerdict::ok);
  build_frame(f, h, client_bytes_for_frame_size(h, 1523), 1);
  EXPECT_EQ(check(f), RxVerdict::too_long);
}

TEST(FrameChecks, DetectsACorruptedFcs) {
  Frame f = make(200);
  f.bytes[100] ^= 0x01;
  EXPECT_EQ(check(f), RxVerdict::fcs_error);
}

TEST(FrameChecks, AFrameMarkedIntactIsStillCheckedUnderTheTestSuitesVerification) {
  // The suite runs with GBESIM_VERIFY_FCS=1 (tests/support/sc_main_stub.cpp): a frame marked
  // intact is checked too, and one whose bytes changed without clearing the mark stops the
  // process instead of passing as received OK.
  ASSERT_TRUE(verifying_intact_fcs());
  Frame f = make(200);
  ASSERT_TRUE(f.fcs_intact);
  EXPECT_EQ(check_received_frame(f.bytes, RxFilter(kUs, 1518, false, true), f.fcs_intact),
            RxVerdict::ok);
  f.bytes[100] ^= 0x01;
  EXPECT_EQ(check_received_frame(f.bytes, RxFilter(kUs, 1518, false, true), false),
            RxVerdict::fcs_error);
  EXPECT_DEATH(check_received_frame(f.bytes, RxFilter(kUs, 1518, false, true), true),
               "a frame marked intact fails its FCS check");
}

TEST(FrameChecks, ChecksTheLengthField) {
  // Length 46 in a 64-byte frame: exact. Length 10 in a 64-byte frame: padded, fine.
  EXPECT_EQ(check(make(64, kUs, 46)), RxVerdict::ok);
  EXPECT_EQ(check(make(64, kUs, 10)), RxVerdict::ok);
  // Length 100 but 182 bytes of data: an in-range length error.
  EXPECT_EQ(check(make(200, kUs, 100)), RxVerdict::length_error);
  EXPECT_EQ(check(make(200, kUs, 1510)), RxVerdict::length_out_of_range);
}

TEST(PauseFrame, HasTheAnnex31BLayout) {
  Frame f;
  build_pause_frame(f, kThem, 0x1234);
  ASSERT_EQ(f.size(), 64u);
  EXPECT_EQ(destination_of(f.bytes), MacAddress::pause_multicast());
  EXPECT_EQ(source_of(f.bytes), kThem);
  EXPECT_EQ(f.bytes[12], 0x88);
  EXPECT_EQ(f.bytes[13], 0x08);
  EXPECT_EQ(f.bytes[14], 0x00);  // opcode 0x0001
  EXPECT_EQ(f.bytes[15], 0x01);
  EXPECT_EQ(f.bytes[16], 0x12);  // pause_time
  EXPECT_EQ(f.bytes[17], 0x34);
  for (std::size_t i = 18; i < 60; ++i) EXPECT_EQ(f.bytes[i], 0) << i;  // reserved, zero
  EXPECT_TRUE(fcs_ok(f.bytes.data(), f.size()));
  EXPECT_EQ(check(f), RxVerdict::mac_control);
  const auto control = parse_mac_control(f.bytes);
  ASSERT_TRUE(control);
  EXPECT_EQ(control->opcode, kOpcodePause);
  EXPECT_EQ(control->pause_quanta, 0x1234);
}

TEST(FrameChecks, CountsClientOctetsAsClause30Does) {
  EXPECT_EQ(client_octets(make(64).bytes), 46u);
  EXPECT_EQ(client_octets(make(1518).bytes), 1500u);
}

TEST(MacAddressKey, EveryOctetCountsAndOnlyTheSixOctets) {
  // The key is the six octets (first in the low byte on this little-endian machine), nothing
  // else: octets 5 and 6 are read by a separate load, and the bytes after them are ignored.
  const std::array<std::uint8_t, 8> a = {0x02, 0x00, 0x00, 0x00, 0x12, 0x34, 0xAA, 0xBB};
  EXPECT_EQ(address_key(a.data()), 0x3412'0000'0002ULL);
  for (std::size_t i = 0; i < 6; ++i) {
    auto b = a;
    b[i] ^= 0x80;
    EXPECT_NE(address_key(b.data()), address_key(a.data())) << "octet " << i;
  }
  auto c = a;
  c[6] = 0;
  c[7] = 0;
  EXPECT_EQ(address_key(c.data()), address_key(a.data()));
  EXPECT_EQ(address_key(MacAddress::broadcast().octets.data()), kBroadcastKey);
  EXPECT_EQ(address_key(MacAddress::for_station(7).octets.data()),
            address_key(MacAddress::for_station(7).octets.data()));
  EXPECT_NE(address_key(MacAddress::for_station(7).octets.data()),
            address_key(MacAddress::for_station(263).octets.data()));
}

}  // namespace
}  // namespace gbesim
