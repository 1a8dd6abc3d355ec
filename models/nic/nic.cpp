#include "models/nic/nic.hpp"

#include <algorithm>

namespace gbesim {

namespace {

constexpr std::uint64_t kRingBase = 0x1000'0000;
constexpr std::uint64_t kBufferBase = 0x2000'0000;
constexpr std::uint64_t kTxRingBase = 0x3000'0000;
constexpr std::uint64_t kTxBufferBase = 0x4000'0000;

}  // namespace

const ModelVocabulary& Nic::vocabulary() {
  static const ModelVocabulary v{
      "nic",
      "<host>.nic (a team's: <host>.nic2, ...)",
      "a NIC: FIFOs, descriptor rings, the DMA engine, the interrupt line (docs/nic.md)",
      {EventKind::rx_fifo_in, EventKind::rx_fifo_drop, EventKind::descriptor_fetch_start,
       EventKind::descriptor_fetch_end, EventKind::writeback_start, EventKind::writeback_end,
       EventKind::dma_start, EventKind::dma_end, EventKind::irq_assert, EventKind::irq_deassert,
       EventKind::tx_underrun},
      {{"irq", "the interrupt line: 1 from irq_assert to irq_deassert"},
       {"rx_fifo_bytes", "bytes the receive FIFO holds (a frame's room from rx_fifo_in)", 32},
       {"dma_busy", "1 while the DMA engine has a request at the bus"}}};
  return v;
}

std::vector<TracedValue> Nic::trace_state() const {
  const ModelVocabulary& v = vocabulary();
  return {traced(v, "irq", irq_asserted_), traced(v, "rx_fifo_bytes", fifo_used_),
          traced(v, "dma_busy", dma_busy_)};
}

Nic::Nic(sc_core::sc_module_name name, const NicParams& params, const PciMasterParams& master,
         Mac& mac, PciBusModule& bus, std::size_t memory, SimContext& context)
    : sc_module(name),
      params_(params),
      mac_(mac),
      bus_(bus),
      context_(context),
      memory_(memory),
      read_command_(params.read_command),
      write_command_(params.write_command),
      stats_(context.stats, std::string(this->name())),
      arrived_(stats_, "frames_arrived", "frames", "frames the MAC accepted and passed to the NIC"),
      fifo_overflow_(stats_, "rx_fifo_overflow", "frames",
                     "frames dropped: no room in the receive FIFO (the bus fell behind)"),
      no_descriptor_(stats_, "rx_no_descriptor", "frames",
                     "frames dropped: no room in the FIFO while the NIC had no receive "
                     "descriptor and the host had posted none"),
      written_back_(stats_, "frames_to_host", "frames",
                    "frames in host memory with their descriptor written back"),
      taken_(stats_, "frames_taken", "frames", "frames the driver took from the ring"),
      interrupts_(stats_, "interrupts", "interrupts", "interrupts raised"),
      descriptor_fetches_(stats_, "descriptor_fetches", "requests", "descriptor fetch requests"),
      writebacks_(stats_, "descriptor_writebacks", "requests", "descriptor write-back requests"),
      data_requests_(stats_, "data_requests", "requests", "data DMA requests"),
      tx_to_mac_(stats_, "tx_frames_to_mac", "frames",
                 "frames read from the host and handed to the MAC"),
      tx_refused_(stats_, "tx_mac_refused", "frames", "frames the MAC's queue refused"),
      tx_done_(stats_, "tx_frames_done", "frames", "transmit descriptors written back"),
      tx_reclaimed_(stats_, "tx_reclaimed", "frames", "transmit descriptors the driver reclaimed"),
      tx_underruns_(stats_, "tx_underruns", "frames",
                    "frames started early (tx_start_bytes) whose data the bus did not deliver "
                    "in time: sent with a bad FCS"),
      early_discarded_(stats_, "rx_early_discarded", "frames",
                       "frames whose DMA began early (rx_early_bytes) and that the MAC then "
                       "rejected: what was written is dropped, the buffers reused") {
  for (const InterruptCause c :
       {InterruptCause::immediate, InterruptCause::coalesce_count, InterruptCause::coalesce_time,
        InterruptCause::rx_timer, InterruptCause::tx_timer, InterruptCause::itr_hold})
    interrupts_by_cause_.emplace_back(stats_, std::string("interrupts_") + to_string(c),
                                      "interrupts", "interrupts whose instant this rule set");
  for (const char* state : {"rx_no_descriptor_irq_asserted", "rx_no_descriptor_timer_running",
                            "rx_no_descriptor_itr_held", "rx_no_descriptor_nothing_pending"})
    dry_drops_.emplace_back(stats_, state, "frames",
                            "rx_no_descriptor drops while the interrupt was: asserted (the "
                            "handler runs), due on a timer still running, held by the ITR "
                            "interval after its timer ended, or not pending");
  for (const char* bin :
       {"handler_took_0_frames", "handler_took_1_frame", "handler_took_2_to_8_frames",
        "handler_took_9_to_64_frames", "handler_took_65_plus_frames"})
    taken_per_run_.emplace_back(stats_, bin, "handler runs",
                                "handler runs by received frames taken");
  master_ = bus.bus().add_master(basename(), master, this);
  PciTargetParams registers;
  registers.read_latency_clocks = params.register_read_latency_clocks;
  registers.write_latency_clocks = 1;
  // PCI Express: the same latency in clocks of the endpoint's 125 MHz core (an assumption).
  registers.completion_latency_ns = 8 * params.register_read_latency_clocks;
  registers_ = bus.bus().add_target(basename(), registers);
  host_registers_ = registers_;
  rx_descriptors_.post(params.rx_ring_descriptors - 1);  // the driver posts the ring at start-up
  declare_formulas();
  SC_METHOD(moderation_process);
  sensitive << timer_;
  dont_initialize();
  SC_METHOD(early_process);
  sensitive << early_wake_;
  dont_initialize();
  SC_METHOD(tx_wake_process);
  sensitive << tx_wake_;
  dont_initialize();
  mac.attach_client(this);
}

void Nic::declare_formulas() {
  stats_.rate("interrupts_per_second", "1/s", "interrupts per second", per_second(interrupts_));
  stats_.level("frames_inside", "frames",
               "frames in the FIFO, written but not written back, or written back and not taken",
               value_of([this] { return static_cast<double>(frames_inside()); }));
  // The peaks restart at the occupancy of the moment.
  stats_.on_restart([this](Picoseconds now) {
    fifo_peak_ = fifo_used_;
    tx_fifo_peak_ = tx_fifo_used_ - tx_drained(now);
  });
  // A request still at the bus counts up to the moment of asking.
  auto busy_so_far = [this](const double& done, const bool& busy, const Picoseconds& from) {
    return [this, &done, &busy, &from] {
      return done + (busy ? static_cast<double>(now_ps() - from) : 0.0);
    };
  };
  stats_.rate("dma_busy", "fraction", "share of time the NIC had a DMA request at the bus",
              share_of_time(busy_so_far(busy_ps_, dma_busy_, busy_from_)));
  stats_.rate("rx_dma_busy", "fraction", "share of time receive work had a request at the bus",
              share_of_time(busy_so_far(rx_busy_ps_, rx_busy_, rx_busy_from_)));
  stats_.rate("tx_dma_busy", "fraction", "share of time transmit work had a request at the bus",
              share_of_time(busy_so_far(tx_busy_ps_, tx_busy_, tx_busy_from_)));
  stats_.summary("rx_fifo_peak", "bytes", "highest receive FIFO occupancy", value_of(fifo_peak_));
  stats_.summary("tx_fifo_peak", "bytes",
                 "highest transmit FIFO occupancy (bytes read and not yet sent)",
                 value_of(tx_fifo_peak_));
}

DescriptorRingParams Nic::ring_params(const NicParams& p, bool transmit) {
  DescriptorRingParams r;
  r.ring_base = transmit ? kTxRingBase : kRingBase;
  r.buffer_base = transmit ? kTxBufferBase : kBufferBase;
  r.descriptors = transmit ? p.tx_ring_descriptors : p.rx_ring_descriptors;
  r.descriptor_bytes = p.descriptor_bytes;
  r.buffer_bytes = p.buffer_bytes;
  r.cache = p.descriptor_cache;
  r.prefetch_threshold = p.prefetch_threshold;
  r.prefetch_batch = p.prefetch_batch;
  return r;
}

// A frame whose DMA began early and that the MAC rejected at its end.
void Nic::mac_rejected(const Frame& frame, Picoseconds at) {
  if (params_.rx_early_bytes <= 0) return;
  for (auto& f : fifo_)
    if (f.expected == &frame && !f.r.frame) {
      f.discarded = true;
      f.expected = nullptr;
      pump(at);
    }
}

void Nic::mac_tx_started(const Frame& frame, Picoseconds at) {
  if (frame.flow != kNicTxFlow) return;
  if (tx_read_ && tx_read_->raw == &frame) tx_read_->start_ps = at;
  tx_on_wire_ = &frame;
  tx_on_wire_start_ps_ = at;
}

std::int64_t Nic::tx_drained(Picoseconds now) const {
  if (tx_on_wire_ == nullptr) return 0;
  // Byte k leaves 8 + k byte times after the first preamble bit (after the preamble and SFD),
  // and no byte leaves before it is read.
  const Picoseconds byte_ps = 8 * mac_.bit_ps();
  std::int64_t sent = (now - tx_on_wire_start_ps_) / byte_ps - 8;
  sent = std::clamp<std::int64_t>(sent, 0, static_cast<std::int64_t>(tx_on_wire_->size()));
  if (tx_read_ && tx_read_->raw == tx_on_wire_) sent = std::min(sent, tx_read_->done);
  return sent;
}

void Nic::tx_wake_process() {
  ++context_.activations;
  bus_.settle();  // a transfer of ours ending at this instant has ended (see moderation_process)
  tx_wake_ps_ = kForeverPs;
  pump(now_ps());
}

void Nic::mac_tx_done(const Frame& frame, Picoseconds at, bool sent) {
  if (frame.flow == kNicTxFlow) tx_finished(frame, at, sent);
}

std::uint64_t Nic::tx_frames_inside() const {
  return tx_ring_.size() + (tx_read_ ? 1 : 0) +
         static_cast<std::uint64_t>(tx_in_mac_ + tx_sent_ + tx_completed_);
}

void Nic::give_tx_descriptors(std::int64_t n, Picoseconds now) {
  tx_descriptors_.post(n);
  pump(now);
}

std::int64_t Nic::take_tx_completed() {
  const std::int64_t n = tx_completed_;
  tx_completed_ = 0;
  tx_reclaimed_ += static_cast<std::uint64_t>(n);
  return n;
}

void Nic::underrun(TxRead& r) {
  r.underrun = true;
  ++tx_underruns_;
  // The MAC ends the frame with an invalid FCS (as 802.3 transmitters do on an underrun); the
  // frame is still on its way, so its receiver sees an FCS error.
  r.raw->bytes.back() ^= 0xFF;
  r.raw->fcs_intact = false;
  events.emit(EventKind::tx_underrun, now_ps(), r.raw);
}

void Nic::tx_finished(const Frame& frame, Picoseconds now, bool sent) {
  if (tx_on_wire_ == &frame) tx_on_wire_ = nullptr;
  if (tx_read_ && tx_read_->raw == &frame && tx_read_->done < tx_read_->size) {
    // Sent (or refused) while its data is still being read: what was read leaves the FIFO, the
    // rest is read and discarded. Sent, it ran out of data: an underrun.
    if (sent && !tx_read_->underrun) underrun(*tx_read_);
    tx_read_->finished = true;
    tx_fifo_used_ -= tx_read_->issued;
  } else {
    tx_fifo_used_ -= static_cast<std::int64_t>(frame.size());
  }
  --tx_in_mac_;
  ++tx_sent_;
  pump(now);
}

bool Nic::pump_tx(Picoseconds now) {
  // Status write-back of sent frames: a group, or whatever is done once nothing else is moving.
  if (tx_sent_ >= params_.writeback_threshold || (tx_sent_ > 0 && tx_in_mac_ == 0)) {
    tx_writing_back_ = tx_sent_;
    ++writebacks_;
    const RingAccess a = tx_descriptors_.writeback(tx_sent_);
    issue(tx_writeback, PciCommand::memory_write, a.address, a.bytes);
    return true;
  }
  // Frame data into the FIFO, a burst at a time while it has room.
  if (!tx_read_ && !tx_ring_.empty() && tx_descriptors_.take()) {
    tx_read_ = TxRead{};
    tx_read_->frame = std::move(tx_ring_.front());
    tx_read_->raw = tx_read_->frame.get();
    tx_read_->size = static_cast<std::int64_t>(tx_read_->raw->size());
    tx_ring_.pop_front();
  }
  if (tx_read_) {
    const std::int64_t size = tx_read_->size;
    const std::int64_t burst =
        params_.tx_max_burst_bytes > 0 ? params_.tx_max_burst_bytes : params_.max_burst_bytes;
    const std::int64_t n = std::min(burst, size - tx_read_->issued);
    const std::int64_t drained = tx_drained(now);
    const std::int64_t used = tx_fifo_used_ - drained;
    if (n > 0 && (tx_read_->finished || used + n <= params_.tx_fifo_bytes)) {
      const std::uint64_t address = tx_descriptors_.buffer_address(0, tx_read_->issued);
      tx_read_->issued += n;
      if (!tx_read_->finished) {
        tx_fifo_used_ += n;
        tx_fifo_peak_ = std::max(tx_fifo_peak_, used + n);
      }
      ++data_requests_;
      issue(tx_data, read_command_, address, n, tx_read_->raw);
      return true;
    }
    if (n > 0 && tx_on_wire_ != nullptr) {
      // No room yet: wake when the wire has sent enough of its frame (if it has that much).
      const std::int64_t target = drained + used + n - params_.tx_fifo_bytes;
      if (target <= static_cast<std::int64_t>(tx_on_wire_->size())) {
        const Picoseconds at = tx_on_wire_start_ps_ + (8 + target) * 8 * mac_.bit_ps();
        if (at < tx_wake_ps_) {
          tx_wake_ps_ = at;
          tx_wake_.notify(to_sc_time(at - now));
        }
      }
    }
  }
  return fetch_descriptors(tx_fetch, tx_descriptors_);
}

bool Nic::fetch_descriptors(Kind kind, DescriptorRing& ring) {
  const auto a = ring.next_fetch();
  if (!a) return false;
  ++descriptor_fetches_;
  issue(kind, read_command_, a->address, a->bytes);
  return true;
}

std::uint64_t Nic::frames_inside() const {
  std::uint64_t in_fifo = fifo_.size();
  if (params_.rx_early_bytes > 0)
    for (const auto& f : fifo_) in_fifo -= f.r.frame ? 0 : 1;  // not those still arriving
  return in_fifo + done_.size() + visible_.size();
}

void Nic::frame_arriving(const Frame& frame, Picoseconds first_bit_ps) {
  const auto size = static_cast<std::int64_t>(frame.size());
  if (params_.rx_early_bytes <= 0 || size <= params_.rx_early_bytes) return;
  if (fifo_used_ + size > params_.rx_fifo_bytes) return;  // decided (dropped) at its end
  // Room for the whole frame is taken now; its bytes come in one per 8 bit times after the
  // preamble and SFD.
  InFifo f;
  f.expected = &frame;
  f.data0_ps = first_bit_ps + 8 * 8 * mac_.bit_ps();
  f.r.arrived_ps = first_bit_ps + (8 + size) * 8 * mac_.bit_ps();
  f.dma_bytes = size - (params_.strip_crc ? 4 : 0);
  fifo_.push_back(std::move(f));
  fifo_used_ += size;
  fifo_peak_ = std::max(fifo_peak_, fifo_used_);
  events.emit(EventKind::rx_fifo_in, now_ps(), &frame, std::string_view{}, fifo_used_);
  pump(now_ps());
}

void Nic::early_process() {
  ++context_.activations;
  bus_.settle();  // see moderation_process
  early_wake_ps_ = kForeverPs;
  pump(now_ps());
}

void Nic::mac_receive(FramePtr frame, Picoseconds now) {
  ++arrived_;
  // An early frame is the newest one still arriving: search from the back, and only then.
  for (auto it = fifo_.rbegin(); params_.rx_early_bytes > 0 && it != fifo_.rend(); ++it) {
    InFifo& f = *it;
    if (f.r.frame) break;  // older than any still arriving
    if (f.expected != frame.get()) continue;
    // Its DMA may have begun already: it is whole now.
    f.expected = nullptr;
    f.r.frame = std::move(frame);
    f.r.arrived_ps = now;
    if (&f == &fifo_.front() && f.done == f.dma_bytes) finish_rx_head(now);
    pump(now);
    return;
  }
  const auto size = static_cast<std::int64_t>(frame->size());
  if (fifo_used_ + size > params_.rx_fifo_bytes) {
    events.emit(EventKind::rx_fifo_drop, now, frame.get(),
                rx_descriptors_.starved() ? "rx_no_descriptor" : "rx_fifo_overflow");
    if (rx_descriptors_.starved()) {
      ++no_descriptor_;
      const std::size_t state = irq_asserted_                  ? 0
                                : moderation_.held_by_itr(now) ? 2
                                : moderation_.pending()        ? 1
                                                               : 3;
      ++dry_drops_[state];
    } else {
      ++fifo_overflow_;
    }
    return;
  }
  InFifo f;
  events.emit(EventKind::rx_fifo_in, now, frame.get(), std::string_view{}, fifo_used_ + size);
  f.r = {std::move(frame), now};
  f.dma_bytes = size - (params_.strip_crc ? 4 : 0);
  fifo_.push_back(std::move(f));
  fifo_used_ += size;
  fifo_peak_ = std::max(fifo_peak_, fifo_used_);
  pump(now);
}

void Nic::issue(Kind kind, PciCommand command, std::uint64_t address, std::int64_t bytes,
                const Frame* frame) {
  PciRequest r;
  r.target = memory_;
  r.command = command;
  r.address = address;
  r.bytes = bytes;
  r.tag = kind;
  if (frame != nullptr) r.frame_id = frame->id;
  last_was_rx_ = kind == rx_data || kind == rx_writeback || kind == rx_fetch;
  dma_state(last_was_rx_, true, now_ps());
  if (events.connected()) report_request(r, true, now_ps());
  bus_.request(master_, r);
}

void Nic::dma_state(bool rx, bool busy, Picoseconds now) {
  bool& engine = rx ? rx_busy_ : tx_busy_;
  if (engine == busy) return;
  engine = busy;
  Picoseconds& from = rx ? rx_busy_from_ : tx_busy_from_;
  if (busy)
    from = now;
  else
    (rx ? rx_busy_ps_ : tx_busy_ps_) += static_cast<double>(now - from);
  const bool any = rx_busy_ || tx_busy_;
  if (any == dma_busy_) return;
  dma_busy_ = any;
  if (any)
    busy_from_ = now;
  else
    busy_ps_ += static_cast<double>(now - busy_from_);
}

void Nic::report_request(const PciRequest& r, bool start, Picoseconds at) const {
  Event e{EventKind::dma_start, at};
  const bool rx = r.tag == rx_data || r.tag == rx_writeback || r.tag == rx_fetch;
  e.detail = rx ? "rx" : "tx";
  e.bytes = r.bytes;
  e.frame_id = r.frame_id;
  if (r.tag == rx_fetch || r.tag == tx_fetch) {
    e.kind = start ? EventKind::descriptor_fetch_start : EventKind::descriptor_fetch_end;
  } else if (r.tag == rx_writeback || r.tag == tx_writeback) {
    e.kind = start ? EventKind::writeback_start : EventKind::writeback_end;
    e.value = r.tag == rx_writeback ? writing_back_ : tx_writing_back_;  // frames
  } else if (!start) {
    e.kind = EventKind::dma_end;
  }
  events(e);
}

void Nic::pump(Picoseconds now) {
  const bool separate = params_.dma_engines == DmaEngines::separate;
  if (settling_ || (separate ? rx_busy_ && tx_busy_ : dma_busy_)) return;
  // The DMA engine decides on everything that happens at this instant: first the station is
  // brought up to date in its defined order (its frame on the wire reported sent if its last
  // bit has left, frames that have arrived delivered; docs/mac.md), whichever process the
  // simulation kernel runs first. What that reports comes back here and is decided on below.
  settling_ = true;
  mac_.settle_station(now);
  settling_ = false;
  if (separate) {  // each engine with work and no request at the bus issues one
    if (!rx_busy_) pump_rx(now);
    if (!tx_busy_) pump_tx(now);
    return;
  }
  if (dma_busy_) return;
  // The receive and transmit engines take turns at the bus when both have work.
  if (last_was_rx_) {
    if (!pump_tx(now)) pump_rx(now);
  } else {
    if (!pump_rx(now)) pump_tx(now);
  }
}

void Nic::finish_rx_head(Picoseconds) {
  InFifo& f = fifo_.front();
  fifo_used_ -= static_cast<std::int64_t>(f.r.frame->size()) - f.dma_bytes;
  f.r.descriptors = f.descriptors;
  rx_descriptors_.consume(f.descriptors);
  done_descriptors_ += f.descriptors;
  done_.push_back(std::move(f.r));
  fifo_.pop_front();
}

bool Nic::pump_rx(Picoseconds now) {
  auto write_back = [&]() {
    writing_back_ = static_cast<std::int64_t>(done_.size());
    writing_back_descriptors_ = done_descriptors_;
    ++writebacks_;
    const RingAccess a = rx_descriptors_.writeback(done_descriptors_);
    issue(rx_writeback, PciCommand::memory_write, a.address, a.bytes);
  };
  // A due descriptor write-back (a full group) first: frames reach the host in order.
  if (done_descriptors_ >= params_.writeback_threshold) {
    write_back();
    return true;
  }
  // A rejected early frame leaves once nothing of it is on the bus: its room and buffers return.
  while (!fifo_.empty() && fifo_.front().discarded && fifo_.front().issued == fifo_.front().done) {
    InFifo& f = fifo_.front();
    fifo_used_ -= f.dma_bytes + (params_.strip_crc ? 4 : 0) - f.done;  // its size, less written
    rx_descriptors_.give_back(f.descriptors);
    ++early_discarded_;
    fifo_.pop_front();
  }
  // Receive data into the head frame's buffers, one buffer (descriptor) per buffer_bytes; a
  // request never crosses into the next buffer. A frame still arriving (receive-early) gives
  // bursts as its bytes come in, the first once rx_early_bytes are in.
  if (!fifo_.empty() && !fifo_.front().discarded) {
    InFifo& f = fifo_.front();
    std::int64_t available = f.dma_bytes;
    if (!f.r.frame) {
      const std::int64_t in = now < f.data0_ps ? 0 : (now - f.data0_ps) / (8 * mac_.bit_ps());
      available = in < params_.rx_early_bytes ? 0 : std::min(in, f.dma_bytes);
    }
    const std::int64_t buffer = params_.buffer_bytes;
    if (f.issued < f.dma_bytes && f.issued / buffer >= f.descriptors && rx_descriptors_.take())
      ++f.descriptors;
    if (f.issued < f.dma_bytes && f.issued / buffer < f.descriptors) {
      const std::int64_t offset = f.issued % buffer;
      const std::int64_t n =
          std::min({params_.max_burst_bytes, f.dma_bytes - f.issued, buffer - offset});
      if (f.issued + n > available) {
        // Wake when the burst's bytes (and at least the early threshold) are in.
        const std::int64_t need = std::max(f.issued + n, params_.rx_early_bytes);
        const Picoseconds at = f.data0_ps + need * 8 * mac_.bit_ps();
        if (at < early_wake_ps_) {
          early_wake_ps_ = at;
          early_wake_.cancel();
          early_wake_.notify(to_sc_time(at - now));
        }
        return fetch_descriptors(rx_fetch, rx_descriptors_);
      }
      const std::uint64_t address = rx_descriptors_.buffer_address(f.issued / buffer, offset);
      f.issued += n;
      ++data_requests_;
      issue(rx_data, write_command_, address, n, f.r.frame ? f.r.frame.get() : f.expected);
      return true;
    }
  }
  if (fetch_descriptors(rx_fetch, rx_descriptors_)) return true;
  // A partial group once the FIFO is empty, or when the head frame waits for a descriptor and
  // none is to be had until the driver gets these frames (and gives their buffers back).
  if (done_descriptors_ > 0 && (fifo_.empty() || rx_descriptors_.starved())) {
    write_back();
    return true;
  }
  return false;
}

void Nic::pci_done(const PciRequest& request, Picoseconds at) {
  dma_state(request.tag == rx_data || request.tag == rx_writeback || request.tag == rx_fetch, false,
            at);
  if (events.connected()) report_request(request, false, at);
  switch (request.tag) {
    case rx_data: {
      InFifo& f = fifo_.front();
      f.done += request.bytes;
      fifo_used_ -= request.bytes;
      // Whole and written (an early frame may be written before its FCS is in).
      if (f.done == f.dma_bytes && f.r.frame && !f.discarded) finish_rx_head(at);
      break;
    }
    case rx_writeback: {
      const std::int64_t n = writing_back_;
      for (std::int64_t i = 0; i < n; ++i) visible_.push_back(std::move(done_[i]));
      done_.erase(done_.begin(), done_.begin() + n);
      writing_back_ = 0;
      rx_descriptors_.written_back(writing_back_descriptors_);
      done_descriptors_ -= writing_back_descriptors_;
      writing_back_descriptors_ = 0;
      written_back_ += static_cast<std::uint64_t>(n);
      frames_visible(n, at, false);
      break;
    }
    case rx_fetch:
      rx_descriptors_.fetch_done();
      break;
    case tx_data: {
      TxRead& r = *tx_read_;
      const std::int64_t before = r.done;
      r.done += request.bytes;
      // A burst's bytes are in the FIFO when it ends; the MAC wanted the first of them
      // (8 preamble/SFD bytes after its start) at start + (8 + before) byte times.
      if (r.handed && !r.finished && !r.underrun && r.start_ps >= 0 &&
          at > r.start_ps + (8 + before) * 8 * mac_.bit_ps())
        underrun(r);
      if (!r.handed &&
          (r.done == r.size || (params_.tx_start_bytes > 0 && r.done >= params_.tx_start_bytes))) {
        r.handed = true;
        ++tx_to_mac_;
        ++tx_in_mac_;
        FramePtr frame = std::move(r.frame);
        frame->queued_ps = at;
        // A refused frame comes back through the MAC's drop event: its descriptor completes
        // (with an error status) like a sent one.
        if (!mac_.enqueue(std::move(frame))) ++tx_refused_;
      }
      if (tx_read_ && tx_read_->done == tx_read_->size) {
        tx_descriptors_.consume(1);
        tx_read_.reset();
      }
      break;
    }
    case tx_writeback: {
      const std::int64_t n = tx_writing_back_;
      tx_sent_ -= n;
      tx_writing_back_ = 0;
      tx_descriptors_.written_back(n);
      tx_completed_ += n;
      tx_done_ += static_cast<std::uint64_t>(n);
      frames_visible(n, at, true);
      break;
    }
    case tx_fetch:
      tx_descriptors_.fetch_done();
      break;
    default:
      break;
  }
  pump(at);
}

std::vector<ReceivedFrame> Nic::take_received() {
  std::vector<ReceivedFrame> out(std::make_move_iterator(visible_.begin()),
                                 std::make_move_iterator(visible_.end()));
  visible_.clear();
  taken_ += out.size();
  const std::size_t n = out.size();
  ++taken_per_run_[n == 0 ? 0 : n == 1 ? 1 : n <= 8 ? 2 : n <= 64 ? 3 : 4];
  // The handler takes the transmit completions at the same instant (take_tx_completed).
  moderation_.taken();
  return out;
}

void Nic::give_descriptors(std::int64_t n, Picoseconds now) {
  rx_descriptors_.post(n);
  pump(now);
}

void Nic::frames_visible(std::int64_t n, Picoseconds now, bool transmit) {
  moderation_.frames_visible(n, now, transmit);
  schedule_interrupt(now);
}

void Nic::interrupt_handled(Picoseconds now) {
  irq_asserted_ = false;
  events.emit(EventKind::irq_deassert, now);
  schedule_interrupt(now);
}

void Nic::schedule_interrupt(Picoseconds now) {
  if (irq_asserted_) return;
  const Picoseconds ready = moderation_.ready_ps();
  if (ready >= kForeverPs) return;
  fire_ps_ = std::max(ready, now);
  timer_.cancel();
  timer_.notify(to_sc_time(fire_ps_ - now));
}

void Nic::moderation_process() {
  ++context_.activations;
  // A write-back the bus completes at this instant makes its frames visible first, whichever
  // process the simulation kernel runs first.
  bus_.settle();
  const Picoseconds now = now_ps();
  if (irq_asserted_ || !moderation_.pending() || now < fire_ps_) return;
  irq_asserted_ = true;
  events.emit(EventKind::irq_assert, now, nullptr, to_string(moderation_.cause()));
  ++interrupts_by_cause_[static_cast<std::size_t>(moderation_.cause())];
  moderation_.raised(now);
  ++interrupts_;
  interrupt_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace gbesim
