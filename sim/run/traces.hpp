#pragma once
// The traces a run can write (events.csv, a pcap per station, trace.pcapng, trace.vcd), their
// filters (stations, a time window, the pcap timestamp), the estimate of their size said before
// they are written, and the recorders that write them for one run.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/common/time.hpp"

namespace gbesim {

class Network;
struct LoadedScenario;
struct RunOptions;
class EventsCsvWriter;
class PcapRecorder;
class PcapngRecorder;
class VcdRecorder;

// What one kind of trace keeps: some stations' frames and events, within a time window.
struct TraceFilter {
  std::set<std::string> stations;  // empty: every station
  Picoseconds from_ps = 0;
  Picoseconds to_ps = kForeverPs;
  // pcap, pcapng: stamp each frame at its first preamble bit (ts=start) instead of its last
  // FCS bit, or the end of its carrier extension (ts=end, the default).
  bool stamp_start = false;
  bool keeps(Picoseconds t) const { return t >= from_ps && t < to_ps; }
  bool keeps(const std::string& station) const {
    return stations.empty() || stations.count(station) > 0;
  }
};

inline const std::vector<std::string>& trace_kinds() {
  static const std::vector<std::string> kinds = {"events", "pcap", "pcapng", "vcd"};
  return kinds;
}

// The values of --trace (split at commas): a kind, optionally with filters after a colon, e.g.
// "pcap:stations=a,b" (split as "pcap:stations=a", "b"), "events:from=1ms,to=2ms",
// "pcapng:ts=start". A bare value continues the list of the filter before it. Throws
// ScenarioError naming "--trace" (exit 2).
std::map<std::string, TraceFilter> parse_traces(const std::vector<std::string>& values);

// The bytes of events.csv and of the pcap files the run's traces will take, estimated from the
// sources' rates and the filters (a shared medium or a slow receiver sends less; collisions add
// event rows); and the warning a run prints when they pass 100 MB.
std::pair<double, double> trace_bytes_estimate(const LoadedScenario& scenario,
                                               const RunOptions& options);
std::optional<std::string> large_trace_warning(const LoadedScenario& scenario,
                                               const RunOptions& options);

// The recorders of one run's traces, attached to its network as the options ask; commit()
// renames their files into place.
class Traces {
 public:
  Traces(const RunOptions& options, Network& network, const std::filesystem::path& dir);
  ~Traces();
  Traces(const Traces&) = delete;
  Traces& operator=(const Traces&) = delete;
  void commit();

 private:
  std::unique_ptr<EventsCsvWriter> events_;
  std::unique_ptr<PcapRecorder> pcaps_;
  std::unique_ptr<PcapngRecorder> pcapng_;
  std::unique_ptr<VcdRecorder> vcd_;
};

}  // namespace gbesim
