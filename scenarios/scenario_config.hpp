#pragma once
// A resolved scenario: every parameter of every component, defaults filled in and validated.
// The loader (sim/) makes one from JSON; the builder turns it into SystemC models.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/mac_address.hpp"
#include "models/common/param_table.hpp"
#include "models/host/app_params.hpp"
#include "models/host/driver_params.hpp"
#include "models/host/sink_params.hpp"
#include "models/host/traffic_params.hpp"
#include "models/mac/mac_params.hpp"
#include "models/medium/link_params.hpp"
#include "models/medium/media.hpp"
#include "models/nic/nic_params.hpp"
#include "models/pci/pci_params.hpp"
#include "models/phy/phy_params.hpp"
#include "models/switch/switch_params.hpp"

namespace gbesim {

// The scenario's own top-level parameters.
struct RunParams {
  std::string name;
  std::string description;
  std::int64_t duration_ns = 1'000'000;
  std::int64_t seed = 1;
  std::int64_t rate_mbps = 1000;
  std::int64_t replications = 1;
  std::int64_t series_interval_ns = 0;  // 0: no series.csv
  std::int64_t warmup_ns = 0;           // statistics restart then (0: none)
};

const ParamTable<RunParams>& run_param_table();

struct StationConfig {
  std::string name;
  std::int64_t rate_mbps = 0;  // derived: its link's or domain's rate (resolve_rates)
  MacAddress address;
  MacParams mac;
  SinkParams sink;
  std::vector<TrafficParams> traffic;
};

struct LinkConfig {
  std::string a;  // a station, or a switch port "<switch>:<n>"
  std::string b;
  LinkParams params;           // as the scenario says: derived values never overwrite them
  std::int64_t rate_mbps = 0;  // derived: params.rate_mbps, the switch port's, or the run's
  // phy "1000base-t": the link-level model's prediction for this cable.
  struct PhyPrediction {
    double snr_db = 0;
    double margin_db = 0;
    double ber = 0;
    double octet_error_rate = 0;
  };
  std::optional<PhyPrediction> phy;
  // The bit-error rate the link injects: the scenario's `ber`, or with phy "1000base-t"
  // octet_error_rate / 8 (at most 0.5), so that a frame fails as often as its octets see an error.
  double injected_ber() const;
  // params with the injected bit-error rate, for the link model.
  LinkParams effective_params() const;
};

// A half-duplex collision domain. Its one-way delays come either from cable lengths to a central
// repeater -- half the path delay value of 802.3's arithmetic, as a topology block gives them:
// delay(a, b) = (cable_m[a] + cable_m[b]) x ns_per_m(medium)
//               + (repeater_round_trip_bt + dte_pair_round_trip_bt) x bit time / 2
// -- or from an explicit matrix delay_ns[from][to] in the order of `stations`.
struct DomainConfig {
  std::vector<std::string> stations;    // stations and switch ports "<switch>:<n>"
  std::int64_t rate_mbps = 0;           // as written: 0 = a member switch port's, else the run's
  std::int64_t resolved_rate_mbps = 0;  // derived
  std::string medium = "cat5e";
  std::vector<double> cable_m;         // per station, in order; empty when delay_ns is given
  double repeater_round_trip_bt = 0;   // round trip, bit times (802.3 Clause 29/42 tables)
  double dte_pair_round_trip_bt = -1;  // both stations' PHYs; < 0: the delay table's, resolved
  std::vector<std::vector<double>> delay_ns;  // empty when cable_m is given
  // Where it came from, for messages: "collision_domains[i]", or "topology domain i" for one
  // derived from the scenario's topology block (which the resolved configuration writes instead).
  std::string origin;
  bool from_topology = false;

