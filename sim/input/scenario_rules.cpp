#include "sim/input/scenario_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "models/common/speed_modes.hpp"

namespace gbesim {
namespace {

std::string host_path(const HostConfig& h, const std::string& rest) {
  return child_path(child_path("hosts", h.name), rest);
}

std::string station_path(const std::string& name, const std::string& rest = "") {
  const std::string p = child_path("stations", name);
  return rest.empty() ? p : child_path(p, rest);
}

void unique_addresses(const ScenarioConfig& c, Diagnostics& d) {
  std::map<std::string, const StationConfig*> seen;
  for (const auto& s : c.stations) {
    const auto [it, fresh] = seen.emplace(s.address.to_string(), &s);
    if (!fresh)
      d.error(station_path(s.name),
              "address " + s.address.to_string() + " is also station " + it->second->name + "'s");
  }
}

void host_names(const ScenarioConfig& c, Diagnostics& d) {
  for (const auto& h : c.hosts)
    if (c.find_station(h.name) != nullptr)
      d.error(child_path("hosts", h.name), "\"" + h.name + "\" is also a station's name");
}

// A NIC serves one station, holds its largest frame, and its raw sender sends elsewhere.
void nic_fits_station(const ScenarioConfig& c, Diagnostics& d) {
  std::set<std::string> served;
  for (const auto& h : c.hosts) {
    if (h.light() && c.find_station(h.station) != nullptr) {
      if (!served.insert(h.station).second)
        d.error(host_path(h, "station"),
                "station \"" + h.station + "\" already has a host (a NIC or a light host)");
    }
    if (h.light() && h.cpu.logical_cpus > 1)
      d.error(host_path(h, "cpu.logical_cpus"),
              "a light host has one CPU; two logical CPUs need a host with a nic");
    if (!h.has_nic || h.nic.station.empty()) continue;
    for (std::size_t i = 0; i < h.team.stations.size(); ++i) {
      const std::string& member = h.team.stations[i];
      const std::string at = host_path(h, "team.stations[" + std::to_string(i) + "]");
      const StationConfig* m = c.find_station(member);
      if (m == nullptr) continue;
      if (member == h.nic.station || !served.insert(member).second)
        d.error(at, "station \"" + member + "\" already has a NIC");
      else if (m->mac.max_frame_bytes + kQTagBytes > h.nic.rx_fifo_bytes)
        d.error(at, "station \"" + member +
                        "\"'s largest frame does not fit the team's NIC "
                        "(nic.rx_fifo_bytes " +
                        std::to_string(h.nic.rx_fifo_bytes) + ")");
    }
    if (h.team.balances != TeamBalance::every_protocol && h.team.mode != TeamMode::per_client)
      d.error(host_path(h, "team.balances"),
              std::string(h.team.balances == TeamBalance::ip_only ? "ip_only" : "receive_ip_only") +
                  " balances per client; a round_robin team spreads every frame it sends");
    if (!h.team.stations.empty() && !h.tx.to.empty())
      d.error(host_path(h, "team"),
              "the raw sender (tx) uses one NIC; a team carries "
              "applications' traffic");
    const StationConfig* s = c.find_station(h.nic.station);
    if (s == nullptr) continue;
    if (!h.tx.to.empty() && c.find_station(h.tx.to) != nullptr) {
      if (h.tx.to == h.nic.station)
        d.error(host_path(h, "tx.to"), "the NIC's own station; send to another");
      else if (h.tx.frame_bytes > s->mac.max_frame_bytes)
        d.error(host_path(h, "tx.frame_bytes"),
                std::to_string(h.tx.frame_bytes) +
                    "-byte frames exceed the station's max_frame_bytes (" +
                    std::to_string(s->mac.max_frame_bytes) + ")");
    }
    if (!served.insert(h.nic.station).second)
      d.error(host_path(h, "nic.station"), "station \"" + h.nic.station + "\" already has a NIC");
    const std::int64_t largest = s->mac.max_frame_bytes + kQTagBytes;
    if (h.nic.rx_fifo_bytes < largest)
      d.error(host_path(h, "nic.rx_fifo_bytes"),
              "a receive FIFO of " + std::to_string(h.nic.rx_fifo_bytes) +
                  " bytes cannot hold the station's largest frame (" + std::to_string(largest) +
                  " bytes with a VLAN tag)");
    const std::int64_t buffers = (largest + h.nic.buffer_bytes - 1) / h.nic.buffer_bytes;
    if (h.nic.rx_ring_descriptors - 1 < buffers)
      d.error(host_path(h, "nic.rx_ring_descriptors"),
              "a ring of " + std::to_string(h.nic.rx_ring_descriptors) +
                  " descriptors (one always kept free) cannot take the largest frame's " +
                  std::to_string(buffers) + " buffers of " + std::to_string(h.nic.buffer_bytes) +
                  " bytes");
    // A frame larger than the transmit FIFO streams through it once the MAC has started it:
    // the start threshold (the chip's drain threshold) must be reached with room for a burst.
    const std::int64_t streamable = h.nic.tx_fifo_bytes - h.nic.max_burst_bytes;
    if (h.nic.tx_fifo_bytes < largest && h.nic.tx_start_bytes == 0)
      d.error(host_path(h, "nic.tx_fifo_bytes"),
              "a transmit FIFO of " + std::to_string(h.nic.tx_fifo_bytes) +
                  " bytes cannot hold the station's largest frame (" + std::to_string(largest) +
                  " bytes with a VLAN tag) with store and forward: give nic.tx_start_bytes (the "
                  "drain threshold, at most " +
                  std::to_string(streamable) + ") so larger frames stream through it");
    else if (h.nic.tx_fifo_bytes < largest && h.nic.tx_start_bytes > streamable)
      d.error(host_path(h, "nic.tx_start_bytes"),
              "a start threshold of " + std::to_string(h.nic.tx_start_bytes) +
                  " bytes cannot be reached in a transmit FIFO of " +
                  std::to_string(h.nic.tx_fifo_bytes) + " bytes with " +
                  std::to_string(h.nic.max_burst_bytes) +
                  "-byte bursts, for frames larger than the FIFO: at most " +
                  std::to_string(streamable));
  }
}

// A station has one port: on one link or one collision domain, and on one at least. A switch port
// takes one cable.
void one_port_per_station(const ScenarioConfig& c, Diagnostics& d) {
  std::unordered_set<std::string> attached;
  auto what = [](const std::string& who) {
    return who.find(':') == std::string::npos ? "station \"" + who + "\"" : "switch port " + who;
  };
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const auto& l = c.links[i];
    const std::string at = child_path(index_path("links", i), "between");
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string& who = k == 0 ? l.a : l.b;
      if (!c.endpoint(who)) continue;
      if (!attached.insert(who).second)
        d.error(index_path(at, k), what(who) + " is already on another link; it has one port");
    }
  }
  for (const auto& dom : c.domains) {
    for (std::size_t k = 0; k < dom.stations.size(); ++k) {
      const std::string& who = dom.stations[k];
      if (!c.endpoint(who)) continue;
      if (attached.insert(who).second) continue;
      const std::string at = dom.from_topology ? child_path("topology.nodes", who)
                                               : index_path(child_path(dom.origin, "stations"), k);
      d.error(at, what(who) + " is already on a link or domain; it has one port");
    }
  }
  for (const auto& s : c.stations)
    if (attached.count(s.name) == 0)
      d.error(station_path(s.name),
              "station is not on any link or collision domain; add it to \"links\", "
              "\"topology\" or \"collision_domains\"");
}

