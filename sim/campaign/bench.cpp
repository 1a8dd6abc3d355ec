#include "sim/campaign/bench.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include <systemc>

#include "analysis/statistics.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/progress.hpp"

extern char** environ;

namespace gbesim {
namespace {

struct Sample {
  double real_time_factor = 0;
  double cpu_seconds = 0;       // the simulation's CPU time (not start-up)
  double frames = 0;            // frames received by every MAC (a switch's ports' too)
  double station_frames = 0;    // by the stations' MACs only: frames delivered end to end
  double collisions = 0;        // collided attempts, each station's counted
  double bus_transactions = 0;  // PCI and PCI-X transactions, every segment's
  double activations = 0;       // model process activations
  double peak_rss_mib = 0;
  double frames_allocated = 0;
  // A protocol event: a frame delivered or a collided attempt.
  double events() const { return frames + collisions; }
};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The counters a case is measured by, from the scalars.csv of its run.
void read_counters(const std::filesystem::path& file, Sample& s) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    const std::size_t a = line.find(','), b = line.find(',', a + 1), c = line.rfind(',');
    if (a == std::string::npos || b == std::string::npos || c <= b) continue;
    const std::string_view component(line.data(), a), name(line.data() + a + 1, b - a - 1);
    const double value = std::strtod(line.c_str() + c + 1, nullptr);
    const bool mac = ends_with(component, ".mac");
    if (mac && name == "frames_received_ok") {
      s.frames += value;
      if (component.find('.') == component.size() - 4) s.station_frames += value;  // "<s>.mac"
    } else if (mac && name == "collisions") {
      s.collisions += value;
    } else if (name == "transactions" &&
               (ends_with(component, ".pci") || ends_with(component, ".card_pci"))) {
      s.bus_transactions += value;  // <h>.pci and <h>.card_pci
    }
  }
}

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The baseline every case is also given against, measured in this process so that the ratios
// compare across machines: an empty SystemC method that re-triggers itself every nanosecond (the
// cheapest thing a SystemC model can do per event).
struct EmptyClockedProcess : sc_core::sc_module {
  SC_HAS_PROCESS(EmptyClockedProcess);
  explicit EmptyClockedProcess(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
    SC_METHOD(tick);
  }
  void tick() {
    ++activations;
    next_trigger(1, sc_core::SC_NS);
  }
  std::int64_t activations = 0;
};

// CPU ns per activation of the empty process over stretches of 200,000 activations. This VM's
// speed changes by up to 2x from one minute to the next, so a baseline measured once would not
// be the one a case ran against: each run of a case is given against the stretches just before
// and just after it (the faster of two each side: a stretch is a few ms, and a blip of the host
// in one of them is not the speed the run saw).
class Baseline {
 public:
  Baseline() : process_("bench_baseline") { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
  double stretch() {
    const std::int64_t before = process_.activations;
    const double cpu = process_cpu_seconds();
    sc_core::sc_start(200, sc_core::SC_US);
    const double ns =
        1e9 * (process_cpu_seconds() - cpu) / static_cast<double>(process_.activations - before);
    all_.push_back(ns);
    return ns;
  }
  // Every stretch measured so far: (median, lowest, highest).
  std::tuple<double, double, double> range() const {
    return {median(all_), *std::min_element(all_.begin(), all_.end()),
            *std::max_element(all_.begin(), all_.end())};
  }

 private:
  EmptyClockedProcess process_;
  std::vector<double> all_;
};

// While it lives, this process and the children it starts run on the CPU it is on now: the
// baseline stretches and the run between them then measure the same CPU (on this project's VM
// the two virtual CPUs are not always equally fast).
class PinnedToThisCpu {
 public:
  PinnedToThisCpu() {
    if (::sched_getaffinity(0, sizeof(saved_), &saved_) != 0) return;
    cpu_ = ::sched_getcpu();
    if (cpu_ < 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu_, &one);
    pinned_ = ::sched_setaffinity(0, sizeof(one), &one) == 0;
  }
  ~PinnedToThisCpu() {
    if (pinned_) ::sched_setaffinity(0, sizeof(saved_), &saved_);
  }
  PinnedToThisCpu(const PinnedToThisCpu&) = delete;
  PinnedToThisCpu& operator=(const PinnedToThisCpu&) = delete;
  // The CPU, or -1 when it could not pin.
  int cpu() const { return pinned_ ? cpu_ : -1; }

