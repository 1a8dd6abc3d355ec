// events.csv and trace.vcd from every model, through the gbesim binary: a frame's bus
// transactions against the closed-form PCI cycle accounting (analysis/pci_cycles), the
// components filter, a switch's drops against its counters, the VCD's interrupt line against
// the NIC's events, and `gbesim events`.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/bus_timeline.hpp"
#include "analysis/pci_cycles.hpp"
#include "models/common/event.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

const std::string kPciCeiling = (source_dir() / "scenarios/pci-ceiling.json").string();

std::vector<EventRow> events_of(const std::filesystem::path& file) {
  return event_rows(parse_csv(read_text(file), file.string()));
}

std::string scalar_of(const std::filesystem::path& file, const std::string& component,
                      const std::string& name) {
  for (const auto& row : read_csv(file))
    if (row.size() == 4 && row[0] == component && row[1] == name) return row[3];
  ADD_FAILURE() << "no scalar " << component << " " << name;
  return "";
}

// Run 76 of pci-ceiling: the 82540EM sends 1518-byte frames on PCI 32/33 (a bridge with an
// 8-clock read latency and 256-byte prefetch). Each frame is one 1518-byte read, which the bridge
// disconnects at every 256-byte prefetch boundary: five reads of 64 data phases and one of 60,
// each 1 + 8 + (N - 1) + 1 clocks -- 434 clocks, the data part of the 445.5 per frame the closed
// form gives for this point (analysis.h.tx_bus_clocks_per_frame); then its status write-back,
// 6 clocks. The driver's register accesses come between; while they wait, the NIC's latency
// timer may cut its reads (the closed form counts no such cut), and the bridge's prefetch
// boundaries move.
TEST(Events, A1518ByteFrameSentOnPci3233HoldsTheBusForTheClocksOfTheClosedForm) {
  const auto dir = fresh_directory("events-pci-frame");
  const auto r =
      run_gbesim({"run", kPciCeiling, "--point", "76", "--set", "duration_ns=1300000", "--quiet",
                  "--out", "o", "--trace", "events:components=h.pci.nic,from=1ms,to=1200us"},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<EventRow> rows = events_of(dir / "o/events.csv");
  for (const auto& row : rows) ASSERT_EQ(row.component, "h.pci.nic");
  const BusTimeline t = bus_timeline(rows);
  EXPECT_EQ(t.clock_ps, 30'000);
  std::map<std::uint64_t, std::vector<const BusTransaction*>> by_frame;
  std::vector<std::uint64_t> order;
  for (const auto& x : t.transactions) {
    if (x.frame_id == 0) continue;
    if (by_frame[x.frame_id].empty()) order.push_back(x.frame_id);
    by_frame[x.frame_id].push_back(&x);
  }
  ASSERT_GE(order.size(), 4u);  // about 14 us a frame: some 14 frames in the window
  NicPathShape shape;
  shape.transmit = true;
  shape.bridge_read_latency_clocks = 8;
  shape.prefetch_bytes = 256;
  shape.cache_line_bytes = 64;
  shape.frame_bytes = 1518;
  shape.burst_bytes = 2048;  // the 82540EM's max_burst_bytes
  const NicPathClocks closed = nic_clocks_per_frame(shape);
  EXPECT_EQ(closed.data, 434);
  // Every frame whole in the window (not the first or the last, which the window may cut).
  int uncut = 0, cut = 0;
  for (std::size_t f = 1; f + 1 < order.size(); ++f) {
    SCOPED_TRACE(f);
    const auto& xs = by_frame[order[f]];
    std::int64_t clocks = 0, phases = 0, bytes = 0;
    bool timer = false;
    for (const BusTransaction* x : xs) {
      clocks += (x->end_ps - x->start_ps) / t.clock_ps;
      phases += x->data_phases;
      bytes += x->bytes;
      timer = timer || x->ending == "latency_timer";
    }
    EXPECT_EQ(bytes, 1518);
    EXPECT_EQ(phases, pci_data_phases(0, 1518, 4));
    // Every read, cut or not: 1 + 8 + (N - 1) + 1 = N + 9 clocks.
    EXPECT_EQ(clocks, phases + 9 * static_cast<std::int64_t>(xs.size()));
    if (timer) {
      ++cut;
      continue;
    }
    ++uncut;
    ASSERT_EQ(xs.size(), 6u);
    for (const BusTransaction* x : xs) {
      PciTransactionShape read;
      read.read = true;
      read.latency_clocks = 8;
      read.data_phases = x->data_phases;
      EXPECT_EQ((x->end_ps - x->start_ps) / t.clock_ps, pci_transaction_clocks(read));
      EXPECT_EQ(x->command, "memory_read_multiple");
    }
    EXPECT_EQ(static_cast<double>(clocks), closed.data);
    EXPECT_EQ(xs.front()->ending, "disconnect");
    EXPECT_EQ(xs.back()->ending, "complete");
  }
  EXPECT_GE(uncut, 8);
  EXPECT_GE(cut, 1);
  // The descriptor write-backs: 16 bytes written in 4 data phases, 6 clocks each.
  int writebacks = 0;
  for (const auto& x : t.transactions)
    if (x.command == "memory_write") {
      EXPECT_EQ(static_cast<double>((x.end_ps - x.start_ps) / t.clock_ps), closed.writeback);
      EXPECT_EQ(x.data_phases, 4);
      ++writebacks;
    }
  EXPECT_GE(writebacks, static_cast<int>(order.size()) - 2);
}

// `components=` keeps the components it names with everything inside them, beside
// `stations=`; a name no component has is exit 2 with a suggestion, and no directory is made.
TEST(Events, TheComponentsFilterKeepsWhatItNamesAndTheStationsFilterStillWorks) {
  const auto dir = fresh_directory("events-components");
  // 300 us: two or three interrupts at 8000 per second, each with the driver's register
  // accesses on the bus.
  auto run = [&](const std::string& out, const std::string& trace) {
    return run_gbesim({"run", kPciCeiling, "--point", "76", "--set", "duration_ns=1300000",
                       "--quiet", "--out", out, "--trace", trace},
                      dir);
  };
  ASSERT_EQ(run("nic-pci", "events:components=h.nic,h.pci,from=1ms").exit_code, 0);
  std::set<std::string> components;
  std::int64_t last = 0;
  for (const auto& row : events_of(dir / "nic-pci/events.csv")) {
    components.insert(row.component);
    EXPECT_GE(row.time_ps, last) << "rows in time order";
    last = row.time_ps;
  }
  // The NIC, and the bus transactions of the NIC and of the driver's register accesses.
  EXPECT_EQ(components, (std::set<std::string>{"h.nic", "h.pci.driver", "h.pci.nic"}));
  ASSERT_EQ(run("b", "events:stations=b,from=1ms").exit_code, 0);
  components.clear();
  for (const auto& row : events_of(dir / "b/events.csv")) components.insert(row.component);
  EXPECT_EQ(components, (std::set<std::string>{"b.mac", "b.sink"}));
  ASSERT_EQ(run("both", "events:stations=a,components=h.driver,from=1ms").exit_code, 0);
  components.clear();
  for (const auto& row : events_of(dir / "both/events.csv")) components.insert(row.component);
  EXPECT_EQ(components, (std::set<std::string>{"a.mac", "h.driver"}));

  const auto typo = run("typo", "events:components=h.pic");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.output.find("no component \"h.pic\" reports events"), std::string::npos)
      << typo.output;
  EXPECT_NE(typo.output.find("\"h.pci\""), std::string::npos) << typo.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "typo")) << "bad input leaves no directory";
  const auto host = run("host", "events:components=hh.nic");
  EXPECT_EQ(host.exit_code, 2);
  EXPECT_NE(host.output.find("no station, host or switch \"hh\""), std::string::npos)
      << host.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "host"));
  EXPECT_EQ(run("pcap", "pcap:components=h").exit_code, 2);
}