// The duplex of a link or domain end: the station's MAC's, or the switch port's.
std::optional<Duplex> duplex_of(const ScenarioConfig& c, const std::string& end) {
  const auto e = c.endpoint(end);
  if (!e) return std::nullopt;
  if (e->sw == nullptr) return c.find_station(end)->mac.duplex;
  return e->sw->ports().at(static_cast<std::size_t>(e->port - 1)).duplex;
}

void duplex_matches(const ScenarioConfig& c, Diagnostics& d) {
  for (const auto& dom : c.domains)
    for (const auto& name : dom.stations) {
      if (duplex_of(c, name) != Duplex::full) continue;
      if (c.find_station(name) != nullptr)
        d.error(station_path(name, "mac.duplex"),
                "\"" + name + "\" is on " + dom.origin +
                    ", a shared medium: set \"mac\": {\"duplex\": \"half\"} (at the top level, or "
                    "for the station)");
      else
        d.error(dom.origin, "switch port " + name +
                                " is full duplex; a port on a shared medium needs \"duplex\": "
                                "\"half\" in its switch's \"ports\" group");
    }
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const auto& l = c.links[i];
    const auto a = duplex_of(c, l.a);
    const auto b = duplex_of(c, l.b);
    if (!a || !b) continue;
    if (*a != *b)
      d.error(index_path("links", i), "duplex mismatch: " + l.a + " is " +
                                          std::string(choice_name(*a)) + " duplex, " + l.b +
                                          " is " + std::string(choice_name(*b)) + " duplex");
    else if (*a == Duplex::half && l.params.ber > 0)
      d.error(child_path(index_path("links", i), "ber"),
              "bit errors are modelled on full-duplex links only; this link joins two half-duplex "
              "MACs (a collision domain): use 0");
  }
}

