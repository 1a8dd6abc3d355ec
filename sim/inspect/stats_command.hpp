#pragma once
// `gbesim stats [SCENARIO] [--json]`: every statistic the scenario's components record, as
// scalars.csv will name them, with unit and description (as sst-info lists a simulator's
// components). Without a scenario, a built-in one with every kind of component: full-duplex
// stations and their sources, a half-duplex collision domain, a host with a NIC, its driver, its
// stack and a DMA master on its PCI bus, a light host and a switch. Component names are shown as
// patterns: <station>, <host>, <dma master>, <switch>, port<n>, link<i>, domain<i>, source<i>.

#include <string>
#include <vector>

namespace gbesim {

struct StatsOptions {
  std::string scenario_file;  // empty: the built-in catalogue scenario
  bool json = false;
  // A Markdown table per component pattern, as a model page's Statistics carries it.
  bool markdown = false;
  // Only these component patterns ("<station>.mac", "domain<i>"); empty: all. A pattern the
  // scenario does not have is an error (ScenarioError, with a did-you-mean).
  std::vector<std::string> components;
};

// The listing, as text, JSON or Markdown.
std::string stats_listing(const StatsOptions& options);

}  // namespace gbesim
