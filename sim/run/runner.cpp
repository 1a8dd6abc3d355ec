#include "sim/run/runner.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>

#include "analysis/diameter.hpp"
#include "analysis/result_files.hpp"
#include "analysis/sweep_summary.hpp"
#include "gbesim_version.hpp"
#include "models/common/time.hpp"
#include "models/topology/cabling.hpp"
#include "models/topology/segment_rules.hpp"
#include "scenarios/network.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/scenario_resolve.hpp"
#include "sim/input/schema.hpp"
#include "sim/run/analytic_scalars.hpp"
#include "sim/run/observers.hpp"
#include "sim/run/series.hpp"
#include "sim/run/topology_files.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/progress.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

// GBESIM_PERTURB_ORDER=1: one more process, re-triggered every nanosecond and registered before
// the network's, so that the simulation kernel orders the processes of each instant differently
// (its order follows the history of timed notifications). For the differential check that no
// result depends on that order (tests/scenario/kernel_order_test.cpp); it counts no activation.
class OrderPerturbation : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(OrderPerturbation);
  explicit OrderPerturbation(sc_core::sc_module_name name) : sc_module(name) { SC_METHOD(tick); }
  static bool wanted() {
    const char* v = std::getenv("GBESIM_PERTURB_ORDER");
    return v != nullptr && std::string_view(v) == "1";
  }

 private:
  void tick() { next_trigger(sc_core::sc_time(1, sc_core::SC_NS)); }
};

std::string iso_time_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::int64_t peak_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// CPU time this process has used (user and system), seconds.
double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Outcome {
  Picoseconds simulated_ps = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;  // of the simulation only (not start-up, loading or writing)
  bool interrupted = false;
  Picoseconds statistics_from_ps = 0;  // the warm-up's end, if the run got there
};

