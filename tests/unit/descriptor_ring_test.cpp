// A NIC's descriptor ring as plain logic: fetch batches, the cache limit, buffer and write-back
// addresses with wrap-around, against hand-computed values.

#include "models/nic/descriptor_ring.hpp"

#include <gtest/gtest.h>

namespace gbesim {
namespace {

// An 8-entry ring of 16-byte descriptors at 0x1000 with 2 KB buffers at 0x10000; the engine
// holds 6, fetches when it holds 2 or fewer, 4 at a time.
DescriptorRingParams small_ring() {
  DescriptorRingParams p;
  p.ring_base = 0x1000;
  p.buffer_base = 0x10000;
  p.descriptors = 8;
  p.descriptor_bytes = 16;
  p.buffer_bytes = 2048;
  p.cache = 6;
  p.prefetch_threshold = 2;
  p.prefetch_batch = 4;
  return p;
}

TEST(DescriptorRing, FetchesInBatchesWhenLowAndNeverPastTheCache) {
  DescriptorRing r(small_ring());
  EXPECT_TRUE(r.starved());
  EXPECT_FALSE(r.next_fetch());  // nothing posted
  r.post(7);                     // the driver posts the ring less one
  EXPECT_FALSE(r.starved());
  auto f = r.next_fetch();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->address, 0x1000u);
  EXPECT_EQ(f->count, 4);
  EXPECT_EQ(f->bytes, 64);
  EXPECT_FALSE(r.next_fetch());  // one fetch at a time: 4 in flight > threshold 2
  r.fetch_done();
  EXPECT_EQ(r.cached(), 4);
  EXPECT_EQ(r.host_available(), 3);
  EXPECT_FALSE(r.next_fetch());  // holds 4 > 2
  EXPECT_TRUE(r.take());
  EXPECT_TRUE(r.take());
  // Holds 2: fetch min(batch 4, posted 3, room 6 - 2 = 4) = 3 from descriptor 4.
  f = r.next_fetch();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->address, 0x1000u + 4 * 16);
  EXPECT_EQ(f->count, 3);
  r.fetch_done();
  EXPECT_EQ(r.cached(), 5);
  EXPECT_EQ(r.host_available(), 0);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(r.take());
  EXPECT_FALSE(r.take());
  EXPECT_TRUE(r.starved());
  // The cache bounds a fetch: with 2 held and 6 room, a batch of 4 is cut to 6 - 2 = 4; with a
  // batch of 8 it would be cut to the room.
  DescriptorRingParams wide = small_ring();
  wide.prefetch_batch = 8;
  wide.prefetch_threshold = 3;
  DescriptorRing w(wide);
  w.post(7);
  f = w.next_fetch();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->count, 6);  // room 6 of 7 posted
}

TEST(DescriptorRing, BuffersAndWriteBacksFollowTheRingAndWrap) {
  DescriptorRing r(small_ring());
  // The first frame's third buffer, byte 100: buffer 2.
  EXPECT_EQ(r.buffer_address(2, 100), 0x10000u + 2 * 2048 + 100);
  r.consume(3);  // a 5000-byte frame took buffers 0..2
  EXPECT_EQ(r.buffer_address(0, 0), 0x10000u + 3 * 2048);
  r.consume(4);  // the next took 3..6; the one after starts at 7 and wraps to 0
  EXPECT_EQ(r.buffer_address(0, 8), 0x10000u + 7 * 2048 + 8);
  EXPECT_EQ(r.buffer_address(1, 0), 0x10000u);
  // Write-backs: the oldest unwritten descriptors, 16 bytes each.
  auto w = r.writeback(3);
  EXPECT_EQ(w.address, 0x1000u);
  EXPECT_EQ(w.bytes, 48);
  r.written_back(3);
  r.written_back(4);
  w = r.writeback(2);
  EXPECT_EQ(w.address, 0x1000u + 7 * 16);
  EXPECT_EQ(w.count, 2);
  r.written_back(2);
  EXPECT_EQ(r.writeback(1).address, 0x1000u + 1 * 16);  // 9 mod 8
  // A dropped frame's descriptors return to the cache.
  r.give_back(2);
  EXPECT_EQ(r.cached(), 2);
  EXPECT_FALSE(r.starved());
}

}  // namespace
}  // namespace gbesim
