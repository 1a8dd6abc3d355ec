#include "analysis/host_limit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace gbesim {
namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : " + ") + p;
  return s;
}

// The stations a host's NICs serve (its nic's and its team's), or a light host's station.
std::vector<std::string> nic_stations(const nlohmann::json& h) {
  std::vector<std::string> stations;
  if (h.contains("nic")) stations.push_back(h["nic"].value("station", ""));
  if (h.contains("station") && h["station"].is_string())
    stations.push_back(h["station"].get<std::string>());
  const auto team = h.value("team", nlohmann::json::object());
  for (const auto& s : team.value("stations", nlohmann::json::array()))
    if (s.is_string()) stations.push_back(s.get<std::string>());
  return stations;
}

// The rate of the link a station is cabled with, else the scenario's (Mb/s).
double link_rate_mbps(const nlohmann::json& config, const std::string& station) {
  for (const auto& l : config.value("links", nlohmann::json::array())) {
    const auto ends = l.value("between", nlohmann::json::array());
    const bool here = std::any_of(ends.begin(), ends.end(), [&](const nlohmann::json& e) {
      return e.is_string() && e.get<std::string>() == station;
    });
    if (here && l.value("rate_mbps", 0.0) > 0) return l.value("rate_mbps", 0.0);
  }
  return config.value("rate_mbps", 1000.0);
}

// "NIC transmit DMA engine (...)" when one of the host's NICs had a request at the bus 95 % of
// the time or more: its one engine, or its receive or transmit engine when they are separate.
// "bus (97 % busy: data ..., idle ...)" for a bus segment's component.
template <typename At>
std::string bus_limit(const std::string& what, const std::string& pci, const At& at) {
  std::string text = fmt::format("{} ({:.0f} % busy", what, 100 * at(pci, "utilisation"));
  if (const double all = at(pci, "elapsed_clocks"); all > 0) {
    auto share = [&](const char* name) { return 100 * at(pci, name) / all; };
    text += fmt::format(
        ": data {:.0f} %, address {:.0f} %, wait {:.0f} %, turnaround {:.0f} %, idle {:.0f} %",
        share("data_clocks"), share("address_clocks"), share("wait_clocks"),
        share("turnaround_clocks"), share("idle_clocks"));
  }
  return text + ")";
}

// the bus a host's NICs sit on: "the bus 75 % busy", or with an on-card bridge "the card's
// segment 60 %, the host's 75 % busy".
std::string nic_bus_words(bool card, double bus, double card_bus) {
  return card ? fmt::format(
                    "behind the on-card bridge: the card's segment {:.0f} %, the host's "
                    "{:.0f} % busy",
                    100 * card_bus, 100 * bus)
              : fmt::format("the bus {:.0f} % busy", 100 * bus);
}

template <typename At>
std::string nic_engine_limit(const nlohmann::json& h, const std::string& host,
                             const std::vector<std::string>& components, const At& at,
                             const std::string& bus_words) {
  const bool separate =
      h.value("nic", nlohmann::json::object()).value("dma_engines", "") == std::string("separate");
  double busiest = 0;
  std::string which;
  for (const auto& c : components) {
    if (c.rfind(host + ".nic", 0) != 0 || c.find('.', host.size() + 1) != std::string::npos)
      continue;
    for (const char* name : separate ? std::vector<const char*>{"rx_dma_busy", "tx_dma_busy"}
                                     : std::vector<const char*>{"dma_busy"})
      if (at(c, name) > busiest) busiest = at(c, name), which = name;
  }
  if (busiest < 0.95) return "";
  const char* engine = which == "rx_dma_busy"   ? "receive DMA engine"
                       : which == "tx_dma_busy" ? "transmit DMA engine"
                                                : "DMA engine";
  return fmt::format("NIC {} (a request at the bus {:.0f} % of the time, {})", engine,
                     100 * busiest, bus_words);
}

}  // namespace