// Runs the kernel to `end_ps` in chunks, so that progress can be shown and a stop request
// honoured between chunks. Chunk boundaries do not change results: all activity at a time is
// finished before sc_start returns.
// With a series, the kernel also stops at every interval's end to sample it (a chunk boundary
// like any other), and the last, shorter interval is closed at the end.
// With a warm-up, the kernel also stops at its end and every statistic restarts there.
// Whenever the kernel stops, the network delivers what links left to their receivers' next
// settle (late delivery), so that statistics read then are complete.
Outcome simulate(Picoseconds end_ps, Picoseconds warmup_ps, StatRegistry& stats,
                 const RunOptions& options, const std::string& name, SeriesRecorder* series,
                 Network& network) {
  using Clock = std::chrono::steady_clock;
  ProgressLine progress(!options.quiet);
  const auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  Picoseconds chunk = options.chunk_ns ? *options.chunk_ns * kPsPerNs : kPsPerUs;
  Outcome out;
  while (now_ps() < end_ps) {
    if (stop_requested()) {
      out.interrupted = true;
      break;
    }
    Picoseconds step = std::min(chunk, end_ps - now_ps());
    if (series) step = std::min(step, series->next_ps() - now_ps());
    if (now_ps() < warmup_ps) step = std::min(step, warmup_ps - now_ps());
    const auto before = Clock::now();
    sc_core::sc_start(to_sc_time(step));
    network.settle_late_deliveries();
    if (series && now_ps() == series->next_ps()) series->sample(now_ps());
    if (warmup_ps > 0 && now_ps() == warmup_ps) {
      StatContext at;
      at.elapsed_ps = warmup_ps;
      stats.restart(at);
      out.statistics_from_ps = warmup_ps;
    }
    const double took = std::chrono::duration<double>(Clock::now() - before).count();
    if (!options.chunk_ns) {
      // Aim for about 0.1 s of wall time per chunk, growing at most 4x at a time.
      const double target = 0.1;
      const double scale = took > 0 ? std::clamp(target / took, 0.25, 4.0) : 4.0;
      chunk = std::max<Picoseconds>(kPsPerNs,
                                    static_cast<Picoseconds>(static_cast<double>(chunk) * scale));
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const Picoseconds now = now_ps();
    const double ratio = wall > 0 ? ps_to_seconds(now) / wall : 0;
    const double done = static_cast<double>(now) / static_cast<double>(end_ps);
    const double eta = ratio > 0 ? ps_to_seconds(end_ps - now) / ratio : 0;
    progress.update(fmt::format("{}: {} / {} simulated ({:.0f}%), {:.3g}x real time, ETA {}", name,
                                format_duration_ps(now), format_duration_ps(end_ps), 100 * done,
                                ratio, format_wall_seconds(eta)));
  }
  progress.finish();
  if (series) series->sample(now_ps());
  out.simulated_ps = now_ps();
  out.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out.cpu_seconds = process_cpu_seconds() - cpu_start;
  return out;
}

// The scalars by component and name, looked up a few times per station when the summary is
// printed (a scan of all of them per lookup made a 1,024-station summary quadratic).
class ScalarIndex {
 public:
  explicit ScalarIndex(const std::vector<Scalar>& scalars) {
    by_key_.reserve(scalars.size());
    for (const auto& s : scalars) by_key_.emplace(key(s.component, s.name), &s);  // first wins
  }
  const Scalar* find(const std::string& component, const std::string& name) const {
    const auto it = by_key_.find(key(component, name));
    return it != by_key_.end() ? it->second : nullptr;
  }

 private:
  static std::string key(const std::string& component, const std::string& name) {
    std::string k;
    k.reserve(component.size() + 1 + name.size());
    k.append(component).push_back('\0');
    k.append(name);
    return k;
  }
  std::unordered_map<std::string, const Scalar*> by_key_;
};

void print_summary(const LoadedScenario& scenario, const Network& network,
                   const std::vector<Scalar>& scalars, const Outcome& outcome,
                   const std::filesystem::path& dir) {
  const ScalarIndex index(scalars);
  const auto& run = scenario.config.run;
  const double rtf =
      outcome.wall_seconds > 0 ? ps_to_seconds(outcome.simulated_ps) / outcome.wall_seconds : 0;
  const auto plural = [](std::size_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
  };
  std::string wiring = plural(network.links().size(), "full-duplex link");
  if (!network.switches().empty())
    wiring += fmt::format(", {} switch{}", network.switches().size(),
                          network.switches().size() == 1 ? "" : "es");
  if (!network.media().empty())
    wiring += ", " + plural(network.media().size(), "half-duplex collision domain");
  if (!network.hosts().empty()) wiring += ", " + plural(network.hosts().size(), "host");
  if (!network.light_hosts().empty())
    wiring += ", " + plural(network.light_hosts().size(), "light host");
  fmt::print("{}: {}, {} at {} Mb/s; {} simulated in {:.3f} s wall ({:.3g}x real time){}\n",
             run.name, plural(network.stations().size(), "station"), wiring, run.rate_mbps,
             format_duration_ps(outcome.simulated_ps), outcome.wall_seconds, rtf,
             outcome.interrupted ? " -- INTERRUPTED" : "");
  if (outcome.statistics_from_ps > 0)
    fmt::print("  statistics after a {} warm-up: the last {}\n",
               format_duration_ps(outcome.statistics_from_ps),
               format_duration_ps(outcome.simulated_ps - outcome.statistics_from_ps));
  if (!network.stations().empty())
    fmt::print("  {:<10} {:>12} {:>10} {:>12} {:>10} {:>14} {:>14} {:>8}\n", "station", "tx frames",
               "tx Mb/s", "rx frames", "rx Mb/s", "latency mean", "latency p99", "drops");
  // A statistic the station does not have (a NIC, not a sink, receives) is shown as "-".
  auto value = [&](const std::string& component, const std::string& name,
                   double missing = std::numeric_limits<double>::quiet_NaN()) {
    const Scalar* s = index.find(component, name);
    return s != nullptr ? s->value : missing;
  };
  for (const auto& station : network.stations()) {
    const std::string mac = std::string(station->name()) + ".mac";
    const std::string sink = std::string(station->name()) + ".sink";
    const double drops = value(mac, "tx_queue_drops", 0) + value(sink, "rx_queue_overflow", 0) +
                         value(mac, "frame_check_sequence_errors", 0);
    fmt::print(
        "  {:<10} {:>12.0f} {:>10.2f} {:>12.0f} {:>10.2f} {:>11.3f} us {:>11.3f} us {:>8.0f}\n",
        station->basename(), Shown{value(mac, "frames_transmitted_ok")},
        Shown{value(mac, "tx_throughput") / 1e6}, Shown{value(mac, "frames_received_ok")},
        Shown{value(mac, "rx_throughput") / 1e6}, Shown{value(sink, "latency_mean") / 1e3},
        Shown{value(sink, "latency_p99") / 1e3}, Shown{drops});
  }
  for (const auto& medium : network.media()) {
    const std::string m = medium->basename();
    fmt::print(
        "  {}: efficiency {:.4f}; time on frames {:.1f} %, preambles {:.1f} %, extension {:.1f} %, "
        "collisions {:.1f} %, idle {:.1f} %; {:.0f} bursts\n",
        m, Shown{value(m, "efficiency")}, Shown{100 * value(m, "frame_share")},
        Shown{100 * value(m, "preamble_share")}, Shown{100 * value(m, "extension_share")},
        Shown{100 * value(m, "collision_share")}, Shown{100 * value(m, "idle_share")},
        Shown{value(m, "bursts")});
  }
  // A host's application ends, one line each.
  auto print_stacks = [&](const std::string& host, const std::vector<AppEnd>& ends) {
    for (const AppEnd& e : ends) {
      const AppParams& app = e.app;
      const std::string s = host + "." + e.name;
      const bool udp = app.kind == "udp";
      const std::string role =
          app.kind == "file" ? (e.sender ? "client" : "server") : (e.sender ? "send" : "receive");
      std::string detail =
          udp ? fmt::format("{:.0f} datagrams sent, {:.0f} received",
                            Shown{value(s, "udp_datagrams_sent")},
                            Shown{value(s, "udp_datagrams_received")})
              : fmt::format("{:.0f} segments resent, {:.0f} timeouts, round trip mean {:.2f} us",
                            Shown{value(s, "segments_retransmitted")}, Shown{value(s, "timeouts")},
                            Shown{value(s, "round_trip_mean") / 1e3});
      if (app.kind == "file")
        detail = fmt::format("records read {:.2f} MB/s, written {:.2f} MB/s; ",
                             Shown{value(s, "read_throughput") / 8e6},
                             Shown{value(s, "write_throughput") / 8e6}) +
                 detail;
      fmt::print(
          "  {}: {} of {} B, {} with {}: application {:.2f} Mb/s received, {:.2f} Mb/s sent; "
          "{:.0f} requests/s; {}\n",
          s, app.kind, app.request_bytes, role, e.peer, Shown{value(s, "receive_throughput") / 1e6},
          Shown{value(s, "send_throughput") / 1e6}, Shown{value(s, "requests_per_second")}, detail);
    }
  };
  for (const auto& host : network.light_hosts()) {
    const std::string c = std::string(host->name()) + ".cpu";
    fmt::print("  {}: light host on {}; CPU {:.1f} %, {:.0f} frames in, {:.0f} out\n", c,
               host->config().station, Shown{100 * value(c, "cpu_utilisation")},
               Shown{value(c, "frames_delivered")}, Shown{value(c, "frames_sent")});
    print_stacks(host->basename(), host->ends());
  }
  for (const auto& host : network.hosts()) {
    const std::string b = std::string(host->name()) + ".pci";
    const PciBusParams& p = host->config().pci;
    if (p.mode == "pcie")
      fmt::print(
          "  {}: PCI Express x{}, peak {:.0f} MB/s per direction; utilisation up {:.1f} %, down "
          "{:.1f} %; read {:.1f} MB/s, write {:.1f} MB/s; {:.0f} TLPs up, {:.0f} down\n",
          b, p.lanes, Shown{value(b, "peak_mbps")}, Shown{100 * value(b, "utilisation_up")},
          Shown{100 * value(b, "utilisation_down")}, Shown{value(b, "read_mbps")},
          Shown{value(b, "write_mbps")}, Shown{value(b, "tlps_up")}, Shown{value(b, "tlps_down")});
    else
      fmt::print(
          "  {}: {} {}-bit {} MHz, peak {:.1f} MB/s; utilisation {:.1f} %, data {:.1f} %; read "
          "{:.1f} MB/s, write {:.1f} MB/s; {:.0f} transactions, {:.1f} data phases each\n",
          b, p.mode == "pcix" ? "PCI-X" : "PCI", p.width_bits, p.clock_mhz,
          Shown{value(b, "peak_mbps")}, Shown{100 * value(b, "utilisation")},
          Shown{100 * value(b, "data_share")}, Shown{value(b, "read_mbps")},
          Shown{value(b, "write_mbps")}, Shown{value(b, "transactions")},
          Shown{value(b, "data_phases_mean")});
    if (host->config().has_nic) {
      const std::string n = std::string(host->name()) + ".nic";
      const std::string d = std::string(host->name()) + ".driver";
      fmt::print(
          "  {}: {:.0f} frames in, {:.0f} dropped (FIFO overflow {:.0f}, no descriptor {:.0f}); "
          "{:.0f} interrupts/s; host: {:.2f} Mb/s delivered, {:.2f} Mb/s sent, CPU {:.1f} %, "
          "{:.1f} "
          "frames per interrupt, P/E {:.1f}\n",
          n, Shown{value(n, "frames_arrived")},
          Shown{value(n, "rx_fifo_overflow") + value(n, "rx_no_descriptor")},
          Shown{value(n, "rx_fifo_overflow")}, Shown{value(n, "rx_no_descriptor")},
          Shown{value(n, "interrupts_per_second")}, Shown{value(d, "delivered_throughput") / 1e6},
          Shown{value(d, "sent_throughput") / 1e6}, Shown{100 * value(d, "cpu_utilisation")},
          Shown{value(d, "frames_per_interrupt")}, Shown{value(d, "pe_index")});
      for (std::size_t k = 1; k < host->nics().size(); ++k) {
        const std::string t = std::string(host->nics()[k]->name());
        fmt::print("  {} (team, {}): {:.0f} frames in, {:.0f} dropped; {:.0f} interrupts/s\n", t,
                   host->config().team.mode, Shown{value(t, "frames_arrived")},
                   Shown{value(t, "rx_fifo_overflow") + value(t, "rx_no_descriptor")},
                   Shown{value(t, "interrupts_per_second")});
      }
      print_stacks(host->basename(), host->ends());
      const std::string a = "analysis." + std::string(host->name());
      for (const char* dir : {"rx", "tx"}) {
        const std::string pre = std::string(dir) + "_";
        const bool pcie = index.find(a, pre + "link_up_bytes_per_frame") != nullptr;
        if (!pcie && index.find(a, pre + "bus_clocks_per_frame") == nullptr) continue;
        std::string bottleneck = "none of wire, bus, FIFO, CPU";
        for (const char* b : {"wire", "bus", "fifo", "cpu"})
          if (value(a, pre + "bottleneck_" + b) > 0) bottleneck = b;
        const std::string cost =
            pcie ? fmt::format("{:.0f} bytes up and {:.0f} down per frame",
                               Shown{value(a, pre + "link_up_bytes_per_frame")},
                               Shown{value(a, pre + "link_down_bytes_per_frame")})
                 : fmt::format("{:.1f} bus clocks per frame",
                               Shown{value(a, pre + "bus_clocks_per_frame")});
        fmt::print("  {} {}: {}; ceilings: bus {:.2f} Mb/s, wire {:.2f} Mb/s; bottleneck: {}\n", a,
                   dir, cost, Shown{value(a, pre + "bus_ceiling_throughput") / 1e6},
                   Shown{value(a, pre + "wire_ceiling_throughput") / 1e6}, bottleneck);
      }
    }
  }
  for (const auto& sw : network.switches()) {
    const std::string n = sw->basename();
    fmt::print(
        "  {}: {} ports; {:.0f} frames in: {:.0f} unicast, {:.0f} flooded, {:.0f} filtered; "
        "{:.0f} sent, {:.0f} dropped at outputs, {:.0f} at the fabric; {:.0f} addresses learned\n",
        n, sw->port_count(), Shown{value(n, "frames_received")}, Shown{value(n, "frames_unicast")},
        Shown{value(n, "frames_flooded")}, Shown{value(n, "frames_filtered")},
        Shown{value(n, "copies_sent")}, Shown{value(n, "copies_dropped")},
        Shown{value(n, "frames_dropped_fabric")}, Shown{value(n, "table_entries")});
  }
  for (std::size_t i = 0; i < scenario.config.links.size(); ++i) {
    const auto& l = scenario.config.links[i];
    if (!l.phy) continue;
    fmt::print(
        "  link{} {} - {}: 1000BASE-T over {} m of {}: SNR {:.2f} dB, margin {:.2f} dB, BER "
        "{:.3g}, octet errors {:.3g} -> {:.3g} injected bit errors/bit\n",
        i, l.a, l.b, l.params.cable_m, l.params.medium, Shown{l.phy->snr_db},
        Shown{l.phy->margin_db}, Shown{l.phy->ber}, Shown{l.phy->octet_error_rate},
        Shown{l.injected_ber()});
  }
  fmt::print("results: {}/ (run.json, scalars.csv{})\n", dir.string(),
             std::filesystem::exists(dir / "flows.csv") ? ", flows.csv" : "");
}

// The files a run writes besides run.json, which lists them (so that the next run in the same
// directory removes exactly what this one wrote, e.g. pcaps of stations it no longer has).
std::vector<std::string> output_files(const RunOptions& options, const ScenarioConfig& config) {
  std::vector<std::string> files = {"scalars.csv"};
  if (config.run.series_interval_ns > 0) files.push_back("series.csv");
  if (options.traces.count("events")) files.push_back("events.csv");
  if (options.traces.count("vcd")) files.push_back("trace.vcd");
  if (options.traces.count("pcapng")) files.push_back("trace.pcapng");
  if (options.traces.count("pcap")) {
    const auto it = options.trace_filters.find("pcap");
    for (const auto& s : config.stations)
      if (it == options.trace_filters.end() || it->second.keeps(s.name))
        files.push_back(s.name + ".pcap");
  }
  if (!config.topology_json.empty())
    for (const char* f : {"topology.txt", "topology_pairs.csv", "topology.dot"}) files.push_back(f);
  return files;
}

// Every name a run may write in its directory: its outputs, flows.csv (written when the run has
// flows) and run.json.
std::vector<std::string> names_written(std::vector<std::string> outputs) {
  outputs.push_back("flows.csv");
  outputs.push_back("run.json");
  return outputs;
}

// What the last run in a directory gbesim marked wrote, from its run.json: a sealed record's
// list, or the list of an earlier gbesim's record (they were not sealed); a record whose seal is
// broken is not taken (`why` says so).
std::vector<std::string> previous_outputs(const OutputDirectory& out, std::string& why) {
  std::vector<std::string> own = {"run.json"};
  if (!out.was_marked()) return own;
  std::string text;
  try {
    text = read_result_file(out.path() / "run.json", std::uint64_t{64} << 20);
  } catch (const ResultsError&) {
    return own;  // none, or not a file: nothing it lists
  }
  const Seal seal = seal_of(text);
  const JsonParse parsed = parse_json_text(text);
  const Json& old = parsed.value;
  const bool earlier = seal == Seal::none && parsed.ok && old.is_object() &&
                       old.contains("version") && old["version"] != kVersion;
  if (seal == Seal::broken || (seal == Seal::none && !earlier)) {
    why = "the last run's run.json is damaged or not gbesim's, so what it lists is not taken";
    return own;
  }
  if (parsed.ok && old.is_object() && old.contains("outputs") && old["outputs"].is_array())
    for (const auto& f : old["outputs"])
      if (f.is_string()) own.push_back(f.get<std::string>());
  return own;
}

// Makes room for this run's files: in a directory gbesim marked, what the last run's run.json
// lists is removed (its pcaps of stations this run no longer has too); a file this run would
// write that no record lists is refused, never overwritten (OutputDirectory). Then run.json says
// `running` and lists what this run will write, so that a run killed before its end leaves a
// record naming its files for the next run here to remove.
void prepare_outputs(const OutputDirectory& out, const LoadedScenario& scenario,
                     const std::vector<std::string>& outputs) {
  std::string why;
  const std::vector<std::string> own = previous_outputs(out, why);
  out.refuse_foreign(names_written(outputs), own, why);
  out.remove_own(own);
  Json record;
  record["name"] = scenario.config.run.name;
  record["status"] = "running";
  record["version"] = kVersion;
  record["pid"] = ::getpid();
  std::vector<std::string> may_write = names_written(outputs);
  may_write.pop_back();  // run.json itself
  record["outputs"] = may_write;
  write_file_atomically(out.path() / "run.json", seal_record(dump_json(record, 2)));
}

const std::set<std::string>& components_asked(const RunOptions& options) {
  static const std::set<std::string> kNone;
  const auto it = options.trace_filters.find("events");
  return it == options.trace_filters.end() ? kNone : it->second.components;
}

// Every component --trace events:components= names reports events, or lies above some that do.
void check_event_components(const std::set<std::string>& selected,
                            const std::vector<EventSource>& sources, const std::string& file) {
  const std::vector<std::string> names = event_components(sources);
  for (const auto& name : selected)
    if (std::none_of(names.begin(), names.end(),
                     [&](const std::string& n) { return selects({name}, n); }))
      throw ScenarioError({{"--trace", "",
                            "events:components: no component \"" + name + "\" reports events in " +
                                file + suggestion(name, names)}});
}

// A run started by a sweep ends with the sweep: SIGTERM when the parent dies (it then stops
// cleanly like any SIGTERM).
void end_with_parent(std::int64_t parent_pid) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != static_cast<pid_t>(parent_pid))
    throw std::runtime_error("the sweep that started this run (pid " + std::to_string(parent_pid) +
                             ") has ended");
}

}  // namespace

