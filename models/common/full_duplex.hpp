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
  // Called at the instant the last FCS bit has left the station -- or later, with that
  // instant, by a station that transmits late (Mac::transmit_late), which only a direction that
  // delivers late accepts.
  virtual void carry(FramePtr frame, Picoseconds tx_start_ps, Picoseconds tx_end_ps) = 0;
  // Whether frames wait in flight for the receiver's next settle (LinkDirection::deliver_late);
  // if so, the sender transmits late from now on: it hands frames over when it catches up.
  virtual bool take_late_sender() { return false; }
  // From a sender that transmits late, as it commits a frame: the frame's last bit leaves at
  // `tx_end_ps`, so the direction is due by its arrival even before it has been handed over.
  virtual void committed(Picoseconds /*tx_end_ps*/) {}
  // The station is about to send a PAUSE (at `now`): the receiver's decisions may depend on
  // arrivals from now on (FullDuplexStation::may_be_paused).
  virtual void pause_coming(Picoseconds /*now*/) {}
};

// The direction that delivers to a station, as the station sees it: settling it delivers every
// frame that has arrived by then.
class FullDuplexIncoming : public Settleable {
 public:
  // Whether a frame arriving could make the station act at that instant (a paused MAC: a PAUSE
  // may release it). Otherwise it acts only in its own processes, which settle this direction
  // first, so frames may reach it late (LinkDirection::deliver_late).
  virtual void station_watches(bool watching) = 0;
};

// A station on a full-duplex link, as the link sees it.
class FullDuplexStation {
 public:
  virtual ~FullDuplexStation() = default;
  // The direction frames leave by, and the one that delivers to us.
  virtual void attach_port(FullDuplexPort* port) = 0;
  virtual void attach_incoming(FullDuplexIncoming* incoming) = 0;
  // Called with `at`, the instant the last FCS bit arrived: at that instant, or later if the
  // station takes late delivery (below).
  virtual void receive(FramePtr frame, Picoseconds at) = 0;
  // True if receiving a frame later than its arrival, with its arrival time, gives the same
  // results as at the instant it arrived: nothing acts on a received frame at the moment of the
  // call (no trace observer, no client that reacts) and the station says when it watches
  // (FullDuplexIncoming::station_watches). Asked once, when the run starts.
  virtual bool takes_late_delivery() const { return false; }
  // Finishes the station's frame on the wire if its last bit has left by `now`; the link calls
  // this on behalf of the receiver before delivering.
  virtual void finish_due(Picoseconds now) = 0;
  // Brings the station up to `now` in its defined order before a delivery.
  virtual void settle_station(Picoseconds now) = 0;
  // The station at the other end is about to send a PAUSE at `now` (FullDuplexPort::
  // pause_coming): one that transmits late makes its decisions on time from here on.
  virtual void may_be_paused(Picoseconds /*now*/) {}
};

}  // namespace gbesim