 private:
  cpu_set_t saved_{};
  int cpu_ = -1;
  bool pinned_ = false;
};

}  // namespace

MeasuredChild run_measured_child(const std::string& self, std::vector<std::string> args,
                                 const std::filesystem::path& peak_file) {
  args.insert(args.begin(), self);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::string peak_variable = "GBESIM_PEAK_RSS_FILE=" + peak_file.string();
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "GBESIM_PEAK_RSS_FILE=", 21) != 0) envp.push_back(*e);
  envp.push_back(peak_variable.data());
  envp.push_back(nullptr);
  std::error_code ec;
  std::filesystem::remove(peak_file, ec);
  pid_t pid = 0;
  if (const int rc = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), envp.data()))
    throw std::runtime_error("cannot start " + self + ": " + std::strerror(rc));
  int status = 0;
  MeasuredChild exit;
  if (::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return exit;
  exit.code = WEXITSTATUS(status);
  std::ifstream peak(peak_file);
  double kib = 0;
  if (peak >> kib) exit.peak_mib = kib / 1024.0;
  return exit;
}

namespace {

Sample run_once(const std::string& self, const std::filesystem::path& scenario,
                const std::filesystem::path& out, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", scenario.string(), "--quiet", "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const MeasuredChild child = run_measured_child(self, args, out.string() + ".peak");
  if (child.code != 0) throw std::runtime_error("benchmark run failed: " + scenario.string());
  std::ifstream in(out / "run.json");
  const Json run = Json::parse(in);
  Sample s;
  s.real_time_factor = run["real_time_factor"].get<double>();
  s.cpu_seconds = run["cpu_seconds"].get<double>();
  s.activations = run["process_activations"].get<double>();
  s.peak_rss_mib = child.peak_mib;
  s.frames_allocated = run["frames_allocated"].get<double>();
  read_counters(out / "scalars.csv", s);
  return s;
}

// One `gbesim topology` of a plant file: wall seconds and peak RSS (MiB).
std::pair<double, double> topology_once(const std::string& self, const std::filesystem::path& plant,
                                        const std::filesystem::path& out) {
  const auto start = std::chrono::steady_clock::now();
  // Exit 1 is a plant that fails its budget: still a measurement; 2 is bad input.
  const MeasuredChild child = run_measured_child(
      self, {"topology", plant.string(), "--quiet", "--out", out.string()}, out.string() + ".peak");
  if (child.code < 0 || child.code > 1)
    throw std::runtime_error("benchmark run failed: gbesim topology " + plant.string());
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {wall, child.peak_mib};
}

}  // namespace

namespace {

// A benchmark scenario's head: its name, what it is, its length, at 1000 Mb/s.
Json bench_doc(const std::string& name, const std::string& description, int duration_ms) {
  Json doc;
  doc["name"] = name;
  doc["description"] = description;
  doc["duration_ns"] = static_cast<std::int64_t>(duration_ms) * 1'000'000;
  doc["rate_mbps"] = 1000;
  return doc;
}

}  // namespace

std::string bench_scenario_json(int frame_bytes, int duration_ms) {
  Json doc =
      bench_doc(fmt::format("bench-fd-{}", frame_bytes),
                "benchmark: 2 stations, full duplex 1000 Mb/s, saturated both ways", duration_ms);
  doc["stations"]["a"]["traffic"] =
      Json::array({Json{{"pattern", "saturated"}, {"to", "b"}, {"frame_bytes", frame_bytes}}});
  doc["stations"]["b"]["traffic"] =
      Json::array({Json{{"pattern", "saturated"}, {"to", "a"}, {"frame_bytes", frame_bytes}}});
  doc["links"] = Json::array({Json{{"between", {"a", "b"}}, {"cable_m", 100}}});
  return doc.dump(2) + "\n";
}