namespace {

// The bytes the requested traces will take, from the sources' rates (an estimate: a shared
// medium or a slow receiver sends less; collisions add rows): per frame, events.csv has about
// three rows at the sender and two at the receiver of some 42 bytes each, and each pcap that
// sees it a 16-byte record header and the frame.
struct TraceEstimate {
  double events_bytes = 0;
  double pcap_bytes = 0;
  double frames = 0;
};

// events.csv's rows for the frames through hosts' NICs whose components the filter keeps, rows
// of about 50 bytes: a frame received adds some 25 (its DMA write, bus transactions, descriptor
// write-back, the driver's share), a frame its bulk sender sends some 50 (the bridge cuts its
// DMA read into a transaction per prefetch window). The frames are the saturated sources' to the
// host's station and its sender's, at line rate (a bus that cannot keep up moves fewer).
double host_event_bytes(const ScenarioConfig& c, const TraceFilter& events, double from_ps,
                        double to_ps) {
  constexpr double kReceivedBytes = 25 * 50, kSentBytes = 50 * 50;
  const std::set<std::string> kept = events.selection();
  auto keeps = [&](const HostConfig& h) {
    return kept.empty() || std::any_of(kept.begin(), kept.end(), [&](const std::string& k) {
             return k == h.name || k.rfind(h.name + ".", 0) == 0;
           });
  };
  double bytes_per_ps = 0;
  for (const auto& h : c.hosts) {
    const std::vector<std::string> own = h.own_stations();
    if (!h.has_nic || own.empty() || !keeps(h)) continue;
    const StationConfig* nic = c.find_station(own.front());
    const double rate_bps =
        static_cast<double>(nic->rate_mbps > 0 ? nic->rate_mbps : c.run.rate_mbps) * 1e6;
    if (!h.tx.to.empty())
      bytes_per_ps +=
          kSentBytes * rate_bps / (8.0 * static_cast<double>(h.tx.frame_bytes + 20)) * 1e-12;
    for (const auto& s : c.stations)
      for (const TrafficParams& t : s.traffic)
        if (t.enabled && t.pattern == "saturated" &&
            std::find(own.begin(), own.end(), t.to) != own.end())
          bytes_per_ps +=
              kReceivedBytes * rate_bps / (8 * (t.frame_bytes.mean_bytes() + 20)) * 1e-12;
  }
  const double run_ps = static_cast<double>(c.run.duration_ns) * kPsPerNs;
  return bytes_per_ps * std::max(0.0, std::min(to_ps, run_ps) - from_ps);
}

TraceEstimate estimate_traces(const ScenarioConfig& c, const RunOptions& options) {
  TraceEstimate out;
  const double run_ps = static_cast<double>(c.run.duration_ns) * kPsPerNs;
  auto filter_of = [&](const std::string& kind) -> const TraceFilter* {
    if (!options.traces.count(kind)) return nullptr;
    static const TraceFilter kAll;
    const auto it = options.trace_filters.find(kind);
    return it == options.trace_filters.end() ? &kAll : &it->second;
  };
  const TraceFilter* events = filter_of("events");
  const TraceFilter* pcap = filter_of("pcap");
  const TraceFilter* pcapng = filter_of("pcapng");
  if (events == nullptr && pcap == nullptr && pcapng == nullptr) return out;
  if (events != nullptr)
    out.events_bytes += host_event_bytes(c, *events, static_cast<double>(events->from_ps),
                                         static_cast<double>(events->to_ps));
  for (const auto& s : c.stations) {
    const double rate_bps =
        static_cast<double>(s.rate_mbps > 0 ? s.rate_mbps : c.run.rate_mbps) * 1e6;
    for (const TrafficParams& t : s.traffic) {
      if (!t.enabled) continue;
      const double mean = t.pattern == "script" ? 0 : t.frame_bytes.mean_bytes();
      // Frames per ps while active, and the active span inside a filter's window.
      double per_ps = 0;
      if (t.pattern == "saturated") per_ps = rate_bps / (8 * (mean + 20)) * 1e-12;
      if (t.pattern == "poisson" || t.pattern == "on_off")
        per_ps = offered_load_bps(t) / (8 * mean) * 1e-12;
      const double start = static_cast<double>(t.start_ns) * kPsPerNs;
      const double stop =
          t.stop_ns < 0 ? run_ps : std::min(run_ps, static_cast<double>(t.stop_ns) * kPsPerNs);
      auto frames_in = [&](const TraceFilter& f, double& bytes_each) {
        const double from = std::max(start, static_cast<double>(f.from_ps));
        const double to = std::min(stop, static_cast<double>(f.to_ps));
        if (t.pattern == "script") {
          double n = 0, bytes = 0;
          for (const auto& e : t.script) {
            const double at = static_cast<double>(e.at_ns) * kPsPerNs;
            if (at >= from && at < to) {
              n += 1;
              bytes += static_cast<double>(e.bytes);
            }
          }
          bytes_each = n > 0 ? bytes / n : 0;
          return n;
        }
        bytes_each = mean;
        double n = to > from ? per_ps * (to - from) : 0;
        if (t.count > 0) n = std::min(n, static_cast<double>(t.count));
        return n;
      };
      const double receivers =
          t.to == "broadcast" ? static_cast<double>(c.stations.size() - 1) : 1.0;
      auto receivers_kept = [&](const TraceFilter& f) {
        if (f.stations.empty()) return receivers;
        if (t.to != "broadcast") return f.keeps(t.to) ? 1.0 : 0.0;
        return static_cast<double>(f.stations.size() - (f.keeps(s.name) ? 1 : 0));
      };
      if (events != nullptr) {
        double bytes = 0;
        const double n = frames_in(*events, bytes);
        out.frames += n;
        out.events_bytes +=
            n * 42 * ((events->keeps(s.name) ? 3.0 : 0.0) + 2.0 * receivers_kept(*events));
      }
      // A pcap record is 16 bytes and the frame; a pcapng packet block 44 and the frame padded.
      const TraceFilter* first = pcap != nullptr ? pcap : pcapng;
      for (const auto& [f, overhead] : {std::pair{pcap, 16.0}, std::pair{pcapng, 46.0}}) {
        if (f == nullptr) continue;
        double bytes = 0;
        const double n = frames_in(*f, bytes);
        if (events == nullptr && f == first) out.frames += n;
        out.pcap_bytes +=
            n * (overhead + bytes) * ((f->keeps(s.name) ? 1.0 : 0.0) + receivers_kept(*f));
      }
    }
  }
  return out;
}

std::string megabytes(double bytes) {
  return fmt::format("{:.0f} MB", bytes / 1e6);
}

}  // namespace