void mac_modes(const ScenarioConfig& c, Diagnostics& d) {
  for (const auto& sw : c.switches)
    if (sw.mac.pause_xon_bytes >= sw.mac.pause_xoff_bytes)
      d.error(child_path(child_path(child_path("switches", sw.name), "mac"), "pause_xon_bytes"),
              "pause_xon_bytes (" + std::to_string(sw.mac.pause_xon_bytes) +
                  ") must be below pause_xoff_bytes (" + std::to_string(sw.mac.pause_xoff_bytes) +
                  ")");
  for (const auto& s : c.stations) {
    const auto mode = find_speed_mode(s.rate_mbps);
    const std::string path = station_path(s.name, "mac");
    if (s.mac.pause_xon_bytes >= s.mac.pause_xoff_bytes)
      d.error(station_path(s.name, "mac.pause_xon_bytes"),
              "pause_xon_bytes (" + std::to_string(s.mac.pause_xon_bytes) +
                  ") must be below pause_xoff_bytes (" + std::to_string(s.mac.pause_xoff_bytes) +
                  ")");
    if (s.mac.duplex != Duplex::half) continue;
    if (mode && !mode->half_duplex_defined)
      d.error(child_path(path, "duplex"), "half duplex is not defined at " +
                                              std::to_string(s.rate_mbps) +
                                              " Mb/s (802.3: 10, 100 and 1000 Mb/s only)");
    if (s.mac.frame_bursting && s.rate_mbps != 1000)
      d.error(child_path(path, "frame_bursting"), "frame bursting is defined at 1000 Mb/s only");
    if (s.mac.pause_tx_enabled)
      d.error(child_path(path, "pause_tx_enabled"), "PAUSE is full duplex only (802.3 Annex 31B)");
    if (s.mac.ifg_part1_bits > s.mac.ifg_bits)
      d.error(child_path(path, "ifg_part1_bits"),
              "the first part of the gap (" + std::to_string(s.mac.ifg_part1_bits) +
                  " bit times) cannot be longer than the gap (" + std::to_string(s.mac.ifg_bits) +
                  ")");
  }
}

// phy "1000base-t": a twisted-pair category, full duplex at 1000 Mb/s, the error rate from the
// cable.
void phy_model_applies(const ScenarioConfig& c, Diagnostics& d) {
  const std::vector<std::string> categories = {"cat5", "cat5e", "cat6"};
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const auto& l = c.links[i];
    const std::string path = index_path("links", i);
    if (l.params.phy != "1000base-t") continue;  // "ideal" (the schema allows only the two)
    if (std::find(categories.begin(), categories.end(), l.params.medium) == categories.end()) {
      d.error(child_path(path, "medium"),
              "phy \"1000base-t\" needs a twisted-pair category (cat5, cat5e, cat6), got \"" +
                  l.params.medium + "\"");
      continue;
    }
    if (duplex_of(c, l.a) == Duplex::half) {
      d.error(child_path(path, "phy"), "the 1000BASE-T error model is for full-duplex links; " +
                                           l.a + " is half duplex (use phy \"ideal\")");
      continue;
    }
    if (l.rate_mbps != 1000) {
      d.error(child_path(path, "phy"),
              "1000BASE-T runs at 1000 Mb/s; this link runs at " + std::to_string(l.rate_mbps));
      continue;
    }
    if (l.params.ber > 0)
      d.error(child_path(path, "ber"),
              "with phy \"1000base-t\" the bit-error rate comes from the cable; remove \"ber\" "
              "(or use phy \"ideal\")");
  }
}

