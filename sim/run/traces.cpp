#include "sim/run/traces.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "scenarios/network.hpp"
#include "sim/input/scenario_resolve.hpp"
#include "sim/input/schema.hpp"
#include "sim/run/observers.hpp"
#include "sim/run/run_options.hpp"
#include "sim/run/series.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
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
  for (const auto& s : c.stations) {
    const double rate_bps =
        static_cast<double>(s.rate_mbps > 0 ? s.rate_mbps : c.run.rate_mbps) * 1e6;
    for (const TrafficParams& t : s.traffic) {
      if (!t.enabled) continue;
      const double mean = t.pattern == TrafficPattern::script ? 0 : t.frame_bytes.mean_bytes();
      // Frames per ps while active, and the active span inside a filter's window.
      double per_ps = 0;
      if (t.pattern == TrafficPattern::saturated) per_ps = rate_bps / (8 * (mean + 20)) * 1e-12;
      if (t.pattern == TrafficPattern::poisson || t.pattern == TrafficPattern::on_off)
        per_ps = offered_load_bps(t) / (8 * mean) * 1e-12;
      const double start = static_cast<double>(t.start_ns) * kPsPerNs;
      const double stop =
          t.stop_ns < 0 ? run_ps : std::min(run_ps, static_cast<double>(t.stop_ns) * kPsPerNs);
      auto frames_in = [&](const TraceFilter& f, double& bytes_each) {
        const double from = std::max(start, static_cast<double>(f.from_ps));
        const double to = std::min(stop, static_cast<double>(f.to_ps));
        if (t.pattern == TrafficPattern::script) {
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
      out[kind].stations.insert(setting);
      return;
    }
    const std::string key = setting.substr(0, eq);
    const std::string value = setting.substr(eq + 1);
    list_of.clear();
    if (key == "stations" && kind != "vcd") {
      if (value.empty()) fail(kind + ":stations=: expected station names");
      out[kind].stations.insert(value);
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
            : kind == "events" ? std::string("known: stations, from, to")
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

Traces::Traces(const RunOptions& options, Network& network, const std::filesystem::path& dir) {
  auto filter_of = [&](const std::string& kind) {
    const auto it = options.trace_filters.find(kind);
    return it == options.trace_filters.end() ? TraceFilter{} : it->second;
  };
  if (options.traces.count("events")) {
    const TraceFilter filter = filter_of("events");
    events_ = std::make_unique<EventsCsvWriter>(dir / "events.csv", filter.from_ps, filter.to_ps);
    for (const auto& s : network.stations()) {
      if (!filter.keeps(std::string(s->basename()))) continue;
      events_->attach(s->mac().events, s->mac().name());
      if (s->sink() != nullptr) events_->attach(s->sink()->events, s->sink()->name());
    }
  }
  if (options.traces.count("pcap")) {
    const TraceFilter filter = filter_of("pcap");
    pcaps_ = std::make_unique<PcapRecorder>(network, dir, filter.stations, filter.from_ps,
                                            filter.to_ps, filter.stamp_start);
  }
  if (options.traces.count("pcapng")) {
    const TraceFilter filter = filter_of("pcapng");
    pcapng_ = std::make_unique<PcapngRecorder>(network, dir, filter.stations, filter.from_ps,
                                               filter.to_ps, filter.stamp_start);
  }
  if (options.traces.count("vcd")) vcd_ = std::make_unique<VcdRecorder>(network, dir);
}

Traces::~Traces() = default;

void Traces::commit() {
  if (events_) events_->commit();
  if (pcaps_) pcaps_->commit();
  if (pcapng_) pcapng_->commit();
  if (vcd_) vcd_->commit();
}

}  // namespace gbesim
