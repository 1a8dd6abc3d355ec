// What names a host's limit (analysis/host_limit), on statistics given by hand.

#include "analysis/host_limit.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

namespace gbesim {
namespace {

using Stats = std::map<std::pair<std::string, std::string>, double>;

std::string limit_of(const nlohmann::json& config, const Stats& stats,
                     bool runs_applications = true) {
  std::vector<std::string> components;
  for (const auto& [key, value] : stats) components.push_back(key.first);
  return host_limit(
      config, "srv", components,
      [&](const std::string& c, const std::string& n) {
        const auto it = stats.find({c, n});
        return it == stats.end() ? std::optional<double>() : std::optional<double>(it->second);
      },
      runs_applications);
}

// A 10 GbE port receiving 9.6 Gb/s of 1518-byte frames is at its wire (790,514 frames/s, each
// with 20 bytes of preamble, SFD and gap: 9.72 Gb/s of 10), which a 1 Gb/s scale would call
// 972 % busy. Its line rate comes from its transmitter's throughput over its efficiency.
TEST(HostLimit, AWireIsAShareOfItsOwnRate) {
  const auto config = nlohmann::json::parse(R"({"hosts": {"srv": {"nic": {"station": "p1"}}},
      "links": [{"between": ["p1", "c1"], "rate_mbps": 10000}]})");
  Stats s{{{"p1.mac", "rx_throughput"}, 9.6e9}, {{"p1.mac", "rx_frame_rate"}, 790514},
          {{"p1.mac", "tx_utilisation"}, 0.05}, {{"p1.mac", "tx_throughput"}, 4.0e8},
          {{"p1.mac", "tx_efficiency"}, 0.04},  {{"srv.pci", "utilisation"}, 0.5}};
  EXPECT_EQ(limit_of(config, s), "wire (97 % busy)");
  // Without a transmitter's figures the link's rate_mbps says the same.
  s.erase({"p1.mac", "tx_efficiency"});
  EXPECT_EQ(limit_of(config, s), "wire (97 % busy)");
}

// A NIC whose transmit engine always has a request at the bus while the bus is 75 % busy is held
// by that engine; with the bus 96 % busy the bus is named instead.
TEST(HostLimit, AnEngineAlwaysAtAnIdleBusIsTheLimit) {
  const auto config = nlohmann::json::parse(
      R"({"hosts": {"srv": {"nic": {"station": "p1", "dma_engines": "separate"}}}})");
  Stats s{{{"srv.nic", "rx_dma_busy"}, 0.6},
          {{"srv.nic", "tx_dma_busy"}, 0.999},
          {{"srv.nic", "dma_busy"}, 0.999},
          {{"srv.pci", "utilisation"}, 0.75}};
  EXPECT_EQ(limit_of(config, s),
            "NIC transmit DMA engine (a request at the bus 100 % of the time, the bus 75 % busy)");
  s[{"srv.pci", "utilisation"}] = 0.96;
  EXPECT_EQ(limit_of(config, s).rfind("bus (96 % busy", 0), 0u) << limit_of(config, s);
  // One shared engine: its share of time with any request is what counts.
  s[{"srv.pci", "utilisation"}] = 0.75;
  s[{"srv.nic", "tx_dma_busy"}] = 0.5;
  const auto shared = nlohmann::json::parse(R"({"hosts": {"srv": {"nic": {"station": "p1"}}}})");
  s[{"srv.nic", "dma_busy"}] = 0.97;
  EXPECT_EQ(limit_of(shared, s),
            "NIC DMA engine (a request at the bus 97 % of the time, the bus 75 % busy)");
}

// The host bridge's memory port 97 % busy (reads 52 %, posted writes 45 %) while the segment is
// 70 % busy and the NIC's engine always asks: the memory path is named, not the engine. Behind
// an on-card bridge the engine's words name both segments.
TEST(HostLimit, ABusyMemoryPathAndACardsSegmentAreNamed) {
  const auto config = nlohmann::json::parse(
      R"({"hosts": {"srv": {"nic": {"station": "p1"}, "card_bridge": {"clock_mhz": 120}}}})");
  Stats s{{{"srv.nic", "dma_busy"}, 0.99},
          {{"srv.pci", "utilisation"}, 0.70},
          {{"srv.card_pci", "utilisation"}, 0.80},
          {{"srv.pci.bridge", "memory_utilisation"}, 0.97},
          {{"srv.pci.bridge", "read_path_utilisation"}, 0.52},
          {{"srv.pci.bridge", "write_path_utilisation"}, 0.45}};
  EXPECT_EQ(limit_of(config, s),
            "host bridge's memory path (97 % busy: reads 52 %, posted writes 45 %)");
  s[{"srv.pci.bridge", "memory_utilisation"}] = 0.9;
  EXPECT_EQ(limit_of(config, s),
            "NIC DMA engine (a request at the bus 99 % of the time, behind the on-card bridge: "
            "the card's segment 80 %, the host's 70 % busy)");
  s[{"srv.card_pci", "utilisation"}] = 0.97;
  EXPECT_EQ(limit_of(config, s).rfind("the card's bus segment (97 % busy", 0), 0u)
      << limit_of(config, s);
}

// Nothing at its limit: a host running applications was held by its window, transport or peer;
// one fed by a traffic generator by the load it was offered.
TEST(HostLimit, NothingAtItsLimitNamesTheWindowOrTheLoad) {
  const auto config = nlohmann::json::parse(R"({"hosts": {"srv": {"nic": {"station": "p1"}}}})");
  const Stats s{{{"srv.pci", "utilisation"}, 0.4}, {{"srv.driver", "cpu_utilisation"}, 0.2}};
  EXPECT_EQ(limit_of(config, s),
            "none of its wire, bus, NIC FIFOs or CPU at its limit (the busiest: bus 40 %): the "
            "window, the transport or the peer");
  const std::string fed = limit_of(config, s, false);
  EXPECT_EQ(fed,
            "none of its wire, bus, NIC FIFOs or CPU at its limit (the busiest: bus 40 %): the "
            "load it was offered");
}

// A light host (a CPU on its station, no bus or NIC): its CPU at 97 % is its limit; at 40 %, with
// nothing else at its limit, the words name only what it has.
TEST(HostLimit, ALightHostIsHeldByItsCpuOrItsWire) {
  const auto config = nlohmann::json::parse(R"({"hosts": {"srv": {"station": "c1"}}})");
  Stats s{{{"srv.cpu", "cpu_utilisation"}, 0.97}, {{"c1.mac", "tx_utilisation"}, 0.2}};
  EXPECT_EQ(limit_of(config, s), "CPU (97 % busy)");
  s[{"srv.cpu", "cpu_utilisation"}] = 0.4;
  EXPECT_EQ(limit_of(config, s),
            "none of its wire or CPU at its limit (the busiest: CPU 40 %): the window, the "
            "transport or the peer");
  s[{"c1.mac", "tx_utilisation"}] = 0.98;
  EXPECT_EQ(limit_of(config, s), "wire (98 % busy)");
}

}  // namespace
}  // namespace gbesim