// Traffic goes to a reachable station (or broadcast), in frames the MAC can send.
void traffic_fits(const ScenarioConfig& c, Diagnostics& d) {
  // Groups of stations that reach each other, found once (not a search per station).
  const std::map<std::string, std::size_t> group = c.station_groups();
  std::map<std::size_t, std::size_t> group_size;
  for (const auto& [name, g] : group) ++group_size[g];
  for (const auto& s : c.stations) {
    const std::size_t own = group.at(s.name);
    for (std::size_t i = 0; i < s.traffic.size(); ++i) {
      const TrafficParams& t = s.traffic[i];
      const std::string path = index_path(station_path(s.name, "traffic"), i);
      const auto to = group.find(t.to);
      if (t.to == s.name) {
        d.error(child_path(path, "to"), "a station cannot send to itself");
      } else if (to != group.end() && group_size[own] > 1 && to->second != own) {
        // (A station joined to nothing is not judged here, as before.)
        d.error(child_path(path, "to"),
                "\"" + t.to + "\" is not reachable from " + s.name +
                    " (reachable: " + schema::key_list(c.reachable_from(s.name)) +
                    "; links, collision domains and switches join stations)");
      }
      const std::int64_t limit = s.mac.max_frame_bytes + (t.vlan_id >= 0 ? kQTagBytes : 0);
      auto check_size = [&](std::int64_t bytes, const std::string& at) {
        if (bytes < kMinFrameBytes) {
          d.error(at,
                  std::to_string(bytes) + " bytes is below the 64-byte minimum frame (DA..FCS)");
        } else if (bytes > limit) {
          d.error(at, std::to_string(bytes) +
                          " bytes is larger than this station's maximum frame (" +
                          std::to_string(limit) +
                          " bytes; raise mac.max_frame_bytes for jumbo frames)");
        }
      };
      if (t.pattern == TrafficPattern::script) {
        for (std::size_t k = 0; k < t.script.size(); ++k)
          check_size(t.script[k].bytes,
                     child_path(index_path(child_path(path, "script"), k), "bytes"));
      } else {
        check_size(t.frame_bytes.smallest(), child_path(path, "frame_bytes"));
        if (t.frame_bytes.largest() != t.frame_bytes.smallest())
          check_size(t.frame_bytes.largest(), child_path(path, "frame_bytes"));
      }
    }
  }
}

// An application's peer is another reachable station; the MTU fits both MACs; a station with no
// host runs at most one application end (an ideal endpoint).
// An application's peer must be reachable from the host: from one of its NICs (a team with a
// cable per NIC reaches each peer through its own), from every one for a round-robin team (it
// sends each frame from the next NIC), and from the first for IPX kept on it by the balancing.
void peer_reachable(const ScenarioConfig& c, const HostConfig& h, const AppParams& app,
                    const std::string& at, Diagnostics& d) {
  const std::vector<std::string> own = h.own_stations();
  const auto reach = c.reachable_from(app.peer);
  auto reaches = [&](const std::string& s) {
    return std::find(reach.begin(), reach.end(), s) != reach.end();
  };
  const auto count = std::count_if(own.begin(), own.end(), reaches);
  const std::string none = " (no link, collision domain or switch joins them)";
  if (count == 0) {
    d.error(at, "station \"" + app.peer + "\" is not reachable from \"" + own.front() + "\"" +
                    (own.size() > 1 ? " or the team's other stations" : std::string()) + none);
  } else if (h.team.mode == TeamMode::round_robin &&
             count < static_cast<std::ptrdiff_t>(own.size())) {
    d.error(at,
            "a round_robin team sends every frame from the next NIC, so every NIC must reach "
            "station \"" +
                app.peer + "\"; with a cable per NIC use mode \"per_client\"");
  } else if (!reaches(own.front()) && app.network != AppNetwork::ip &&
             h.team.balances != TeamBalance::every_protocol) {
    d.error(
        at,
        "an IPX application's peer sends to the team's first NIC (balances " +
            std::string(h.team.balances == TeamBalance::ip_only ? "ip_only" : "receive_ip_only") +
            "), and \"" + own.front() + "\" does not reach station \"" + app.peer + "\"" + none);
  }
}