  // One-way delays in ps, [from][to], with `bit_ns` the run's bit time.
  std::vector<std::vector<std::int64_t>> delay_ps(double ns_per_m, double bit_ns) const;
};

// A generic DMA master on a host's bus (a disk controller and the like).
struct DmaMasterConfig {
  std::string name;
  PciMasterParams master;
  DmaTrafficParams traffic;
};

// A host: for now its PCI bus, the host bridge in front of memory, and DMA masters on the bus.
// Adapter teaming (docs/host.md, "Teaming"): more NICs like the host's `nic`, one serving each
// of these stations, sharing the host's traffic.
enum class TeamMode { per_client, round_robin };
const ChoiceList<TeamMode>& choice_list(TeamMode);

// Which traffic a team spreads over its NICs: every protocol, or TCP/IP only (the rest goes
// through the first NIC), as 3Com's DynamicAccess load balancing did.
enum class TeamBalance { every_protocol, ip_only, receive_ip_only };
const ChoiceList<TeamBalance>& choice_list(TeamBalance);

struct TeamParams {
  TeamMode mode = TeamMode::per_client;
  TeamBalance balances = TeamBalance::every_protocol;
  std::vector<std::string> stations;
};

struct HostConfig {
  std::string name;
  PciBusParams pci;
  PciTargetParams bridge;
  PciBridgeParams card_bridge;  // the NICs' own segment behind an on-card bridge, if set
  bool has_card_bridge = false;
  std::vector<DmaMasterConfig> dma;
  bool has_nic = false;  // a NIC serving one of the scenario's stations, with its driver
  NicParams nic;
  PciMasterParams nic_master;
  CpuParams cpu;
  DriverParams driver;          // the NIC's driver (from its profile, then hosts.<h>.driver)
  HostTxParams tx;              // a bulk sender through the NIC, if tx.to is set
  AppParams app;                // an application against app.peer, unless app.kind is none
  std::vector<AppParams> apps;  // more applications
  TransportParams transport;
  bool has_transport = false;  // its own transport block: the connection ends it runs use it
  TeamParams team;             // more NICs (teaming), if team.stations is not empty
  std::string station;         // a light host: the station its CPU runs on (no bus, NIC or driver)

  bool light() const { return !station.empty(); }
  // Every application with its path under the host ("app", "apps[1]"): `app` first, if set.
  std::vector<std::pair<std::string, const AppParams*>> applications() const;
  // The stations this host's NICs serve (the nic's first, then the team's), or the light host's.
  std::vector<std::string> own_stations() const;
};

// A group of a switch's ports, numbered on from the group before.
struct SwitchPortGroup {
  std::int64_t count = 1;
  std::int64_t rate_mbps = 1000;
  Duplex duplex = Duplex::full;
};

struct SwitchConfig {
  std::string name;
  SwitchParams params;
  MacParams mac;  // every port's MAC (PAUSE thresholds, frame size, ...)
  std::vector<SwitchPortGroup> groups;
  bool ports_refused = false;  // "ports" had errors (reported there): its ports are not known
  std::vector<SwitchPortParams> ports() const;
};

// A link or domain end: a station, or port `port` (1-based) of switch `sw`.
struct Endpoint {
  std::string station;  // empty for a switch port
  const SwitchConfig* sw = nullptr;
  std::size_t switch_index = 0;
  std::int64_t port = 0;
};

struct LoadedTopology;

struct ScenarioConfig {
  RunParams run;
  std::map<std::string, MediumParams> media;
  // The scenario-wide "mac" and "sink" blocks: where every station's own start from.
  MacParams default_mac;
  SinkParams default_sink;
  std::vector<StationConfig> stations;  // in file order
  std::vector<LinkConfig> links;
  std::vector<DomainConfig> domains;
  // The "topology" block, read and analysed once (sim/input: resolve_topology): the plant, its
  // report and the block as resolved; null without one. Copies of the configuration share it.
  std::shared_ptr<const LoadedTopology> topology;
  std::vector<HostConfig> hosts;       // in file order
  std::vector<SwitchConfig> switches;  // in file order
  // "link_level": the 1000BASE-T link-level sweep `gbesim phy --scenario` runs (a system-level
  // run ignores it).
  struct LinkLevelSweep {
    std::vector<std::string> cables;
    std::vector<double> lengths_m;
    std::int64_t mc_symbols = 20'000;
    double eye_length_m = 100;
    phy::PhyReceiverParams receiver;
  };
  std::optional<LinkLevelSweep> link_level;

  const StationConfig* find_station(const std::string& name) const;
  // The host owning a station (a NIC of it serves the station, or a light host runs on it).
  const HostConfig* host_of(const std::string& station) const;
  // 1, 2, ... in file order; 0 for no such station.
  std::uint32_t station_number(const std::string& station) const;
  const SwitchConfig* find_switch(const std::string& name) const;
  // "<switch>:<n>" as a switch port (n within the switch), a station name as itself; nullopt
  // when it is neither.
  std::optional<Endpoint> endpoint(const std::string& name) const;
  // The rate a switch port "<switch>:<n>" runs at: its link's or domain's (resolved), else its
  // group's.
  std::int64_t switch_port_rate(const std::string& port) const;
  // The stations `name` can reach: over links, collision domains and through switches.
  std::vector<std::string> reachable_from(const std::string& name) const;
  // Every station's group: stations in one group reach each other (the same joins as
  // reachable_from, found once for all stations).
  std::map<std::string, std::size_t> station_groups() const;
  // The station at the other end of `name`'s link, if it has one.
  const StationConfig* peer_of(const std::string& name) const;
};

}  // namespace gbesim
