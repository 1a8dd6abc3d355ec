#pragma once
// A NIC between a station's MAC and its host's PCI bus: receive FIFO, on-chip descriptor caches
// filled from the host's rings in batches (models/nic/descriptor_ring), data DMA in bursts (a
// received frame takes one buffer and descriptor per buffer_bytes), descriptor write-back (each
// frame or in groups), the transmit path (descriptor fetch, frame reads into the FIFO, store and
// forward to the MAC, status write-back) and interrupt moderation (models/nic/
// interrupt_moderation: Intel ITR + RDTR/RADV, count/time coalescing, or none). The host's
// driver that serves it is models/host/nic_driver.
//
// The NIC is one bus master and keeps one DMA request at a time at the bus; its receive and
// transmit engines take turns when both have work (docs/nic.md gives each engine's order).
// A received frame enters the FIFO whole at its last byte (store and forward, checked for room
// then), or with receive-early as it starts arriving, and leaves it as its data bursts land in
// memory.
// A receive-early threshold starts a frame's DMA while it is still arriving; a transmit start
// threshold hands a frame to the MAC before it is all read, and a burst that comes too late
// makes it underrun (sent with a bad FCS).
// Does not model (yet): checksum offload as a separate engine, descriptor ring wrap-around
// costs, transmit frames gathered from buffers.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include <systemc>

#include "models/common/frame.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/mac/mac.hpp"
#include "models/nic/descriptor_ring.hpp"
#include "models/nic/interrupt_moderation.hpp"
#include "models/nic/nic_params.hpp"
#include "models/pci/pci_bus_module.hpp"

namespace gbesim {

// The NIC's registers as its driver addresses them (8254x register map).
inline constexpr std::uint64_t kNicRegisterIcr = 0x00C0;  // interrupt cause read
inline constexpr std::uint64_t kNicRegisterRdt = 0x2818;  // receive descriptor tail
inline constexpr std::uint64_t kNicRegisterTdt = 0x3818;  // transmit descriptor tail

// The flow number of frames a host sends through its NIC (traffic sources use 1, 2, ...).
inline constexpr std::uint32_t kNicTxFlow = kHostFlow;

struct ReceivedFrame {
  FramePtr frame;
  Picoseconds arrived_ps = 0;    // last byte at the MAC
  std::int64_t descriptors = 1;  // receive buffers (descriptors) it fills
};

class Nic : public sc_core::sc_module, public MacClient, public PciMasterClient {
 public:
  SC_HAS_PROCESS(Nic);
  Nic(sc_core::sc_module_name name, const NicParams& params, const PciMasterParams& master,
      Mac& mac, PciBusModule& bus, std::size_t memory, SimContext& context);

  // MAC side: what the MAC tells its client.
  void mac_receive(FramePtr frame, Picoseconds now) override;
  void mac_tx_started(const Frame& frame, Picoseconds at) override;
  void mac_tx_done(const Frame& frame, Picoseconds at, bool sent) override;
  void mac_rejected(const Frame& frame, Picoseconds at) override;
  // The link: a frame's first preamble bit reaches us at first_bit_ps (receive-early).
  void frame_arriving(const Frame& frame, Picoseconds first_bit_ps);
  void settle(Picoseconds) override {}
  // Bus side.
  void pci_done(const PciRequest& request, Picoseconds at) override;
  // The target the host addresses for its registers: its own, or an on-card bridge's window to
  // them (reached_through).
  std::size_t register_target() const { return host_registers_; }
  std::size_t own_register_target() const { return registers_; }
  void reached_through(std::size_t window) { host_registers_ = window; }
  std::size_t bus_master() const { return master_; }  // its DMA engine on the host's bus
  bool checksum_offload() const { return params_.checksum_offload; }

