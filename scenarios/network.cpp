#include "scenarios/network.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "models/pci/pci_bus.hpp"
#include "models/pci/pcie_link.hpp"

namespace gbesim {

namespace {

std::unique_ptr<HostStack> make_stack(const AppEnd& e, SimContext& context) {
  return std::make_unique<HostStack>(e.name.c_str(), e.app, e.transport, e.sender, e.ethernet,
                                     e.ip_source, e.ip_destination, e.creator, context,
                                     e.sender_port);
}

// The card's own segment behind its bridge: the host bus's arbiter, the bridge's clock and width.
PciBusParams card_segment(const HostConfig& config) {
  PciBusParams p = config.pci;
  p.mode = PciMode::pcix;
  p.clock_mhz = config.card_bridge.clock_mhz;
  p.width_bits = config.card_bridge.width_bits;
  return p;
}

}  // namespace

Station::Station(sc_core::sc_module_name name, const StationConfig& config, std::uint32_t number,
                 std::int64_t rate_mbps, const std::vector<SourceConfig>& sources,
                 const std::vector<AppEnd>& ideal, bool served, SimContext& context)
    : sc_module(name),
      mac_("mac", config.mac, MacConfig{rate_mbps, config.address, number}, context) {
  if (!served && ideal.empty()) sink_ = std::make_unique<Sink>("sink", config.sink, mac_, context);
  for (std::size_t i = 0; i < config.traffic.size(); ++i) {
    const std::string child = "source" + std::to_string(i);
    sources_.push_back(std::make_unique<TrafficSource>(child.c_str(), config.traffic[i], sources[i],
                                                       mac_, context));
  }
  for (const auto& e : ideal) {
    stacks_.push_back(make_stack(e, context));
    ends_.add(stacks_.back().get());
  }
  if (!ideal.empty()) endpoint_ = std::make_unique<IdealEndpoint>("endpoint", mac_, ends_);
}

Host::Host(sc_core::sc_module_name name, const HostConfig& config, const std::vector<Mac*>& macs,
           const std::vector<MacAddress>& addresses, const FrameHeader& tx_header,
           const std::vector<AppEnd>& ends, SimContext& context)
    : sc_module(name), config_(config), ends_(ends), pci_("pci", config.pci, context) {
  const std::size_t bridge = pci_.bus().add_target("bridge", config.bridge);
  for (const auto& e : ends) {
    stacks_.push_back(make_stack(e, context));
    stack_set_.add(stacks_.back().get());
  }
  if (config.has_nic && !macs.empty()) {
    PciBusModule* nic_bus = &pci_;
    std::size_t nic_memory = bridge;
    if (config.has_card_bridge) {
      card_pci_ = std::make_unique<PciBusModule>("card_pci", card_segment(config), context);
      card_bridge_ =
          std::make_unique<PciXBridge>("card_bridge", config.card_bridge, pci_, *card_pci_, bridge);
      nic_bus = card_pci_.get();
      nic_memory = card_bridge_->memory_target();
    }
    NicTeam team;
    team.round_robin = config.team.mode == TeamMode::round_robin && macs.size() > 1;
    for (std::size_t i = 0; i < macs.size(); ++i) {
      const std::string child = i == 0 ? "nic" : "nic" + std::to_string(i + 1);
      nics_.push_back(std::make_unique<Nic>(child.c_str(), config.nic, config.nic_master, *macs[i],
                                            *nic_bus, nic_memory, context));
      if (card_bridge_)
        nics_.back()->reached_through(card_bridge_->expose(nics_.back()->own_register_target(),
                                                           std::string("card_bridge.") + child));
      // A multi-port chip's ports after its first share the first's bus interface.
      const std::size_t first_port = i - i % static_cast<std::size_t>(config.nic.chip_ports);
      if (first_port != i)
        nic_bus->bus().share_request_line(nics_.back()->bus_master(),
                                          nics_[first_port]->bus_master());
      team.nics.push_back(nics_.back().get());
      team.addresses.push_back(addresses[i]);
    }
    for (const auto& e : ends) team.home.push_back(team.round_robin ? 0 : e.home);
    PciMasterParams host;  // the host bridge mastering the driver's register accesses
    host.width_bits = config.pci.width_bits;
    driver_ = std::make_unique<NicDriver>("driver", with_driver(config.cpu, config.driver), host,
                                          config.tx, tx_header, config.nic.tx_ring_descriptors,
                                          std::move(team), pci_, stack_set_, context);
  }
  for (const auto& m : config.dma)
    dma_.push_back(
        std::make_unique<DmaMaster>(m.name.c_str(), m.traffic, m.master, bridge, pci_, context));
}

LightHostNode::LightHostNode(sc_core::sc_module_name name, const HostConfig& config, Mac& mac,
                             const std::vector<AppEnd>& ends, SimContext& context)
    : sc_module(name), config_(config), ends_(ends) {
  for (const auto& e : ends) {
    stacks_.push_back(make_stack(e, context));
    stack_set_.add(stacks_.back().get());
  }
  cpu_ = std::make_unique<LightHost>("cpu", with_driver(config.cpu, config.driver), mac, stack_set_,
                                     context);
}

namespace {

// Every application's two ends: the host's own, and the other at its peer station (on the host
// owning that station, or an ideal endpoint there). Connection k (in file order) uses the
// sender port kSenderPort + k.
struct Ends {
  std::map<std::string, std::vector<AppEnd>> at_host;     // by host name
  std::map<std::string, std::vector<AppEnd>> at_station;  // ideal endpoints, by station
};

// The NIC (index into the host's stations) an application's end uses: per-client teams spread
// the host's distinct peers (`clients`, in order of first appearance) over the NICs that reach
// them (all of them behind a switch; with a cable per NIC, the one cabled to the peer), all but
// ip_only's IPX applications, which keep the first.
std::size_t team_home(const ScenarioConfig& config, const HostConfig& h, const AppParams& app,
                      const std::vector<std::string>& own, std::vector<std::string>& clients) {
  if (own.size() <= 1 || h.team.mode != TeamMode::per_client) return 0;
  if (h.team.balances == TeamBalance::ip_only && app.network != AppNetwork::ip) return 0;
  auto it = std::find(clients.begin(), clients.end(), app.peer);
  if (it == clients.end()) it = clients.insert(clients.end(), app.peer);
  const auto client = static_cast<std::size_t>(it - clients.begin());
  const auto reach = config.reachable_from(app.peer);
  std::vector<std::size_t> reaching;
  for (std::size_t i = 0; i < own.size(); ++i)
    if (std::find(reach.begin(), reach.end(), own[i]) != reach.end()) reaching.push_back(i);
  if (reaching.empty()) return 0;  // the scenario rules have said so
  return reaching[client % reaching.size()];
}

// What an end takes from the OS of the host it runs on (nothing on an ideal station).
void take_host_os(AppEnd& e, const HostConfig* runs) {
  if (runs == nullptr) {
    e.app.report_ring_slots = 0;  // an ideal end has no reporter thread
    return;
  }
  e.transport.udp_receive_buffer_bytes = runs->driver.udp_receive_buffer_bytes;
  e.transport.udp_truesize_bytes = runs->driver.udp_truesize_bytes;
  e.transport.tick_us = runs->driver.tick_us;
}

Ends application_ends(const ScenarioConfig& config) {
  auto address = [&](const std::string& station) { return config.find_station(station)->address; };
  // A host answers on its first station's IP address, whichever NIC a packet uses.
  auto ip = [&](const std::string& station) {
    const HostConfig* h = config.host_of(station);
    return ipv4_for_station(
        config.station_number(h != nullptr ? h->own_stations().front() : station));
  };
  std::map<std::string, std::size_t> ends_at;  // ends so far at each station (frame id creators)
  std::size_t number = 0;                      // ends so far in the scenario
  auto creator = [&](const std::string& station) {
    const std::size_t j = ends_at[station]++;
    const std::size_t n = number++;
    return j == 0 ? kHostCreatorBase + config.station_number(station) : kMoreEndsCreatorBase + n;
  };
  Ends ends;
  std::uint16_t k = 0;
  for (const auto& h : config.hosts) {
    const std::vector<std::string> own = h.own_stations();
    if (own.empty()) continue;
    std::vector<std::string> clients;  // per-client teaming: peers in order of first appearance
    for (const auto& [key, app] : h.applications()) {
      const std::size_t home = team_home(config, h, *app, own, clients);
      const std::string& mine = own[home];
      const bool sends = app->direction == AppDirection::send;
      auto end_at = [&](const std::string& at, const std::string& other, bool sender) {
        AppEnd e;
        e.name = key == "app" ? "stack" : "stack_" + other;
        e.peer = other;
        e.app = *app;
        // An end runs with the transport settings of the host it runs on, if that host has its
        // own; else (an ideal station, a host without a transport block) with the app's host's.
        const HostConfig* runs = config.host_of(at);
        e.transport = runs != nullptr && runs->has_transport ? runs->transport : h.transport;
        take_host_os(e, runs);
        e.sender = sender;
        e.ethernet.source = address(at);
        e.ethernet.destination = address(other);
        e.ip_source = ip(at);
        e.ip_destination = ip(other);
        e.creator = creator(at);
        e.sender_port = static_cast<std::uint16_t>(kSenderPort + k);
        return e;
      };
      ends.at_host[h.name].push_back(end_at(mine, app->peer, sends));
      ends.at_host[h.name].back().home = home;
      AppEnd far = end_at(app->peer, mine, !sends);
      far.name = "stack_" + mine;
      if (h.team.balances == TeamBalance::receive_ip_only && app->network != AppNetwork::ip)
        far.ethernet.destination = address(own.front());  // no ARP: the peer knows the first NIC
      if (const HostConfig* peer_host = config.host_of(app->peer)) {
        const auto peer_own = peer_host->own_stations();
        far.home = static_cast<std::size_t>(std::find(peer_own.begin(), peer_own.end(), app->peer) -
                                            peer_own.begin());
        ends.at_host[peer_host->name].push_back(far);
      } else {
        ends.at_station[app->peer].push_back(far);
      }
      ++k;
    }
  }
  // Names: a host or station running one end calls it "stack"; several: unique by a suffix.
  auto name_ends = [](std::vector<AppEnd>& list) {
    if (list.size() == 1) {
      list.front().name = "stack";
      return;
    }
    std::map<std::string, int> seen;
    for (auto& e : list)
      if (const int n = ++seen[e.name]; n > 1) e.name += "_" + std::to_string(n);
  };
  for (auto& [host, list] : ends.at_host) name_ends(list);
  for (auto& [station, list] : ends.at_station) name_ends(list);
  return ends;
}

// A link or domain end as a name part: "sw:2" -> "sw_2".
std::string direction_name(std::string end) {
  std::replace(end.begin(), end.end(), ':', '_');
  return end;
}

}  // namespace

Network::Network(const ScenarioConfig& config, SimContext& context) {
  const Ends ends = application_ends(config);
  build_stations(config, ends.at_station, context);
  watch_flows(config);
  build_switches(config, context);
  build_domains(config, context);
  build_links(config, context);
  build_hosts(config, ends.at_host, context);
}

void Network::build_stations(const ScenarioConfig& config,
                             const std::map<std::string, std::vector<AppEnd>>& ideal_ends,
                             SimContext& context) {
  std::set<std::string> served;
  for (const auto& h : config.hosts)
    for (const auto& station : h.own_stations()) served.insert(station);
  const std::vector<AppEnd> none;
  auto ends_for = [&](const std::string& station) -> const std::vector<AppEnd>& {
    const auto it = ideal_ends.find(station);
    return it == ideal_ends.end() || served.count(station) ? none : it->second;
  };
  // The stations' configurations by name (the first of a name, as ScenarioConfig::find_station):
  // a thousand flows find their destinations without a search each.
  std::unordered_map<std::string_view, const StationConfig*> configured;
  for (const auto& s : config.stations) configured.emplace(s.name, &s);
  std::uint32_t flow = 1;
  for (const auto& s : config.stations) {
    std::vector<SourceConfig> sources;
    for (const auto& t : s.traffic) {
      SourceConfig source;
      source.flow = flow++;
      source.destination =
          t.to == "broadcast" ? MacAddress::broadcast() : configured.at(t.to)->address;
      sources.push_back(source);
    }
    stations_.push_back(std::make_unique<Station>(
        s.name.c_str(), s, static_cast<std::uint32_t>(stations_.size() + 1), s.rate_mbps, sources,
        ends_for(s.name), served.count(s.name) > 0, context));
    station_by_name_.emplace(stations_.back()->basename(), stations_.back().get());
  }
}

void Network::watch_flows(const ScenarioConfig& config) {
  // Each unicast traffic source's frames are followed at the receiving station's sink (flows to
  // a station a NIC serves are its host's; broadcast frames have no single receiver).
  std::uint32_t flow = 1;
  for (const auto& s : config.stations)
    for (std::size_t i = 0; i < s.traffic.size(); ++i, ++flow) {
      const std::string& to = s.traffic[i].to;
      if (to == "broadcast") continue;
      Station* receiver = find_station(to);
      if (receiver != nullptr && receiver->sink() != nullptr)
        receiver->sink()->watch_flow(flow, s.name + ".source" + std::to_string(i) + ".to_" + to);
    }
}

void Network::build_switches(const ScenarioConfig& config, SimContext& context) {
  for (std::size_t i = 0; i < config.switches.size(); ++i) {
    const SwitchConfig& sw = config.switches[i];
    std::vector<SwitchPortParams> ports = sw.ports();
    for (std::size_t p = 0; p < ports.size(); ++p)
      ports[p].rate_mbps = config.switch_port_rate(sw.name + ":" + std::to_string(p + 1));
    switches_.push_back(std::make_unique<Switch>(sw.name.c_str(), sw.params, sw.mac, ports,
                                                 static_cast<std::uint32_t>(i + 1), context));
  }
}

SwitchPort* Network::plug(const std::string& end) {
  const auto colon = end.find(':');
  if (colon == std::string::npos) return nullptr;
  SwitchPort& port = find_switch(end.substr(0, colon))->port(std::stoul(end.substr(colon + 1)));
  port.set_up();
  return &port;
}

void Network::attach_domain(const std::string& name, const std::vector<std::string>& members,
                            std::vector<std::vector<Picoseconds>> delays, std::int64_t rate,
                            SimContext& context) {
  std::vector<std::string> names;
  for (const auto& m : members) names.push_back(direction_name(m));
  media_.push_back(
      std::make_unique<SharedMedium>(name.c_str(), std::move(delays), names, rate, context));
  SharedMedium& medium = *media_.back();
  for (const auto& m : members) {
    plug(m);
    Mac& mac = *mac_of(m);
    const std::size_t index = medium.attach(mac);
    mac.attach_medium(&medium, index, &medium.port(index));
    seats_.push_back({m, &medium, index});
  }
}

void Network::build_domains(const ScenarioConfig& config, SimContext& context) {
  for (std::size_t i = 0; i < config.domains.size(); ++i) {
    const auto& dom = config.domains[i];
    attach_domain("domain" + std::to_string(i), dom.stations,
                  dom.delay_ps(config.media.at(dom.medium).ns_per_m,
                               1000.0 / static_cast<double>(dom.resolved_rate_mbps)),
                  dom.resolved_rate_mbps, context);
  }
}

void Network::build_links(const ScenarioConfig& config, SimContext& context) {
  for (std::size_t i = 0; i < config.links.size(); ++i) {
    const auto& l = config.links[i];
    const double ns_per_m = config.media.at(l.params.medium).ns_per_m;
    const std::string name = "link" + std::to_string(i);
    if (mac_of(l.a)->half_duplex()) {
      const Picoseconds d = FullDuplexLink::delay_for(l.params, ns_per_m);
      attach_domain(name, {l.a, l.b}, {{0, d}, {d, 0}}, l.rate_mbps, context);
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
}

void Network::build_hosts(const ScenarioConfig& config,
                          const std::map<std::string, std::vector<AppEnd>>& host_ends,
                          SimContext& context) {
  auto ends_of = [&](const std::string& host) {
    const auto it = host_ends.find(host);
    return it == host_ends.end() ? std::vector<AppEnd>{} : it->second;
  };
  for (const auto& h : config.hosts) {
    if (h.light()) {
      light_hosts_.push_back(std::make_unique<LightHostNode>(
          h.name.c_str(), h, find_station(h.station)->mac(), ends_of(h.name), context));
      continue;
    }
    std::vector<Mac*> macs;
    std::vector<MacAddress> addresses;
    for (const auto& station : h.own_stations()) {
      macs.push_back(&find_station(station)->mac());
      addresses.push_back(config.find_station(station)->address);
    }
    FrameHeader header;
    if (h.has_nic) header.source = config.find_station(h.nic.station)->address;
    if (!h.tx.to.empty()) header.destination = config.find_station(h.tx.to)->address;
    hosts_.push_back(std::make_unique<Host>(h.name.c_str(), h, macs, addresses, header,
                                            ends_of(h.name), context));
    // Receive-early: the NIC hears of each frame as it starts towards its station.
    const auto own = h.own_stations();
    for (std::size_t i = 0; i < own.size() && h.nic.rx_early_bytes > 0; ++i)
      if (LinkDirection* d = direction_towards(own[i])) {
        Nic* nic = hosts_.back()->nics()[i].get();
        d->arriving.connect(
            [nic](const Frame& f, Picoseconds first_bit) { nic->frame_arriving(f, first_bit); });
      }
  }
}

std::vector<EventSource> Network::event_sources() const {
  std::vector<EventSource> out;
  auto add = [&](Hook<const Event&>& hook, const sc_core::sc_object& model,
                 std::vector<std::string> parts = {}) {
    out.push_back({model.name(), &hook, std::move(parts)});
  };
  for (const auto& s : stations_) {
    add(s->mac().events, s->mac());
    if (Sink* sink = s->sink()) add(sink->events, *sink);
    for (const auto& stack : s->stacks()) add(stack->events, *stack);
  }
  for (const auto& h : hosts_) {
    add(h->pci().bus().events, h->pci(), h->pci().bus().parts());
    if (PciBusModule* card = h->card_pci()) add(card->bus().events, *card, card->bus().parts());
    for (const auto& nic : h->nics()) add(nic->events, *nic);
    if (NicDriver* driver = h->driver()) add(driver->events, *driver);
    for (const auto& stack : h->stacks()) add(stack->events, *stack);
  }
  for (const auto& h : light_hosts_)
    for (const auto& stack : h->stacks()) add(stack->events, *stack);
  for (const auto& sw : switches_) {
    std::vector<std::string> ports;
    for (std::size_t n = 1; n <= sw->port_count(); ++n) ports.push_back(sw->port(n).basename());
    add(sw->events, *sw, std::move(ports));
    for (std::size_t n = 1; n <= sw->port_count(); ++n)
      add(sw->port(n).mac().events, sw->port(n).mac());
  }
  return out;
}

std::vector<const ModelVocabulary*> Network::vocabularies() {
  return {&Mac::vocabulary(),        &Sink::vocabulary(),     &LinkDirection::vocabulary(),
          &MediumPort::vocabulary(), &Switch::vocabulary(),   &Nic::vocabulary(),
          &PciBus::vocabulary(),     &PcieLink::vocabulary(), &NicDriver::vocabulary(),
          &HostStack::vocabulary()};
}

std::size_t Network::deliver_late() {
  late_.clear();
  late_ports_.clear();
  for (const auto& link : links_)
    for (LinkDirection* d : {&link->a_to_b(), &link->b_to_a()})
      if (d->deliver_late()) late_.push_back(d);
  for (const auto& medium : media_)
    for (std::size_t i = 0; i < medium->size(); ++i)
      if (medium->port(i).deliver_late()) late_ports_.push_back(&medium->port(i));
  // After every direction has decided: a MAC transmits late into one that delivers late, or
  // into one that delivers on time and wakes for its frames (LinkDirection::take_late_sender).
  late_senders_.clear();
  for (const auto& station : stations_) station->mac().transmit_late();
  for (const auto& link : links_)
    for (LinkDirection* d : {&link->a_to_b(), &link->b_to_a()})
      if (d->late_sender_on_time()) late_senders_.push_back(d);
  return late_.size() + late_ports_.size();
}

void Network::settle_late_deliveries() {
  // The kernel stops before the instant it stopped at: what happens then (a frame ending, one
  // arriving) belongs to the next run. Everything before it has happened but late deliveries.
  const Picoseconds before = now_ps() - 1;
  for (LinkDirection* d : late_senders_) d->settle_sender(before);
  for (LinkDirection* d : late_) d->settle_receiver(before);
  for (MediumPort* p : late_ports_) p->settle_receiver(before);
  // And the buses' work held for their next wake-up, for their statistics.
  for (const auto& host : hosts_) {
    host->pci().catch_up(before);
    if (PciBusModule* card = host->card_pci()) card->catch_up(before);
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
  const auto it = station_by_name_.find(name);
  return it == station_by_name_.end() ? nullptr : it->second;
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
