// The 2003 review's Intel 82540EM on 32-bit/33 MHz PCI (docs/references.md, Validation 4),
// simulated with scenarios/nic-review-2003.json's calibrated host and its board profile (driver
// costs in cycles at 3060 MHz): receive within 10 % of 840 Mbit/s, transmit within 10 % of
// 690 Mbit/s, transmit below receive, CPU within 25 %; small requests cost throughput and CPU.
// And the calibration itself: the bridge gives a long DMA stream 100 MB/s reading and 120 MB/s
// writing (the practical 32/33 figures the bridge was set to).

#include <gtest/gtest.h>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

std::string review() {
  return gbesim::testing::read_text(gbesim::testing::source_dir() /
                                    "scenarios/nic-review-2003.json");
}

struct Point {
  double mbps;
  double cpu;
};

Point run(const std::string& direction, std::int64_t request_bytes,
          const std::string& profile = "intel-82540em-onboard") {
  LoadOptions o;
  o.sets = {"hosts.pc.nic.profile=" + profile, "hosts.pc.app.direction=" + direction,
            "hosts.pc.app.request_bytes=" + std::to_string(request_bytes), "duration_ns=20000000"};
  gbesim::testing::SimFixture sim(review(), o);
  sim.run();
  const char* which = direction == "receive" ? "receive_throughput" : "send_throughput";
  return {sim.scalar("pc.stack", which) / 1e6, 100 * sim.scalar("pc.driver", "cpu_utilisation")};
}

// The calibration card's figures (docs/host.md, "Calibration: what is fitted, on what"): throughput
// within 10 %, CPU within 25 % (relative) -- the issue's tolerances. The per-frame costs were
// fitted to the P/E index (Mbit/s per % CPU) at 512 KB, so throughput and CPU at each point are
// predictions.
TEST(NicReview2003, ReceiveCeilingWithinTenPercentOf840) {
  const Point p = run("receive", 524288);
  EXPECT_NEAR(p.mbps, 840, 84);
  EXPECT_NEAR(p.cpu, 24, 0.25 * 24);
}

TEST(NicReview2003, TransmitCeilingWithinTenPercentOf690AndBelowReceive) {
  const Point p = run("send", 524288);
  EXPECT_NEAR(p.mbps, 690, 69);
  EXPECT_NEAR(p.cpu, 37, 0.25 * 37);
  EXPECT_LT(p.mbps, 0.9 * 840);  // clearly below the receive figure, by the read latency alone
}

TEST(NicReview2003, TransmitAtOneKilobyteWithinTenPercentOf690) {
  EXPECT_NEAR(run("send", 1024).mbps, 690, 69);
}

// 1 KB requests: 809 Mbit/s at 93 % CPU in the review (the per-request cost is fitted to the
// P/E index there).
TEST(NicReview2003, OneKilobyteRequestsLoadTheCpu) {
  const Point p = run("receive", 1024);
  EXPECT_NEAR(p.mbps, 809, 81);
  EXPECT_NEAR(p.cpu, 93, 0.25 * 93);
}

// The second calibration card, the Surecom EP-320G-TX1 (DP83821, driver 5.0.4.17). Fitted on it
// (docs/host.md, "Calibration"): the Windows driver's IHR holdoff (500 us) and MXDMA burst (32 B),
// each chosen among the register's steps, on its throughput at 512 KB; then its per-frame costs
// on its P/E index there. The issue's tolerances: throughput within 10 %, CPU within 25 %.
TEST(NicReview2003, TheSurecomReceivesAsTheReviewAt512KB) {
  const Point p = run("receive", 524288, "surecom-ep-320g-tx1");
  EXPECT_NEAR(p.mbps, 480, 48);
  EXPECT_NEAR(p.cpu, 19, 0.25 * 19);
}

TEST(NicReview2003, TheSurecomSendsAsTheReviewAt512KB) {
  const Point p = run("send", 524288, "surecom-ep-320g-tx1");
  EXPECT_NEAR(p.mbps, 420, 42);
  EXPECT_NEAR(p.cpu, 27, 0.25 * 27);
}

// Predicted, not fitted: the Surecom at the review's other request sizes. (Its CPU at 1 KB,
// measured 45 %, comes out at 64 %: outside the tolerance, docs/host.md says why.)
TEST(NicReview2003, TheSurecomsReceiveAtOneKilobyteIsPredictedWithinTenPercent) {
  EXPECT_NEAR(run("receive", 1024, "surecom-ep-320g-tx1").mbps, 497, 49.7);
}

TEST(NicReview2003, TheSurecomsReceiveAtFourKilobytesIsPredictedWithinTenPercent) {
  EXPECT_NEAR(run("receive", 4096, "surecom-ep-320g-tx1").mbps, 520, 52);
}

TEST(NicReview2003, TheSurecomsTransmitAtFourKilobytesIsPredictedWithinTolerance) {
  const Point p = run("send", 4096, "surecom-ep-320g-tx1");
  EXPECT_NEAR(p.mbps, 408, 40.8);
  EXPECT_NEAR(p.cpu, 39, 0.25 * 39);
}

// 128-byte requests: the CPU is saturated and throughput collapses far below the large-request
// ceiling.
TEST(NicReview2003, SmallRequestsSaturateTheCpu) {
  const Point p = run("receive", 128);
  EXPECT_GT(p.cpu, 98);
  EXPECT_LT(p.mbps, 300);
}

// A back-to-back 4 KB Memory Read Multiple stream through the review's bridge: 128-byte prefetch
// disconnects, 10-clock read latency -> 32 data phases per 42 clocks of 30 ns = 99.2 MB/s.
TEST(NicReview2003, BridgeReadsAtTheCalibrated100MBps) {
  LoadOptions o;
  o.sets = {
      "stations={}", "links=[]",
      R"(hosts.pc={"pci": {"width_bits": 32, "clock_mhz": 33}, "bridge": {"read_latency_clocks": 10, "prefetch_bytes": 128, "cache_line_bytes": 64, "posted_write_bytes": 256, "memory_write_mbps": 120}, "dma": {"d": {"target": "bridge", "command": "memory_read_multiple", "request_bytes": 4096, "max_outstanding": 4}}})",
      "duration_ns=2000000"};
  gbesim::testing::SimFixture sim(review(), o);
  sim.run();
  EXPECT_NEAR(sim.scalar("pc.pci", "read_mbps"), 100, 2);
}

}  // namespace
}  // namespace gbesim
