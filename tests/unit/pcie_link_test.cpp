// The PCI Express link model against timelines worked by hand from the rules in
// docs/references.md (Standards F) and against the closed form in analysis/pcie_cycles. The link
// engine is plain C++; these tests step it directly.

#include "models/pci/pcie_link.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "analysis/pcie_cycles.hpp"
#include "tests/support/pci_request.hpp"

namespace gbesim {
namespace {

constexpr Picoseconds kNs = 1000;

struct Client : PciMasterClient {
  std::vector<std::pair<std::uint64_t, Picoseconds>> done;
  void pci_done(const PciRequest& r, Picoseconds at) override { done.push_back({r.tag, at}); }
};

enum class PcieDirection { upstream, downstream };

// One packet as it went over the link, from its start and end events.
struct PciePacket {
  PcieDirection direction = PcieDirection::upstream;
  PciePacketKind kind = PciePacketKind::memory_write;
  std::int64_t wire_bytes = 0;  // what the link carries, framing included
  std::int64_t payload_bytes = 0;
  Picoseconds start_ps = 0, end_ps = 0;  // first and last symbol time on the link
};

struct Bench {
  explicit Bench(PciBusParams p) : link(p, stats, "pci") {
    root = link.add_target("bridge", root_params());
    device = link.add_target("nic", PciTargetParams{});
    link.events.connect([this](const Event& e) { heard(e); });
  }
  // A direction sends one packet at a time: its end event closes the packet its start opened.
  void heard(const Event& e) {
    const int d = e.part == "up" ? 0 : 1;
    if (e.kind == EventKind::tlp_start || e.kind == EventKind::dllp_start) {
      PciePacket& p = sending[d];
      p.direction = d == 0 ? PcieDirection::upstream : PcieDirection::downstream;
      for (const PciePacketKind k :
           {PciePacketKind::memory_write, PciePacketKind::read_request, PciePacketKind::completion,
            PciePacketKind::ack, PciePacketKind::update_fc})
        if (e.detail == to_string(k)) p.kind = k;
      p.wire_bytes = e.bytes;
      p.payload_bytes = e.kind == EventKind::tlp_start ? e.value : 0;
      p.start_ps = e.time_ps;
    } else if (e.kind == EventKind::tlp_end || e.kind == EventKind::dllp_end) {
      ASSERT_EQ(e.bytes, sending[d].wire_bytes);
      sending[d].end_ps = e.time_ps;
      log.push_back(sending[d]);
    }
  }
  static PciTargetParams root_params() {
    PciTargetParams t;
    t.completion_bytes = 64;
    t.completion_latency_ns = 400;
    return t;
  }
  std::size_t master(const std::string& name, PciMasterParams p = {}) {
    clients.push_back(std::make_unique<Client>());
    return link.add_master(name, p, clients.back().get());
  }
  void run() {
    while (link.next_event_ps() < kForeverPs) link.advance(link.next_event_ps());
  }
  std::vector<PciePacket> packets(PcieDirection d, PciePacketKind k) const {
    std::vector<PciePacket> out;
    for (const auto& p : log)
      if (p.direction == d && p.kind == k) out.push_back(p);
    return out;
  }
  double scalar(const std::string& name, Picoseconds elapsed) const {
    StatContext c;
    c.elapsed_ps = elapsed;
    for (const auto& s : stats.collect(c))
      if (s.component == "pci" && s.name == name) return s.value;
    ADD_FAILURE() << "no scalar " << name;
    return -1;
  }

