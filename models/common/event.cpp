#include "models/common/event.hpp"

#include <string>

namespace gbesim {

EventKindInfo describe(EventKind kind) {
  switch (kind) {
    case EventKind::enqueue:
      return {"enqueue", "a frame entered a transmit queue (a switch port's: detail its bytes)"};
    case EventKind::drop:
      return {"drop",
              "a frame was discarded before transmission (detail: reason, e.g. tx_queue_full, "
              "excessive_collisions; at a switch buffer_full, too_long, fabric_backlog)"};
    case EventKind::tx_start:
      return {"tx_start", "the frame's first preamble bit leaves the station"};
    case EventKind::tx_end:
      return {"tx_end", "the frame's last FCS bit (or carrier extension) leaves the station"};
    case EventKind::rx_ok:
      return {"rx_ok", "a frame was received intact and accepted (at its last bit)"};
    case EventKind::rx_drop:
      return {"rx_drop", "a received frame was discarded (detail: reason, e.g. fcs_error)"};
    case EventKind::pause_tx:
      return {"pause_tx", "a PAUSE frame was queued for transmission (detail: quanta)"};
    case EventKind::pause_rx:
      return {"pause_rx", "a PAUSE frame was acted upon (detail: quanta)"};
    case EventKind::deliver:
      return {"deliver",
              "a received frame was consumed: by a sink's application, or by a host's stack in "
              "the driver's interrupt handler"};
    case EventKind::collision:
      return {"collision", "our transmission met another signal (detail: late if late)"};
    case EventKind::late_collision:
      return {"late_collision", "... and it was after the slot time"};
    case EventKind::jam_end:
      return {"jam_end", "the jam after a collision ended (our signal stops)"};
    case EventKind::backoff:
      return {"backoff", "a backoff began (detail: slots)"};
    case EventKind::burst_start:
      return {"burst_start", "a transmission began in burst mode"};
    case EventKind::burst_end:
      return {"burst_end", "a burst ended (detail: frames in it, or collision)"};
    case EventKind::rx_fifo_in:
      return {"rx_fifo_in",
              "a received frame took its room in the receive FIFO: whole at its last bit, or "
              "with receive-early as it starts arriving (detail: FIFO bytes held after)"};
    case EventKind::rx_fifo_drop:
      return {"rx_fifo_drop",
              "a received frame found no room in the receive FIFO and was dropped (detail: "
              "rx_fifo_overflow, or rx_no_descriptor when the host had posted no buffer)"};
    case EventKind::descriptor_fetch_start:
      return {"descriptor_fetch_start",
              "the DMA engine asked the bus for descriptors (detail: rx or tx; bytes)"};
    case EventKind::descriptor_fetch_end:
      return {"descriptor_fetch_end", "... and they have arrived"};
    case EventKind::writeback_start:
      return {"writeback_start",
              "the DMA engine asked the bus to write descriptors back (detail: rx or tx, and the "
              "frames they complete; bytes)"};
    case EventKind::writeback_end:
      return {"writeback_end", "... and they are written: the frames are the host's"};
    case EventKind::dma_start:
      return {"dma_start",
              "the DMA engine asked the bus to move a frame's data (detail: rx = write to "
              "memory, tx = read from it; bytes of the request)"};
    case EventKind::dma_end:
      return {"dma_end", "... and the request's last byte has moved"};
    case EventKind::irq_assert:
      return {"irq_assert",
              "the NIC raised its interrupt line (detail: what set the instant: immediate, "
              "coalesce_count, coalesce_time, rx_timer, tx_timer, itr_hold)"};
    case EventKind::irq_deassert:
      return {"irq_deassert", "the interrupt line dropped: the driver's handler is done"};
    case EventKind::tx_underrun:
      return {"tx_underrun",
              "a frame handed to the MAC early (tx_start_bytes) ran out of data: it goes out "
              "with a bad FCS"};
    case EventKind::bus_request:
      return {"bus_request",
              "REQ#: the master asked for a transfer (detail: command; bytes of the request)"};
    case EventKind::bus_grant:
      return {"bus_grant", "GNT# moved to the master, in the clock before its address phase"};
    case EventKind::bus_address:
      return {"bus_address",
              "FRAME#: the transaction's address phase began: 1 clock, 2 with a dual-address "
              "cycle, +1 PCI-X attribute (detail: command, or split_completion)"};
    case EventKind::bus_wait:
      return {"bus_wait",
              "the master waits for the target: DEVSEL#, its initial latency, a full "
              "posted-write buffer, or until its Retry or Split Response"};
    case EventKind::bus_data:
      return {"bus_data",
              "the first data phase's clock began; the data phases (with any subsequent wait "
              "states) run to the next turnaround"};
    case EventKind::bus_turnaround:
      return {"bus_turnaround",
              "a turnaround clock: after a read's address phase, and after the last data phase "
              "(or the target's stop)"};
    case EventKind::bus_end:
      return {"bus_end",
              "the transaction's last clock is over (detail: ending -- complete, disconnect, "
              "latency_timer, retry, split_response -- and data phases; bytes moved)"};
    case EventKind::tlp_start:
      return {"tlp_start",
              "a TLP's first symbol on the link (detail: memory_write, read_request or "
              "completion, and its payload bytes; bytes on the wire)"};
    case EventKind::tlp_end:
      return {"tlp_end", "... its last symbol"};
    case EventKind::dllp_start:
      return {"dllp_start", "an Ack or UpdateFC DLLP's first symbol (detail: ack, update_fc)"};
    case EventKind::dllp_end:
      return {"dllp_end", "... its last symbol"};
    case EventKind::credit_stall:
      return {"credit_stall",
              "the TLP at the head of the queue waits for the receiver's flow-control credits "
              "(detail: its kind)"};
    case EventKind::isr_start:
      return {"isr_start", "the interrupt handler began (detail: the NIC)"};
    case EventKind::isr_end:
      return {"isr_end",
              "the interrupt handler ended (detail: the NIC, and received frames processed)"};
    case EventKind::tx_post:
      return {"tx_post", "frames went into a NIC's transmit ring (detail: the NIC, frames)"};
    case EventKind::tx_reclaim:
      return {"tx_reclaim", "sent frames' descriptors were reclaimed (detail: the NIC, frames)"};
    case EventKind::segment_sent:
      return {"segment_sent", "the stack handed a segment down (detail: data or ack)"};
    case EventKind::segment_received:
      return {"segment_received", "the stack was given a segment"};
    case EventKind::segment_dropped:
      return {"segment_dropped",
              "... and discarded it (detail: out_of_order, for data out of order or twice)"};
    case EventKind::datagram_sent:
      return {"datagram_sent", "the application sent a UDP datagram (bytes: its payload)"};
    case EventKind::datagram_received:
      return {"datagram_received", "a UDP datagram arrived whole (bytes: its payload)"};
    case EventKind::datagram_dropped:
      return {"datagram_dropped",
              "a UDP datagram was abandoned with fragments missing (detail: fragments_missing)"};
    case EventKind::frame_in:
      return {"frame_in", "the port's MAC handed a frame to the relay (whole and checked)"};
    case EventKind::forward:
      return {"forward",
              "the relay sent a frame from this port on (detail: unicast and the output port, "
              "or flood)"};
    case EventKind::filtered:
      return {"filtered",
              "the relay did not forward a frame: its destination was learned on this port"};
  }
  return {"unknown", ""};
}

std::string_view to_string(EventKind kind) {
  return describe(kind).name;
}

const StateVariable& ModelVocabulary::variable(std::string_view name) const {
  for (const auto& v : state)
    if (v.name == name) return v;
  throw std::logic_error(std::string(model) + " declares no state variable " + std::string(name));
}

}  // namespace gbesim
