#include "scenarios/network.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gbesim {

Station::Station(sc_core::sc_module_name name, const StationConfig& config, std::uint32_t number,
                 std::int64_t rate_mbps, const std::vector<SourceConfig>& sources,
                 const AppEnd* ideal, bool served, SimContext& context)
    : sc_module(name),
      mac_("mac", config.mac, MacConfig{rate_mbps, config.address, number}, context) {
  if (!served && ideal == nullptr)
    sink_ = std::make_unique<Sink>("sink", config.sink, mac_, context);
  for (std::size_t i = 0; i < config.traffic.size(); ++i) {
    const std::string child = "source" + std::to_string(i);
    sources_.push_back(std::make_unique<TrafficSource>(child.c_str(), config.traffic[i], sources[i],
                                                       mac_, context));
  }
  if (ideal != nullptr) {
    stack_ = std::make_unique<HostStack>("stack", ideal->app, ideal->transport, ideal->sender,
                                         ideal->ethernet, ideal->ip_source, ideal->ip_destination,
                                         ideal->creator, context);
    endpoint_ = std::make_unique<IdealEndpoint>("endpoint", mac_, *stack_);
  }
}

Host::Host(sc_core::sc_module_name name, const HostConfig& config, Mac* mac,
           const FrameHeader& tx_header, const AppEnd* end, SimContext& context)
    : sc_module(name), config_(config), pci_("pci", config.pci, context) {
  const std::size_t bridge = pci_.bus().add_target("bridge", config.bridge);
  if (end != nullptr)
    stack_ =
        std::make_unique<HostStack>("stack", end->app, end->transport, end->sender, end->ethernet,
                                    end->ip_source, end->ip_destination, end->creator, context);
  if (config.has_nic && mac != nullptr) {
    nic_ = std::make_unique<Nic>("nic", config.nic, config.nic_master, *mac, pci_, bridge, context);
    PciMasterParams host;  // the host bridge mastering the driver's register accesses
    host.width_bits = config.pci.width_bits;
    driver_ = std::make_unique<NicDriver>("driver", with_driver(config.cpu, config.driver), host,
                                          config.tx, tx_header, config.nic.tx_ring_descriptors,
                                          *nic_, pci_, stack_.get(), context);
  }
  for (const auto& m : config.dma)
    dma_.push_back(
        std::make_unique<DmaMaster>(m.name.c_str(), m.traffic, m.master, bridge, pci_, context));
}

namespace {

// The application ends, by station: each host application's own end at its NIC's station and
// the other end at the peer station.
std::map<std::string, AppEnd> application_ends(const ScenarioConfig& config) {
  auto number = [&](const std::string& station) {
    for (std::size_t i = 0; i < config.stations.size(); ++i)
      if (config.stations[i].name == station) return static_cast<std::uint32_t>(i + 1);
    return 0U;
  };
  std::map<std::string, AppEnd> ends;
  for (const auto& h : config.hosts) {
    if (!h.has_nic || h.app.kind.empty()) continue;
    auto end_at = [&](const std::string& own, const std::string& peer, bool sender) {
      AppEnd e;
      e.app = h.app;
      e.transport = h.transport;
      e.sender = sender;
      e.ethernet.source = config.find_station(own)->address;
      e.ethernet.destination = config.find_station(peer)->address;
      e.ip_source = ipv4_for_station(number(own));
      e.ip_destination = ipv4_for_station(number(peer));
      e.creator = kHostCreatorBase + number(own);
      ends[own] = e;
    };
    const bool sends = h.app.direction == "send";
    end_at(h.nic.station, h.app.peer, sends);
    end_at(h.app.peer, h.nic.station, !sends);
  }
  return ends;
}

}  // namespace