void applications_fit(const ScenarioConfig& c, Diagnostics& d) {
  for (const auto& h : c.hosts) {
    const std::vector<std::string> own = h.own_stations();
    for (const auto& [key, app] : h.applications()) {
      const std::string at = host_path(h, key);
      if (app->report_ring_slots > 0 && (app->kind != AppKind::udp || app->report_ring_slots == 1))
        d.error(child_path(at, "report_ring_slots"),
                std::string(app->kind != AppKind::udp
                                ? "expected 0: the report ring is iperf's UDP reporter (kind "
                                  "\"udp\")"
                                : "expected 0 or at least 2 (a ring keeps one slot empty)") +
                    ", got " + std::to_string(app->report_ring_slots));
      if (app->kind == AppKind::udp && app->request_bytes > 65507)
        d.error(child_path(at, "request_bytes"),
                "a UDP datagram carries at most 65507 bytes, got " +
                    std::to_string(app->request_bytes));
      if (own.empty() || c.find_station(own.front()) == nullptr) continue;
      const StationConfig* peer = c.find_station(app->peer);
      if (peer == nullptr) continue;
      if (std::find(own.begin(), own.end(), app->peer) != own.end()) {
        d.error(child_path(at, "peer"),
                "station \"" + app->peer + "\" is this host's own; the peer is another station");
        continue;
      }
      peer_reachable(c, h, *app, child_path(at, "peer"), d);
      if (!h.tx.to.empty())
        d.error(at, "a host runs either the raw sender (tx) or applications, not both");
      // Each end sends with its own host's MTU (the peer's if it has a transport block).
      std::vector<const HostConfig*> senders{&h};
      if (const HostConfig* far = c.host_of(app->peer); far != nullptr && far->has_transport)
        senders.push_back(far);
      for (const HostConfig* ends : senders) {
        const std::int64_t frame = ends->transport.mtu + 18;
        for (const StationConfig* st : {c.find_station(own.front()), peer})
          if (frame > st->mac.max_frame_bytes)
            d.error(host_path(*ends, "transport.mtu"),
                    "MTU " + std::to_string(ends->transport.mtu) + " makes " +
                        std::to_string(frame) + "-byte frames, over station " + st->name +
                        "'s max_frame_bytes (" + std::to_string(st->mac.max_frame_bytes) + ")");
      }
    }
  }
}

void bus_modes(const ScenarioConfig& c, Diagnostics& d) {
  for (const auto& h : c.hosts) {
    if (h.has_nic && (h.pci.mode == PciMode::pcie) != (h.nic.bus == NicBus::pcie))
      d.error(host_path(h, "pci.mode"),
              h.nic.bus == NicBus::pcie
                  ? "the NIC is a PCI Express device (hosts." + h.name +
                        ".nic.bus \"pcie\"): give this host \"mode\": \"pcie\""
                  : "the NIC is a PCI device (hosts." + h.name +
                        ".nic.bus \"pci\") and this host's bus is PCI Express: give it \"mode\": "
                        "\"pci\" or \"pcix\", or a PCI Express NIC profile (intel-82573, "
                        "broadcom-bcm5751, marvell-88e8053)");
    if (h.pci.mode == PciMode::pcie) {
      if (h.bridge.split_read_bytes > 0)
        d.error(host_path(h, "bridge.split_read_bytes"),
                "split transactions are PCI-X only; on PCI Express reads are completed in "
                "pieces of bridge.completion_bytes (hosts." +
                    h.name + ".pci.mode is \"pcie\")");
      if (h.bridge.completion_bytes > h.pci.max_payload_bytes)
        d.error(host_path(h, "bridge.completion_bytes"),
                "a completion carries at most Max_Payload_Size (" +
                    std::to_string(h.pci.max_payload_bytes) + " bytes, hosts." + h.name +
                    ".pci.max_payload_bytes), got " + std::to_string(h.bridge.completion_bytes));
      continue;
    }
    const bool pcix = h.pci.mode == PciMode::pcix;
    const std::vector<std::int64_t> clocks =
        pcix ? std::vector<std::int64_t>{66, 100, 133} : std::vector<std::int64_t>{33, 66};
    if (std::find(clocks.begin(), clocks.end(), h.pci.clock_mhz) == clocks.end())
      d.error(host_path(h, "pci.clock_mhz"),
              std::string(pcix ? "PCI-X runs at 66, 100 or 133 MHz" : "PCI runs at 33 or 66 MHz") +
                  ", got " + std::to_string(h.pci.clock_mhz));
    if (!pcix && h.bridge.split_read_bytes > 0)
      d.error(
          host_path(h, "bridge.split_read_bytes"),
          "split transactions are PCI-X only; this bus is \"pci\" (hosts." + h.name + ".pci.mode)");
    if (h.bridge.memory_mbps > 0 &&
        (h.bridge.split_read_bytes <= 0 || h.bridge.posted_write_bytes <= 0))
      d.error(host_path(h, "bridge.memory_mbps"),
              "the shared memory port's rate takes PCI-X split reads and posted writes from one "
              "timeline: give the bridge split_read_bytes and posted_write_bytes, or use "
              "memory_read_mbps / memory_write_mbps");
    if (h.bridge.memory_read_mbps > 0 && h.bridge.split_read_bytes <= 0)
      d.error(host_path(h, "bridge.memory_read_mbps"),
              "the read path's rate applies to PCI-X split reads: give the bridge "
              "split_read_bytes (PCI-X) or drop it");
  }
}

}  // namespace

