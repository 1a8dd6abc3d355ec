#include "sim/run/observers.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <variant>

namespace gbesim {

bool selects(const std::set<std::string>& selected, std::string_view name) {
  // The selected names at or above `name`: itself and each prefix ending before a dot.
  for (std::size_t dot = name.find('.'); dot != std::string_view::npos;
       dot = name.find('.', dot + 1))
    if (selected.count(std::string(name.substr(0, dot))) != 0) return true;
  return selected.count(std::string(name)) != 0;
}

std::vector<std::string> event_components(const std::vector<EventSource>& sources) {
  std::vector<std::string> out;
  for (const EventSource& source : sources) {
    out.push_back(source.component);
    for (const auto& part : source.parts) out.push_back(source.component + "." + part);
  }
  return out;
}

EventsCsvWriter::EventsCsvWriter(const std::filesystem::path& path, Picoseconds from_ps,
                                 Picoseconds to_ps)
    : file_(path), from_ps_(from_ps), to_ps_(to_ps) {
  file_.write(std::string("time_ps,component,event,frame_id,bytes,detail\n"));
}

void EventsCsvWriter::attach(const EventSource& source, const std::set<std::string>& keep) {
  names_.push_back(std::make_unique<std::string>(source.component));
  const std::string* name = names_.back().get();
  const std::set<std::string>* kept = nullptr;
  if (!keep.empty()) {
    keeps_.push_back(std::make_unique<std::set<std::string>>(keep));
    kept = keeps_.back().get();
  }
  source.hook->connect([this, name, kept](const Event& e) { write(*name, kept, e); });
}

void EventsCsvWriter::attach_selected(const std::vector<EventSource>& sources,
                                      const std::set<std::string>& selected) {
  for (const EventSource& source : sources) {
    if (selected.empty() || selects(selected, source.component)) {
      attach(source);
      continue;
    }
    // Selected parts of it only (a master of a bus, a port of a switch).
    std::set<std::string> inside;
    for (const auto& name : selected)
      if (name.size() > source.component.size() && name[source.component.size()] == '.' &&
          name.compare(0, source.component.size(), source.component) == 0)
        inside.insert(name);
    if (!inside.empty()) attach(source, inside);
  }
}

void EventsCsvWriter::write(const std::string& component, const std::set<std::string>* keep,
                            const Event& e) {
  if (e.time_ps < from_ps_ || e.time_ps >= to_ps_) {
    flush_until(now_ps());
    return;
  }
  fmt::memory_buffer line;
  fmt::format_to(std::back_inserter(line), "{},", e.time_ps);
  const auto name_from = static_cast<std::uint32_t>(line.size());
  fmt::format_to(std::back_inserter(line), "{}", component);
  if (!e.part.empty()) fmt::format_to(std::back_inserter(line), ".{}", e.part);
  const auto name_size = static_cast<std::uint32_t>(line.size() - name_from);
  if (keep != nullptr && !selects(*keep, std::string_view(line.data() + name_from, name_size))) {
    flush_until(now_ps());
    return;
  }
  fmt::format_to(std::back_inserter(line), ",{},", to_string(e.kind));
  if (e.frame != nullptr) {
    fmt::format_to(std::back_inserter(line), "{},", e.frame->id);
  } else if (e.frame_id != 0) {
    fmt::format_to(std::back_inserter(line), "{},", e.frame_id);
  } else {
    line.push_back(',');
  }
  if (e.bytes >= 0) {
    fmt::format_to(std::back_inserter(line), "{},", e.bytes);
  } else if (e.frame != nullptr) {
    fmt::format_to(std::back_inserter(line), "{},", e.frame->size());
  } else {
    line.push_back(',');
  }
  // The detail: its token, its number, or both.
  fmt::format_to(std::back_inserter(line), "{}", e.detail);
  if (e.value >= 0)
    fmt::format_to(std::back_inserter(line), "{}{}", e.detail.empty() ? "" : " ", e.value);
  line.push_back('\n');
  pending_.push({e.time_ps, name_from, name_size, order_++, std::string(line.data(), line.size())});
  flush_until(now_ps());
}

void EventsCsvWriter::flush_until(Picoseconds end) {
  // Rows strictly before `end`: an instant is complete only once time has moved past it.
  while (!pending_.empty() && pending_.top().time_ps < end) {
    file_.write(pending_.top().text);
    pending_.pop();
  }
}

void EventsCsvWriter::commit() {
  // The run covers [0, end): rows announced for the end instant or later did not happen.
  flush_until(now_ps());
  file_.commit();
}

FrameStarts::FrameStarts(Network& network) {
  for (const auto& station : network.stations())
    station->mac().events.connect([this](const Event& e) {
      if (e.frame == nullptr) return;
      if (e.kind == EventKind::tx_start) {
        started_[e.frame->id] = e.time_ps;
      } else if (e.kind == EventKind::tx_end) {
        const auto it = started_.find(e.frame->id);
        if (it == started_.end()) return;
        duration_[e.frame->id] = e.time_ps - it->second;
        started_.erase(it);
        ended_.emplace_back(e.time_ps, e.frame->id);
        while (!ended_.empty() && ended_.front().first < e.time_ps - kPsPerMs) {
          duration_.erase(ended_.front().second);
          ended_.pop_front();
        }
      }
    });
}

Picoseconds FrameStarts::start_of(const Event& e, const Mac& mac) {
  const auto it = duration_.find(e.frame->id);
  return e.time_ps - (it != duration_.end() ? it->second : mac.frame_time_ps(e.frame->size()));
}

PcapRecorder::PcapRecorder(Network& network, const std::filesystem::path& dir,
                           const std::set<std::string>& stations, Picoseconds from_ps,
                           Picoseconds to_ps, bool stamp_start) {
  // Connected first: a frame's duration is known before a recorder asks for it.
  if (stamp_start) starts_ = std::make_unique<FrameStarts>(network);
  for (const auto& station : network.stations()) {
    const std::string name = station->basename();
    if (!stations.empty() && stations.count(name) == 0) continue;
    writers_.push_back(std::make_unique<PcapWriter>(dir / (name + ".pcap")));
    PcapWriter* w = writers_.back().get();
    const Mac* mac = &station->mac();
    FrameStarts* starts = starts_.get();
    station->mac().events.connect([w, mac, starts, from_ps, to_ps](const Event& e) {
      if (e.frame == nullptr || (e.kind != EventKind::tx_end && e.kind != EventKind::rx_ok &&
                                 e.kind != EventKind::rx_drop))
        return;
      const Picoseconds t = starts != nullptr ? starts->start_of(e, *mac) : e.time_ps;
      if (t >= from_ps && t < to_ps) w->write(t, e.frame->bytes);
    });
  }
}

void PcapRecorder::commit() {
  for (auto& w : writers_) w->commit();
}

PcapngRecorder::PcapngRecorder(Network& network, const std::filesystem::path& dir,
                               const std::set<std::string>& stations, Picoseconds from_ps,
                               Picoseconds to_ps, bool stamp_start)
    : starts_(stamp_start ? std::make_unique<FrameStarts>(network) : nullptr),
      writer_(dir / "trace.pcapng") {
  for (const auto& station : network.stations()) {
    const std::string name = station->basename();
    if (!stations.empty() && stations.count(name) == 0) continue;
    const std::uint32_t interface = writer_.add_interface(name);
    const Mac* mac = &station->mac();
    station->mac().events.connect([this, interface, mac, from_ps, to_ps](const Event& e) {
      const bool outbound = e.kind == EventKind::tx_end;
      if (e.frame != nullptr &&
          (outbound || e.kind == EventKind::rx_ok || e.kind == EventKind::rx_drop)) {
        const Picoseconds t = starts_ ? starts_->start_of(e, *mac) : e.time_ps;
        if (t >= from_ps && t < to_ps)
          pending_.push({t, interface, order_++, outbound, e.frame->bytes});
      }
      // Stamped at the start, a frame is reported only when it ends: records wait for as long
      // as the longest frame can last (a 16 KB jumbo frame, extension included), so the file
      // stays in time order.
      flush_until(now_ps() - hold_ps_);
    });
  }
  if (starts_)
    for (const auto& station : network.stations())
      hold_ps_ =
          std::max(hold_ps_, station->mac().frame_time_ps(16384) + 4096 * station->mac().bit_ps());
}

void PcapngRecorder::flush_until(Picoseconds end) {
  // Records strictly before `end`: an instant is complete only once time has moved past it.
  while (!pending_.empty() && pending_.top().time_ps < end) {
    const Record& r = pending_.top();
    writer_.write(r.interface, r.time_ps, r.outbound, r.bytes);
    pending_.pop();
  }
}

void PcapngRecorder::commit() {
  // The last instant's records are written too: the pcap files keep them as well.
  flush_until(kForeverPs);
  writer_.commit();
}

namespace {

void trace_value(sc_core::sc_trace_file* file, const bool& value, const std::string& name,
                 unsigned) {
  sc_core::sc_trace(file, value, name);
}
template <class T>
void trace_value(sc_core::sc_trace_file* file, const T& value, const std::string& name,
                 unsigned bits) {
  sc_core::sc_trace(file, value, name, static_cast<int>(bits));
}

}  // namespace

VcdRecorder::VcdRecorder(Network& network, const std::filesystem::path& dir)
    : final_(dir / "trace.vcd"), temp_base_(dir / (".trace.tmp-" + std::to_string(::getpid()))) {
  slot_ = register_temporary(temp_base_.string() + ".vcd");
  file_ = sc_core::sc_create_vcd_trace_file(temp_base_.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
  for (const auto& station : network.stations()) {
    const std::string s = station->basename();
    trace(s, station->mac().trace_state());
    if (LinkDirection* in = network.direction_towards(s)) trace(s, in->trace_state());
    std::size_t index = 0;
    if (SharedMedium* medium = network.medium_of(s, &index))
      trace(s, medium->port(index).trace_state());
  }
  for (const auto& host : network.hosts()) {
    for (const auto& nic : host->nics()) trace(nic->name(), nic->trace_state());
    if (NicDriver* driver = host->driver()) trace(driver->name(), driver->trace_state());
  }
}

void VcdRecorder::trace(const std::string& scope, const std::vector<TracedValue>& values) {
  for (const TracedValue& v : values) {
    const StateVariable& declared = *v.variable;
    const std::string name = scope + "." + std::string(declared.name);
    std::visit([&](const auto* value) { trace_value(file_, *value, name, declared.bits); },
               v.value);
    if (declared.states.empty() || !commented_.insert(&declared).second) continue;
    std::string values_of = std::string(declared.name) + " values:";
    for (std::size_t i = 0; i < declared.states.size(); ++i)
      values_of += fmt::format("{} {} {}", i == 0 ? "" : ",", i, declared.states[i]);
    file_->write_comment(values_of);
  }
}

VcdRecorder::~VcdRecorder() {
  unregister_temporary(slot_);
  if (file_ != nullptr) {
    sc_core::sc_close_vcd_trace_file(file_);
    std::error_code ec;
    std::filesystem::remove(temp_base_.string() + ".vcd", ec);
  }
}

void VcdRecorder::commit() {
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
  std::filesystem::rename(temp_base_.string() + ".vcd", final_);
  unregister_temporary(slot_);
  slot_ = -1;
}

}  // namespace gbesim
