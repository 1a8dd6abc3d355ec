// The PCI Express link model against timelines worked by hand from the rules in
// docs/references.md (Standards F) and against the closed form in analysis/pcie_cycles. The link
// engine is plain C++; these tests step it directly.

#include "models/pci/pcie_link.hpp"

#include <gtest/gtest.h>

#include <memory>
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

}  // namespace
}  // namespace gbesim
