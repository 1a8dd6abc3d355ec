#pragma once
// `gbesim bench`: simulation speed and memory, measured on full simulations run as child
// processes (one elaboration per process), reported as medians of several runs.

#include <filesystem>
#include <string>
#include <vector>

namespace gbesim {

struct BenchOptions {
  int runs = 5;
  int duration_ms = 200;
  std::string self;
  std::vector<std::string> cases;  // case letters to run (a, b, b', c = every HD count, c32, e,
                                   // f, k, m, s, w, g, h, p, i, j); empty: all
  // Case (w): the sweep whose wall time is measured, `gbesim sweep FILE -j 2` start to end.
  std::string sweep_scenario = "scenarios/carrier-extension-waste.json";
  // Whether the user named it (--sweep-scenario): then it must load, or the bench does not
  // start; the project's default, not found, only skips the case.
  bool sweep_scenario_given = false;
};

int run_bench(const BenchOptions& options);

// A child gbesim's exit code (-1 when it did not exit) and its own peak resident memory, which it
// writes to GBESIM_PEAK_RSS_FILE as it exits (0 when it did not). wait4's ru_maxrss would not
// do: a child started by posix_spawn ran on this process's pages until its execve, and Linux
// reports the larger of the two images' peaks (sim/support/peak_memory.hpp).
struct MeasuredChild {
  int code = -1;
  double peak_mib = 0;
};
// Runs `self` with `args` and waits; `peak_file` is where the child reports its peak.
MeasuredChild run_measured_child(const std::string& self, std::vector<std::string> args,
                                 const std::filesystem::path& peak_file);

// The benchmark scenario: two stations, full duplex, saturated both ways with fixed-size frames.
std::string bench_scenario_json(int frame_bytes, int duration_ms);
// Saturated stations on one half-duplex collision domain, 64-byte frames, extension + bursting.
std::string bench_half_duplex_json(int stations, int duration_ms);
// The NIC receive case: an Intel 82540EM on PCI 32/33 receiving at line rate.
std::string bench_nic_rx_json(int frame_bytes, int duration_ms);
// A large cabling plant for `gbesim topology`: `hubs` repeaters with `stations_per_hub` stations
// each, on a backbone repeater (one 10 Mb/s domain) or on a switch (one 100 Mb/s domain per hub).
// Stations on `ports` gigabit ports of one switch, each saturated towards the next port.
std::string bench_switch_json(int ports, int duration_ms);
std::string bench_topology_json(int hubs, int stations_per_hub, bool switched);

}  // namespace gbesim