std::string bench_half_duplex_json(int stations, int duration_ms) {
  Json doc = bench_doc(
      fmt::format("bench-hd-{}", stations),
      "benchmark: saturated stations sharing a half-duplex 1000 Mb/s collision domain, 64-byte "
      "frames, carrier extension and frame bursting",
      duration_ms);
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
  Json doc = bench_doc(
      fmt::format("bench-nic-rx-{}", frame_bytes),
      "benchmark: Intel 82540EM receiving at line rate on 32-bit/33 MHz PCI, with its driver",
      duration_ms);
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
  Json doc = bench_doc(
      fmt::format("bench-switch-{}", ports),
      "benchmark: stations on the gigabit ports of one store-and-forward switch, each saturated "
      "with 1518-byte frames to the next station's port (every port at line rate both ways)",
      duration_ms);
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
                      {"cable_m", switched ? 5 : 500}});
    for (int s = 0; s < stations_per_hub; ++s) {
      const std::string station = fmt::format("s{}_{}", h, s);
      nodes[station] = {{"kind", "dte"}};
      // Lengths 10..99 m spread over the stations.
      cables.push_back({{"between", {hub, station}},
                        {"medium", switched ? "cat5" : "cat3"},
                        {"cable_m", 10 + (s * 7 + h) % 90}});
    }
  }
  doc["cables"] = std::move(cables);
  return doc.dump() + "\n";
}