std::pair<double, double> trace_bytes_estimate(const LoadedScenario& scenario,
                                               const RunOptions& options) {
  const TraceEstimate e = estimate_traces(scenario.config, options);
  return {e.events_bytes, e.pcap_bytes};
}

std::optional<std::string> large_trace_warning(const LoadedScenario& scenario,
                                               const RunOptions& options) {
  const TraceEstimate traces = estimate_traces(scenario.config, options);
  constexpr double kLargeTraceBytes = 100e6;
  if (traces.events_bytes + traces.pcap_bytes <= kLargeTraceBytes) return std::nullopt;
  std::string parts;
  if (traces.events_bytes > 0) parts += "events.csv " + megabytes(traces.events_bytes);
  if (traces.pcap_bytes > 0)
    parts += std::string(parts.empty() ? "" : ", ") + "pcap/pcapng " + megabytes(traces.pcap_bytes);
  return fmt::format(
      "the traces will take about {} ({}; estimated from the sources' rates, about {:.3g} "
      "frames): keep fewer stations or a time window, e.g. --trace pcap:stations=a,b or --trace "
      "events:from=1ms,to=2ms",
      megabytes(traces.events_bytes + traces.pcap_bytes), parts, traces.frames);
}

std::map<std::string, TraceFilter> parse_traces(const std::vector<std::string>& values) {
  auto fail = [](const std::string& why) { throw ScenarioError({{"--trace", "", why}}); };
  auto time_ps = [&](const std::string& key, const std::string& text) -> Picoseconds {
    if (text == "0") return 0;
    const auto ns = parse_interval_ns(text);
    if (!ns) fail(key + "=" + text + ": expected a time such as 0, 500us, 2ms or 1s");
    return *ns * kPsPerNs;
  };
  std::map<std::string, TraceFilter> out;
  std::string kind;     // the trace the values belong to
  std::string list_of;  // the key a bare value adds to ("stations"), or empty
  auto apply = [&](const std::string& setting) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos) {
      if (list_of.empty())
        fail("\"" + setting + "\": expected a trace (" + schema::key_list(trace_kinds()) +
             ") or key=value after one");
      (list_of == "components" ? out[kind].components : out[kind].stations).insert(setting);
      return;
    }
    const std::string key = setting.substr(0, eq);
    const std::string value = setting.substr(eq + 1);
    list_of.clear();
    if (key == "stations" && kind != "vcd") {
      if (value.empty()) fail(kind + ":stations=: expected station names");
      out[kind].stations.insert(value);
      list_of = key;
    } else if (key == "components" && kind == "events") {
      if (value.empty()) fail(kind + ":components=: expected component names, e.g. h.nic,h.pci");
      out[kind].components.insert(value);
      list_of = key;
    } else if ((key == "from" || key == "to") && kind != "vcd") {
      (key == "from" ? out[kind].from_ps : out[kind].to_ps) = time_ps(key, value);
    } else if (key == "ts" && (kind == "pcap" || kind == "pcapng")) {
      if (value != "start" && value != "end")
        fail(kind + ":ts=" + value +
             ": expected start (the first preamble bit) or end (the last FCS bit, the default)");
      out[kind].stamp_start = value == "start";
    } else {
      fail(kind + ": unknown filter \"" + key + "\" (" +
           (kind == "vcd"      ? std::string("a VCD trace takes none")
            : kind == "events" ? std::string("known: stations, components, from, to")
                               : std::string("known: stations, from, to, ts")) +
           ")");
    }
  };
  for (const std::string& value : values) {
    const auto colon = value.find(':');
    const std::string head = value.substr(0, colon);
    if (std::find(trace_kinds().begin(), trace_kinds().end(), head) != trace_kinds().end()) {
      kind = head;
      list_of.clear();
      out.emplace(kind, TraceFilter{});
      if (colon != std::string::npos) apply(value.substr(colon + 1));
    } else if (kind.empty()) {
      fail("\"" + value + "\": expected one of " + schema::key_list(trace_kinds()) +
           suggestion(head, trace_kinds()));
    } else {
      apply(value);
    }
  }
  for (const auto& [k, f] : out)
    if (f.from_ps >= f.to_ps) fail(k + ": from must be before to");
  return out;
}