// Eight senders into one receiver through a switch whose output queues hold 16 frames (run 0 of
// switch-incast): every copy the switch drops is a drop event on its output port, as many as
// the port's and the switch's counters say.
TEST(Events, EverySwitchCopyDroppedIsADropEventOnItsOutputPort) {
  const auto dir = fresh_directory("events-switch");
  const auto r = run_gbesim(
      {"run", (source_dir() / "scenarios/switch-incast.json").string(), "--point", "0", "--set",
       "duration_ns=2000000", "--quiet", "--out", "o", "--trace", "events:components=sw"},
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::map<std::string, int> drops;
  int frames_in = 0;
  for (const auto& row : events_of(dir / "o/events.csv")) {
    if (row.event == "drop") drops[row.component + " " + row.detail] += 1;
    if (row.event == "frame_in") ++frames_in;
  }
  const auto scalars = dir / "o/scalars.csv";
  int ports_in = 0;
  for (const auto& row : read_csv(scalars))
    if (row.size() == 4 && row[0].rfind("sw.port", 0) == 0 && row[1] == "frames_in")
      ports_in += std::stoi(row[3]);
  EXPECT_GT(drops["sw.port9 buffer_full"], 100);
  EXPECT_EQ(std::to_string(drops["sw.port9 buffer_full"]),
            scalar_of(scalars, "sw.port9", "drops_buffer_full"));
  int all = 0;
  for (const auto& [where, n] : drops) all += n;
  EXPECT_EQ(std::to_string(all), scalar_of(scalars, "sw", "copies_dropped"));
  EXPECT_GT(frames_in, 1000);
  EXPECT_EQ(frames_in, ports_in);
}

// The VCD draws the NIC's interrupt line from the same model as the events: it rises and falls
// exactly where irq_assert and irq_deassert say.
TEST(Events, TheVcdsInterruptLineChangesWhereTheNicsEventsSay) {
  const auto dir = fresh_directory("events-vcd");
  const auto r = run_gbesim({"run", kPciCeiling, "--point", "76", "--set", "duration_ns=400000",
                             "--quiet", "--out", "o", "--trace", "events:components=h.nic,vcd"},
                            dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::pair<std::int64_t, std::string>> edges = {{0, "0"}};
  for (const auto& row : events_of(dir / "o/events.csv")) {
    if (row.event == "irq_assert") edges.emplace_back(row.time_ps, "1");
    if (row.event == "irq_deassert") edges.emplace_back(row.time_ps, "0");
  }
  EXPECT_GE(edges.size(), 5u);  // 8000 interrupts/s: three in 400 us
  const std::string vcd = read_text(dir / "o/trace.vcd");
  EXPECT_EQ(vcd_changes(vcd, "h.nic.irq"), edges);
  EXPECT_FALSE(vcd_changes(vcd, "h.driver.isr").empty());
  EXPECT_FALSE(vcd_changes(vcd, "a.tx_state").empty());
}

// The size estimate behind the large-trace warning counts the rows a host's NIC, bus and driver
// add: within 15 % of what a run of the 82540EM sending on PCI 32/33 writes, within 40 % of a
// receiving one (its bus transactions vary more).
TEST(Events, TheTraceEstimateCountsTheRowsOfAHostsNicBusAndDriver) {
  const auto dir = fresh_directory("events-estimate");
  for (const auto& [point, within] : {std::pair{"76", 0.15}, std::pair{"75", 0.4}}) {
    SCOPED_TRACE(point);
    const std::string out = std::string("p") + point;
    ASSERT_EQ(run_gbesim({"run", kPciCeiling, "--point", point, "--set", "duration_ns=2000000",
                          "--quiet", "--out", out, "--trace", "events"},
                         dir)
                  .exit_code,
              0);
    const auto written = static_cast<double>(std::filesystem::file_size(dir / out / "events.csv"));
    RunOptions o;
    o.traces = {"events"};
    LoadOptions load;
    load.run = static_cast<std::size_t>(std::stoul(point));
    load.sets = {"duration_ns=2000000"};
    const double estimate = trace_bytes_estimate(load_scenario(kPciCeiling, load), o).first;
    EXPECT_NEAR(estimate, written, within * written);
  }
}

// `gbesim events` lists every kind of model with what it reports; as JSON, every event kind
// there is once at least, each with its meaning; as Markdown, the tables of the models asked for.
TEST(Events, GbesimEventsListsEveryModelsEventsAndStateVariables) {
  const auto text = run_gbesim({"events"});
  ASSERT_EQ(text.exit_code, 0) << text.output;
  for (const char* line : {"nic -- <host>.nic", "bus_address", "irq_assert", "[vcd] tx_state",
                           "0 idle, 1 transmitting", "switch -- <switch>.port<n>"})
    EXPECT_NE(text.output.find(line), std::string::npos) << line;
  const auto json = run_gbesim({"events", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.output;
  std::set<std::string> kinds;
  for (const auto& model : nlohmann::json::parse(json.output))
    for (const auto& e : model["events"]) {
      kinds.insert(e["name"].get<std::string>());
      EXPECT_FALSE(e["meaning"].get<std::string>().empty());
    }
  EXPECT_EQ(kinds.size(), kEventKindCount);
  // A model page's tables: one model's events and state only.
  const auto page = run_gbesim({"events", "--markdown", "--model", "nic"});
  ASSERT_EQ(page.exit_code, 0) << page.output;
  EXPECT_NE(page.output.find("| `irq_assert` |"), std::string::npos) << page.output;
  EXPECT_NE(page.output.find("| `rx_fifo_bytes` | 32 |"), std::string::npos) << page.output;
  EXPECT_EQ(page.output.find("`tx_start`"), std::string::npos) << page.output;
  const auto typo = run_gbesim({"events", "--model", "nicc"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.output.find("did you mean \"nic\""), std::string::npos) << typo.output;
}

}  // namespace
}  // namespace gbesim
