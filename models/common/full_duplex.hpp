#pragma once
// The boundary between a full-duplex station (a MAC; a switch port later) and the link it is
// attached to: each side sees only the other's interface here, so models/mac and models/medium
// never include each other.

#include "models/common/frame.hpp"
#include "models/common/settle.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// What sits below a station on a full-duplex link: one direction of the link.
class FullDuplexPort {
 public:
  virtual ~FullDuplexPort() = default;
  // Called at the instant the first preamble bit leaves the station.
  virtual void started(const Frame& frame, Picoseconds tx_start_ps) = 0;
  // Called at the instant the last FCS bit has left the station.
  virtual void carry(FramePtr frame, Picoseconds tx_start_ps, Picoseconds tx_end_ps) = 0;
};

// A station on a full-duplex link, as the link sees it.
class FullDuplexStation {
 public:
  virtual ~FullDuplexStation() = default;
  // The direction frames leave by, and the one that delivers to us (settling it delivers every
  // frame that has arrived by then).
  virtual void attach_port(FullDuplexPort* port) = 0;
  virtual void attach_incoming(Settleable* incoming) = 0;
  // Called at `now`, the instant the last FCS bit has arrived.
  virtual void receive(FramePtr frame, Picoseconds now) = 0;
  // Finishes the station's frame on the wire if its last bit has left by `now`; the link calls
  // this on behalf of the receiver before delivering.
  virtual void finish_due(Picoseconds now) = 0;
  // Brings the station up to `now` in its defined order before a delivery.
  virtual void settle_station(Picoseconds now) = 0;
};

}  // namespace gbesim
