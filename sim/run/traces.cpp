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
        if (t.enabled && t.pattern == TrafficPattern::saturated &&
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

void check_trace_names(const LoadedScenario& scenario, const RunOptions& options) {
  const ScenarioConfig& config = scenario.config;
  std::vector<std::string> names;
  for (const auto& st : config.stations) names.push_back(st.name);
  for (const auto& [kind, filter] : options.trace_filters)
    for (const auto& name : filter.stations)
      if (config.find_station(name) == nullptr)
        throw ScenarioError({{"--trace", "",
                              kind + ":stations: no station \"" + name + "\" in " + scenario.file +
                                  suggestion(name, names)}});
  for (const auto& h : config.hosts) names.push_back(h.name);
  for (const auto& sw : config.switches) names.push_back(sw.name);
  for (const auto& [kind, filter] : options.trace_filters)
    for (const auto& name : filter.components) {
      const std::string top = name.substr(0, name.find('.'));
      if (std::find(names.begin(), names.end(), top) == names.end())
        throw ScenarioError({{"--trace", "",
                              kind + ":components: no station, host or switch \"" + top + "\" in " +
                                  scenario.file + suggestion(top, names)}});
    }
}

// Every component --trace events:components= names reports events, or lies above some that do.
void check_event_components(const RunOptions& options, const Network& network,
                            const std::string& file) {
  const auto it = options.trace_filters.find("events");
  if (it == options.trace_filters.end() || it->second.components.empty()) return;
  const std::vector<std::string> names = event_components(network.event_sources());
  for (const auto& name : it->second.components)
    if (std::none_of(names.begin(), names.end(),
                     [&](const std::string& n) { return selects({name}, n); }))
      throw ScenarioError({{"--trace", "",
                            "events:components: no component \"" + name + "\" reports events in " +
                                file + suggestion(name, names)}});
}

Traces::Traces(const RunOptions& options, Network& network, const std::filesystem::path& dir) {
  auto filter_of = [&](const std::string& kind) {
    const auto it = options.trace_filters.find(kind);
    return it == options.trace_filters.end() ? TraceFilter{} : it->second;
  };
  if (options.traces.count("events")) {
    const TraceFilter filter = filter_of("events");
    events_ = std::make_unique<EventsCsvWriter>(dir / "events.csv", filter.from_ps, filter.to_ps);
    events_->attach_selected(network.event_sources(), filter.selection());
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
