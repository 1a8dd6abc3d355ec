#pragma once
// The vocabulary of model events: what events.csv, the VCD annotations and the GUI timeline
// speak. Every model reports through one Hook<const Event&>; the kinds are listed once here.

#include <cstdint>
#include <string_view>

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
  deliver,   // an application consumed a received frame
  // Half duplex.
  collision,       // our transmission met another signal (detail: "late" if late)
  late_collision,  // ... and it was late
  jam_end,         // the jam after a collision ended (our signal stops)
  backoff,         // a backoff began (detail: slots)
  burst_start,     // a transmission began in burst mode
  burst_end,       // a burst ended (detail: frames in it, or "collision")
};

std::string_view to_string(EventKind kind);

struct Event {
  EventKind kind;
  std::int64_t time_ps;          // when it happens; a model may announce an event ahead of time
  const Frame* frame = nullptr;  // may be null for events not about one frame
  std::string_view detail = {};  // short token, e.g. a drop reason
  std::int64_t value = -1;       // numeric detail (quanta, slots, ...) when >= 0
};

}  // namespace gbesim
