#pragma once
// The builder: turns a resolved ScenarioConfig into a SystemC hierarchy. One station is an
// sc_module named after the station holding its MAC ("mac"), its receiving application
// ("sink") and its traffic sources ("source0", "source1", ...). Full-duplex links are named
// "link<i>" (in file order) with one direction per receiving end, "to_<station>" (or
// "to_<switch>_<n>" for a switch port); a link between two half-duplex MACs is a two-station
// collision domain of the same name. Collision domains are "domain<i>", with one delivery port
// per station, "to_<station>". A switch is an sc_module named after it with ports "port<n>",
// each holding its MAC ("mac").

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/host/host_stack.hpp"
#include "models/host/ideal_endpoint.hpp"
#include "models/host/light_host.hpp"
#include "models/host/nic_driver.hpp"
#include "models/host/sink.hpp"
#include "models/host/stack_set.hpp"
#include "models/host/traffic_source.hpp"
#include "models/mac/mac.hpp"
#include "models/medium/full_duplex_link.hpp"
#include "models/medium/shared_medium.hpp"
#include "models/nic/nic.hpp"
#include "models/pci/dma_master.hpp"
#include "models/pci/pci_bus_module.hpp"
#include "models/pci/pcix_bridge.hpp"
#include "models/switch/switch.hpp"
#include "scenarios/scenario_config.hpp"

namespace gbesim {

// One end of a host application, as the builder works it out: the host's own end, or the
// other end on the peer station (on the host serving it, or on an ideal endpoint).
struct AppEnd {
  std::string name;  // the stack's module name: "stack", or "stack_<peer>" when a host runs several
  std::string peer;  // the station at the other end
  AppParams app;
  TransportParams transport;
  bool sender = false;
  FrameHeader ethernet;  // own and peer MAC addresses
  std::uint32_t ip_source = 0;
  std::uint32_t ip_destination = 0;
  std::uint64_t creator = 0;  // frame id creator (see kFrameIdCreator)
  std::uint16_t sender_port = kSenderPort;
  std::size_t home = 0;  // which of its host's stations (NICs) the end sends and receives on
};

class Station : public sc_core::sc_module {
 public:
  // sources[i] configures config.traffic[i]; ideal: the application ends this station runs on
  // an ideal host ("stack", or "stack_<peer>" for several, and "endpoint"), none for none;
  // served: a host's NIC is the MAC's client. The MAC has exactly one client: the NIC, the
  // ideal endpoint, or else a sink.
  Station(sc_core::sc_module_name name, const StationConfig& config, std::uint32_t number,
          std::int64_t rate_mbps, const std::vector<SourceConfig>& sources,
          const std::vector<AppEnd>& ideal, bool served, SimContext& context);

  Mac& mac() { return mac_; }
  // The receiving sink, or nullptr when a NIC or an ideal endpoint receives instead.
  Sink* sink() { return sink_.get(); }
  // The application ends an ideal endpoint runs here (none without one).
  const std::vector<std::unique_ptr<HostStack>>& stacks() const { return stacks_; }
  const std::vector<std::unique_ptr<TrafficSource>>& sources() const { return sources_; }

 private:
  Mac mac_;
  std::unique_ptr<Sink> sink_;
  std::vector<std::unique_ptr<TrafficSource>> sources_;
  std::vector<std::unique_ptr<HostStack>> stacks_;
  StackSet ends_;
  std::unique_ptr<IdealEndpoint> endpoint_;
};

// A host: its PCI bus ("pci") with the host bridge as target 0, the DMA masters on it, its NICs
// ("nic", then a team's "nic2", "nic3", ...) with their driver, and its application ends. With an
// on-card bridge the NICs sit on the card's segment ("card_pci") behind it ("card_bridge").
class Host : public sc_core::sc_module {
 public:
  // macs: the MACs of the stations its NICs serve (the nic's first, then the team's).
  // ends: the application ends this host runs.
  Host(sc_core::sc_module_name name, const HostConfig& config, const std::vector<Mac*>& macs,
       const std::vector<MacAddress>& addresses, const FrameHeader& tx_header,
       const std::vector<AppEnd>& ends, SimContext& context);
  const std::vector<std::unique_ptr<HostStack>>& stacks() const { return stacks_; }
  const std::vector<AppEnd>& ends() const { return ends_; }
  Nic* nic() { return nics_.empty() ? nullptr : nics_.front().get(); }
  const std::vector<std::unique_ptr<Nic>>& nics() const { return nics_; }
  PciBusModule& pci() { return pci_; }
  PciBusModule* card_pci() { return card_pci_.get(); }  // behind an on-card bridge, if any
  NicDriver* driver() { return driver_.get(); }
  const HostConfig& config() const { return config_; }