std::filesystem::path default_out_dir(const LoadedScenario& scenario) {
  std::filesystem::path dir = std::filesystem::path("results") / scenario.config.run.name;
  if (scenario.run) dir /= std::filesystem::path("runs") / std::to_string(*scenario.run);
  return dir;
}

std::string format_scalar_value(const Scalar& s) {
  if (s.integral && std::isfinite(s.value))
    return fmt::format("{}", static_cast<std::uint64_t>(s.value));
  return number_text(s.value);  // empty: no value
}

// One row per flow (a traffic source's frames at its receiver: "<from>.source<i>.to_<to>"), with
// what its source sent, from the rows scalars.csv holds; empty when there is no flow.
std::string flows_csv(const std::vector<Scalar>& scalars) {
  const char* columns[] = {"frames_received", "frames_lost", "loss_ratio",
                           "throughput",      "delay_mean",  "delay_p50",
                           "delay_p99",       "delay_max",   "jitter"};
  std::map<std::string, std::map<std::string, const Scalar*>> by_component;
  std::vector<std::string> flows;
  for (const auto& s : scalars) {
    const std::size_t source = s.component.find(".source");
    if (source == std::string::npos) continue;
    if (s.component.find(".to_", source) == std::string::npos && s.name != "frames_generated")
      continue;
    if (by_component.count(s.component) == 0 && s.name == "frames_received")
      flows.push_back(s.component);
    by_component[s.component][s.name] = &s;
  }
  if (flows.empty()) return "";
  std::string out =
      "flow,from,to,frames_sent,frames_received,frames_lost,loss_ratio,throughput_bps,"
      "delay_mean_ns,delay_p50_ns,delay_p99_ns,delay_max_ns,jitter_ns\n";
  for (const auto& flow : flows) {
    const std::size_t to = flow.find(".to_", flow.find(".source"));
    const auto& sender = by_component[flow.substr(0, to)];
    const auto sent = sender.find("frames_generated");
    out +=
        fmt::format("{},{},{},{}", flow, flow.substr(0, flow.find(".source")), flow.substr(to + 4),
                    sent == sender.end() ? "" : format_scalar_value(*sent->second));
    const auto& rows = by_component[flow];
    for (const char* c : columns) {
      const auto it = rows.find(c);
      out += "," + (it == rows.end() ? std::string() : format_scalar_value(*it->second));
    }
    out += "\n";
  }
  return out;
}