std::string host_limit(const nlohmann::json& config, const std::string& host,
                       const std::vector<std::string>& components, const StatisticOf& value,
                       bool runs_applications) {
  if (!config.is_object()) return "";
  const auto h = config.value("hosts", nlohmann::json::object()).value(host, nlohmann::json());
  if (!h.is_object()) return "";
  auto at = [&](const std::string& c, const std::string& name) {
    return value(c, name).value_or(0);
  };
  double wire = 0;
  for (const auto& s : nic_stations(h)) {
    const std::string mac = s + ".mac";
    wire = std::max(wire, at(mac, "tx_utilisation"));
    // The station's line rate: what its transmitter's throughput is a share of (tx_efficiency is
    // DA..FCS bits over the line's capacity), else its link's or the scenario's rate.
    const double efficiency = at(mac, "tx_efficiency");
    const double line_bps =
        efficiency > 0 ? at(mac, "tx_throughput") / efficiency : link_rate_mbps(config, s) * 1e6;
    const double rx = at(mac, "rx_throughput") + at(mac, "rx_frame_rate") * 20 * 8;
    wire = std::max(wire, rx / line_bps);
  }
  std::vector<std::string> limits;
  if (wire >= 0.95) limits.push_back(fmt::format("wire ({:.0f} % busy)", 100 * wire));
  const std::string pci = host + ".pci", card_pci = host + ".card_pci";
  const double bus = at(pci, "utilisation");
  const bool card = h.contains("card_bridge");
  const double card_bus = card ? at(card_pci, "utilisation") : 0;
  if (bus >= 0.95) limits.push_back(bus_limit("bus", pci, at));
  if (card_bus >= 0.95) limits.push_back(bus_limit("the card's bus segment", card_pci, at));
  // The host bridge's memory path (its memory_mbps, memory_read_mbps or memory_write_mbps).
  const std::string memory = pci + ".bridge";
  const double port = at(memory, "memory_utilisation");
  if (port >= 0.95)
    limits.push_back(fmt::format(
        "host bridge's memory path ({:.0f} % busy: reads {:.0f} %, posted writes {:.0f} %)",
        100 * port, 100 * at(memory, "read_path_utilisation"),
        100 * at(memory, "write_path_utilisation")));
  double lost = 0, resent = 0, dropped = 0;
  for (const auto& c : components) {
    if (c.rfind(host + ".nic", 0) == 0) lost += at(c, "rx_fifo_overflow");
    if (c.rfind(host + ".stack", 0) == 0) {
      resent += at(c, "segments_retransmitted");
      dropped += at(c, "udp_receive_buffer_drops");
    }
  }
  if (lost > 0) limits.push_back(fmt::format("NIC receive FIFO ({:.0f} frames lost)", lost));
  // A NIC's DMA engine always at the bus while the bus is not: the engine (its latency per
  // request) held the host.
  if (bus < 0.95 && card_bus < 0.95 && port < 0.95) {
    const std::string engine =
        nic_engine_limit(h, host, components, at, nic_bus_words(card, bus, card_bus));
    if (!engine.empty()) limits.push_back(engine);
  }
  double cpu = 0;
  for (const char* name :
       {"cpu_utilisation", "interrupt_cpu_utilisation", "application_cpu_utilisation"})
    cpu = std::max({cpu, at(host + ".driver", name), at(host + ".cpu", name)});
  if (cpu >= 0.95) limits.push_back(fmt::format("CPU ({:.0f} % busy)", 100 * cpu));
  if (resent > 0) limits.push_back(fmt::format("transport ({:.0f} segments resent)", resent));
  if (dropped > 0)
    limits.push_back(fmt::format("socket buffers ({:.0f} datagrams dropped)", dropped));
  if (!limits.empty()) return joined(limits);
  const auto [name, busiest] = std::max(
      {std::pair<std::string, double>{"wire", wire}, std::pair<std::string, double>{"bus", bus},
       std::pair<std::string, double>{"CPU", cpu}},
      [](const auto& a, const auto& b) { return a.second < b.second; });
  const bool light = h.contains("station");  // a light host: no bus, NIC or FIFOs
  return fmt::format(
      "none of its {} at its limit (the busiest: {} {:.0f} %): {}",
      light ? "wire or CPU" : "wire, bus, NIC FIFOs or CPU", name, 100 * busiest,
      runs_applications ? "the window, the transport or the peer" : "the load it was offered");
}

}  // namespace gbesim