Network::Network(const ScenarioConfig& config, SimContext& context) {
  const std::map<std::string, AppEnd> ends = application_ends(config);
  std::set<std::string> served;
  for (const auto& h : config.hosts)
    if (h.has_nic) served.insert(h.nic.station);
  auto end_for = [&](const std::string& station) -> const AppEnd* {
    const auto it = ends.find(station);
    return it == ends.end() ? nullptr : &it->second;
  };
  std::uint32_t flow = 1;
  for (const auto& s : config.stations) {
    std::vector<SourceConfig> sources;
    for (const auto& t : s.traffic) {
      SourceConfig source;
      source.flow = flow++;
      source.destination =
          t.to == "broadcast" ? MacAddress::broadcast() : config.find_station(t.to)->address;
      sources.push_back(source);
    }
    stations_.push_back(std::make_unique<Station>(
        s.name.c_str(), s, static_cast<std::uint32_t>(stations_.size() + 1), s.rate_mbps, sources,
        served.count(s.name) ? nullptr : end_for(s.name), served.count(s.name) > 0, context));
  }

  for (std::size_t i = 0; i < config.switches.size(); ++i) {
    const SwitchConfig& sw = config.switches[i];
    std::vector<SwitchPortParams> ports = sw.ports();
    for (std::size_t p = 0; p < ports.size(); ++p)
      ports[p].rate_mbps = config.switch_port_rate(sw.name + ":" + std::to_string(p + 1));
    switches_.push_back(std::make_unique<Switch>(sw.name.c_str(), sw.params, sw.mac, ports,
                                                 static_cast<std::uint32_t>(i + 1), context));
  }
  auto plug = [&](const std::string& end) {
    const auto colon = end.find(':');
    if (colon == std::string::npos) return static_cast<SwitchPort*>(nullptr);
    SwitchPort& port = find_switch(end.substr(0, colon))->port(std::stoul(end.substr(colon + 1)));
    port.set_up();
    return &port;
  };
  auto direction_name = [](std::string end) {
    std::replace(end.begin(), end.end(), ':', '_');
    return end;
  };

  auto attach_domain = [&](const std::string& name, const std::vector<std::string>& members,
                           std::vector<std::vector<Picoseconds>> delays, std::int64_t rate) {
    std::vector<std::string> names;
    for (const auto& m : members) names.push_back(direction_name(m));
    media_.push_back(
        std::make_unique<SharedMedium>(name.c_str(), std::move(delays), names, rate, context));
    SharedMedium& medium = *media_.back();
    for (const auto& m : members) {
      plug(m);
      Mac& mac = *mac_of(m);
      const std::size_t index = medium.attach(mac);
      mac.attach_medium(&medium, index);
      mac.attach_incoming(&medium.port(index));
      seats_.push_back({m, &medium, index});
    }
  };
  for (std::size_t i = 0; i < config.domains.size(); ++i) {
    const auto& dom = config.domains[i];
    attach_domain("domain" + std::to_string(i), dom.stations,
                  dom.delay_ps(config.media.at(dom.medium).ns_per_m,
                               1000.0 / static_cast<double>(dom.resolved_rate_mbps)),
                  dom.resolved_rate_mbps);
  }

  for (std::size_t i = 0; i < config.links.size(); ++i) {
    const auto& l = config.links[i];
    const double ns_per_m = config.media.at(l.params.medium).ns_per_m;
    const std::string name = "link" + std::to_string(i);
    if (mac_of(l.a)->half_duplex()) {
      const Picoseconds d = FullDuplexLink::delay_for(l.params, ns_per_m);
      attach_domain(name, {l.a, l.b}, {{0, d}, {d, 0}}, l.rate_mbps);
      continue;
    }
    links_.push_back(std::make_unique<FullDuplexLink>(name.c_str(), l.effective_params(), ns_per_m,
                                                      direction_name(l.a), direction_name(l.b),
                                                      context));
    FullDuplexLink& link = *links_.back();
    link.connect(*mac_of(l.a), *mac_of(l.b));
    towards_.emplace_back(l.b, &link.a_to_b());
    towards_.emplace_back(l.a, &link.b_to_a());
    // A switch port hears of each frame as it starts towards it (cut-through).
    if (SwitchPort* port = plug(l.b))
      link.a_to_b().arriving.connect(
          [port](const Frame& f, Picoseconds first_bit) { port->frame_arriving(f, first_bit); });
    if (SwitchPort* port = plug(l.a))
      link.b_to_a().arriving.connect(
          [port](const Frame& f, Picoseconds first_bit) { port->frame_arriving(f, first_bit); });
  }

  for (const auto& h : config.hosts) {
    Mac* mac = h.has_nic ? &find_station(h.nic.station)->mac() : nullptr;
    FrameHeader header;
    if (h.has_nic) header.source = config.find_station(h.nic.station)->address;
    if (!h.tx.to.empty()) header.destination = config.find_station(h.tx.to)->address;
    hosts_.push_back(std::make_unique<Host>(h.name.c_str(), h, mac, header,
                                            h.has_nic ? end_for(h.nic.station) : nullptr, context));
    // Receive-early: the NIC hears of each frame as it starts towards its station.
    if (Nic* nic = hosts_.back()->nic(); nic != nullptr && h.nic.rx_early_bytes > 0)
      if (LinkDirection* d = direction_towards(h.nic.station))
        d->arriving.connect(
            [nic](const Frame& f, Picoseconds first_bit) { nic->frame_arriving(f, first_bit); });
  }
}

SharedMedium* Network::medium_of(const std::string& station, std::size_t* index) const {
  for (const auto& seat : seats_) {
    if (seat.station != station) continue;
    if (index != nullptr) *index = seat.index;
    return seat.medium;
  }
  return nullptr;
}

Station* Network::find_station(const std::string& name) const {
  for (const auto& s : stations_)
    if (s->basename() == name) return s.get();
  return nullptr;
}

Switch* Network::find_switch(const std::string& name) const {
  for (const auto& s : switches_)
    if (s->basename() == name) return s.get();
  return nullptr;
}

Mac* Network::mac_of(const std::string& end) const {
  const auto colon = end.find(':');
  if (colon == std::string::npos) {
    Station* s = find_station(end);
    return s == nullptr ? nullptr : &s->mac();
  }
  Switch* sw = find_switch(end.substr(0, colon));
  return sw == nullptr ? nullptr : &sw->port(std::stoul(end.substr(colon + 1))).mac();
}

LinkDirection* Network::direction_towards(const std::string& station) const {
  for (const auto& [name, direction] : towards_)
    if (name == station) return direction;
  return nullptr;
}

}  // namespace gbesim