std::string scalars_csv(const std::vector<Scalar>& scalars) {
  std::string out = "component,name,unit,value\n";
  // Room for every row, its value at up to 24 characters: the text is not copied to grow (a
  // thousand stations write 75,000 rows).
  std::size_t room = out.size();
  for (const auto& s : scalars) room += s.component.size() + s.name.size() + s.unit.size() + 28;
  out.reserve(room);
  for (const auto& s : scalars)
    fmt::format_to(std::back_inserter(out), "{},{},{},{}\n", s.component, s.name, s.unit,
                   format_scalar_value(s));
  return out;
}

namespace {

// The cables a sweep point sets to one length, from its topology.cables[i].length_m and
// topology.cables[*].length_m assignments; empty when there are none, or when they set
// different lengths (then no single length answers for them).
std::vector<std::size_t> swept_cables(const std::vector<std::pair<std::string, Json>>& point,
                                      std::size_t cable_count) {
  std::set<std::size_t> cables;
  std::optional<Json> length;
  for (const auto& [path, value] : point) {
    const auto index = cable_of_length_path(path);
    if (!index) continue;
    if (length && *length != value) return {};
    length = value;
    if (*index == "*") {
      for (std::size_t c = 0; c < cable_count; ++c) cables.insert(c);
    } else if (index->size() < 10) {
      cables.insert(static_cast<std::size_t>(std::stoul(*index)));
    }
  }
  return {cables.begin(), cables.end()};
}

// For a sweep point that varies cable lengths: per domain with such cables, the longest legal
// length of the cables it varies (models/topology longest_legal_length), by the path delay and
// with their PHY's segment limit. Kept in run.json, not scalars.csv: it answers for the sweep's
// axis, while scalars.csv is what the configuration alone runs to.
Json swept_cable_limits(const LoadedTopology& t,
                        const std::vector<std::pair<std::string, Json>>& point) {
  Json out = Json::array();
  const std::vector<std::size_t> all = swept_cables(point, t.plant.cables.size());
  for (std::size_t i = 0; i < t.report.domains.size() && !all.empty(); ++i) {
    const DomainReport& dom = t.report.domains[i];
    std::vector<std::size_t> swept;
    for (const std::size_t c : all)
      if (std::find(dom.cables.begin(), dom.cables.end(), c) != dom.cables.end())
        swept.push_back(c);
    if (swept.empty()) continue;
    const auto legal = longest_legal_length(t.plant, swept, i);
    if (!legal) continue;
    double limit = *legal;
    for (const std::size_t c : swept) {
      const Cable& cable = t.plant.cables[c];
      if (const SegmentRule* rule = segment_rule(dom.rate_mbps, cable.medium, cable.pmd))
        limit = std::min(limit, rule->max_m);
    }
    out.push_back(
        {{"domain", i}, {"cables", swept}, {"max_length_pdv_m", *legal}, {"max_length_m", limit}});
  }
  return out;
}

}  // namespace

