#pragma once
// The NIC's driver on the host's CPU: host software, not the NIC. It runs the interrupt handler
// (reading the cause register, taking received frames up to the stack, refilling the receive
// ring), posts the stack's or the raw sender's frames to the transmit ring and reclaims them,
// and charges every step the CPU time of models/host/driver_params' costs.
// Does not model: more than one CPU, cache effects, scheduling of other work.

#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/driver_params.hpp"
#include "models/host/host_stack.hpp"
#include "models/nic/nic.hpp"
#include "models/pci/pci_bus_module.hpp"

namespace gbesim {

// The host's CPU: the NIC's interrupt handler, and -- between interrupts, which come first at
// every step -- the application's calls into its stack and the posting of the stack's frames to
// the transmit ring. One CPU, one thing at a time; each step takes the CPU time its costs say.
class NicDriver : public sc_core::sc_module, public PciMasterClient {
 public:
  SC_HAS_PROCESS(NicDriver);
  // tx: the raw bulk sender (header: our address and the destination's), if tx.to is set.
  // stack: the host's protocol stack and application, if it runs one.
  NicDriver(sc_core::sc_module_name name, const CpuParams& cpu, const PciMasterParams& master,
            const HostTxParams& tx, const FrameHeader& header, std::int64_t tx_ring, Nic& nic,
            PciBusModule& bus, HostStack* stack, SimContext& context);

  void pci_done(const PciRequest& request, Picoseconds at) override;
  std::uint64_t frames_delivered() const { return delivered_.value(); }
  std::uint64_t frames_in_handler() const { return in_handler_; }

 private:
  void cpu_process();
  void service_interrupt();
  double tx_cost_ns(std::int64_t frames) const;
  void post_tx(std::vector<FramePtr> frames);  // posts frames, then writes the tail
  std::vector<FramePtr> build_raw(std::int64_t frames);
  void spend(double ns);     // the CPU is busy for this long
  bool post_stack_frames();  // false: nothing to post, or no room in the ring
  // A 4-byte PIO access to the NIC's registers, mastered by the host bridge.
  void register_access(PciCommand command, std::uint64_t address, std::uint64_t tag);

  const CpuParams cpu_;
  const HostTxParams tx_;
  FrameBuilder builder_;
  std::int64_t tx_ring_;
  std::uint64_t tx_sequence_ = 0;
  HostStack* stack_;
  double checksum_ns_;                // per frame byte, 0 when the NIC offloads checksums
  std::deque<std::size_t> tx_sizes_;  // posted, not yet reclaimed
  // Frames the CPU holds while it spends time on them. Members, not locals of the thread: a run
  // may end while the thread waits, and a thread's stack is never unwound.
  std::vector<ReceivedFrame> handling_;
  std::vector<FramePtr> posting_;
  SimContext& context_;
  Nic& nic_;
  PciBusModule& bus_;
  std::size_t master_;
  sc_core::sc_event icr_read_;
  std::uint64_t in_handler_ = 0;

  StatGroup stats_;
  Counter delivered_, octets_, handler_runs_, cpu_busy_ps_, refills_, tx_posted_, tx_reclaimed_,
      tx_octets_, app_calls_;
  Distribution latency_;
};

}  // namespace gbesim
