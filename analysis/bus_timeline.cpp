#include "analysis/bus_timeline.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "analysis/result_files.hpp"

namespace gbesim {

namespace {

// Decimal digits only, as gbesim writes whole numbers; nullopt otherwise (or out of range).
std::optional<std::uint64_t> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(text);
}

}  // namespace

std::vector<EventRow> event_rows(const CsvTable& events) {
  std::vector<EventRow> out;
  out.reserve(events.rows.size());
  for (std::size_t i = 0; i < events.rows.size(); ++i) {
    // time_ps always, frame_id and bytes when given: whole numbers.
    auto whole = [&](const std::string& column, bool required) -> std::optional<std::uint64_t> {
      const std::string text = events.at(i, column);
      if (text.empty() && !required) return std::nullopt;
      const auto v = whole_number(text);
      if (!v)
        throw ResultsError("events.csv: line " + std::to_string(i + 2) + ": " + column + " \"" +
                           text.substr(0, 40) + "\" is not a whole number");
      return v;
    };
    EventRow r;
    r.time_ps = static_cast<std::int64_t>(*whole("time_ps", true));
    r.component = events.at(i, "component");
    r.event = events.at(i, "event");
    r.frame_id = whole("frame_id", false).value_or(0);
    if (const auto bytes = whole("bytes", false)) r.bytes = static_cast<std::int64_t>(*bytes);
    r.detail = events.at(i, "detail");
    out.push_back(std::move(r));
  }
  return out;
}

const char* to_string(BusPhase phase) {
  switch (phase) {
    case BusPhase::address:
      return "address";
    case BusPhase::wait:
      return "wait";
    case BusPhase::data:
      return "data";
    case BusPhase::turnaround:
      return "turnaround";
  }
  return "?";
}

std::int64_t BusTransaction::ps_in(BusPhase phase) const {
  std::int64_t ps = 0;
  for (const auto& s : phases)
    if (s.phase == phase) ps += s.to_ps - s.from_ps;
  return ps;
}

namespace {

// "h.pci.bridge.completer" -> ("h.pci", "bridge.completer"); false if not a bus master's.
bool split_master(const std::string& component, std::string& bus, std::string& master) {
  const auto at = component.find(".pci.");
  if (at == std::string::npos) return false;
  bus = component.substr(0, at + 4);
  master = component.substr(at + 5);
  return true;
}

}  // namespace

BusTimeline bus_timeline(const std::vector<EventRow>& rows) {
  BusTimeline out;
  std::map<std::string, BusTransaction> open;  // by component: begun, not yet ended
  std::map<std::string, std::int64_t> raised;  // NIC -> when its line rose
  std::int64_t last_ps = 0;
  for (const EventRow& r : rows) {
    last_ps = std::max(last_ps, r.time_ps);
    if (r.event == "irq_assert") {
      raised[r.component] = r.time_ps;
      continue;
    }
    if (r.event == "irq_deassert") {
      const auto it = raised.find(r.component);
      if (it != raised.end()) {
        out.interrupts.push_back({r.component, it->second, r.time_ps});
        raised.erase(it);
      }
      continue;
    }
    std::string bus, master;
    if (r.event.rfind("bus_", 0) != 0 || !split_master(r.component, bus, master)) continue;
    if (r.event == "bus_address") {
      BusTransaction t;
      t.bus = bus;
      t.master = master;
      t.command = r.detail;
      t.frame_id = r.frame_id;
      t.start_ps = r.time_ps;
      t.phases.push_back({BusPhase::address, r.time_ps, r.time_ps});
      open[r.component] = std::move(t);
      continue;
    }
    const auto it = open.find(r.component);
    if (it == open.end()) continue;  // its address phase came before the trace began
    BusTransaction& t = it->second;
    t.phases.back().to_ps = r.time_ps;  // the phase before ends where this one begins
    if (r.event == "bus_wait") t.phases.push_back({BusPhase::wait, r.time_ps, r.time_ps});
    if (r.event == "bus_data") t.phases.push_back({BusPhase::data, r.time_ps, r.time_ps});
    if (r.event == "bus_turnaround")
      t.phases.push_back({BusPhase::turnaround, r.time_ps, r.time_ps});
    if (r.event != "bus_end") continue;
    // "disconnect 64": the ending and the data phases.
    const auto space = r.detail.find(' ');
    t.ending = r.detail.substr(0, space);
    const auto phases =
        space == std::string::npos ? std::nullopt : whole_number(r.detail.substr(space + 1));
    t.data_phases = static_cast<std::int64_t>(phases.value_or(0));
    t.bytes = std::max<std::int64_t>(0, r.bytes);
    t.end_ps = r.time_ps;
    if (out.clock_ps == 0 && t.phases.back().phase == BusPhase::turnaround)
      out.clock_ps = t.phases.back().to_ps - t.phases.back().from_ps;
    out.transactions.push_back(std::move(t));
    open.erase(it);
  }
  for (const auto& [nic, from] : raised) out.interrupts.push_back({nic, from, last_ps});
  std::stable_sort(
      out.transactions.begin(), out.transactions.end(),
      [](const BusTransaction& a, const BusTransaction& b) { return a.start_ps < b.start_ps; });
  return out;
}

std::int64_t BusWindow::ps_in(BusPhase phase) const {
  std::int64_t ps = 0;
  for (const auto& t : transactions) ps += t.ps_in(phase);
  return ps;
}

BusWindow bus_window(const BusTimeline& timeline, std::size_t frames) {
  BusWindow w;
  if (timeline.transactions.empty() || frames == 0) return w;
  w.bus = timeline.transactions.front().bus;
  std::vector<const BusTransaction*> on_bus;
  std::vector<std::uint64_t> seen;
  for (const auto& t : timeline.transactions) {
    if (t.bus != w.bus) continue;
    on_bus.push_back(&t);
    if (t.frame_id != 0 && std::find(seen.begin(), seen.end(), t.frame_id) == seen.end())
      seen.push_back(t.frame_id);
  }
  const std::size_t skip = seen.size() > frames ? 1 : 0;
  w.frames.assign(seen.begin() + static_cast<std::ptrdiff_t>(skip),
                  seen.begin() + static_cast<std::ptrdiff_t>(std::min(seen.size(), skip + frames)));
  if (w.frames.empty()) {
    w.from_ps = on_bus.front()->start_ps;
    w.to_ps = on_bus[std::min(on_bus.size(), frames * 8) - 1]->end_ps;
  } else {
    w.from_ps = -1;
    for (const BusTransaction* t : on_bus) {
      if (t->frame_id == w.frames.front() && w.from_ps < 0) w.from_ps = t->start_ps;
      if (t->frame_id == w.frames.back()) w.to_ps = t->end_ps;
    }
  }
  for (const BusTransaction* t : on_bus)
    if (t->start_ps >= w.from_ps && t->start_ps < w.to_ps) w.transactions.push_back(*t);
  const std::string host = w.bus.substr(0, w.bus.size() - 4) + ".";  // "h.pci" -> "h."
  for (const auto& i : timeline.interrupts)
    if (i.nic.rfind(host, 0) == 0 && i.to_ps > w.from_ps && i.from_ps < w.to_ps)
      w.interrupts.push_back({i.nic, std::max(i.from_ps, w.from_ps), std::min(i.to_ps, w.to_ps)});
  return w;
}

}  // namespace gbesim
