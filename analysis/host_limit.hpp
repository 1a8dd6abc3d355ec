#pragma once
// What limited a host (one with a NIC, or a light host) in a run, from the run's counters: its
// wire (a NIC's or the light host's link 95 % busy or more either way, preamble and gap counted),
// its bus or the card's segment behind an on-card bridge (95 % busy, with the shares of its
// clocks), its host bridge's memory path (95 % busy), its NICs' receive FIFOs (frames lost), a
// NIC's DMA engine (a request at the bus 95 % of the time while the bus was not), its CPU (95 %
// busy), its transport (segments resent) or its sockets (datagrams dropped); with none of them at
// its limit, the busiest of wire, bus and CPU is named, and the window, the transport or the peer
// held it. The same words for a run's summary and a sweep's answer.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gbesim {

// A run's statistic by component and name, if it has it.
using StatisticOf =
    std::function<std::optional<double>(const std::string& component, const std::string& name)>;

// config: the run's resolved scenario; components: every component with statistics. Empty when
// the host is not in the scenario. A host that runs no application ends (a NIC fed by a traffic
// generator, a fixed-frame sender) with nothing at its limit was held by its offered load.
std::string host_limit(const nlohmann::json& config, const std::string& host,
                       const std::vector<std::string>& components, const StatisticOf& value,
                       bool runs_applications = true);

}  // namespace gbesim
