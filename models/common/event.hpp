#pragma once
// The vocabulary of model events: what events.csv, the VCD and the GUI timeline speak. Every
// model reports through one Hook<const Event&>; the kinds and their meaning are declared once,
// in `describe` (event.cpp). Each model declares which of them it reports, and the state
// variables it keeps for waveform traces, in its ModelVocabulary (beside the model); `gbesim
// events` lists them all.

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <variant>
#include <vector>

namespace gbesim {

struct Frame;

// What happened; what each kind means, and what its row's frame_id, bytes and detail hold, is
// declared in one table (describe, event.cpp).
enum class EventKind : std::uint8_t {
  enqueue,
  drop,
  tx_start,
  tx_end,
  rx_ok,
  rx_drop,
  pause_tx,
  pause_rx,
  deliver,
  // Half duplex.
  collision,
  late_collision,
  jam_end,
  backoff,
  burst_start,
  burst_end,
  // NIC.
  rx_fifo_in,
  rx_fifo_drop,
  descriptor_fetch_start,
  descriptor_fetch_end,
  writeback_start,
  writeback_end,
  dma_start,
  dma_end,
  irq_assert,
  irq_deassert,
  tx_underrun,
  // PCI / PCI-X bus, per master.
  bus_request,
  bus_grant,
  bus_address,
  bus_wait,
  bus_data,
  bus_turnaround,
  bus_end,
  // PCI Express link, per direction.
  tlp_start,
  tlp_end,
  dllp_start,
  dllp_end,
  credit_stall,
  // Host driver.
  isr_start,
  isr_end,
  tx_post,
  tx_reclaim,
  // Host stack.
  segment_sent,
  segment_received,
  segment_dropped,
  datagram_sent,
  datagram_received,
  datagram_dropped,
  // Switch, per port.
  frame_in,
  forward,
  filtered,
};
inline constexpr std::size_t kEventKindCount = static_cast<std::size_t>(EventKind::filtered) + 1;

// A kind's name (events.csv's `event` column) and what it means: what happened, and what the
// row's frame_id, bytes and detail hold.
struct EventKindInfo {
  std::string_view name;
  std::string_view meaning;
};
EventKindInfo describe(EventKind kind);
std::string_view to_string(EventKind kind);

struct Event {
  EventKind kind;
  std::int64_t time_ps;          // when it happens; a model may announce an event ahead of time
  const Frame* frame = nullptr;  // may be null for events not about one frame
  std::string_view detail = {};  // short token, e.g. a drop reason
  std::int64_t value = -1;       // numeric detail (quanta, slots, ...) when >= 0
  std::int64_t bytes = -1;       // bytes it concerns when >= 0 (else the frame's size)
  std::uint64_t frame_id = 0;    // the frame it concerns without a pointer to it (0: none)
  std::string_view part = {};    // the part of the component it is about: a bus master, a port
};

// A value a model keeps for waveform traces (VCD), changing exactly at its edges. `states` names
// a state machine's values (index = value); empty for a wire or a count.
struct StateVariable {
  std::string_view name;
  std::string_view meaning;
  unsigned bits = 1;
  std::vector<std::string_view> states = {};
};

// What one kind of model reports, declared beside the model.
struct ModelVocabulary {
  std::string_view model;      // "nic"
  std::string_view component;  // its components' names, e.g. "<host>.nic", "<host>.pci.<master>"
  std::string_view about;
  std::vector<EventKind> events;
  std::vector<StateVariable> state = {};
  // The declared variable; a name not declared is a programming error (std::logic_error).
  const StateVariable& variable(std::string_view name) const;
};

// One traced value: its declaration and where the model keeps it.
struct TracedValue {
  const StateVariable* variable;
  std::variant<const bool*, const unsigned*, const std::int64_t*> value;
};
template <class T>
TracedValue traced(const ModelVocabulary& vocabulary, std::string_view name, const T& value) {
  return {&vocabulary.variable(name), &value};
}

}  // namespace gbesim
