#include "models/host/nic_driver.hpp"

#include <algorithm>

namespace gbesim {

namespace {

// The driver's own tags on its register accesses, to know which one completed.
constexpr std::uint64_t kIcrTag = 1;
constexpr std::uint64_t kTailTag = 2;    // | (descriptors << 8)
constexpr std::uint64_t kTxTailTag = 3;  // | (descriptors << 8)

// The CPU with its copy cost per byte resolved once (derived from its memory bandwidth when not
// given), so the per-frame paths read a constant.
CpuParams with_copy_cost(CpuParams cpu) {
  cpu.per_byte_ns = cpu.copy_ns_per_byte();
  return cpu;
}

}  // namespace

NicDriver::NicDriver(sc_core::sc_module_name name, const CpuParams& cpu,
                     const PciMasterParams& master, const HostTxParams& tx,
                     const FrameHeader& header, std::int64_t tx_ring, Nic& nic, PciBusModule& bus,
                     HostStack* stack, SimContext& context)
    : sc_module(name),
      cpu_(with_copy_cost(cpu)),
      tx_(tx),
      builder_(header),
      tx_ring_(tx_ring),
      stack_(stack),
      checksum_ns_(nic.checksum_offload() ? 0.0 : cpu.per_checksum_byte_ns),
      context_(context),
      nic_(nic),
      bus_(bus),
      stats_(context.stats, std::string(this->name())),
      delivered_(stats_, "frames_delivered", "frames", "frames the stack has processed"),
      octets_(stats_, "octets_delivered", "bytes", "their DA..FCS bytes"),
      handler_runs_(stats_, "handler_runs", "interrupts", "interrupt handler runs"),
      cpu_busy_ps_(stats_, "cpu_busy_time", "ps",
                   "CPU time spent: handler (incl. the stall on the cause-register read), "
                   "application calls, posting frames"),
      refills_(stats_, "refills", "descriptors", "receive buffers given back"),
      tx_posted_(stats_, "tx_frames_posted", "frames", "frames put in the transmit ring"),
      tx_reclaimed_(stats_, "tx_frames_sent", "frames",
                    "sent frames whose descriptors the driver reclaimed"),
      tx_octets_(stats_, "tx_octets_sent", "bytes", "their DA..FCS bytes"),
      app_calls_(stats_, "app_calls", "calls", "the application's send/receive calls"),
      latency_(stats_, "latency", "sender's enqueue to processed by the receiving stack") {
  master_ = bus.bus().add_master(basename(), master, this);
  const Counter* busy = &cpu_busy_ps_;
  const Counter* octets = &octets_;
  const Counter* runs = &handler_runs_;
  const Counter* frames = &delivered_;
  const Counter* sent = &tx_octets_;
  stats_.formula(
      "tx_frames_inside", "frames",
      "posted frames not yet reclaimed: in the ring, the FIFO, the MAC, or awaiting "
      "write-back or reclaim",
      [this](const StatContext&) { return static_cast<double>(nic_.tx_frames_inside()); });
  stats_.formula("frames_in_handler", "frames", "frames the handler holds at the end",
                 [this](const StatContext&) { return static_cast<double>(in_handler_); });
  stats_.rate("cpu_utilisation", "fraction", "share of the CPU the host's network work takes",
              [busy](const StatContext& c) {
                return static_cast<double>(busy->value()) / static_cast<double>(c.elapsed_ps);
              });
  stats_.rate("delivered_throughput", "bit/s", "DA..FCS bits processed per second",
              [octets](const StatContext& c) {
                return 8.0 * static_cast<double>(octets->value()) * c.per_second();
              });
  stats_.rate("sent_throughput", "bit/s", "DA..FCS bits of frames sent and reclaimed per second",
              [sent](const StatContext& c) {
                return 8.0 * static_cast<double>(sent->value()) * c.per_second();
              });
  stats_.formula("frames_per_interrupt", "frames", "frames processed per handler run",
                 [frames, runs](const StatContext&) {
                   return runs->value() ? static_cast<double>(frames->value()) /
                                              static_cast<double>(runs->value())
                                        : std::nan("");
                 });
  // The 2003 review's P/E index: Mbit/s over CPU %. With an application, its bytes (received plus
  // acknowledged) count; without, the frames' DA..FCS bytes delivered plus sent.
  stats_.formula("pe_index", "(Mbit/s)/%",
                 "Mbit/s (application bytes with an application, else DA..FCS bytes, both "
                 "directions) divided by CPU %",
                 [this, busy, octets, sent](const StatContext& c) {
                   const double cpu = 100.0 * static_cast<double>(busy->value()) /
                                      static_cast<double>(c.elapsed_ps);
                   const double bytes = stack_ != nullptr
                                            ? static_cast<double>(stack_->app_bytes_received() +
                                                                  stack_->app_bytes_acknowledged())
                                            : static_cast<double>(octets->value() + sent->value());
                   const double mbps = 8.0 * bytes * c.per_second() / 1e6;
                   return cpu > 0 ? mbps / cpu : std::nan("");
                 });
  SC_THREAD(cpu_process);
}

void NicDriver::pci_done(const PciRequest& request, Picoseconds at) {
  if (request.tag == kIcrTag) {
    icr_read_.notify(sc_core::SC_ZERO_TIME);
  } else if ((request.tag & 0xFF) == kTailTag) {
    nic_.give_descriptors(static_cast<std::int64_t>(request.tag >> 8), at);
  } else if ((request.tag & 0xFF) == kTxTailTag) {
    nic_.give_tx_descriptors(static_cast<std::int64_t>(request.tag >> 8), at);
  }
}

double NicDriver::tx_cost_ns(std::int64_t frames) const {
  return static_cast<double>(frames) *
         (cpu_.per_sent_packet_ns +
          (cpu_.per_byte_ns + checksum_ns_) * static_cast<double>(tx_.frame_bytes));
}

void NicDriver::spend(double ns) {
  const Picoseconds cost = round_to_ps(ns * 1000.0);
  if (cost > 0) wait(to_sc_time(cost));
  cpu_busy_ps_ += static_cast<std::uint64_t>(cost);
}

std::vector<FramePtr> NicDriver::build_raw(std::int64_t frames) {
  std::vector<FramePtr> out;
  for (std::int64_t i = 0; i < frames; ++i) {
    FramePtr frame = context_.frames.acquire();
    frame->flow = kNicTxFlow;
    frame->id = kNicTxFlow * kFrameIdCreator + tx_sequence_ + 1;
    builder_.build(
        *frame,
        client_bytes_for_frame_size(builder_.header(), static_cast<std::size_t>(tx_.frame_bytes)),
        ++tx_sequence_);
    frame->queued_ps = now_ps();
    out.push_back(std::move(frame));
  }
  return out;
}

void NicDriver::post_tx(std::vector<FramePtr> frames) {
  const auto n = static_cast<std::uint64_t>(frames.size());
  for (auto& frame : frames) {
    tx_sizes_.push_back(frame->size());
    nic_.post_tx(std::move(frame));
  }
  tx_posted_ += n;
  register_access(PciCommand::memory_write, kNicRegisterTdt, kTxTailTag | (n << 8));
}

void NicDriver::register_access(PciCommand command, std::uint64_t address, std::uint64_t tag) {
  PciRequest r;
  r.target = nic_.register_target();
  r.command = command;
  r.address = address;
  r.bytes = 4;
  r.tag = tag;
  bus_.request(master_, r);
}

void NicDriver::service_interrupt() {
  const Picoseconds start = now_ps();
  ++handler_runs_;
  if (cpu_.read_icr) {
    register_access(PciCommand::memory_read, kNicRegisterIcr, kIcrTag);
    wait(icr_read_);
  }
  handling_ = nic_.take_received();
  const std::vector<ReceivedFrame>& frames = handling_;
  const std::int64_t reclaimed = nic_.take_tx_completed();
  tx_reclaimed_ += static_cast<std::uint64_t>(reclaimed);
  for (std::int64_t i = 0; i < reclaimed; ++i) {
    tx_octets_ += tx_sizes_.front();
    tx_sizes_.pop_front();
  }
  in_handler_ = frames.size();
  double cost_ns = cpu_.interrupt_ns;
  if (!tx_.to.empty()) cost_ns += tx_cost_ns(reclaimed);  // refill the ring as it drains
  for (const auto& f : frames)
    cost_ns += cpu_.per_packet_ns +
               (cpu_.per_byte_ns + checksum_ns_) * static_cast<double>(f.frame->size());
  std::int64_t buffers = 0;
  for (const auto& f : frames) buffers += f.descriptors;
  cost_ns += cpu_.per_refill_ns * static_cast<double>(buffers);
  const Picoseconds cost = round_to_ps(cost_ns * 1000.0);
  if (cost > 0) wait(to_sc_time(cost));
  const Picoseconds now = now_ps();
  for (const auto& f : frames) {
    ++delivered_;
    octets_ += f.frame->size();
    latency_.record(now - f.frame->queued_ps);
    if (stack_ != nullptr) stack_->receive(*f.frame, now);
  }
  in_handler_ = 0;
  const bool any = !frames.empty();
  handling_.clear();
  cpu_busy_ps_ += static_cast<std::uint64_t>(now - start);
  if (any) {
    // Hand the buffers back: a posted write of the tail register; the CPU does not wait.
    refills_ += static_cast<std::uint64_t>(buffers);
    register_access(PciCommand::memory_write, kNicRegisterRdt,
                    kTailTag | (static_cast<std::uint64_t>(buffers) << 8));
  }
  if (!tx_.to.empty() && reclaimed > 0) post_tx(build_raw(reclaimed));
  nic_.interrupt_handled(now);
}

bool NicDriver::post_stack_frames() {
  const auto outstanding = static_cast<std::int64_t>(tx_sizes_.size());
  const std::int64_t room = tx_ring_ - 1 - outstanding;
  if (!stack_->has_frames() || room <= 0) return false;
  posting_.clear();
  double bytes = 0;
  double acks = 0;
  while (static_cast<std::int64_t>(posting_.size()) < room && stack_->has_frames()) {
    if (stack_->next_is_pure_ack()) acks += 1;
    posting_.push_back(stack_->take_frame());
    bytes += static_cast<double>(posting_.back()->size());
  }
  spend(cpu_.per_sent_packet_ns * (static_cast<double>(posting_.size()) - acks) +
        cpu_.per_sent_ack_ns * acks + checksum_ns_ * bytes);
  post_tx(std::move(posting_));
  posting_.clear();
  return true;
}

void NicDriver::cpu_process() {
  if (!tx_.to.empty()) {
    // The raw sender fills the ring at start-up.
    spend(tx_cost_ns(tx_ring_ - 1));
    post_tx(build_raw(tx_ring_ - 1));
  }
  while (true) {
    // The line may have been raised while the CPU was busy with something else.
    if (nic_.irq_asserted()) {
      service_interrupt();
      continue;
    }
    if (stack_ == nullptr) {
      wait(nic_.interrupt());
      continue;
    }
    // The stack's frames go into the ring as soon as they exist (a send call runs down to the
    // driver), as far as it has room: per_sent_packet_ns each.
    if (post_stack_frames()) continue;
    if (auto call = stack_->poll(now_ps())) {
      ++app_calls_;
      spend((call->new_request ? cpu_.per_request_ns : 0.0) +
            cpu_.per_byte_ns * static_cast<double>(call->bytes));
      stack_->perform(*call, now_ps());
      continue;
    }
    if (post_stack_frames()) continue;  // the poll's window update
    wait(nic_.interrupt() | stack_->wake());
  }
}

}  // namespace gbesim
