#pragma once
// The NIC's driver on the host's CPU: host software, not the NIC. It runs the interrupt handler
// (reading the cause register, taking received frames up to the stack, refilling the receive
// ring), posts the stacks' or the raw sender's frames to the transmit ring and reclaims them,
// and charges every step the CPU time of models/host/driver_params' costs. It drives every NIC of
// the host (a team) and every application end the host runs.
// With two logical CPUs (cpu.logical_cpus 2) the interrupt handler, the stack's receive path and
// the frames it makes run on the first and the applications' calls (and the frames their send
// calls make) on the second, each a SystemC thread; LogicalCpus says how fast each runs.
// Does not model: more than two CPUs, an interrupt moving between CPUs, cache effects,
// scheduling of other work, a team's failover.

#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>

#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/host/driver_params.hpp"
#include "models/host/host_stack.hpp"
#include "models/host/logical_cpus.hpp"
#include "models/host/stack_set.hpp"
#include "models/nic/nic.hpp"
#include "models/pci/pci_bus_module.hpp"

namespace gbesim {

// How a host's several NICs share its traffic (adapter teaming, docs/host.md "Teaming").
struct NicTeam {
  std::vector<Nic*> nics;             // the first is the primary: the one the raw sender uses
  std::vector<MacAddress> addresses;  // each NIC's own station address
  // round_robin: each frame sent goes out of the next NIC in turn, from that NIC's address
  // (transmit load balancing; every peer sends to the primary). Otherwise each end sends (and
  // its peer sends to it) through home[end] (per-client load balancing, or one NIC).
  bool round_robin = false;
  std::vector<std::size_t> home;  // per end of the StackSet, in its order
};

// The host's CPU: the NICs' interrupt handler, and -- between interrupts, which come first at
// every step -- the applications' calls into their stacks and the posting of the stacks' frames to
// the transmit rings. One CPU, one thing at a time; each step takes the CPU time its costs say.
// With two logical CPUs the second makes the applications' calls (see the file's comment).
class NicDriver : public sc_core::sc_module, public PciMasterClient {
 public:
  SC_HAS_PROCESS(NicDriver);
  // tx: the raw bulk sender (header: our address and the destination's), if tx.to is set; it
  // uses the primary NIC. stacks: the host's application ends (may be empty).
  NicDriver(sc_core::sc_module_name name, const CpuParams& cpu, const PciMasterParams& master,
            const HostTxParams& tx, const FrameHeader& header, std::int64_t tx_ring, NicTeam team,
            PciBusModule& bus, StackSet& stacks, SimContext& context);

  void pci_done(const PciRequest& request, Picoseconds at) override;
  // What a driver reports (its events) and keeps for waveform traces; trace_state binds them.
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;
  std::vector<TracedValue> trace_state() const;
  std::uint64_t frames_delivered() const { return delivered_.value(); }
  std::uint64_t frames_in_handler() const { return in_handler_; }

 private:
  struct Port {
    Nic* nic;
    MacAddress address;
    std::deque<std::size_t> tx_sizes;  // posted, not yet reclaimed
    std::vector<FramePtr> posting;     // being posted (a member: see handling_)
    std::int64_t room(std::int64_t ring) const {
      return ring - 1 - static_cast<std::int64_t>(tx_sizes.size());
    }
  };
  void cpu_process();
  void app_process();  // the second logical CPU: the applications' calls
  bool any_irq_asserted() const;
  // The statistics computed when results are written (rates, levels, ratios).
  void declare_formulas();
  void service_interrupt(std::size_t port);
  double tx_cost_ns(std::int64_t frames) const;
  // Posts frames to a NIC, then writes its tail register.
  void post_tx(std::size_t port, std::vector<FramePtr>& frames);
  std::vector<FramePtr> build_raw(std::int64_t frames);
  // Logical CPU k is busy with this much work (ns at full speed); its busy time is what it takes.
  void spend(double ns, int k = 0);
  void pause(Picoseconds cost, int k = 0);  // works, then settles the bus (see the definition)
  bool post_stack_frames(int k = 0);        // false: nothing to post, or no room in the rings
  // A 4-byte PIO access to a NIC's registers, mastered by the host bridge.
  void register_access(std::size_t port, PciCommand command, std::uint64_t address,
                       std::uint64_t tag);

  const CpuParams cpu_;
  const bool two_cpus_;  // the applications' calls on a second logical CPU
  LogicalCpus cpus_;
  bool posting_ = false;  // a CPU is posting frames (the other waits: frames go out in order)
  sc_core::sc_event posted_;
  const HostTxParams tx_;
  FrameBuilder builder_;
  std::int64_t tx_ring_;
  std::uint64_t tx_sequence_ = 0;
  StackSet& stacks_;
  std::deque<Port> ports_;  // (a deque: a Port does not move without throwing)
  const bool round_robin_;
  std::vector<std::size_t> home_;
  std::size_t next_port_ = 0;  // round robin: the NIC the next frame goes out of
  double checksum_ns_;         // per frame byte, 0 when the NIC offloads checksums
  // Frames the CPU holds while it spends time on them. Members, not locals of the thread: a run
  // may end while the thread waits, and a thread's stack is never unwound.
  std::vector<ReceivedFrame> handling_;
  std::vector<FramePtr> raw_;
  SimContext& context_;
  PciBusModule& bus_;
  std::size_t master_;
  sc_core::sc_event icr_read_;
  sc_core::sc_event_or_list interrupts_;
  std::uint64_t in_handler_ = 0;
  bool in_isr_ = false;  // the interrupt handler runs

  StatGroup stats_;
  Counter delivered_, octets_, handler_runs_, cpu_busy_ps_, refills_, tx_posted_, tx_reclaimed_,
      tx_octets_, app_calls_;
  std::uint64_t app_cpu_busy_ps_ = 0;  // of cpu_busy_ps_, the second logical CPU's
  Distribution latency_;
};

}  // namespace gbesim