namespace {

// One simulation case: a scenario the bench writes, run as a child process, medians of its runs.
struct Case {
  std::string key;  // for --cases
  std::string label;
  int frame_bytes;
  int duration_ms;
  int hd_stations;            // 0: the full-duplex pair
  bool nic = false;           // the NIC receive case instead
  int switch_ports = 0;       // the switch case instead
  bool whole_system = false;  // the project's gbe-aggregation-10g scenario instead
};

// The whole-system case's scenario, from the project's directory.
constexpr const char* kWholeSystemScenario = "scenarios/gbe-aggregation-10g.json";

std::vector<Case> simulation_cases(int d) {
  std::vector<Case> cases = {
      {"a", "(a) FD, 1518-byte frames, both directions", 1518, d, 0},
      {"b", "(b) FD, 64-byte frames, both directions", 64, d, 0},
      {"b'", "(b') FD, 64-byte frames, 4x longer", 64, 4 * d, 0},
  };
  // The half-duplex curve: CPU per frame against the station count (64 B, extension and
  // bursting). Every station starts at once, so the first milliseconds are a storm of collisions
  // that grows with the count, and with many stations most of them are still waiting for their
  // first turn after 20 ms (128 stations: fairness index 0.17 at 20 ms, 0.96 at 600 ms). Each
  // run is at least 20 ms; the steady state costs less per frame (docs/performance.md gives both
  // for 128 stations; `--duration-ms 9600` makes that case 600 ms).
  for (const int n : {2, 8, 32, 128, 512, 1024})
    cases.push_back({fmt::format("c{}", n),
                     fmt::format("(c{}) HD, {} stations, 64 B, ext + burst", n, n), 64,
                     std::max(20, d * 8 / std::max(8, n)), n});
  cases.push_back({"e", "(e) 82540EM rx, PCI 32/33, 1518 B, line rate", 1518, d, 0, true});
  cases.push_back({"f", "(f) 82540EM rx, PCI 32/33, 64 B, line rate", 64, d, 0, true});
  cases.push_back({"k", "(k) switch, 16 gigabit ports saturated, 1518 B", 1518, d, 0, false, 16});
  cases.push_back(
      {"m", "(m) gbe-aggregation-10g, 16 hosts, 2 switches", 1518, d, 0, false, 0, true});
  return cases;
}

// What `gbesim phy` measured of itself over the runs of a case: medians.
struct PhyRun {
  double speed = 0;  // the field asked for
  double wall_s = 0;
  double peak_mib = 0;
};

// A bench: its options, its scratch directory, its progress line, and the cases it was asked for.
class Bench {
 public:
  explicit Bench(const BenchOptions& options) : options_(options), progress_(true, 0.0) {
    char pattern[] = "/tmp/gbesim-bench-XXXXXX";
    if (::mkdtemp(pattern) == nullptr)
      throw std::runtime_error("cannot create a temporary directory");
    tmp_ = pattern;
  }
  ~Bench() {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  bool wanted(const std::string& key) const {
    if (options_.cases.empty()) return true;
    for (const auto& c : options_.cases)
      if (c == key || (key.size() > 1 && key[0] == 'c' && c == "c")) return true;
    return false;
  }
  void simulations();
  void start_up();
  void sweep();
  void phy();
  void topology();

 private:
  void print_header(const PinnedToThisCpu& pin, const std::vector<double>& first);
  std::pair<std::filesystem::path, std::vector<std::string>> case_scenario(const Case& c);
  void simulation(const Case& c, std::size_t index, std::size_t count, Baseline& baseline);
  void start_up_case(const std::string& what, const std::string& scenario_json, int runs);
  PhyRun phy_runs(const char* tag, const std::vector<std::string>& args, const char* field);
  // The wall time and peak memory of a child gbesim with these arguments.
  std::pair<double, double> child(const std::vector<std::string>& args, const std::string& what);

  const BenchOptions& options_;
  std::filesystem::path tmp_;
  ProgressLine progress_;
  // (c2)'s CPU per frame (its frames are bursts' frames, all but a few in 1,000 without a
  // collision): what a frame costs along the half-duplex curve, the rest being collided attempts.
  double hd_frame_ns_ = 0;
};

void Bench::print_header(const PinnedToThisCpu& pin, const std::vector<double>& first) {
  fmt::print(
      "gbesim bench: 1000 Mb/s, saturated; FD = 2 stations on 100 m full duplex, HD = stations "
      "on a half-duplex collision domain (10 m each to a repeater); median of {} runs per case\n"
      "baseline (this machine, now): an empty SystemC method re-triggered every ns costs {:.1f} "
      "ns of CPU per activation; it is measured again just before and after every run (the\n"
      "faster of two stretches each side), and 'x base' = the run's CPU per frame / the mean of\n"
      "those two (the median over the runs);\n"
      "'base ns' = the baselines the case ran against (median){}\n",
      options_.runs, median(first),
      pin.cpu() >= 0 ? fmt::format("; runs and baseline pinned to CPU {}", pin.cpu()) : "");
  fmt::print("{:<55} {:>8} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>8} {:>7} {:>7}\n", "case",
             "x real", "ns/frame", "ns/event", "x base", "act/fr", "ns/act", "ns/txn", "peak MiB",
             "frames", "base ns");
  std::fflush(stdout);
}

// The scenario a case runs, and what the run is given on its command line beside it; an empty
// path when the case's scenario is not here.
std::pair<std::filesystem::path, std::vector<std::string>> Bench::case_scenario(const Case& c) {
  if (c.whole_system) {
    if (!std::filesystem::is_regular_file(kWholeSystemScenario)) return {};
    return {kWholeSystemScenario,
            {"--set", fmt::format("duration_ns={}", std::int64_t{c.duration_ms} * 1'000'000)}};
  }
  const auto scenario =
      tmp_ / fmt::format("{}-{}-{}-{}-{}.json", c.nic ? "nic" : "fd", c.hd_stations, c.switch_ports,
                         c.frame_bytes, c.duration_ms);
  write_file_atomically(scenario,
                        c.switch_ports > 0  ? bench_switch_json(c.switch_ports, c.duration_ms)
                        : c.nic             ? bench_nic_rx_json(c.frame_bytes, c.duration_ms)
                        : c.hd_stations > 0 ? bench_half_duplex_json(c.hd_stations, c.duration_ms)
                                            : bench_scenario_json(c.frame_bytes, c.duration_ms));
  return {scenario, {}};
}

void Bench::simulation(const Case& c, std::size_t index, std::size_t count, Baseline& baseline) {
  const auto [scenario, extra] = case_scenario(c);
  if (scenario.empty()) {
    fmt::print("{}: skipped: no {} here (run gbesim bench from the project's directory)\n", c.label,
               kWholeSystemScenario);
    return;
  }
  std::vector<Sample> runs;
  std::vector<double> bases;
  for (int i = 0; i < options_.runs; ++i) {
    progress_.update(fmt::format("gbesim bench: case {} of {}, {}: run {} of {}", index, count,
                                 c.key, i + 1, options_.runs),
                     true);
    const double before = std::min(baseline.stretch(), baseline.stretch());
    runs.push_back(
        run_once(options_.self, scenario, tmp_ / fmt::format("out-{}-{}", index, i), extra));
    bases.push_back((before + std::min(baseline.stretch(), baseline.stretch())) / 2);
  }
  progress_.finish();
  // The median of a figure over the runs; "-" where a run has nothing to divide by.
  auto per = [&](auto figure) {
    std::vector<double> v;
    for (std::size_t i = 0; i < runs.size(); ++i) v.push_back(figure(runs[i], bases[i]));
    return median(v);
  };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  const double per_frame =
      per([&](const Sample& s, double) { return ratio(1e9 * s.cpu_seconds, s.frames); });
  const double per_transaction =
      per([&](const Sample& s, double) { return ratio(1e9 * s.cpu_seconds, s.bus_transactions); });
  fmt::print(
      "{:<55} {:>#8.3g} {:>8.0f} {:>8.0f} {:>7.1f} {:>7.2f} {:>8.0f} {:>8} {:>8.1f} {:>7.0f} "
      "{:>7.1f}\n",
      fmt::format("{} {} ms", c.label, c.duration_ms),
      per([](const Sample& s, double) { return s.real_time_factor; }), per_frame,
      per([&](const Sample& s, double) { return ratio(1e9 * s.cpu_seconds, s.events()); }),
      per([&](const Sample& s, double base) {
        return ratio(1e9 * s.cpu_seconds, s.frames) / base;
      }),
      per([&](const Sample& s, double) { return ratio(s.activations, s.frames); }),
      per([&](const Sample& s, double) { return ratio(1e9 * s.cpu_seconds, s.activations); }),
      per_transaction > 0 ? fmt::format("{:.0f}", per_transaction) : "-",
      per([](const Sample& s, double) { return s.peak_rss_mib; }),
      per([](const Sample& s, double) { return s.frames_allocated; }), median(bases));
  if (c.hd_stations == 2) hd_frame_ns_ = per_frame;
  if (c.hd_stations > 2 && hd_frame_ns_ > 0) {
    const double attempt_ns = per([&](const Sample& s, double) {
      return ratio(1e9 * s.cpu_seconds - hd_frame_ns_ * s.frames, s.collisions);
    });
    const double attempts_per_frame =
        per([&](const Sample& s, double) { return ratio(s.collisions, s.frames); });
    // A short run's frames can cost less than (c2)'s: what is left is then the runs' noise, said
    // as such rather than as a negative cost.
    fmt::print("    by kind: {} ({:.2f} per frame), the frames at (c2)'s {:.0f} ns\n",
               attempt_ns > 0 ? fmt::format("{:.0f} ns per collided attempt", attempt_ns)
                              : "no CPU left per collided attempt, within the runs' noise",
               attempts_per_frame, hd_frame_ns_);
  }
  if (c.whole_system)
    fmt::print(
        "    end to end: {:.0f} frames delivered to the hosts per CPU second ({:.1f} us of CPU per "
        "frame), {:.2f} frames received by a MAC per frame delivered, {:.1f} activations per "
        "frame delivered\n",
        per([&](const Sample& s, double) { return ratio(s.station_frames, s.cpu_seconds); }),
        per([&](const Sample& s, double) { return ratio(1e6 * s.cpu_seconds, s.station_frames); }),
        per([&](const Sample& s, double) { return ratio(s.frames, s.station_frames); }),
        per([&](const Sample& s, double) { return ratio(s.activations, s.station_frames); }));
  std::fflush(stdout);
}

// The simulation cases, pinned to one CPU beside the baseline they are measured against.
void Bench::simulations() {
  const std::vector<Case> cases = simulation_cases(options_.duration_ms);
  progress_.update("gbesim bench: measuring the baseline", true);
  const PinnedToThisCpu pin;
  Baseline baseline;
  std::vector<double> first;
  for (int i = 0; i < options_.runs; ++i) first.push_back(baseline.stretch());
  print_header(pin, first);
  for (std::size_t index = 0; index < cases.size(); ++index)
    if (wanted(cases[index].key)) simulation(cases[index], index + 1, cases.size(), baseline);
  fmt::print(
      "x real = simulated time / wall time; ns/frame = the simulation's CPU time (not start-up)\n"
      "per frame received; ns/event = per protocol event (a frame received or a collided\n"
      "attempt, from the run's own counters); HD 'by kind' = the CPU left once every frame is\n"
      "charged (c2)'s ns/frame, per collided attempt; act/fr = model process activations per\n"
      "frame (a half-duplex station woken by its medium's queue counts one, as by its own SystemC\n"
      "event); ns/act = CPU per activation; ns/txn = CPU per PCI transaction (NIC cases); peak\n"
      "MiB = the run's own peak resident memory (its VmHWM); frames = frame objects ever\n"
      "allocated (recycled through a pool); in (k) and (m) frames count the stations' and the\n"
      "switch ports' MACs (a frame is received by each on its way).\n");
  const auto [middle, lowest, highest] = baseline.range();
  fmt::print("baseline over this bench: {:.1f} ns (median), {:.1f} to {:.1f}\n", middle, lowest,
             highest);
}

std::pair<double, double> Bench::child(const std::vector<std::string>& args,
                                       const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  const MeasuredChild exit = run_measured_child(options_.self, args, tmp_ / "child.peak");
  if (exit.code != 0) throw std::runtime_error("benchmark run failed: " + what);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          exit.peak_mib};
}

void Bench::start_up_case(const std::string& what, const std::string& scenario_json, int runs) {
  const auto scenario = tmp_ / "startup.json";
  Json doc = Json::parse(scenario_json);
  doc["duration_ns"] = 1000;
  write_file_atomically(scenario, doc.dump() + "\n");
  std::vector<double> wall, rss;
  for (int i = 0; i < runs; ++i) {
    progress_.update(fmt::format("gbesim bench: start-up, {}, run {}", what, i + 1), true);
    const auto [w, r] =
        child({"run", scenario.string(), "--quiet", "--out", (tmp_ / "startup-out").string()},
              "the start-up case");
    wall.push_back(w);
    rss.push_back(r);
  }
  progress_.finish();
  fmt::print("(s) start-up: {}, spawn to exit: {:.1f} ms wall, peak {:.1f} MiB (median of {})\n",
             what, 1e3 * median(wall), median(rss), wall.size());
  std::fflush(stdout);
}

// Start-up: the smallest run (two stations, 1 us), spawn to exit, wall time and peak RSS; and
// the same for a run of 1,024 half-duplex stations (building the installation, its results
// written).
void Bench::start_up() {
  start_up_case("the smallest gbesim run (2 stations, 1 us)", bench_scenario_json(64, 1),
                std::max(options_.runs, 9));
  start_up_case("1,024 half-duplex stations, 1 us", bench_half_duplex_json(1024, 1), options_.runs);
}

// A sweep of small runs, start to end (its runs, the periodic and the final aggregation,
// results.sqlite and the answers), at -j 2.
void Bench::sweep() {
  const std::filesystem::path sweep = options_.sweep_scenario;
  if (!std::filesystem::is_regular_file(sweep)) {
    fmt::print(
        "(w) skipped: no sweep scenario {} here (run gbesim bench from the project's "
        "directory, or give --sweep-scenario FILE)\n",
        printable(sweep.string()));
    return;
  }
  std::vector<double> wall;
  for (int i = 0; i < options_.runs; ++i) {
    progress_.update(fmt::format("gbesim bench: (w) sweep, run {} of {}", i + 1, options_.runs),
                     true);
    wall.push_back(child({"sweep", sweep.string(), "-j", "2", "--quiet", "--out",
                          (tmp_ / fmt::format("sweep-{}", i)).string()},
                         "gbesim sweep " + sweep.string())
                       .first);
  }
  progress_.finish();
  fmt::print("(w) gbesim sweep {} -j 2, start to end: {:.2f} s wall (median of {})\n",
             printable(sweep.string()), median(wall), wall.size());
  std::fflush(stdout);
}

PhyRun Bench::phy_runs(const char* tag, const std::vector<std::string>& args, const char* field) {
  std::vector<double> speeds, walls, peaks;
  for (int i = 0; i < options_.runs; ++i) {
    const auto out = tmp_ / fmt::format("phy-{}-{}", tag, i);
    std::vector<std::string> all = {"phy", "--quiet", "--out", out.string()};
    all.insert(all.end(), args.begin(), args.end());
    const auto [wall, peak] = child(all, "gbesim phy");
    walls.push_back(wall);
    peaks.push_back(peak);
    std::ifstream in(out / "phy.json");
    speeds.push_back(Json::parse(in)[field].get<double>());
  }
  return PhyRun{median(speeds), median(walls), median(peaks)};
}

// The link-level 1000BASE-T model, each run its own `gbesim phy` process: (g) 4D symbols per
// second through the Viterbi decoder (AWGN at sigma 0.2, 200,000 symbols); (h) the whole link
// (cable responses, noise, ADC, FFE + DFE on four pairs, Viterbi) on 100 m of Cat 5e, 1,000,000
// and 4,000,000 symbols (the peak memory must not grow with them); (p) the default `gbesim phy`
// (AWGN points, three cables x 21 lengths x three receivers, reach bisections, eye diagrams).
void Bench::phy() {
  if (wanted("g")) {
    progress_.update("gbesim bench: (g) Viterbi decoding", true);
    const PhyRun r = phy_runs("g", {"--channel", "awgn", "--sigma", "0.2", "--symbols", "200000"},
                              "decode_symbols_per_second");
    progress_.finish();
    fmt::print("(g) 1000BASE-T Viterbi decoding (gbesim phy, AWGN): {:.3g} 4D symbols/s (median)\n",
               r.speed);
  }
  if (wanted("h")) {
    std::vector<PhyRun> r;
    for (const char* symbols : {"1000000", "4000000"}) {
      progress_.update(
          fmt::format("gbesim bench: (h) the 1000BASE-T link level, {} symbols", symbols), true);
      r.push_back(phy_runs(
          "h",
          {"--channel", "cable", "--cable", "cat5e", "--lengths", "100", "--mc-symbols", symbols},
          "link_symbols_per_second"));
    }
    progress_.finish();
    fmt::print(
        "(h) 1000BASE-T link level, 100 m Cat 5e, whole receiver: {:.3g} 4D symbols/s, peak "
        "{:.0f} MiB at 10^6 symbols, {:.0f} MiB at 4x10^6 (median)\n",
        r[0].speed, r[0].peak_mib, r[1].peak_mib);
  }
  if (wanted("p")) {
    progress_.update("gbesim bench: (p) the default gbesim phy", true);
    const PhyRun r = phy_runs("p", {}, "link_symbols_per_second");
    progress_.finish();
    fmt::print("(p) the default gbesim phy: {:.1f} s wall, peak {:.0f} MiB (median)\n", r.wall_s,
               r.peak_mib);
  }
}

// The collision-domain analysis of large plants, each run its own `gbesim topology` process
// (reading the JSON, analysing, writing topology.txt, topology_pairs.csv and topology.dot).
void Bench::topology() {
  for (const bool switched : {false, true}) {
    if (!wanted(switched ? "j" : "i")) continue;
    progress_.update(fmt::format("gbesim bench: ({}) gbesim topology", switched ? "j" : "i"), true);
    const auto plant = tmp_ / fmt::format("topology-{}.json", switched);
    write_file_atomically(plant, bench_topology_json(1000, 100, switched));
    std::vector<double> wall, rss;
    for (int i = 0; i < options_.runs; ++i) {
      const auto [w, r] = topology_once(options_.self, plant,
                                        tmp_ / fmt::format("topology-out-{}-{}", switched, i));
      wall.push_back(w);
      rss.push_back(r);
    }
    progress_.finish();
    fmt::print(
        "({}) gbesim topology, 100,000 stations, {}: {:.2f} s wall, {:.0f} MiB peak "
        "(median)\n",
        switched ? "j" : "i",
        switched ? "a switch with 1,000 hubs (1,000 domains)"
                 : "one 10 Mb/s domain, 1,001 repeaters",
        median(wall), median(rss));
  }
}

}  // namespace

int run_bench(const BenchOptions& options) {
  // A sweep scenario the user named is checked as gbesim sweep will read it, before any case
  // runs: a typo is exit code 2 naming the file (with a did-you-mean), not a case skipped or a
  // run failed minutes later.
  if (options.sweep_scenario_given) load_sweep_plan(options.sweep_scenario);
  Bench bench(options);
  bench.simulations();
  // The cases below are not pinned: the sweep case runs two at a time.
  if (bench.wanted("s")) bench.start_up();
  if (bench.wanted("w")) bench.sweep();
  bench.phy();
  bench.topology();
  return 0;
}

}  // namespace gbesim
