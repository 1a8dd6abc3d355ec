// The PCI bus under the SystemC kernel, built from a scenario's hosts block: a DMA master
// writing 64-byte requests back to back, each answered by the next one at the edge its last data
// phase completes. Parked, each request takes exactly the closed form's clocks (address + data
// phases + turnaround, analysis/pci_cycles), so the number done in 1 ms is known exactly.

#include <gtest/gtest.h>

#include "analysis/pci_cycles.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

struct Case {
  int width_bits;
  int clock_mhz;
  Picoseconds period_ps;
};

class BackToBackDma : public ::testing::TestWithParam<Case> {};

TEST_P(BackToBackDma, EveryRequestTakesTheClosedFormsClocks) {
  const Case c = GetParam();
  gbesim::testing::SimFixture sim(
      R"({"name": "t", "description": "", "duration_ns": 1000000, "hosts": {"h": {
        "pci": {"width_bits": )" +
      std::to_string(c.width_bits) + R"(, "clock_mhz": )" + std::to_string(c.clock_mhz) + R"(},
        "dma": {"rx": {"command": "memory_write", "request_bytes": 64,
                       "master": {"width_bits": 64}}}}}})");
  sim.run();
  PciTransactionShape s;
  s.data_phases = pci_data_phases(0, 64, c.width_bits / 8);
  const std::int64_t per_request = pci_transaction_clocks(s);
  // The first address phase is at edge 2 (request sampled at 1, granted, GNT# seen at 2); a
  // request ends per_request - 1 clocks after its address phase.
  const std::int64_t last_edge = 1'000'000'000 / c.period_ps;
  const std::int64_t expected = (last_edge - 2 - (per_request - 1)) / per_request + 1;
  EXPECT_EQ(sim.scalar("h.rx", "requests_completed"), expected);
  EXPECT_EQ(sim.scalar("h.pci", "transactions"), expected);
  EXPECT_EQ(sim.scalar("h.pci", "data_clocks"), expected * s.data_phases);
  EXPECT_LE(sim.scalar("h.pci", "write_mbps"), sim.scalar("h.pci", "peak_mbps"));
  EXPECT_NEAR(sim.scalar("h.pci", "write_mbps"),
              64.0 * 1e6 / static_cast<double>(c.period_ps * per_request), 0.2);
}

INSTANTIATE_TEST_SUITE_P(Buses, BackToBackDma,
                         ::testing::Values(Case{32, 33, 30'000}, Case{64, 66, 15'000}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::to_string(info.param.width_bits) + "bit_" +
                                  std::to_string(info.param.clock_mhz) + "MHz";
                         });

}  // namespace
}  // namespace gbesim
