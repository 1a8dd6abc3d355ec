#include "sim/bench.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "analysis/statistics.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_path.hpp"

extern char** environ;

namespace gbesim {
namespace {

struct Sample {
  double real_time_factor = 0;
  double activations_per_second = 0;
  double frames_per_second = 0;  // frames delivered per wall second, both directions
  double peak_rss_mib = 0;
  double frames_allocated = 0;
};

// Runs `self` with `args` and waits: its exit code (-1 when it did not exit) and resource use.
int run_child(const std::string& self, std::vector<std::string> args, rusage& usage) {
  args.insert(args.begin(), self);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ))
    throw std::runtime_error("cannot start " + self + ": " + std::strerror(rc));
  int status = 0;
  if (::wait4(pid, &status, 0, &usage) < 0 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

Sample run_once(const std::string& self, const std::filesystem::path& scenario,
                const std::filesystem::path& out) {
  rusage usage{};
  if (run_child(self, {"run", scenario.string(), "--quiet", "--out", out.string()}, usage) != 0)
    throw std::runtime_error("benchmark run failed: " + scenario.string());
  std::ifstream in(out / "run.json");
  const Json run = Json::parse(in);
  Sample s;
  s.real_time_factor = run["real_time_factor"].get<double>();
  s.activations_per_second = run["activations_per_second"].get<double>();
  s.peak_rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
  s.frames_allocated = run["frames_allocated"].get<double>();
  std::ifstream scalars(out / "scalars.csv");
  std::string line;
  double frames = 0;
  while (std::getline(scalars, line))
    if (line.rfind(".mac,frames_received_ok,", 1) != std::string::npos ||
        line.find(".mac,frames_received_ok,") != std::string::npos)
      frames += std::stod(line.substr(line.rfind(',') + 1));
  s.frames_per_second = frames / run["wall_seconds"].get<double>();
  return s;
}

// One `gbesim topology` of a plant file: wall seconds and peak RSS (MiB).
std::pair<double, double> topology_once(const std::string& self, const std::filesystem::path& plant,
                                        const std::filesystem::path& out) {
  const auto start = std::chrono::steady_clock::now();
  rusage usage{};
  // Exit 1 is a plant that fails its budget: still a measurement; 2 is bad input.
  const int code =
      run_child(self, {"topology", plant.string(), "--quiet", "--out", out.string()}, usage);
  if (code < 0 || code > 1)
    throw std::runtime_error("benchmark run failed: gbesim topology " + plant.string());
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {wall, static_cast<double>(usage.ru_maxrss) / 1024.0};
}

}  // namespace

std::string bench_scenario_json(int frame_bytes, int duration_ms) {
  Json doc;
  doc["name"] = fmt::format("bench-fd-{}", frame_bytes);
  doc["description"] = "benchmark: 2 stations, full duplex 1000 Mb/s, saturated both ways";
  doc["duration_ns"] = static_cast<std::int64_t>(duration_ms) * 1'000'000;
  doc["rate_mbps"] = 1000;
  doc["stations"]["a"]["traffic"] =
      Json::array({Json{{"pattern", "saturated"}, {"to", "b"}, {"frame_bytes", frame_bytes}}});
  doc["stations"]["b"]["traffic"] =
      Json::array({Json{{"pattern", "saturated"}, {"to", "a"}, {"frame_bytes", frame_bytes}}});
  doc["links"] = Json::array({Json{{"between", {"a", "b"}}, {"cable_m", 100}}});
  return doc.dump(2) + "\n";
}

std::string bench_half_duplex_json(int stations, int duration_ms) {
  Json doc;
  doc["name"] = fmt::format("bench-hd-{}", stations);
  doc["description"] =
      "benchmark: saturated stations sharing a half-duplex 1000 Mb/s collision domain, 64-byte "
      "frames, carrier extension and frame bursting";
  doc["duration_ns"] = static_cast<std::int64_t>(duration_ms) * 1'000'000;
  doc["rate_mbps"] = 1000;
  doc["mac"] = {{"duplex", "half"}, {"carrier_extension", true}, {"frame_bursting", true}};
  Json names = Json::array();
  Json cable = Json::object();
  for (int i = 0; i < stations; ++i) {
    const std::string name = fmt::format("s{}", i);
    doc["stations"][name]["traffic"] =
        Json::array({Json{{"pattern", "saturated"},
                          {"to", fmt::format("s{}", (i + 1) % stations)},
                          {"frame_bytes", 64}}});
    names.push_back(name);
    cable[name] = 10;
  }
  doc["collision_domains"] = Json::array({Json{{"stations", names}, {"cable_m", cable}}});
  return doc.dump(2) + "\n";
}

std::string bench_nic_rx_json(int frame_bytes, int duration_ms) {
  Json doc;
  doc["name"] = fmt::format("bench-nic-rx-{}", frame_bytes);
  doc["description"] =
      "benchmark: Intel 82540EM receiving at line rate on 32-bit/33 MHz PCI, with its driver";
  doc["duration_ns"] = static_cast<std::int64_t>(duration_ms) * 1'000'000;
  doc["rate_mbps"] = 1000;
  doc["stations"]["a"] = Json::object();
  doc["stations"]["b"]["traffic"] =
      Json::array({Json{{"pattern", "saturated"}, {"to", "a"}, {"frame_bytes", frame_bytes}}});
  doc["links"] = Json::array({Json{{"between", {"a", "b"}}, {"cable_m", 100}}});
  doc["hosts"]["h"] = {{"pci", {{"width_bits", 32}, {"clock_mhz", 33}}},
                       {"bridge", {{"read_latency_clocks", 8}}},
                       {"nic", {{"station", "a"}, {"profile", "intel-82540em"}}},
                       {"cpu", {{"interrupt_ns", 2000}, {"per_packet_ns", 1000}}}};
  return doc.dump(2) + "\n";
}

std::string bench_switch_json(int ports, int duration_ms) {
  Json doc;
  doc["name"] = fmt::format("bench-switch-{}", ports);
  doc["description"] =
      "benchmark: stations on the gigabit ports of one store-and-forward switch, each saturated "
      "with 1518-byte frames to the next station's port (every port at line rate both ways)";
  doc["duration_ns"] = static_cast<std::int64_t>(duration_ms) * 1'000'000;
  doc["rate_mbps"] = 1000;
  Json links = Json::array();
  for (int i = 0; i < ports; ++i) {
    const std::string name = fmt::format("s{}", i);
    doc["stations"][name]["traffic"] =
        Json::array({Json{{"pattern", "saturated"},
                          {"to", fmt::format("s{}", (i + 1) % ports)},
                          {"frame_bytes", 1518}}});
    links.push_back({{"between", {name, fmt::format("sw:{}", i + 1)}}, {"cable_m", 10}});
  }
  doc["switches"]["sw"]["ports"] = Json::array({Json{{"count", ports}, {"rate_mbps", 1000}}});
  doc["links"] = std::move(links);
  return doc.dump(2) + "\n";
}

std::string bench_topology_json(int hubs, int stations_per_hub, bool switched) {
  Json doc;
  doc["name"] = fmt::format("bench-topology-{}-{}", switched ? "switched" : "one-domain",
                            hubs * stations_per_hub);
  doc["description"] =
      switched ? "benchmark: a switch with one Class II hub per port, stations on each hub "
                 "(one 100 Mb/s collision domain per hub)"
               : "benchmark: one 10 Mb/s collision domain, a backbone repeater on fibre to every "
                 "hub, stations on each hub";
  doc["rate_mbps"] = switched ? 100 : 10;
  Json& nodes = doc["nodes"];
  Json cables = Json::array();
  const std::string centre = switched ? "sw" : "backbone";
  nodes[centre] =
      switched ? Json{{"kind", "switch"}} : Json{{"kind", "repeater"}, {"class", "ten"}};
  for (int h = 0; h < hubs; ++h) {
    const std::string hub = fmt::format("h{}", h);
    nodes[hub] = {{"kind", "repeater"}, {"class", switched ? "class_ii" : "ten"}};
    cables.push_back({{"between", {centre, hub}},
                      {"medium", switched ? "cat5" : "fibre_mm"},
                      {"length_m", switched ? 5 : 500}});
    for (int s = 0; s < stations_per_hub; ++s) {
      const std::string station = fmt::format("s{}_{}", h, s);
      nodes[station] = {{"kind", "dte"}};
      // Lengths 10..99 m spread over the stations.
      cables.push_back({{"between", {hub, station}},
                        {"medium", switched ? "cat5" : "cat3"},
                        {"length_m", 10 + (s * 7 + h) % 90}});
    }
  }
  doc["cables"] = std::move(cables);
  return doc.dump() + "\n";
}

int run_bench(const BenchOptions& options) {
  char pattern[] = "/tmp/gbesim-bench-XXXXXX";
  if (::mkdtemp(pattern) == nullptr)
    throw std::runtime_error("cannot create a temporary directory");
  const std::filesystem::path tmp(pattern);
  struct Case {
    std::string label;
    int frame_bytes;
    int duration_ms;
    int hd_stations;       // 0: the full-duplex pair
    bool nic = false;      // the NIC receive case instead
    int switch_ports = 0;  // the switch case instead
  };
  const std::vector<Case> cases = {
      {"(a) FD, 1518-byte frames, both directions", 1518, options.duration_ms, 0},
      {"(b) FD, 64-byte frames, both directions", 64, options.duration_ms, 0},
      {"(b') FD, 64-byte frames, 4x longer", 64, 4 * options.duration_ms, 0},
      {"(c) HD, 8 stations, 64 B, ext + bursting", 64, options.duration_ms, 8},
      {"(d) HD, 32 stations, 64 B, ext + bursting", 64, options.duration_ms, 32},
      {"(e) 82540EM rx on PCI 32/33, 1518 B at line rate", 1518, options.duration_ms, 0, true},
      {"(f) 82540EM rx on PCI 32/33, 64 B at line rate", 64, options.duration_ms, 0, true},
      {"(k) switch, 16 gigabit ports saturated, 1518 B", 1518, options.duration_ms, 0, false, 16},
  };
  fmt::print(
      "gbesim bench: 1000 Mb/s, saturated; FD = 2 stations on 100 m full duplex, HD = stations on "
      "a "
      "half-duplex collision domain (10 m each to a repeater); median of {} runs per case\n",
      options.runs);
  fmt::print("{:<56} {:>10} {:>14} {:>14} {:>10} {:>8}\n", "case", "x real", "events/s", "frames/s",
             "peak MiB", "frames");
  for (const auto& c : cases) {
    const auto scenario =
        tmp / fmt::format("{}-{}-{}-{}-{}.json", c.nic ? "nic" : "fd", c.hd_stations,
                          c.switch_ports, c.frame_bytes, c.duration_ms);
    write_file_atomically(scenario,
                          c.switch_ports > 0  ? bench_switch_json(c.switch_ports, c.duration_ms)
                          : c.nic             ? bench_nic_rx_json(c.frame_bytes, c.duration_ms)
                          : c.hd_stations > 0 ? bench_half_duplex_json(c.hd_stations, c.duration_ms)
                                              : bench_scenario_json(c.frame_bytes, c.duration_ms));
    std::vector<double> rtf, aps, fps, rss, allocated;
    for (int i = 0; i < options.runs; ++i) {
      const Sample s = run_once(options.self, scenario,
                                tmp / fmt::format("out-{}-{}-{}-{}-{}", c.nic, c.hd_stations,
                                                  c.switch_ports, c.frame_bytes, i));
      rtf.push_back(s.real_time_factor);
      aps.push_back(s.activations_per_second);
      fps.push_back(s.frames_per_second);
      rss.push_back(s.peak_rss_mib);
      allocated.push_back(s.frames_allocated);
    }
    fmt::print("{:<56} {:>10.2f} {:>14.3e} {:>14.3e} {:>10.1f} {:>8.0f}\n",
               fmt::format("{} {} ms", c.label, c.duration_ms), median(rtf), median(aps),
               median(fps), median(rss), median(allocated));
  }
  fmt::print(
      "x real = simulated time / wall time; events = SystemC process activations;\n"
      "frames = frame objects ever allocated (recycled through a pool); in (k) frames/s counts "
      "the\n"
      "stations' and the switch ports' MACs (each frame is received twice).\n");
  // The link-level 1000BASE-T model, each run its own `gbesim phy` process: (g) 4D symbols per
  // second through the Viterbi decoder (AWGN at sigma 0.2, 200,000 symbols); (h) the whole link
  // (cable responses, noise, ADC, FFE + DFE on four pairs, Viterbi) on 100 m of Cat 5e,
  // 1,000,000 symbols.
  auto phy_speed = [&](const char* tag, std::vector<std::string> args, const char* field) {
    std::vector<double> speeds;
    for (int i = 0; i < options.runs; ++i) {
      const auto out = tmp / fmt::format("phy-{}-{}", tag, i);
      args.insert(args.begin(), {options.self, "phy", "--quiet"});
      args.insert(args.end(), {"--out", out.string()});
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      pid_t pid = 0;
      if (const int rc =
              posix_spawn(&pid, options.self.c_str(), nullptr, nullptr, argv.data(), environ))
        throw std::runtime_error("cannot start " + options.self + ": " + std::strerror(rc));
      int status = 0;
      if (::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("benchmark run failed: gbesim phy");
      std::ifstream in(out / "phy.json");
      speeds.push_back(Json::parse(in)[field].get<double>());
      args.erase(args.begin(), args.begin() + 3);
      args.resize(args.size() - 2);
    }
    return median(speeds);
  };
  fmt::print("(g) 1000BASE-T Viterbi decoding (gbesim phy, AWGN): {:.3g} 4D symbols/s (median)\n",
             phy_speed("g", {"--channel", "awgn", "--sigma", "0.2", "--symbols", "200000"},
                       "decode_symbols_per_second"));
  fmt::print(
      "(h) 1000BASE-T link level, 100 m Cat 5e, whole receiver: {:.3g} 4D symbols/s (median)\n",
      phy_speed(
          "h",
          {"--channel", "cable", "--cable", "cat5e", "--lengths", "100", "--mc-symbols", "1000000"},
          "link_symbols_per_second"));
  // The collision-domain analysis of large plants, each run its own `gbesim topology` process
  // (reading the JSON, analysing, writing topology.txt, topology_pairs.csv and topology.dot).
  for (const bool switched : {false, true}) {
    const auto plant = tmp / fmt::format("topology-{}.json", switched);
    write_file_atomically(plant, bench_topology_json(1000, 100, switched));
    std::vector<double> wall, rss;
    for (int i = 0; i < options.runs; ++i) {
      const auto [w, r] =
          topology_once(options.self, plant, tmp / fmt::format("topology-out-{}-{}", switched, i));
      wall.push_back(w);
      rss.push_back(r);
    }
    fmt::print(
        "({}) gbesim topology, 100,000 stations, {}: {:.2f} s wall, {:.0f} MiB peak "
        "(median)\n",
        switched ? "j" : "i",
        switched ? "a switch with 1,000 hubs (1,000 domains)"
                 : "one 10 Mb/s domain, 1,001 repeaters",
        median(wall), median(rss));
  }
  std::error_code ec;
  std::filesystem::remove_all(tmp, ec);
  return 0;
}

}  // namespace gbesim
