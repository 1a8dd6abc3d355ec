#pragma once
// `gbesim stats [SCENARIO] [--json]`: every statistic the scenario's components record, as
// scalars.csv will name them, with unit and description (as sst-info lists a simulator's
// components). Without a scenario, a built-in one with every kind of component: full-duplex
// stations and their sources, a half-duplex collision domain, a host with a NIC, its driver, its
// stack and a DMA master on its PCI bus. Component names are shown as patterns: <station>,
// <host>, <dma master>, link<i>, domain<i>, source<i>.

#include <string>

namespace gbesim {

struct StatsOptions {
  std::string scenario_file;  // empty: the built-in catalogue scenario
  bool json = false;
};

// The listing, as text or JSON.
std::string stats_listing(const StatsOptions& options);

}  // namespace gbesim
