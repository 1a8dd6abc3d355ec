#include "models/host/ideal_endpoint.hpp"

namespace gbesim {

IdealEndpoint::IdealEndpoint(sc_core::sc_module_name name, Mac& mac, StackSet& ends)
    : sc_module(name), mac_(mac), ends_(ends) {
  mac.attach_client(this);
  SC_METHOD(wake_process);
  for (HostStack* end : ends.stacks()) sensitive << end->wake();
  sensitive << room_;
}

// A frame of the ends' has left or was given up: they may send the next.
void IdealEndpoint::mac_tx_done(const Frame& frame, Picoseconds, bool) {
  if (frame.flow == kHostFlow) room_.notify(sc_core::SC_ZERO_TIME);
}

void IdealEndpoint::mac_receive(FramePtr frame, Picoseconds now) {
  ends_.receive(*frame, now);
}

void IdealEndpoint::wake_process() {
  ++ends_.stacks().front()->context().activations;
  run(now_ps());
}

void IdealEndpoint::run(Picoseconds now) {
  while (true) {
    while (auto call = ends_.poll(now)) call->first->perform(call->second, now);
    bool moved = false;
    while (!mac_.tx_queue().full()) {
      const auto k = ends_.next_to_send([](std::size_t) { return true; });
      if (!k) break;
      mac_.enqueue(ends_.stacks()[*k]->take_frame());
      moved = true;
    }
    if (!moved) break;
  }
}

}  // namespace gbesim
