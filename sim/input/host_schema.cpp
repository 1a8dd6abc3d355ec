#include "sim/input/host_schema.hpp"

#include "sim/input/nic_profiles.hpp"
#include "sim/input/profiles.hpp"

namespace gbesim {

using schema::by_hand;
using schema::Entry;
using schema::ListOf;
using schema::MapOf;
using schema::Object;
using schema::Reader;

namespace {

// ---------------------------------------------------------------------------------------------
// Hosts

const Object<DmaMasterConfig>& dma_object() {
  static const Object<DmaMasterConfig> o = [] {
    Object<DmaMasterConfig> m(dma_traffic_param_table().doc());
    m.rows(dma_traffic_param_table(), &DmaMasterConfig::traffic)
        .field("master", &DmaMasterConfig::master, schema::table(pci_master_param_table()))
        .check([](const Json&, const std::string& path, DmaMasterConfig& c, Reader& r) {
          if (c.name == "pci") r.d.error(path, "\"pci\" is the bus's own name");
        });
    return m;
  }();
  return o;
}

const MapOf<DmaMasterConfig>& dma_map() {
  static const MapOf<DmaMasterConfig> m{dma_object().node(),
                                        &DmaMasterConfig::name,
                                        "an object {\"<master name>\": {...}}",
                                        "master names are identifiers (letters, digits, _)",
                                        "generic DMA masters on the bus, by name",
                                        nullptr};
  return m;
}

const Object<HostConfig>& nic_object() {
  static const Object<HostConfig> o = [] {
    Object<HostConfig> n(nic_param_table().doc());
    std::string profiles;
    for (const auto& [name, text] : builtin_nic_profiles())
      profiles += (profiles.empty() ? "" : " | ") + name;
    n.custom(by_hand<HostConfig>(
                 "profile", "reference", profiles + " | <file>.json", "",
                 "a NIC profile applied before the keys beside it (a built-in board or a .json "
                 "file relative to the scenario; docs/nic.md)",
                 [](const Json& v, const std::string& path, HostConfig& h, Reader& r) {
                   apply_nic_profile(v, path, {h.nic, h.nic_master, h.driver}, r.d);
                 },
                 [](const HostConfig&) -> std::optional<Json> { return std::nullopt; }))
        .rows(nic_param_table(), &HostConfig::nic)
        .field("master", &HostConfig::nic_master, schema::table(pci_master_param_table()))
        .require("station", "missing \"station\": the station whose MAC the NIC serves");
    return n;
  }();
  return o;
}

// A host CPU: a built-in or file profile (clock, memory bandwidth, with sources), then the keys
// beside it.
const Object<CpuParams>& cpu_object() {
  static const Object<CpuParams> o = [] {
    Object<CpuParams> c(cpu_param_table().doc());
    c.custom(by_hand<CpuParams>(
                 "profile", "reference", profile_choices(builtin_cpu_profiles()), "",
                 "a CPU profile applied before the keys beside it (a built-in processor or a "
                 ".json file relative to the scenario; docs/host.md)",
                 [](const Json& v, const std::string& path, CpuParams& cpu, Reader& r) {
                   const ProfileKind kind{
                       "CPU",
                       builtin_cpu_profiles(),
                       "",
                       {"name", "description"},
                       {{"cpu", [&](const Json& values, const std::string& at, Reader& pr) {
                           schema::table(cpu_param_table()).read(values, at, cpu, pr);
                         }}}};
                   apply_profile(kind, v, path, r.d);
                 },
                 [](const CpuParams&) -> std::optional<Json> { return std::nullopt; }))
        .rows(cpu_param_table());
    return c;
  }();
  return o;
}

const Object<AppParams>& app_object() {
  static const Object<AppParams> o = [] {
    Object<AppParams> a(app_param_table().doc());
    a.rows(app_param_table())
        .require("kind",
                 "missing \"kind\": one of " + schema::key_list(choice_list(AppKind{}).names()))
        .require("peer", "missing \"peer\": the station at the other end");
    return a;
  }();
  return o;
}

const ListOf<AppParams>& app_list() {
  static const ListOf<AppParams> l{app_object().node(),
                                   "a non-empty array of applications",
                                   "more applications beside \"app\", each against its own peer",
                                   1,
                                   256,
                                   "applications",
                                   "a host"};
  return l;
}

const ParamTable<TeamParams>& team_param_table() {
  static const ParamTable<TeamParams> table = [] {
    ParamTable<TeamParams> t("team",
                             "adapter teaming: NICs like the host's nic sharing its traffic");
    t.choice("mode", &TeamParams::mode)
        .choice("balances", &TeamParams::balances,
                "which applications' traffic the team spreads (per_client teams)");
    return t;
  }();
  return table;
}

const ListOf<std::string>& team_station_list() {
  static const ListOf<std::string> l{
      schema::reference("station", "a station another NIC of the team serves"),
      "an array of station names",
      "the stations of the team's other NICs (the nic's is first)",
      1,
      15,
      "stations",
      "a team"};
  return l;
}

const Object<TeamParams>& team_object() {
  static const Object<TeamParams> o = [] {
    Object<TeamParams> t(team_param_table().doc());
    t.rows(team_param_table())
        .field("stations", &TeamParams::stations, team_station_list().node())
        .require("stations",
                 "missing \"stations\": the stations the team's other NICs serve, e.g. "
                 "[\"srv2\"]");
    return t;
  }();
  return o;
}

// bridge.read_latency_ns, when given, becomes read_latency_clocks at the host's bus clock
// (rounded up), so that a clock sweep keeps the latency in time.
void resolve_read_latency(const std::string& path, HostConfig& h, Reader& r) {
  if (h.bridge.read_latency_ns <= 0) return;
  const std::string at = child_path(child_path(path, "bridge"), "read_latency_ns");
  const Picoseconds period = pci_clock_period_ps(h.pci.clock_mhz);
  if (period <= 0 || h.pci.mode == PciMode::pcie) return;  // the bus rules name these
  const std::int64_t clocks = (h.bridge.read_latency_ns * 1000 + period - 1) / period;
  if (clocks > 1000) {
    r.d.error(at, "expected at most 1000 clocks of the bus, got " + std::to_string(clocks) + " (" +
                      std::to_string(h.bridge.read_latency_ns) + " ns at " +
                      std::to_string(h.pci.clock_mhz) + " MHz)");
    return;
  }
  h.bridge.read_latency_clocks = std::max<std::int64_t>(clocks, 1);
}

// The blocks a host has only with what they apply to: an on-card bridge (a nic in a PCI-X slot),
// transport settings (connection ends the host runs).
void check_bridge_and_transport(const Json& obj, const std::string& path, HostConfig& h,
                                Reader& r) {
  h.has_card_bridge = obj.contains("card_bridge");
  if (h.has_card_bridge && !h.has_nic)
    r.d.error(child_path(path, "card_bridge"),
              "an on-card bridge puts the host's NICs on a segment of their own: this host has "
              "no nic");
  else if (h.has_card_bridge && h.pci.mode != PciMode::pcix)
    r.d.error(child_path(path, "card_bridge"),
              "a PCI-X-to-PCI-X bridge sits in a PCI-X slot: set pci.mode to \"pcix\" (it is \"" +
                  std::string(choice_name(h.pci.mode)) + "\")");
  h.has_transport = obj.contains("transport");
  if (h.has_transport && !h.has_nic && !h.light())
    r.d.error(child_path(path, "transport"),
              "transport settings apply to the connection ends a host runs: this host has "
              "neither a nic nor a light host's \"station\"");
}

const Object<HostConfig>& host_object() {
  static const Object<HostConfig> o = [] {
    Object<HostConfig> h("a host: its PCI bus and bridge, DMA masters, a NIC with its driver");
    const auto has_bus = [](const HostConfig& host) { return !host.light(); };
    h.field("pci", &HostConfig::pci, schema::table(pci_bus_param_table()))
        .written_if(has_bus)
        .field("bridge", &HostConfig::bridge, schema::table(pci_target_param_table()))
        .written_if(has_bus)
        .field("card_bridge", &HostConfig::card_bridge, schema::table(pci_bridge_param_table()))
        .written_if([](const HostConfig& host) { return host.has_card_bridge; })
        .field("dma", &HostConfig::dma, dma_map().node())
        .written_if(has_bus)
        .block("nic", nic_object().node())
        .on_read([](HostConfig& host) { host.has_nic = true; })
        .written_if([](const HostConfig& host) { return host.has_nic; })
        .field("team", &HostConfig::team, team_object().node())
        .written_if([](const HostConfig& host) { return !host.team.stations.empty(); })
        .field("station", &HostConfig::station,
               schema::reference("station",
                                 "a light host: the station its CPU runs on, with no bus, NIC or "
                                 "descriptor model (docs/host.md, \"Light hosts\")"))
        .written_if([](const HostConfig& host) { return host.light(); })
        .field("cpu", &HostConfig::cpu, cpu_object().node())
        .written_if([](const HostConfig& host) { return host.has_nic || host.light(); })
        .field("driver", &HostConfig::driver, schema::table(driver_param_table()))
        .written_if([](const HostConfig& host) { return host.has_nic || host.light(); })
        .field("tx", &HostConfig::tx, schema::table(host_tx_param_table()))
        .written_if([](const HostConfig& host) { return host.has_nic && !host.tx.to.empty(); })
        .field("app", &HostConfig::app, app_object().node())
        .written_if([](const HostConfig& host) { return host.app.kind != AppKind::none; })
        .field("apps", &HostConfig::apps, app_list().node())
        .written_if([](const HostConfig& host) { return !host.apps.empty(); })
        .field("transport", &HostConfig::transport, schema::table(transport_param_table()))
        .written_if([](const HostConfig& host) { return host.has_transport; })
        .needs("tx", "nic", "a sender needs the host's nic")
        .needs("team", "nic", "a team is more NICs like the host's nic: this host has no nic")
        .check([](const Json& obj, const std::string& path, HostConfig& h, Reader& r) {
          const bool runs = h.has_nic || h.light();
          if (obj.contains("station") && h.has_nic)
            r.d.error(child_path(path, "station"),
                      "a host has a nic (its station is nic.station) or is a light host "
                      "(\"station\"), not both");
          for (const char* key : {"pci", "bridge", "dma"})
            if (h.light() && obj.contains(key))
              r.d.error(child_path(path, key),
                        "a light host has no bus: drop \"" + std::string(key) +
                            "\", or give the host a nic instead of \"station\"");
          if (!runs)
            for (const char* key : {"app", "apps", "cpu", "driver"})
              if (obj.contains(key))
                r.d.error(child_path(path, key),
                          std::string(key == std::string("cpu") || key == std::string("driver")
                                          ? "CPU and driver costs apply"
                                          : "an application runs") +
                              " on a host with a nic or a light host's \"station\": this "
                              "host has neither");
          check_bridge_and_transport(obj, path, h, r);
        })
        .check([](const Json&, const std::string& path, HostConfig& h, Reader& r) {
          resolve_read_latency(path, h, r);
          if ((h.has_nic || h.light()) && h.driver.any_cycles() && h.cpu.clock_mhz <= 0)
            r.d.error(child_path(child_path(path, "cpu"), "clock_mhz"),
                      "missing: the NIC's driver costs cycles (its profile or \"driver\"), so "
                      "the CPU needs its clock in MHz, e.g. 3060 for a Pentium 4 3.06 GHz");
        });
    return h;
  }();
  return o;
}

}  // namespace

const MapOf<HostConfig>& host_map() {
  static const MapOf<HostConfig> m{
      host_object().node(),
      &HostConfig::name,
      "an object {\"<host name>\": {\"pci\": {...}, \"bridge\": {...}, \"dma\": {...}}}",
      "host names are identifiers (letters, digits, _, not starting with a digit)",
      "hosts, by name: buses, NICs, drivers, applications",
      nullptr};
  return m;
}

}  // namespace gbesim
