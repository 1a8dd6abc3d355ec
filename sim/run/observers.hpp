#pragma once
// Observers decide what is recorded: they subscribe to the models' hooks and write files.
// Models never open files.

#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/common/event.hpp"
#include "scenarios/network.hpp"
#include "sim/run/pcap_writer.hpp"
#include "sim/support/atomic_file.hpp"

namespace gbesim {

// Whether `name` is one of the component names `selected`, or inside one of them ("h.pci.nic" is
// inside "h.pci" and inside "h").
bool selects(const std::set<std::string>& selected, std::string_view name);
// Every component name events may carry: each source's, and each of its parts beneath it.
std::vector<std::string> event_components(const std::vector<EventSource>& sources);

// events.csv: time_ps,component,event,frame_id,bytes,detail -- in time order. A row's component
// is the source's, followed by the event's part if it names one ("h.pci" + "nic"). Models may
// announce an event ahead of its time (a committed frame's tx_start), never after it, so rows
// wait in a small reorder buffer until simulated time reaches them.
class EventsCsvWriter {
 public:
  // Rows at instants in [from_ps, to_ps) only.
  explicit EventsCsvWriter(const std::filesystem::path& path, Picoseconds from_ps = 0,
                           Picoseconds to_ps = kForeverPs);
  // The source's events; with `keep`, only those of the components it selects (see selects).
  void attach(const EventSource& source, const std::set<std::string>& keep = {});
  // The sources `selected` names (see selects; empty: all), each as far as it is selected.
  void attach_selected(const std::vector<EventSource>& sources,
                       const std::set<std::string>& selected);
  void commit();

 private:
  // Rows at one instant are ordered by component, then as the component reported them: the
  // kernel's order of same-instant processes never shows.
  struct Row {
    Picoseconds time_ps;
    std::uint32_t name_from, name_size;  // the component, within text
    std::uint64_t order;
    std::string text;
    std::string_view name() const { return std::string_view(text).substr(name_from, name_size); }
    bool operator>(const Row& other) const {
      if (time_ps != other.time_ps) return time_ps > other.time_ps;
      if (name() != other.name()) return name() > other.name();
      return order > other.order;
    }
  };
  void write(const std::string& component, const std::set<std::string>* keep, const Event& e);
  void flush_until(Picoseconds now);
  AtomicFile file_;
  Picoseconds from_ps_;
  Picoseconds to_ps_;
  // Stable storage for what the observers capture: names, selections.
  std::vector<std::unique_ptr<std::string>> names_;
  std::vector<std::unique_ptr<std::set<std::string>>> keeps_;
  std::priority_queue<Row, std::vector<Row>, std::greater<Row>> pending_;
  std::uint64_t order_ = 0;
};

// One pcap per station: every frame that left it (at its last bit) or arrived at it (at its
// last bit), whether or not the MAC accepted it.
// When each frame a station saw began there (its first preamble bit), for traces stamped at the
// start: a frame's time on the wire is measured at its sender (tx_start to tx_end, carrier
// extension included) and taken off the instant the frame ended at the station seeing it (the
// propagation delay is the same for both ends of a frame). A frame whose sender is not a station
// (a switch port, full duplex) took (8 + size) x 8 bit times. Durations are kept for 1 ms of
// simulated time after the frame ended (no link delays it longer).
class FrameStarts {
 public:
  explicit FrameStarts(Network& network);
  // The start, at the station whose MAC reported `e` (tx_end, rx_ok or rx_drop).
  Picoseconds start_of(const Event& e, const Mac& mac);

 private:
  std::unordered_map<std::uint64_t, Picoseconds> started_;   // frame id -> tx_start
  std::unordered_map<std::uint64_t, Picoseconds> duration_;  // frame id -> time on the wire
  std::deque<std::pair<Picoseconds, std::uint64_t>> ended_;  // (tx_end, id), oldest first
};

class PcapRecorder {
 public:
  // The stations named (all when empty), frames whose stamp is in [from_ps, to_ps); stamped at
  // the last FCS bit (or the end of the extension), or with `stamp_start` at the first preamble
  // bit.
  PcapRecorder(Network& network, const std::filesystem::path& dir,
               const std::set<std::string>& stations = {}, Picoseconds from_ps = 0,
               Picoseconds to_ps = kForeverPs, bool stamp_start = false);
  void commit();

 private:
  std::unique_ptr<FrameStarts> starts_;
  std::vector<std::unique_ptr<PcapWriter>> writers_;
};

// trace.pcapng: every station's frames in one file, one interface per station (in station
// order), each frame marked inbound or outbound, at the same instant as in the pcap files. Frames
// at one instant are written in station order, then as the station reported them (the kernel's
// order of same-instant processes never shows).
class PcapngRecorder {
 public:
  PcapngRecorder(Network& network, const std::filesystem::path& dir,
                 const std::set<std::string>& stations = {}, Picoseconds from_ps = 0,
                 Picoseconds to_ps = kForeverPs, bool stamp_start = false);
  void commit();

 private:
  struct Record {
    Picoseconds time_ps;
    std::uint32_t interface;
    std::uint64_t order;
    bool outbound;
    std::vector<std::uint8_t> bytes;
    bool operator>(const Record& other) const {
      if (time_ps != other.time_ps) return time_ps > other.time_ps;
      if (interface != other.interface) return interface > other.interface;
      return order > other.order;
    }
  };
  void flush_until(Picoseconds end);
  std::unique_ptr<FrameStarts> starts_;
  PcapngWriter writer_;
  std::priority_queue<Record, std::vector<Record>, std::greater<Record>> pending_;
  std::uint64_t order_ = 0;
  Picoseconds hold_ps_ = 0;  // how long a record waits before it is written (ts=start)
};

// trace.vcd through the SystemC kernel's own VCD writer (sc_trace): the state variables each
// model declares in its vocabulary (`gbesim events`), under the station for a station's MAC and
// the carrier reaching it (<station>.tx_state, <station>.rx_carrier), under the component for a
// host's NICs and driver (<host>.nic.irq). A comment names each state machine's values.
class VcdRecorder {
 public:
  VcdRecorder(Network& network, const std::filesystem::path& dir);
  ~VcdRecorder();
  void commit();

 private:
  void trace(const std::string& scope, const std::vector<TracedValue>& values);
  std::filesystem::path final_;
  std::filesystem::path temp_base_;  // SystemC appends ".vcd"
  sc_core::sc_trace_file* file_ = nullptr;
  std::set<const StateVariable*> commented_;  // state machines whose values the file names
  int slot_ = -1;                             // registered temporary
};

}  // namespace gbesim
