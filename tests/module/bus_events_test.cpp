// The events a host's bus reports, held to the counters the same bus keeps: every clock the
// events show is one the bus counts, in the same kind of phase, and every packet on a PCI
// Express link is a start and an end event. Sweep points of scenarios/pci-ceiling.json, 300 us
// each (`gbesim sweep scenarios/pci-ceiling.json --list`).

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "analysis/bus_timeline.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using gbesim::testing::read_text;
using gbesim::testing::RecordedEvent;
using gbesim::testing::SimFixture;
using gbesim::testing::source_dir;

LoadOptions point(std::size_t run) {
  LoadOptions o;
  o.run = run;
  o.sets = {"duration_ns=300000"};
  return o;
}

// The recorded events as events.csv rows (the detail: its token, its number or both).
std::vector<EventRow> rows_of(const std::vector<RecordedEvent>& events) {
  std::vector<EventRow> rows;
  for (const RecordedEvent& e : events) {
    std::string detail = e.detail;
    if (e.value >= 0) detail += (detail.empty() ? "" : " ") + std::to_string(e.value);
    rows.push_back({e.time_ps, e.component, std::string(to_string(e.kind)), e.frame_id,
                    static_cast<std::int64_t>(e.bytes), detail});
  }
  return rows;
}

// One elaboration per process: one point per test.
class BusEventsAt : public ::testing::TestWithParam<std::size_t> {};

// PCI 32/33 receiving 64-byte frames and sending 1518-byte ones (82540EM); PCI-X 64/133 sending
// 1518-byte frames with split reads (Split Responses, the bridge's completions).
INSTANTIATE_TEST_SUITE_P(PciCeiling, BusEventsAt, ::testing::Values(0, 76, 496));

TEST_P(BusEventsAt, EveryClockTheEventsShowIsOneTheBusCountsInTheSamePhase) {
  SimFixture sim(read_text(source_dir() / "scenarios/pci-ceiling.json"), point(GetParam()));
  sim.record_all_events();
  sim.run();
  const BusTimeline t = bus_timeline(rows_of(sim.events()));
  ASSERT_GT(t.clock_ps, 0);
  std::int64_t address = 0, wait = 0, data = 0, turnaround = 0, phases = 0, bytes = 0;
  for (const BusTransaction& x : t.transactions) {
    address += x.ps_in(BusPhase::address) / t.clock_ps;
    // The bus counts the clocks between data phases as waits too.
    wait += (x.ps_in(BusPhase::wait) + x.ps_in(BusPhase::data)) / t.clock_ps - x.data_phases;
    data += x.ps_in(BusPhase::data) / t.clock_ps;
    turnaround += x.ps_in(BusPhase::turnaround) / t.clock_ps;
    phases += x.data_phases;
    bytes += x.bytes;
    EXPECT_EQ(x.end_ps - x.start_ps, x.ps_in(BusPhase::address) + x.ps_in(BusPhase::wait) +
                                         x.ps_in(BusPhase::data) + x.ps_in(BusPhase::turnaround));
  }
  EXPECT_GT(t.transactions.size(), 100u);
  EXPECT_EQ(static_cast<double>(t.transactions.size()), sim.scalar("h.pci", "transactions"));
  EXPECT_EQ(static_cast<double>(address), sim.scalar("h.pci", "address_clocks"));
  EXPECT_EQ(static_cast<double>(wait), sim.scalar("h.pci", "wait_clocks"));
  EXPECT_EQ(static_cast<double>(phases), sim.scalar("h.pci", "data_clocks"));
  EXPECT_EQ(static_cast<double>(turnaround), sim.scalar("h.pci", "turnaround_clocks"));
  EXPECT_EQ(static_cast<double>(bytes),
            sim.scalar("h.pci", "bytes_read") + sim.scalar("h.pci", "bytes_written"));
  EXPECT_GE(data, phases);
}

TEST(BusEvents, EveryPacketOnAPciExpressLinkIsAStartAndAnEndEvent) {
  // PCIe x1, 82573 sending 1518-byte frames.
  SimFixture sim(read_text(source_dir() / "scenarios/pci-ceiling.json"), point(571));
  sim.record_all_events();
  sim.run();
  std::map<std::string, std::int64_t> count;
  for (const RecordedEvent& e : sim.events())
    count[e.component + " " + std::string(to_string(e.kind))] += 1;
  for (const char* d : {"up", "down"}) {
    SCOPED_TRACE(d);
    const std::string c = std::string("h.pci.") + d + " ";
    // The link counts a packet as it takes it up.
    EXPECT_EQ(static_cast<double>(count[c + "tlp_start"]),
              sim.scalar("h.pci", std::string("tlps_") + d));
    EXPECT_EQ(static_cast<double>(count[c + "dllp_start"]),
              sim.scalar("h.pci", std::string("dllps_") + d));
    // One packet at a time per direction: the one on the link at the end has not ended.
    EXPECT_LE(count[c + "tlp_start"] + count[c + "dllp_start"] - count[c + "tlp_end"] -
                  count[c + "dllp_end"],
              1);
    EXPECT_GT(count[c + "tlp_end"], 100);
  }
}

}  // namespace
}  // namespace gbesim