int run_simulation(const RunOptions& options) {
  install_stop_handlers();
  if (options.parent_pid) end_with_parent(*options.parent_pid);
  const LoadedScenario scenario = load_scenario(options.scenario_file, options.load);
  if (!options.load.run && !scenario.plan.axes.empty()) {
    // The sweep is not run here, but a mistake in it is still a mistake: found now, not when
    // the sweep is started.
    check_sweep_axes(options.scenario_file, options.load);
    if (!options.quiet)
      fmt::print(stderr,
                 "note: {}: gbesim run runs the base scenario, not its sweep ({} points): "
                 "--point K runs one of them, gbesim sweep all\n",
                 scenario.file, scenario.plan.point_count());
  }
  // Trace filters name stations of this scenario, and components inside its stations, hosts
  // and switches (their names past the first are checked once the network is built).
  for (const auto& [kind, filter] : options.trace_filters) {
    std::vector<std::string> names;
    for (const auto& st : scenario.config.stations) names.push_back(st.name);
    for (const auto& name : filter.stations)
      if (scenario.config.find_station(name) == nullptr)
        throw ScenarioError({{"--trace", "",
                              kind + ":stations: no station \"" + name + "\" in " + scenario.file +
                                  suggestion(name, names)}});
    for (const auto& h : scenario.config.hosts) names.push_back(h.name);
    for (const auto& sw : scenario.config.switches) names.push_back(sw.name);
    for (const auto& name : filter.components) {
      const std::string top = name.substr(0, name.find('.'));
      if (std::find(names.begin(), names.end(), top) == names.end())
        throw ScenarioError({{"--trace", "",
                              kind + ":components: no station, host or switch \"" + top + "\" in " +
                                  scenario.file + suggestion(top, names)}});
    }
  }
  // A trace that will be large is said before it is written, with the way to make it smaller.
  if (!options.quiet)
    if (const auto w = large_trace_warning(scenario, options))
      fmt::print(stderr, "warning: {}: {}\n", scenario.file, *w);
  // The directory is checked and locked before anything is simulated.
  const std::vector<std::string> outputs = output_files(options, scenario.config);
  const OutputDirectory out(
      options.out_dir ? *options.out_dir : default_out_dir(scenario),
      fmt::format("gbesim run {} (pid {})", printable(options.scenario_file), ::getpid()),
      names_written(outputs));
  const std::filesystem::path& dir = out.path();
  // The plant's analysis (the topology block, re-read as resolved), and cables past their PHY's
  // segment limit: the run goes on (that is how to look past the edge), warned and counted.
  std::optional<LoadedTopology> plant;
  if (!scenario.config.topology_json.empty()) {
    Diagnostics unused(scenario.file);
    plant =
        read_topology_block(Json::parse(scenario.config.topology_json), scenario.file, "topology",
                            scenario.config.run.rate_mbps, unused, &scenario.config.media);
  }
  const std::vector<std::string> warnings =
      segment_warnings(scenario.config, plant ? &plant->report : nullptr);
  const std::vector<std::string> rule_warnings =
      plant ? plant_rule_warnings(plant->report) : std::vector<std::string>{};
  const std::vector<RuleBreach> rule_breaches =
      plant ? repeater_rule_breaches(plant->report) : std::vector<RuleBreach>{};
  const std::vector<std::string> source_warnings = traffic_warnings(scenario.config);
  if (!options.quiet) {
    // An illegal plant first: the run goes on (that is how to see past the edge), said.
    for (const auto& w : rule_warnings) fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
    for (const auto& w : scenario.overridden_sets)
      fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
    for (const auto& w : warnings) fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
    for (const auto& w : source_warnings) fmt::print(stderr, "warning: {}: {}\n", scenario.file, w);
  }

  init_time_resolution();
  // The kernel's informational messages (e.g. the VCD timescale it chose) are not for users.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  SimContext context(static_cast<std::uint64_t>(scenario.config.run.seed));
  std::unique_ptr<OrderPerturbation> perturbation;
  if (OrderPerturbation::wanted()) perturbation = std::make_unique<OrderPerturbation>("perturb");
  Network network(scenario.config, context);
  const std::vector<EventSource> sources = network.event_sources();
  check_event_components(components_asked(options), sources, scenario.file);
  prepare_outputs(out, scenario, outputs);

  std::unique_ptr<EventsCsvWriter> events;
  std::unique_ptr<PcapRecorder> pcaps;
  std::unique_ptr<PcapngRecorder> pcapng;
  std::unique_ptr<VcdRecorder> vcd;
  auto filter_of = [&](const std::string& kind) {
    const auto it = options.trace_filters.find(kind);
    return it == options.trace_filters.end() ? TraceFilter{} : it->second;
  };
  if (options.traces.count("events")) {
    const TraceFilter filter = filter_of("events");
    events = std::make_unique<EventsCsvWriter>(dir / "events.csv", filter.from_ps, filter.to_ps);
    events->attach_selected(sources, filter.selection());
  }
  if (options.traces.count("pcap")) {
    const TraceFilter filter = filter_of("pcap");
    pcaps = std::make_unique<PcapRecorder>(network, dir, filter.stations, filter.from_ps,
                                           filter.to_ps, filter.stamp_start);
  }
  if (options.traces.count("pcapng")) {
    const TraceFilter filter = filter_of("pcapng");
    pcapng = std::make_unique<PcapngRecorder>(network, dir, filter.stations, filter.from_ps,
                                              filter.to_ps, filter.stamp_start);
  }
  if (options.traces.count("vcd")) vcd = std::make_unique<VcdRecorder>(network, dir);

  allow_clean_stop();
  const Picoseconds end_ps = scenario.config.run.duration_ns * kPsPerNs;
  std::unique_ptr<SeriesRecorder> series;
  if (scenario.config.run.series_interval_ns > 0)
    series = std::make_unique<SeriesRecorder>(context.stats,
                                              scenario.config.run.series_interval_ns * kPsPerNs);
  // Every observer is connected: links whose receiver nothing watches may deliver late.
  network.deliver_late();
  const Outcome outcome = simulate(end_ps, scenario.config.run.warmup_ns * kPsPerNs, context.stats,
                                   options, scenario.config.run.name, series.get(), network);

  StatContext stat_context;
  stat_context.elapsed_ps = std::max<Picoseconds>(outcome.simulated_ps, 1);
  // Room for the rows added below (network totals, analysis, topology), so that the vector of
  // every station's scalars is not copied to grow by a few (a guess: more only costs a copy).
  const std::size_t added = 64 + 32 * (network.hosts().size() + network.light_hosts().size() +
                                       scenario.config.links.size() + network.media().size());
  std::vector<Scalar> scalars = context.stats.collect(stat_context, added);
  const std::vector<Scalar> totals = network_totals(scalars);
  std::vector<Scalar> analytic = analytic_scalars(scenario.config, scalars);
  for (auto& s : nic_analytic_scalars(scenario.config, scalars)) analytic.push_back(std::move(s));
  // What the link-level PHY model predicted for each 1000BASE-T cable.
  for (std::size_t i = 0; i < scenario.config.links.size(); ++i) {
    const auto& l = scenario.config.links[i];
    if (!l.phy) continue;
    const std::string comp = "analysis.link" + std::to_string(i);
    analytic.push_back({comp, "phy_snr_db", "dB", l.phy->snr_db});
    analytic.push_back({comp, "phy_margin_db", "dB", l.phy->margin_db});
    analytic.push_back({comp, "phy_ber", "errors/bit", l.phy->ber});
    analytic.push_back({comp, "phy_octet_error_rate", "errors/octet", l.phy->octet_error_rate});
    analytic.push_back({comp, "injected_ber", "errors/bit", l.injected_ber()});
  }
  scalars.insert(scalars.end(), totals.begin(), totals.end());
  scalars.push_back(
      {"network", "segment_violations", "cables", static_cast<double>(warnings.size()), true});
  scalars.insert(scalars.end(), analytic.begin(), analytic.end());
  if (plant) {
    // The plant's report beside the results, and each domain's worst path delay as scalars.
    const LoadedTopology& t = *plant;
    write_file_atomically(dir / "topology.txt", topology_report_text(t));
    write_file_atomically(dir / "topology_pairs.csv", topology_pairs_csv(t.report));
    write_file_atomically(dir / "topology.dot", topology_dot(t.plant, t.report));
    for (std::size_t i = 0; i < t.report.domains.size(); ++i) {
      const DomainReport& dom = t.report.domains[i];
      if (!dom.worst) continue;
      const std::string component = "topology.domain" + std::to_string(i);
      const PathReport& w = dom.pairs[*dom.worst];
      scalars.push_back({component, "worst_pdv", "bit times", w.pdv_bt, false});
      scalars.push_back({component, "budget", "bit times", dom.budget_bt, false});
      scalars.push_back({component, "margin", "bit times", dom.margin_bt, false});
      scalars.push_back({component, "margin_cable", "m", dom.margin_m, false});
      scalars.push_back({component, "worst_path_cable", "m", w.cable_m, false});
      scalars.push_back({component, "max_legal_path_cable", "m", w.cable_m + dom.margin_m, false});
      scalars.push_back({component, "pass", "bool", dom.pass ? 1.0 : 0.0, true});
      if (dom.max_station_cable_m) {
        scalars.push_back({component, "max_station_cable", "m", *dom.max_station_cable_m, false});
        scalars.push_back(
            {component, "max_station_cable_pdv", "m", *dom.max_station_cable_pdv_m, false});
      }
      scalars.push_back({component, "segment_violations", "cables",
                         static_cast<double>(dom.segment_violations.size()), true});
      const auto breaches = static_cast<std::size_t>(
          std::count_if(rule_breaches.begin(), rule_breaches.end(),
                        [i](const RuleBreach& b) { return b.domain == i; }));
      scalars.push_back(
          {component, "repeater_rule_breaches", "rules", static_cast<double>(breaches), true});
    }
  }

  if (events) events->commit();
  if (pcaps) pcaps->commit();
  if (pcapng) pcapng->commit();
  if (vcd) vcd->commit();
  if (series) write_file_atomically(dir / "series.csv", series->csv());
  write_file_atomically(dir / "scalars.csv", scalars_csv(scalars));
  const std::string flows = flows_csv(scalars);
  if (!flows.empty()) write_file_atomically(dir / "flows.csv", flows);

  Json run;
  run["name"] = scenario.config.run.name;
  run["description"] = scenario.config.run.description;
  run["scenario_file"] = scenario.file;
  run["status"] = outcome.interrupted ? "interrupted" : "complete";
  run["seed"] = scenario.config.run.seed;
  run["version"] = kVersion;
  run["started_at"] = iso_time_now();
  if (scenario.run) {
    run["run"] = *scenario.run;
    run["point"] = scenario.plan.point_of_run(*scenario.run);
    run["replication"] = scenario.plan.replication_of_run(*scenario.run);
    Json values = Json::object();
    for (const auto& [path, v] : scenario.point_values) values[path] = v;
    run["point_values"] = values;
  }
  run["sets"] = options.load.sets;
  run["traces"] = std::vector<std::string>(options.traces.begin(), options.traces.end());
  run["requested_duration_ps"] = end_ps;
  run["simulated_ps"] = outcome.simulated_ps;
  // The statistics cover simulated_ps - statistics_from_ps (after the warm-up).
  run["statistics_from_ps"] = outcome.statistics_from_ps;
  run["wall_seconds"] = outcome.wall_seconds;
  run["cpu_seconds"] = outcome.cpu_seconds;
  run["real_time_factor"] =
      outcome.wall_seconds > 0 ? ps_to_seconds(outcome.simulated_ps) / outcome.wall_seconds : 0.0;
  run["process_activations"] = context.activations;
  run["activations_per_second"] =
      outcome.wall_seconds > 0 ? static_cast<double>(context.activations) / outcome.wall_seconds
                               : 0.0;
  run["frames_created"] = context.frames.frames_created();
  run["frames_allocated"] = context.frames.allocated();
  run["peak_rss_kib"] = peak_rss_kib();
  run["outputs"] = outputs;
  if (!flows.empty()) {
    // Beside scalars.csv, which it summarises.
    Json listed = Json::array();
    for (const auto& f : run["outputs"]) {
      listed.push_back(f);
      if (f == "scalars.csv") listed.push_back("flows.csv");
    }
    run["outputs"] = std::move(listed);
  }
  if (series) {
    run["series_interval_ps"] = scenario.config.run.series_interval_ns * kPsPerNs;
    run["series_intervals"] = series->intervals();
  }
  run["files"] = checks_of_files(dir, run["outputs"].get<std::vector<std::string>>());
  run["scenario"] = scenario.written;
  run["config"] = scenario.resolved;
  run["derived"] = scenario.derived;
  Json all_warnings = rule_warnings;
  for (const auto& w : warnings) all_warnings.push_back(w);
  for (const auto& w : source_warnings) all_warnings.push_back(w);
  // The repeater rules the plant breaks, for readers of results (the diameter answer).
  Json breaches = Json::array();
  for (const RuleBreach& b : rule_breaches)
    breaches.push_back({{"domain", b.domain}, {"between", {b.from, b.to}}, {"rule", b.rule}});
  run["repeater_rule_breaches"] = std::move(breaches);
  if (plant && scenario.run)
    run["swept_cable_limits"] = swept_cable_limits(*plant, scenario.point_values);
  run["warnings"] = std::move(all_warnings);
  write_file_atomically(dir / "run.json", seal_record(dump_json(run, 2)));

  if (!options.quiet) print_summary(scenario, network, scalars, outcome, dir);
  return outcome.interrupted ? 130 : 0;
}

}  // namespace gbesim