  // Transmit: the driver places a frame in host memory behind the next descriptor (post_tx),
  // then makes descriptors visible with a tail write (give_tx_descriptors, when it lands). The
  // NIC fetches descriptors, reads each frame into its FIFO and hands it whole to the MAC; once
  // the MAC has sent it, its descriptor is written back and the driver reclaims it.
  void post_tx(FramePtr frame) { tx_ring_.push_back(std::move(frame)); }
  void give_tx_descriptors(std::int64_t n, Picoseconds now);
  std::int64_t take_tx_completed();
  std::uint64_t tx_frames_inside() const;

  // Driver side: the interrupt line, frames written back and not yet taken, buffers given back.
  sc_core::sc_event& interrupt() { return interrupt_; }
  std::vector<ReceivedFrame> take_received();
  void give_descriptors(std::int64_t n, Picoseconds now);
  void interrupt_handled(Picoseconds now);
  bool irq_asserted() const { return irq_asserted_; }

  // What a NIC reports (its events) and keeps for waveform traces; trace_state binds them.
  static const ModelVocabulary& vocabulary();
  Hook<const Event&> events;
  std::vector<TracedValue> trace_state() const;

  // Conservation: every frame that reached the NIC is dropped (by reason), taken by the driver,
  // or still inside (FIFO, written but not written back, written back but not taken).
  std::uint64_t frames_arrived() const { return arrived_.value(); }
  std::uint64_t frames_dropped() const { return fifo_overflow_.value() + no_descriptor_.value(); }
  std::uint64_t frames_taken() const { return taken_.value(); }
  std::uint64_t frames_inside() const;

 private:
  struct InFifo {
    ReceivedFrame r;                  // r.frame is null while an early frame is still arriving
    const Frame* expected = nullptr;  // receive-early: the frame on its way
    Picoseconds data0_ps = 0;         // when its first byte after the SFD starts arriving
    bool discarded = false;           // the MAC rejected it: drop what was written
    std::int64_t dma_bytes = 0;       // to write to memory
    std::int64_t done = 0;            // written so far
    std::int64_t issued = 0;          // requested so far
    std::int64_t descriptors = 0;     // buffers taken so far (one per buffer_bytes)
  };
  enum Kind : std::uint64_t {
    rx_data = 1,
    rx_writeback = 2,
    rx_fetch = 3,
    tx_data = 4,
    tx_writeback = 5,
    tx_fetch = 6
  };
  struct TxRead {
    FramePtr frame;  // until handed to the MAC
    Frame* raw = nullptr;
    std::int64_t size = 0;
    std::int64_t issued = 0;
    std::int64_t done = 0;
    bool handed = false;        // the MAC has it (start threshold reached)
    Picoseconds start_ps = -1;  // its first preamble bit left
    bool finished = false;      // the MAC is done with it (reads still going: an underrun)
    bool underrun = false;
  };
  void underrun(TxRead& r);

  void pump(Picoseconds now);
  void early_process();
  void finish_rx_head(Picoseconds at);  // the head frame is in memory and whole: done
  void issue(Kind kind, PciCommand command, std::uint64_t address, std::int64_t bytes,
             const Frame* frame = nullptr);
  // A bus request's start or end event (events connected).
  void report_request(const PciRequest& r, bool start, Picoseconds at) const;
  void frames_visible(std::int64_t n, Picoseconds now, bool transmit);
  void schedule_interrupt(Picoseconds now);
  void moderation_process();
  bool pump_rx(Picoseconds now);
  // Issues the ring's descriptor fetch if one is due.
  bool fetch_descriptors(Kind kind, DescriptorRing& ring);
  static DescriptorRingParams ring_params(const NicParams& p, bool transmit);
  // The statistics computed when results are written (rates, levels, peaks).
  void declare_formulas();
  bool pump_tx(Picoseconds now);
  // Bytes of the frame on the wire that the MAC has sent by `now`: they have left the FIFO.
  std::int64_t tx_drained(Picoseconds now) const;
  void tx_wake_process();
  void tx_finished(const Frame& frame, Picoseconds now, bool sent);

