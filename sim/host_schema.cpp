#include "sim/host_schema.hpp"

#include "sim/nic_profiles.hpp"
#include "sim/profiles.hpp"

namespace gbesim {

using schema::by_hand;
using schema::Entry;
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
        .require("kind", "missing \"kind\": one of " + schema::key_list(app_kinds()))
        .require("peer", "missing \"peer\": the station at the other end");
    return a;
  }();
  return o;
}

const Object<HostConfig>& host_object() {
  static const Object<HostConfig> o = [] {
    Object<HostConfig> h("a host: its PCI bus and bridge, DMA masters, a NIC with its driver");
    h.field("pci", &HostConfig::pci, schema::table(pci_bus_param_table()))
        .field("bridge", &HostConfig::bridge, schema::table(pci_target_param_table()))
        .field("dma", &HostConfig::dma, dma_map().node())
        .block("nic", nic_object().node())
        .on_read([](HostConfig& host) { host.has_nic = true; })
        .written_if([](const HostConfig& host) { return host.has_nic; })
        .field("cpu", &HostConfig::cpu, cpu_object().node())
        .written_if([](const HostConfig& host) { return host.has_nic; })
        .field("driver", &HostConfig::driver, schema::table(driver_param_table()))
        .written_if([](const HostConfig& host) { return host.has_nic; })
        .field("tx", &HostConfig::tx, schema::table(host_tx_param_table()))
        .written_if([](const HostConfig& host) { return host.has_nic && !host.tx.to.empty(); })
        .field("app", &HostConfig::app, app_object().node())
        .written_if([](const HostConfig& host) { return host.has_nic && !host.app.kind.empty(); })
        .field("transport", &HostConfig::transport, schema::table(transport_param_table()))
        .written_if([](const HostConfig& host) { return host.has_nic && !host.app.kind.empty(); })
        .needs("tx", "nic", "a sender needs the host's nic")
        .needs("app", "nic", "an application needs the host's nic")
        .needs("transport", "app", "transport settings need an app on this host")
        .needs("cpu", "nic", "CPU costs apply to a NIC's driver: this host has no nic")
        .needs("driver", "nic", "a driver drives a NIC: this host has no nic")
        .check([](const Json&, const std::string& path, HostConfig& h, Reader& r) {
          if (h.has_nic && h.driver.any_cycles() && h.cpu.clock_mhz <= 0)
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