  StatRegistry stats;
  PcieLink link;
  std::size_t root = 0, device = 0;
  std::vector<std::unique_ptr<Client>> clients;
  PciePacket sending[2];
  std::vector<PciePacket> log;
};

using gbesim::testing::pci_request;

PciBusParams pcie(std::int64_t lanes, std::int64_t skp = 0) {
  PciBusParams p;
  p.mode = PciMode::pcie;
  p.lanes = lanes;
  p.skp_interval_symbols = skp;
  return p;
}

TEST(PcieLink, ATlpCarriesTwentyBytesBeyondItsDwordPayload) {
  EXPECT_EQ(pcie_tlp_bytes(128, 0, false, false), 148);  // STP 1 + seq 2 + 12 + LCRC 4 + END 1
  EXPECT_EQ(pcie_tlp_bytes(128, 0, true, false), 152);   // a 4-DW header
  EXPECT_EQ(pcie_tlp_bytes(128, 0, false, true), 152);   // ECRC
  EXPECT_EQ(pcie_tlp_bytes(110, 0, false, false), 132);  // 110 bytes in 28 dwords
  EXPECT_EQ(pcie_tlp_bytes(4, 2, false, false), 28);     // 4 bytes across two dwords
  EXPECT_EQ(pcie_tlp_bytes(0, 0, false, false), 20);     // a read request
  // The 1518-byte frame of docs/references.md: 11 TLPs of 128 and one of 110, 1760 bytes; read
  // with 512-byte requests and 64-byte completions, 3 requests (60 bytes) and 24 completions
  // (2000 bytes).
  PcieLinkShape s;
  const PcieTraffic w = pcie_write_traffic(s, 0, 1518);
  EXPECT_EQ(w.tlps, 12);
  EXPECT_EQ(w.wire_bytes, 1760);
  const PcieReadTraffic r = pcie_read_traffic(s, 0, 1518);
  EXPECT_EQ(r.requests.tlps, 3);
  EXPECT_EQ(r.requests.wire_bytes, 60);
  EXPECT_EQ(r.completions.tlps, 24);
  EXPECT_EQ(r.completions.wire_bytes, 2000);
}

// 64 KB of posted writes with Max_Payload_Size 128: 512 TLPs of 148 bytes back to back, 592 ns
// each on x1 and 148 ns on x4, so the stream carries 128 / 148 of 250 MB/s per lane.
TEST(PcieLink, APostedWriteStreamRunsAtTheClosedFormsRate) {
  for (const std::int64_t lanes : {1, 4}) {
    Bench b(pcie(lanes));
    const std::size_t nic = b.master("nic");
    b.link.request(nic, pci_request(b.root, PciCommand::memory_write, 65536, 0, 7), 0);
    b.run();
    const auto tlps = b.packets(PcieDirection::upstream, PciePacketKind::memory_write);
    ASSERT_EQ(tlps.size(), 512u);
    const Picoseconds tlp_ps = 148 / lanes * 4 * kNs;
    for (std::size_t i = 0; i < tlps.size(); ++i) {
      ASSERT_EQ(tlps[i].start_ps, static_cast<Picoseconds>(i) * tlp_ps) << i;
      ASSERT_EQ(tlps[i].wire_bytes, 148);
    }
    ASSERT_EQ(b.clients[0]->done.size(), 1u);
    EXPECT_EQ(b.clients[0]->done[0].second, 512 * tlp_ps);  // posted: done as it leaves
    const PcieTraffic closed = pcie_write_traffic(PcieLinkShape{}, 0, 65536);
    EXPECT_EQ(closed.tlps, 512);
    EXPECT_EQ(closed.wire_bytes, 512 * 148);
    const double mbps = 65536.0 / (static_cast<double>(512 * tlp_ps) / 1e6);
    EXPECT_DOUBLE_EQ(mbps, 250.0 * static_cast<double>(lanes) * 128.0 / 148.0);
    // Downstream carries only Acks and UpdateFCs for them.
    EXPECT_TRUE(b.packets(PcieDirection::downstream, PciePacketKind::completion).empty());
    EXPECT_FALSE(b.packets(PcieDirection::downstream, PciePacketKind::ack).empty());
  }
}

// With SKP ordered sets every 1538 symbol times (6152 ns), each SKP goes at the first TLP
// boundary at or after its due time and delays what follows by 16 ns.
TEST(PcieLink, SkpOrderedSetsWaitForAPacketBoundary) {
  Bench b(pcie(1, 1538));
  const std::size_t nic = b.master("nic");
  b.link.request(nic, pci_request(b.root, PciCommand::memory_write, 65536), 0);
  b.run();
  const auto tlps = b.packets(PcieDirection::upstream, PciePacketKind::memory_write);
  ASSERT_EQ(tlps.size(), 512u);
  Picoseconds t = 0, due = 6152 * kNs;
  int skps = 0;
  for (std::size_t i = 0; i < tlps.size(); ++i) {
    if (t >= due) {
      t += 16 * kNs;
      due += 6152 * kNs;
      ++skps;
    }
    ASSERT_EQ(tlps[i].start_ps, t) << i;
    t += 592 * kNs;
  }
  EXPECT_EQ(skps, 49);  // 303,104 ns of TLPs and 49 x 16 ns: 49 intervals of 6152 ns
  EXPECT_EQ(b.clients[0]->done[0].second, t);
}

// A 1518-byte read on x1 (Max_Read_Request_Size 512, 64-byte completions, 400 ns completer):
// three 20-byte requests up at 0, 80 and 160 ns; the first request's completions start at 480 ns,
// 84 bytes (336 ns) each; the root's Ack and UpdateFC for the three requests fall due at
// 80 + 948 ns and go at the next completion boundary (1152 ns, 64 ns); then the other 21 full
// completions and a last one of 46 bytes (48 in dwords, 272 ns): 1216 + 21 x 336 + 272 = 8544 ns.
TEST(PcieLink, AReadFollowsTheHandWorkedTimeline) {
  Bench b(pcie(1));
  const std::size_t nic = b.master("nic");
  b.link.request(nic, pci_request(b.root, PciCommand::memory_read_multiple, 1518, 0, 3), 0);
  b.run();
  const auto up = b.packets(PcieDirection::upstream, PciePacketKind::read_request);
  ASSERT_EQ(up.size(), 3u);
  EXPECT_EQ(up[2].start_ps, 160 * kNs);
  const auto completions = b.packets(PcieDirection::downstream, PciePacketKind::completion);
  ASSERT_EQ(completions.size(), 24u);
  EXPECT_EQ(completions[0].start_ps, 480 * kNs);
  EXPECT_EQ(completions[2].start_ps, 1216 * kNs);
  const auto acks = b.packets(PcieDirection::downstream, PciePacketKind::ack);
  ASSERT_FALSE(acks.empty());
  EXPECT_EQ(acks[0].start_ps, 1152 * kNs);
  EXPECT_EQ(completions.back().wire_bytes, 68);
  ASSERT_EQ(b.clients[0]->done.size(), 1u);
  EXPECT_EQ(b.clients[0]->done[0].second, 8544 * kNs);
}

// Tags bound the reads in flight: with one tag the second request waits for the first's last
// completion (8 x 336 ns after 480 ns), so it leaves at 3168 ns.
TEST(PcieLink, OneTagSerialisesTheReadRequests) {
  Bench b(pcie(1));
  PciMasterParams m;
  m.max_outstanding_splits = 1;
  const std::size_t nic = b.master("nic", m);
  b.link.request(nic, pci_request(b.root, PciCommand::memory_read, 1024), 0);
  b.run();
  const auto up = b.packets(PcieDirection::upstream, PciePacketKind::read_request);
  ASSERT_EQ(up.size(), 2u);
  // The first completion's 8 x 336 ns end at 3168 ns, but the Ack and UpdateFC for the request
  // (due 1028 ns) went at 1152 ns and pushed the rest back by 64 ns: the last ends at 3232 ns.
  EXPECT_EQ(up[1].start_ps, 3232 * kNs);
}

// Flow control: with 8 data credits (128 bytes) the root can take one TLP at a time; the next
// waits for the UpdateFC that follows the Ack: TLP 592 ns, the Ack interval (here 100 symbols,
// 400 ns) after its arrival, Ack and UpdateFC 32 ns each: one TLP every 1056 ns.
TEST(PcieLink, FlowControlCreditsThrottleAPostedStream) {
  PciBusParams p = pcie(1);
  p.posted_data_credits = 8;
  p.ack_interval_symbols = 100;
  Bench b(p);
  const std::size_t nic = b.master("nic");
  b.link.request(nic, pci_request(b.root, PciCommand::memory_write, 512), 0);
  b.run();
  const auto tlps = b.packets(PcieDirection::upstream, PciePacketKind::memory_write);
  ASSERT_EQ(tlps.size(), 4u);
  for (std::size_t i = 0; i < tlps.size(); ++i)
    EXPECT_EQ(tlps[i].start_ps, static_cast<Picoseconds>(i) * 1056 * kNs) << i;
  EXPECT_EQ(b.clients[0]->done[0].second, (3 * 1056 + 592) * kNs);
  EXPECT_EQ(b.scalar("credit_stalls_up", 4000 * kNs), 3);
}

// Requests run from the master's end to the target's: the driver's register write to the NIC
// goes downstream, the NIC's DMA upstream, and a register read's completion comes back up.
TEST(PcieLink, ARequestTravelsTowardsItsTarget) {
  Bench b(pcie(4));
  const std::size_t driver = b.master("driver");
  b.link.request(driver, pci_request(b.device, PciCommand::memory_write, 4), 0);
  b.link.request(driver, pci_request(b.device, PciCommand::memory_read, 4), 0);
  b.run();
  EXPECT_EQ(b.packets(PcieDirection::downstream, PciePacketKind::memory_write).size(), 1u);
  EXPECT_EQ(b.packets(PcieDirection::downstream, PciePacketKind::read_request).size(), 1u);
  const auto c = b.packets(PcieDirection::upstream, PciePacketKind::completion);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].wire_bytes, 24);
  EXPECT_EQ(b.clients[0]->done.size(), 2u);
  EXPECT_TRUE(b.link.idle());
}

