// The closed-form bus clocks per frame of a NIC path (analysis/pci_cycles), computed by hand.

#include "analysis/pci_cycles.hpp"

#include <gtest/gtest.h>

namespace gbesim {
namespace {

NicPathShape intel_on_32_33() {
  NicPathShape s;
  s.width_bytes = 4;
  s.bridge_read_latency_clocks = 8;
  s.prefetch_bytes = 256;
  s.frame_bytes = 1518;
  s.burst_bytes = 256;
  s.fetch_batch = 16;
  s.writeback_group = 1;
  s.register_read_latency_clocks = 4;
  s.frames_per_interrupt = 10;
  return s;
}

// Receive, 1514 bytes after the FCS is stripped: five 64-phase writes (64 + 2 clocks each) and
// one of 59 phases (234 bytes): 391. A 256-byte descriptor read: 1 + 8 + 63 + 1 = 73 clocks for
// 16 frames. A 16-byte write-back: 4 + 2. Per interrupt the cause read (1 + 4 + 1) and the tail
// write (3), over 10 frames.
TEST(PciCycles, ReceivePathClocksPerFrameByHand) {
  const NicPathClocks c = nic_clocks_per_frame(intel_on_32_33());
  EXPECT_EQ(c.data, 391);
  EXPECT_EQ(c.fetch, 73.0 / 16);
  EXPECT_EQ(c.writeback, 6);
  EXPECT_DOUBLE_EQ(c.registers, 0.9);
  EXPECT_DOUBLE_EQ(c.total(), 391 + 73.0 / 16 + 6 + 0.9);
}

// Transmit reads the whole 1518 bytes, each 256-byte read paying the 8-clock latency:
// 5 x (1 + 8 + 63 + 1) + (1 + 8 + 59 + 1) = 434. With a 64-byte prefetch each read is cut at
// every line: 5 x 4 x 25 + (3 x 25 + 21) = 596.
TEST(PciCycles, TransmitReadsPayTheLatencyAtEveryDisconnect) {
  NicPathShape s = intel_on_32_33();
  s.transmit = true;
  EXPECT_EQ(nic_clocks_per_frame(s).data, 434);
  s.prefetch_bytes = 64;
  EXPECT_EQ(nic_clocks_per_frame(s).data, 596);
  s.read_multiple = false;  // Memory Read Line: to the end of each line, the same here
  EXPECT_EQ(nic_clocks_per_frame(s).data, 596);
}

// A received 9018-byte frame (9014 without the FCS) fills 5 buffers of 2 KB: four full ones of
// eight 64-phase writes (66 clocks each) and one of 822 bytes (3 x 66 + 16). Its 5 descriptors
// cost 5/16 of a 73-clock fetch each and go back together in one 80-byte write (1 + 1 + 19 + 1).
TEST(PciCycles, AJumboFrameFillsSeveralBuffers) {
  NicPathShape s = intel_on_32_33();
  s.frame_bytes = 9018;
  const NicPathClocks c = nic_clocks_per_frame(s);
  EXPECT_EQ(c.data, 4 * 8 * 66 + 3 * 66 + 16);
  EXPECT_EQ(c.fetch, 5 * 73.0 / 16);
  EXPECT_EQ(c.writeback, 22);
}

// 64-bit halves the data phases: 1514 bytes are 190 + ... phases of 8 bytes.
TEST(PciCycles, SixtyFourBitHalvesTheDataPhases) {
  NicPathShape s = intel_on_32_33();
  s.width_bytes = 8;
  // 5 x (32 + 2) + (30 + 2) (234 bytes = 29.25 -> 30 phases)
  EXPECT_EQ(nic_clocks_per_frame(s).data, 5 * 34 + 32);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// PCI-X 32-bit NIC, split reads of up to 512 bytes, 30-clock bridge latency: a 64-byte frame is
// one 64-byte read: Split Response (address, attribute, decode A, response, turnaround: 5) and
// the completion, 16 phases 32 bits wide (address, attribute, decode, 1 + 15 + 1 = 20); the bus
// then idles 30 + 1 clocks. The 256-byte descriptor batch: 5 + (64 + 4) for 16 frames, and its
// own 31 idle clocks. Write-back of 16 bytes: 1 + 1 + 1 + 1 + 3 + 1 = 8.
TEST(PciCycles, PciXSplitReadsPayTheLatencyAsIdleClocks) {
  NicPathShape s;
  s.transmit = true;
  s.pcix = true;
  s.width_bytes = 4;
  s.bridge_read_latency_clocks = 30;
  s.split_read_bytes = 512;
  s.frame_bytes = 64;
  s.burst_bytes = 256;
  s.fetch_batch = 16;
  s.read_icr = false;
  s.frames_per_interrupt = 1e9;
  const NicPathClocks c = nic_clocks_per_frame(s);
  EXPECT_EQ(c.data, 25);
  EXPECT_DOUBLE_EQ(c.fetch, (5 + 68) / 16.0);
  EXPECT_EQ(c.writeback, 8);
  EXPECT_DOUBLE_EQ(c.wait, 31 + 31 / 16.0);
  EXPECT_DOUBLE_EQ(c.total(), c.busy() + c.wait);
}

}  // namespace
}  // namespace gbesim