  const NicParams params_;
  Mac& mac_;
  PciBusModule& bus_;
  SimContext& context_;
  std::size_t master_;
  std::size_t memory_;
  std::size_t registers_;
  std::size_t host_registers_;
  PciCommand read_command_;
  PciCommand write_command_;

  std::deque<InFifo> fifo_;
  sc_core::sc_event early_wake_;  // receive-early: the next burst's bytes are in
  Picoseconds early_wake_ps_ = kForeverPs;
  std::int64_t fifo_used_ = 0;
  DescriptorRing rx_descriptors_{ring_params(params_, false)};
  std::vector<ReceivedFrame> done_;    // written, waiting for write-back
  std::int64_t done_descriptors_ = 0;  // descriptors of the frames in done_
  std::int64_t writing_back_ = 0;      // frames being written back
  std::int64_t writing_back_descriptors_ = 0;
  std::deque<ReceivedFrame> visible_;  // written back, waiting for the driver
  // Transmit state.
  std::deque<FramePtr> tx_ring_;  // frames posted by the driver, not yet read
  DescriptorRing tx_descriptors_{ring_params(params_, true)};  // one per frame in tx_ring_
  std::optional<TxRead> tx_read_;
  std::int64_t tx_fifo_used_ = 0;
  std::int64_t tx_fifo_peak_ = 0;
  // The frame of ours the MAC is sending: its bytes leave the FIFO as they go out, so a frame
  // larger than the FIFO streams through it once started (tx_start_bytes).
  const Frame* tx_on_wire_ = nullptr;
  Picoseconds tx_on_wire_start_ps_ = 0;
  sc_core::sc_event tx_wake_;  // the wire has drained room for the next read
  Picoseconds tx_wake_ps_ = kForeverPs;
  std::int64_t tx_in_mac_ = 0;  // handed to the MAC, not yet sent
  std::int64_t tx_sent_ = 0;    // sent, descriptor not yet written back
  std::int64_t tx_writing_back_ = 0;
  std::int64_t tx_completed_ = 0;  // written back, not yet reclaimed
  bool dma_busy_ = false;          // a request at the bus (either engine's)
  bool rx_busy_ = false;           // the receive work has a request at the bus
  bool tx_busy_ = false;           // the transmit work has a request at the bus
  // Time with a request at the bus (either, receive, transmit), and since when each has one.
  double busy_ps_ = 0, rx_busy_ps_ = 0, tx_busy_ps_ = 0;
  Picoseconds busy_from_ = 0, rx_busy_from_ = 0, tx_busy_from_ = 0;
  void dma_state(bool rx, bool busy, Picoseconds now);
  bool last_was_rx_ = false;
  bool settling_ = false;  // pump is bringing the station up to date: no decision inside

  // Interrupt moderation: when (plain logic), and the timer that fires it.
  InterruptModeration moderation_{params_};
  bool irq_asserted_ = false;
  Picoseconds fire_ps_ = kForeverPs;
  sc_core::sc_event timer_;
  sc_core::sc_event interrupt_;

  StatGroup stats_;
  Counter arrived_, fifo_overflow_, no_descriptor_, written_back_, taken_, interrupts_,
      descriptor_fetches_, writebacks_, data_requests_, tx_to_mac_, tx_refused_, tx_done_,
      tx_reclaimed_, tx_underruns_, early_discarded_;
  std::int64_t fifo_peak_ = 0;
  // Interrupts by what set their instant (InterruptCause order); frames taken per handler run.
  std::deque<Counter> interrupts_by_cause_;
  std::deque<Counter> taken_per_run_;
  // Frames dropped for want of a descriptor, by what the interrupt was doing: asserted (the
  // handler runs), due on a timer still running, held by the ITR interval, or nothing pending.
  std::deque<Counter> dry_drops_;
};

}  // namespace gbesim