// A series of at most a million intervals: more is a file of millions of rows per rate.
void series_fits(const ScenarioConfig& c, Diagnostics& d) {
  constexpr std::int64_t kMostIntervals = 1'000'000;
  const std::int64_t interval = c.run.series_interval_ns;
  if (interval <= 0) return;
  const std::int64_t intervals = (c.run.duration_ns + interval - 1) / interval;
  if (intervals > kMostIntervals)
    d.error("series_interval_ns",
            fmt::format("{} ns intervals over duration_ns {} are {} intervals; at most {} (an "
                        "interval of at least {} ns)",
                        interval, c.run.duration_ns, intervals, kMostIntervals,
                        (c.run.duration_ns + kMostIntervals - 1) / kMostIntervals));
}

// A warm-up ends before the run does: the statistics need time after it.
void warmup_fits(const ScenarioConfig& c, Diagnostics& d) {
  if (c.run.warmup_ns >= c.run.duration_ns && c.run.warmup_ns > 0)
    d.error("warmup_ns",
            fmt::format("a warm-up of {} ns leaves no time for statistics in a run of duration_ns "
                        "{}: the warm-up is part of the duration (expected at most {} ns)",
                        c.run.warmup_ns, c.run.duration_ns, c.run.duration_ns - 1));
}

const std::vector<ScenarioRule>& scenario_rules() {
  static const std::vector<ScenarioRule> rules = {
      {"unique-addresses", "no two stations have the same MAC address", unique_addresses},
      {"host-names", "a host is not named like a station", host_names},
      {"nic-fits-station",
       "a NIC (or a light host) serves one station; its FIFOs and receive ring hold that "
       "station's largest frame, on every station of a team; its sender sends to another station "
       "in frames the MAC takes, through one NIC; a team balances by protocol only per client",
       nic_fits_station},
      {"one-port-per-station",
       "every station is on exactly one link or collision domain (topology included)",
       one_port_per_station},
      {"duplex-matches",
       "stations on a collision domain are half duplex; a link's two MACs have the same duplex; "
       "bit errors on full-duplex links only",
       duplex_matches},
      {"mac-modes",
       "half duplex at 10/100/1000 Mb/s only; frame bursting at 1000 Mb/s; PAUSE full duplex "
       "only; the gap's first part within the gap; pause_xon_bytes below pause_xoff_bytes",
       mac_modes},
      {"phy-model",
       "phy \"1000base-t\" needs cat5/cat5e/cat6, full duplex, 1000 Mb/s and no ber of its own",
       phy_model_applies},
      {"traffic-fits",
       "traffic goes to another reachable station or broadcast, in frames of 64 bytes up to the "
       "station's maximum (plus a VLAN tag if tagged)",
       traffic_fits},
      {"applications-fit",
       "an application's peer is another station reachable from its host (from one of a team's "
       "NICs; from every one for round_robin); the MTU's frames fit both MACs; UDP datagrams of "
       "at most 65507 bytes; iperf's report ring on UDP only",
       applications_fit},
      {"bus-modes",
       "PCI runs at 33 or 66 MHz, PCI-X at 66, 100 or 133; split transactions on PCI-X only",
       bus_modes},
      {"series-fits", "a time series has at most 1,000,000 intervals", series_fits},
      {"warmup-fits", "a warm-up ends before the run (duration_ns includes it)", warmup_fits},
  };
  return rules;
}

