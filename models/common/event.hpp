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

enum class EventKind : std::uint8_t {
  enqueue,   // a frame entered a transmit queue
  drop,      // a frame was discarded before transmission (detail: reason)
  tx_start,  // the first preamble bit leaves the station
  tx_end,    // the last FCS bit leaves the station
  rx_ok,     // a frame was received intact and accepted
  rx_drop,   // a received frame was discarded (detail: reason)
  pause_tx,  // a PAUSE frame was queued for transmission (detail: quanta)
  pause_rx,  // a PAUSE frame was acted upon (detail: quanta)
  deliver,   // a received frame was consumed (an application, a host's stack)
  // Half duplex.
  collision,       // our transmission met another signal (detail: "late" if late)
  late_collision,  // ... and it was late
  jam_end,         // the jam after a collision ended (our signal stops)
  backoff,         // a backoff began (detail: slots)
  burst_start,     // a transmission began in burst mode
  burst_end,       // a burst ended (detail: frames in it, or "collision")
  // NIC.
  rx_fifo_in,              // a received frame took its room in the receive FIFO
  rx_fifo_drop,            // ... or found none and was dropped (detail: reason)
  descriptor_fetch_start,  // a descriptor fetch request went to the bus
  descriptor_fetch_end,    // ... and its last byte arrived
  writeback_start,         // a descriptor write-back request went to the bus
  writeback_end,           // ... and its last byte was written
  dma_start,               // a frame-data request went to the bus
  dma_end,                 // ... and its last byte moved
  irq_assert,              // the interrupt line was raised (detail: what set the instant)
  irq_deassert,            // ... and dropped once the handler was done
  tx_underrun,             // a frame started early ran out of data: sent with a bad FCS
  // PCI / PCI-X bus, per master: a transaction's phases in order.
  bus_request,     // REQ#: the master asked for a transfer
  bus_grant,       // GNT# moved to the master
  bus_address,     // FRAME#: the address phase
  bus_wait,        // waits before the first data phase (or the target's stop)
  bus_data,        // the data phases
  bus_turnaround,  // a turnaround clock
  bus_end,         // the transaction is over (detail: ending, data phases)
  // PCI Express link, per direction.
  tlp_start,     // a TLP's first symbol
  tlp_end,       // ... its last symbol
  dllp_start,    // an Ack or UpdateFC DLLP's first symbol
  dllp_end,      // ... its last symbol
  credit_stall,  // a TLP waits for the receiver's credits
  // Host driver.
  isr_start,   // the interrupt handler began
  isr_end,     // ... and ended (detail: received frames processed)
  tx_post,     // frames went into a transmit ring
  tx_reclaim,  // sent frames' descriptors were reclaimed
  // Host stack.
  segment_sent,
  segment_received,
  segment_dropped,
  datagram_sent,
  datagram_received,
  datagram_dropped,
  // Switch, per port.
  frame_in,  // a port's MAC handed a frame to the relay
  forward,   // the relay decided where a frame goes
  filtered,  // ... nowhere: its destination is on the port it came in by
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