// The link is woken only when its work can reach a master (PcieLink::next_wake_ps): stepped
// only then, and at each request, it calls every master at the same instants, in the same
// order, as stepped at every packet event, and never late; its statistics agree. Three masters
// drawn at random on links of three shapes (wake_link): a NIC reading frames (tags short, so
// that its status writes wait behind the reads; 64-bit addresses on every other seed) and
// writing each back when read, a driver's register reads and writes, and a master that follows
// every completion (a bridge).
struct Caller : PciMasterClient {
  // (master, tag, at, the instant the link was stepped to when it called)
  std::vector<std::tuple<int, std::uint64_t, Picoseconds, Picoseconds>>* heard = nullptr;
  const Picoseconds* stepped_to = nullptr;
  int id = 0;
  bool follows = false;
  std::function<void(const PciRequest&, Picoseconds)> then;
  void pci_done(const PciRequest& r, Picoseconds at) override {
    heard->push_back({id, r.tag, at, *stepped_to});
    if (then) then(r, at);
  }
  void pci_progress(const PciRequest& r, std::int64_t bytes, Picoseconds at) override {
    if (follows) heard->push_back({id + 10, r.tag * 100000 + bytes, at, *stepped_to});
  }
  bool follows_progress() const override { return follows; }
};

struct WakeRun {
  std::vector<std::tuple<int, std::uint64_t, Picoseconds, Picoseconds>> heard;
  std::vector<std::pair<std::string, double>> scalars;
  int steps = 0;
};