 private:
  HostConfig config_;
  std::vector<AppEnd> ends_;
  PciBusModule pci_;
  std::unique_ptr<PciBusModule> card_pci_;
  std::unique_ptr<PciXBridge> card_bridge_;
  std::vector<std::unique_ptr<DmaMaster>> dma_;
  std::vector<std::unique_ptr<HostStack>> stacks_;
  StackSet stack_set_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::unique_ptr<NicDriver> driver_;
};

// A light host: a CPU ("cpu") running its application ends straight on one station's MAC.
class LightHostNode : public sc_core::sc_module {
 public:
  LightHostNode(sc_core::sc_module_name name, const HostConfig& config, Mac& mac,
                const std::vector<AppEnd>& ends, SimContext& context);
  const std::vector<std::unique_ptr<HostStack>>& stacks() const { return stacks_; }
  const std::vector<AppEnd>& ends() const { return ends_; }
  const HostConfig& config() const { return config_; }

 private:
  HostConfig config_;
  std::vector<AppEnd> ends_;
  std::vector<std::unique_ptr<HostStack>> stacks_;
  StackSet stack_set_;
  std::unique_ptr<LightHost> cpu_;
};

// A model's trace hook, the component name its events carry, and the parts (bus masters, switch
// ports) its events may name beneath it.
struct EventSource {
  std::string component;
  Hook<const Event&>* hook;
  std::vector<std::string> parts;
};

class Network {
 public:
  Network(const ScenarioConfig& config, SimContext& context);

  // Every model's event hook, in the hierarchy's order: stations (MAC, sink, stack), hosts (bus,
  // NICs, driver, stacks), light hosts' stacks, switches (the relay, then each port's MAC).
  std::vector<EventSource> event_sources() const;
  // What each kind of model the builder wires reports and traces (`gbesim events`).
  static std::vector<const ModelVocabulary*> vocabularies();

  const std::vector<std::unique_ptr<Station>>& stations() const { return stations_; }
  const std::vector<std::unique_ptr<FullDuplexLink>>& links() const { return links_; }
  const std::vector<std::unique_ptr<SharedMedium>>& media() const { return media_; }
  const std::vector<std::unique_ptr<Host>>& hosts() const { return hosts_; }
  const std::vector<std::unique_ptr<LightHostNode>>& light_hosts() const { return light_hosts_; }
  const std::vector<std::unique_ptr<Switch>>& switches() const { return switches_; }
  Station* find_station(const std::string& name) const;
  Switch* find_switch(const std::string& name) const;
  // The MAC at a link or domain end: a station's, or a switch port's ("<switch>:<n>").
  Mac* mac_of(const std::string& end) const;
  // The link direction that delivers to the named station, or nullptr.
  LinkDirection* direction_towards(const std::string& station) const;
  // The shared medium that carries the named half-duplex station, and its port, or nullptr.
  SharedMedium* medium_of(const std::string& station, std::size_t* index) const;

  // Lets every link direction and medium port whose receiver takes it deliver late
  // (LinkDirection::deliver_late, MediumPort::deliver_late): call once every observer is
  // connected, before the run; returns how many do.
  std::size_t deliver_late();
  // Delivers what has arrived before now on those directions (the kernel has not yet run the
  // instant it stopped at), and brings every host's bus up to then (PciBusModule::catch_up):
  // call whenever the kernel has stopped, before statistics are read.
  void settle_late_deliveries();

 private:
  // The construction steps, in this order: the SystemC hierarchy is built as the scenario lists
  // it. ideal_ends: the application ends run on ideal endpoints, by station; host_ends: each
  // host's application ends, by host name.
  void build_stations(const ScenarioConfig& config,
                      const std::map<std::string, std::vector<AppEnd>>& ideal_ends,
                      SimContext& context);
  void watch_flows(const ScenarioConfig& config);
  void build_switches(const ScenarioConfig& config, SimContext& context);
  void build_domains(const ScenarioConfig& config, SimContext& context);
  void build_links(const ScenarioConfig& config, SimContext& context);
  void build_hosts(const ScenarioConfig& config,
                   const std::map<std::string, std::vector<AppEnd>>& host_ends,
                   SimContext& context);
  // A shared medium named `name` carrying the MACs at `members` (stations or switch ports).
  void attach_domain(const std::string& name, const std::vector<std::string>& members,
                     std::vector<std::vector<Picoseconds>> delays, std::int64_t rate,
                     SimContext& context);
  // The switch port at a "<switch>:<n>" end, brought up; nullptr for a station's end.
  SwitchPort* plug(const std::string& end);

  std::vector<std::unique_ptr<Station>> stations_;
  // By name: a thousand stations' flows find their receivers without a search each.
  std::unordered_map<std::string, Station*> station_by_name_;
  std::vector<std::unique_ptr<FullDuplexLink>> links_;
  std::vector<std::unique_ptr<SharedMedium>> media_;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<std::unique_ptr<LightHostNode>> light_hosts_;
  std::vector<std::unique_ptr<Switch>> switches_;
  std::vector<std::pair<std::string, LinkDirection*>> towards_;
  std::vector<LinkDirection*> late_;          // directions delivering late
  std::vector<LinkDirection*> late_senders_;  // directions delivering on time from a late sender
  std::vector<MediumPort*> late_ports_;       // half-duplex ports delivering late
  struct MediumSeat {
    std::string station;
    SharedMedium* medium;
    std::size_t index;
  };
  std::vector<MediumSeat> seats_;
};

}  // namespace gbesim
