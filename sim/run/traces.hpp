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
  // events: components by name, each with everything inside it ("h" all of host h, "h.pci" its
  // bus, "h.pci.nic" the transactions its NIC masters); a station named here or in `stations`
  // keeps its own. Neither given: every component.
  std::set<std::string> components;
  Picoseconds from_ps = 0;
  Picoseconds to_ps = kForeverPs;
  // pcap, pcapng: stamp each frame at its first preamble bit (ts=start) instead of its last
  // FCS bit, or the end of its carrier extension (ts=end, the default).
  bool stamp_start = false;
  bool keeps(Picoseconds t) const { return t >= from_ps && t < to_ps; }
  bool keeps(const std::string& station) const {
    return (stations.empty() && components.empty()) || stations.count(station) > 0 ||
           components.count(station) > 0;
  }
  // The component names whose events are kept (empty: all).
  std::set<std::string> selection() const {
    std::set<std::string> out = components;
    out.insert(stations.begin(), stations.end());
    return out;
  }
};

inline const std::vector<std::string>& trace_kinds() {
  static const std::vector<std::string> kinds = {"events", "pcap", "pcapng", "vcd"};
  return kinds;
}

// The values of --trace (split at commas): a kind, optionally with filters after a colon, e.g.
// "pcap:stations=a,b" (split as "pcap:stations=a", "b"), "events:from=1ms,to=2ms",
// "events:components=h.nic,h.pci", "pcapng:ts=start". A bare value continues the list of the
// filter before it. Throws ScenarioError naming "--trace" (exit 2).
std::map<std::string, TraceFilter> parse_traces(const std::vector<std::string>& values);

// The trace filters name what the scenario has: stations, and components under its stations,
// hosts and switches (the first name of each; check_event_components checks the rest once the
// network is built). Throws ScenarioError naming "--trace" with a did-you-mean.
void check_trace_names(const LoadedScenario& scenario, const RunOptions& options);
void check_event_components(const RunOptions& options, const Network& network,
                            const std::string& file);

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