void check_rules(const ScenarioConfig& config, Diagnostics& d) {
  for (const auto& rule : scenario_rules()) rule.check(config, d);
}

void check_references(const std::vector<schema::Reference>& references,
                      const ScenarioConfig& config, Diagnostics& d) {
  std::vector<std::string> stations;
  for (const auto& s : config.stations) stations.push_back(s.name);
  std::vector<std::string> destinations = stations;
  destinations.push_back("broadcast");
  std::vector<std::string> media;
  for (const auto& [name, params] : config.media) media.push_back(name);
  const std::vector<std::string> targets = {"bridge"};
  struct Kind {
    const std::vector<std::string>* names;
    std::unordered_set<std::string> set;
    std::string noun;
    std::string listed;
  };
  auto kind = [](const std::vector<std::string>& names, std::string noun, std::string listed) {
    return Kind{&names, {names.begin(), names.end()}, std::move(noun), std::move(listed)};
  };
  std::map<std::string, Kind> kinds;
  kinds.emplace("station", kind(stations, "station", "stations"));
  kinds.emplace("destination", kind(destinations, "station", "stations"));
  kinds.emplace("medium", kind(media, "medium", "media"));
  kinds.emplace("target", kind(targets, "target", "targets on this bus"));
  std::vector<std::string> switch_names;
  for (const auto& sw : config.switches) switch_names.push_back(sw.name);
  for (const auto& ref : references) {
    if (ref.kind == "endpoint") {
      if (config.endpoint(ref.name)) continue;
      const auto colon = ref.name.find(':');
      if (colon == std::string::npos) {
        // Checked as a station below, with its did-you-mean.
        schema::Reference as_station = ref;
        as_station.kind = "station";
        check_references({as_station}, config, d);
        continue;
      }
      const std::string sw = ref.name.substr(0, colon);
      const SwitchConfig* found = config.find_switch(sw);
      if (found != nullptr && found->ports_refused) continue;  // its ports are in error already
      if (found == nullptr) {
        d.error(ref.path,
                "no switch \"" + sw + "\"" + suggestion(sw, switch_names) +
                    (switch_names.empty() ? " (the scenario has no \"switches\")"
                                          : " (switches: " + schema::key_list(switch_names) + ")"));
        continue;
      }
      d.error(ref.path, "expected \"" + sw + ":<n>\" with n from 1 to " +
                            std::to_string(found->ports().size()) + " (its ports), got \"" +
                            ref.name + "\"");
      continue;
    }
    const auto it = kinds.find(ref.kind);
    if (it == kinds.end() || it->second.set.count(ref.name) != 0) continue;
    const Kind& k = it->second;
    if (ref.name.empty()) {
      d.error(ref.path, "expected a " + k.noun + " name" +
                            (ref.kind == "destination" ? " or \"broadcast\"" : "") + ", got \"\"");
      continue;
    }
    if (d.full()) {
      d.error(ref.path, "");
      continue;
    }
    // A long list is cut: a scenario may have thousands of stations.
    std::vector<std::string> shown(k.names->begin(),
                                   k.names->begin() + std::min<std::size_t>(k.names->size(), 12));
    std::string list = schema::key_list(shown);
    if (k.names->size() > shown.size())
      list += ", ... (" + std::to_string(k.names->size()) + " in all)";
    d.error(ref.path, "no " + k.noun + " \"" + ref.name + "\"" + suggestion(ref.name, *k.names) +
                          " (" + k.listed + ": " + list + ")");
  }
}

}  // namespace gbesim
