#include "models/common/event.hpp"

#include <iterator>
#include <string>

namespace gbesim {

namespace {

struct Row {
  EventKind kind;
  EventKindInfo info;
};

// Every kind, in EventKind's order: what it means, and what its row's frame_id, bytes and detail
// hold.
constexpr Row kKinds[] = {
    {EventKind::enqueue,
     {"enqueue", "a frame entered a transmit queue (a switch port's: detail its bytes)"}},
    {EventKind::drop,
     {"drop",
      "a frame was discarded before transmission (detail: reason, e.g. tx_queue_full, "
      "excessive_collisions; at a switch buffer_full, too_long, fabric_backlog)"}},
    {EventKind::tx_start, {"tx_start", "the frame's first preamble bit leaves the station"}},
    {EventKind::tx_end,
     {"tx_end", "the frame's last FCS bit (or carrier extension) leaves the station"}},
    {EventKind::rx_ok, {"rx_ok", "a frame was received intact and accepted (at its last bit)"}},
    {EventKind::rx_drop,
     {"rx_drop", "a received frame was discarded (detail: reason, e.g. fcs_error)"}},
    {EventKind::pause_tx,
     {"pause_tx", "a PAUSE frame was queued for transmission (detail: quanta)"}},
    {EventKind::pause_rx, {"pause_rx", "a PAUSE frame was acted upon (detail: quanta)"}},
    {EventKind::deliver,
     {"deliver",
      "a received frame was consumed: by a sink's application, or by a host's stack in the "
      "driver's interrupt handler"}},
    {EventKind::collision,
     {"collision", "our transmission met another signal (detail: late if late)"}},
    {EventKind::late_collision, {"late_collision", "... and it was after the slot time"}},
    {EventKind::jam_end, {"jam_end", "the jam after a collision ended (our signal stops)"}},
    {EventKind::backoff, {"backoff", "a backoff began (detail: slots)"}},
    {EventKind::burst_start, {"burst_start", "a transmission began in burst mode"}},
    {EventKind::burst_end, {"burst_end", "a burst ended (detail: frames in it, or collision)"}},
    {EventKind::rx_fifo_in,
     {"rx_fifo_in",
      "a received frame took its room in the receive FIFO: whole at its last bit, or with "
      "receive-early as it starts arriving (detail: FIFO bytes held after)"}},
    {EventKind::rx_fifo_drop,
     {"rx_fifo_drop",
      "a received frame found no room in the receive FIFO and was dropped (detail: "
      "rx_fifo_overflow, or rx_no_descriptor when the host had posted no buffer)"}},
    {EventKind::descriptor_fetch_start,
     {"descriptor_fetch_start",
      "the DMA engine asked the bus for descriptors (detail: rx or tx; bytes)"}},
    {EventKind::descriptor_fetch_end, {"descriptor_fetch_end", "... and they have arrived"}},
    {EventKind::writeback_start,
     {"writeback_start",
      "the DMA engine asked the bus to write descriptors back (detail: rx or tx, and the frames "
      "they complete; bytes)"}},
    {EventKind::writeback_end,
     {"writeback_end", "... and they are written: the frames are the host's"}},
    {EventKind::dma_start,
     {"dma_start",
      "the DMA engine asked the bus to move a frame's data (detail: rx = write to memory, tx = "
      "read from it; bytes of the request)"}},
    {EventKind::dma_end, {"dma_end", "... and the request's last byte has moved"}},
    {EventKind::irq_assert,
     {"irq_assert",
      "the NIC raised its interrupt line (detail: what set the instant: immediate, coalesce_count, "
      "coalesce_time, rx_timer, tx_timer, itr_hold)"}},
    {EventKind::irq_deassert,
     {"irq_deassert", "the interrupt line dropped: the driver's handler is done"}},
    {EventKind::tx_underrun,
     {"tx_underrun",
      "a frame handed to the MAC early (tx_start_bytes) ran out of data: it goes out with a bad "
      "FCS"}},
    {EventKind::bus_request,
     {"bus_request",
      "REQ#: the master asked for a transfer (detail: command; bytes of the request)"}},
    {EventKind::bus_grant,
     {"bus_grant", "GNT# moved to the master, in the clock before its address phase"}},
    {EventKind::bus_address,
     {"bus_address",
      "FRAME#: the transaction's address phase began: 1 clock, 2 with a dual-address cycle, +1 "
      "PCI-X attribute (detail: command, or split_completion)"}},
    {EventKind::bus_wait,
     {"bus_wait",
      "the master waits for the target: DEVSEL#, its initial latency, a full posted-write buffer, "
      "or until its Retry or Split Response"}},
    {EventKind::bus_data,
     {"bus_data",
      "the first data phase's clock began; the data phases (with any subsequent wait states) run "
      "to the next turnaround"}},
    {EventKind::bus_turnaround,
     {"bus_turnaround",
      "a turnaround clock: after a read's address phase, and after the last data phase (or the "
      "target's stop)"}},
    {EventKind::bus_end,
     {"bus_end",
      "the transaction's last clock is over (detail: ending -- complete, disconnect, "
      "latency_timer, retry, split_response -- and data phases; bytes moved)"}},
    {EventKind::tlp_start,
     {"tlp_start",
      "a TLP's first symbol on the link (detail: memory_write, read_request or completion, and its "
      "payload bytes; bytes on the wire)"}},
    {EventKind::tlp_end, {"tlp_end", "... its last symbol"}},
    {EventKind::dllp_start,
     {"dllp_start", "an Ack or UpdateFC DLLP's first symbol (detail: ack, update_fc)"}},
    {EventKind::dllp_end, {"dllp_end", "... its last symbol"}},
    {EventKind::credit_stall,
     {"credit_stall",
      "the TLP at the head of the queue waits for the receiver's flow-control credits (detail: its "
      "kind)"}},
    {EventKind::isr_start, {"isr_start", "the interrupt handler began (detail: the NIC)"}},
    {EventKind::isr_end,
     {"isr_end", "the interrupt handler ended (detail: the NIC, and received frames processed)"}},
    {EventKind::tx_post,
     {"tx_post", "frames went into a NIC's transmit ring (detail: the NIC, frames)"}},
    {EventKind::tx_reclaim,
     {"tx_reclaim", "sent frames' descriptors were reclaimed (detail: the NIC, frames)"}},
    {EventKind::segment_sent,
     {"segment_sent", "the stack handed a segment down (detail: data or ack)"}},
    {EventKind::segment_received, {"segment_received", "the stack was given a segment"}},
    {EventKind::segment_dropped,
     {"segment_dropped",
      "... and discarded it (detail: out_of_order, for data out of order or twice)"}},
    {EventKind::datagram_sent,
     {"datagram_sent", "the application sent a UDP datagram (bytes: its payload)"}},
    {EventKind::datagram_received,
     {"datagram_received", "a UDP datagram arrived whole (bytes: its payload)"}},
    {EventKind::datagram_dropped,
     {"datagram_dropped",
      "a UDP datagram was lost at the receiving end (detail: fragments_missing, abandoned "
      "incomplete; receive_buffer_full, whole but no room in the socket's receive buffer)"}},
    {EventKind::frame_in,
     {"frame_in", "the port's MAC handed a frame to the relay (whole and checked)"}},
    {EventKind::forward,
     {"forward",
      "the relay sent a frame from this port on (detail: unicast and the output port, or flood)"}},
    {EventKind::filtered,
     {"filtered", "the relay did not forward a frame: its destination was learned on this port"}},
};
static_assert(std::size(kKinds) == kEventKindCount, "a row for every kind");

constexpr bool in_order() {
  for (std::size_t k = 0; k < kEventKindCount; ++k)
    if (static_cast<std::size_t>(kKinds[k].kind) != k) return false;
  return true;
}
static_assert(in_order(), "the rows in EventKind's order");

}  // namespace

EventKindInfo describe(EventKind kind) {
  const auto k = static_cast<std::size_t>(kind);
  return k < kEventKindCount ? kKinds[k].info : EventKindInfo{"unknown", ""};
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