// A link of each shape the rule must hold on: x1 with a latency; x4 with none, ECRC and few
// posted credits (writes stall); x1 with 256-byte payloads and few read credits.
PciBusParams wake_link(std::uint32_t seed) {
  PciBusParams params = pcie(seed % 3 == 1 ? 4 : 1);
  params.skp_interval_symbols = 1538;
  params.link_latency_ns = seed % 3 == 0 ? 60 : 0;
  if (seed % 3 == 1) {
    params.ecrc = true;
    params.posted_header_credits = 2;
    params.posted_data_credits = 40;
  }
  if (seed % 3 == 2) {
    params.max_payload_bytes = 256;
    params.nonposted_header_credits = 1;
  }
  return params;
}

WakeRun run_waking(bool every_step, std::uint32_t seed) {
  const PciBusParams params = wake_link(seed);
  StatRegistry stats;
  PcieLink link(params, stats, "pci");
  PciTargetParams root = Bench::root_params();
  const std::size_t memory = link.add_target("bridge", root);
  const std::size_t registers = link.add_target("nic", PciTargetParams{});
  WakeRun out;
  Picoseconds now = 0;
  Caller nic, driver, bridge;
  for (Caller* c : {&nic, &driver, &bridge}) {
    c->heard = &out.heard;
    c->stepped_to = &now;
  }
  nic.id = 0;
  driver.id = 1;
  bridge.id = 2;
  bridge.follows = true;
  PciMasterParams few_tags;
  few_tags.max_outstanding_splits = 2;
  few_tags.dual_address_cycle = seed % 2 == 0;  // 64-bit addresses: 4-DW headers
  const std::size_t nic_master = link.add_master("nic", few_tags, &nic);
  const std::size_t driver_master = link.add_master("driver", {}, &driver);
  const std::size_t bridge_master = link.add_master("bridge", {}, &bridge);
  std::uint64_t tag = 1;
  nic.then = [&](const PciRequest& r, Picoseconds at) {  // a frame read: its status written
    if (r.command == PciCommand::memory_read)
      link.request(nic_master, pci_request(memory, PciCommand::memory_write, 16, 64, tag++), at);
  };
  // What the masters ask for, and when: the same draws for both runs.
  std::mt19937 draw(seed);
  struct Ask {
    Picoseconds at;
    std::size_t master;
    PciRequest request;
  };
  std::vector<Ask> asks;
  Picoseconds t = 0;
  for (int i = 0; i < 300; ++i) {
    t += static_cast<Picoseconds>(draw() % 3000) * kNs;
    const auto kind = draw() % 6;
    if (kind < 3)
      asks.push_back(
          {t, nic_master,
           pci_request(memory, PciCommand::memory_read, 64 + draw() % 1500, draw() % 8192, tag++)});
    else if (kind == 3)
      asks.push_back({t, nic_master,
                      pci_request(memory, PciCommand::memory_write, 64 + draw() % 1500,
                                  draw() % 8192, tag++)});
    else if (kind == 4)
      asks.push_back(
          {t, driver_master,
           pci_request(registers, draw() % 2 ? PciCommand::memory_read : PciCommand::memory_write,
                       4, 0, tag++)});
    else
      asks.push_back(
          {t, bridge_master,
           pci_request(memory, PciCommand::memory_read, 64 + draw() % 512, draw() % 8192, tag++)});
  }
  // As PciBusModule steps it: to the wake-up, or to a request (everything due by then first).
  std::size_t next_ask = 0;
  auto step_to = [&](Picoseconds at) {
    now = at;
    if (link.next_event_ps() <= at) {
      link.advance(at);
      ++out.steps;
    }
  };
  while (true) {
    const Picoseconds wake = every_step ? link.next_event_ps() : link.next_wake_ps();
    EXPECT_LE(link.next_event_ps(), wake);
    const Picoseconds ask = next_ask < asks.size() ? asks[next_ask].at : kForeverPs;
    if (wake == kForeverPs && ask == kForeverPs) break;
    if (ask <= wake) {
      step_to(ask);
      link.request(asks[next_ask].master, asks[next_ask].request, ask);
      ++next_ask;
    } else {
      step_to(wake);
    }
  }
  // What calls no master waits for a wake-up that never comes: the run's end catches it up
  // (PciBusModule::catch_up).
  const Picoseconds end = t + 1'000'000 * kNs;
  EXPECT_LT(now, end);
  step_to(end);
  EXPECT_TRUE(link.idle());
  StatContext c;
  c.elapsed_ps = end;
  for (const auto& s : stats.collect(c)) out.scalars.push_back({s.name, s.value});
  return out;
}

TEST(PcieLink, WokenOnlyWhenItsWorkReachesAMasterItCallsEachAtTheSameInstants) {
  for (const std::uint32_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
    SCOPED_TRACE(seed);
    const WakeRun every = run_waking(true, seed);
    const WakeRun woken = run_waking(false, seed);
    ASSERT_GT(every.heard.size(), 600u);
    EXPECT_EQ(woken.heard, every.heard);  // master, tag, when, and the instant stepped to
    for (const auto& [master, tag, at, stepped_to] : woken.heard) {
      EXPECT_EQ(at, stepped_to) << "master " << master << " tag " << tag << " called late";
      if (at != stepped_to) break;
    }
    EXPECT_EQ(woken.scalars, every.scalars);
    // Steps are fewer by a third at least (by half or more where reads do not wait for
    // credits): Acks, credits, packets sent wait for the next wake-up.
    EXPECT_LT(3 * woken.steps, 2 * every.steps) << woken.steps << " against " << every.steps;
  }
}

}  // namespace
}  // namespace gbesim
