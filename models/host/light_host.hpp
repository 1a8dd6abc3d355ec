#pragma once
// A light host (docs/host.md, "Light hosts"): a CPU running application ends straight on a
// station's MAC, with no bus, NIC or descriptor model, so tens of client PCs stay cheap. What the
// CPU spends is the same CpuParams a full host's driver charges:
//  - frames received: they wait in the station's receive queue while the CPU is busy; each time
//    it takes them in costs interrupt_ns once plus, per frame, per_packet_ns + (per_byte_ns +
//    per_checksum_byte_ns) x frame bytes, and per_refill_ns;
//  - frames sent: per_sent_packet_ns (a pure ACK per_sent_ack_ns) + per_checksum_byte_ns x bytes,
//    posted to the MAC's transmit queue as it has room;
//  - application calls: per_request_ns for a new request + per_byte_ns x bytes copied in.
// Receive interrupts come first, then sending, then the applications' calls, one at a time.
// Does not model: the NIC's FIFO or ring limits (the receive queue is unbounded: a light host
// never drops a frame), bus time, interrupt moderation, more than one CPU. The station's own
// traffic sources (e.g. a frame announcing it to a switch) share the MAC's queue: frames the CPU
// has paid for wait until it has room.

#include <cstdint>
#include <vector>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/driver_params.hpp"
#include "models/host/stack_set.hpp"
#include "models/mac/mac.hpp"

namespace gbesim {

class LightHost : public sc_core::sc_module, public MacClient {
 public:
  SC_HAS_PROCESS(LightHost);
  LightHost(sc_core::sc_module_name name, const CpuParams& cpu, Mac& mac, StackSet& stacks,
            SimContext& context);

  void mac_receive(FramePtr frame, Picoseconds now) override;
  void mac_tx_done(const Frame& frame, Picoseconds at, bool sent) override;  // any frame: room
  void settle(Picoseconds) override {}

 private:
  void cpu_process();
  void spend(double ns);
  bool post_frames();      // false: nothing to send, or the MAC's queue is full
  void enqueue_posting();  // frames paid for, into the MAC's queue as far as it has room

  const CpuParams cpu_;
  Mac& mac_;
  StackSet& stacks_;
  SimContext& context_;
  // Members, not locals of the thread (a thread's stack is never unwound).
  std::vector<FramePtr> inbox_, handling_, posting_;
  sc_core::sc_event arrived_, room_;

  StatGroup stats_;
  Counter delivered_, octets_, interrupts_, cpu_busy_ps_, sent_, app_calls_;
};

}  // namespace gbesim
