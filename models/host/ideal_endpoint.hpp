#pragma once
// A station's ideal host: runs application ends with no CPU or bus costs, straight on the
// station's MAC. Received frames go to their end (StackSet: by addresses and ports); the ends
// take turns, one frame at a time, for the MAC's queue as it has room, and make their calls at
// once. One end or several: a peer station may serve many hosts' connections.

#include <systemc>

#include "models/host/stack_set.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

class IdealEndpoint : public sc_core::sc_module, public MacClient {
 public:
  SC_HAS_PROCESS(IdealEndpoint);
  // ends: every end added.
  IdealEndpoint(sc_core::sc_module_name name, Mac& mac, StackSet& ends);
  void mac_receive(FramePtr frame, Picoseconds now) override;
  void mac_tx_done(const Frame& frame, Picoseconds at, bool sent) override;
  void settle(Picoseconds) override {}

 private:
  void run(Picoseconds now);
  void wake_process();
  Mac& mac_;
  StackSet& ends_;
  sc_core::sc_event room_;  // the MAC's queue has taken a frame off
};

}  // namespace gbesim
