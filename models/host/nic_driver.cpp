#include "models/host/nic_driver.hpp"

#include <algorithm>

// Copying an sc_event_or_list (cpu_process) inlines SystemC's sc_event_list::auto_delete, where
// GCC 12 without link-time optimisation sees a `delete this` it cannot prove is on the heap and
// warns. The list is copied from a member and lives on the stack; auto_delete deletes only lists
// the kernel marked as its own.
#pragma GCC diagnostic ignored "-Wfree-nonheap-object"

namespace gbesim {

namespace {

// The driver's own tags on its register accesses, to know which one completed.
// kind | (NIC << 4) | (descriptors << 8).
constexpr std::uint64_t kIcrTag = 1;
constexpr std::uint64_t kTailTag = 2;
constexpr std::uint64_t kTxTailTag = 3;

}  // namespace

const ModelVocabulary& NicDriver::vocabulary() {
  static const ModelVocabulary v{
      "driver",
      "<host>.driver",
      "a host's NIC driver on its CPU: interrupt handler, transmit ring (docs/host.md)",
      {EventKind::isr_start, EventKind::isr_end, EventKind::deliver, EventKind::tx_post,
       EventKind::tx_reclaim},
      {{"isr", "1 while the interrupt handler runs (isr_start to isr_end)"}}};
  return v;
}

std::vector<TracedValue> NicDriver::trace_state() const {
  return {traced(vocabulary(), "isr", in_isr_)};
}

NicDriver::NicDriver(sc_core::sc_module_name name, const CpuParams& cpu,
                     const PciMasterParams& master, const HostTxParams& tx,
                     const FrameHeader& header, std::int64_t tx_ring, NicTeam team,
                     PciBusModule& bus, StackSet& stacks, SimContext& context)
    : sc_module(name),
      cpu_(with_copy_cost(cpu)),
      two_cpus_(cpu.logical_cpus >= 2 && !stacks.empty()),
      cpus_(two_cpus_ && cpu.shared_core, cpu.pair_throughput),
      tx_(tx),
      builder_(header),
      tx_ring_(tx_ring),
      stacks_(stacks),
      round_robin_(team.round_robin),
      home_(std::move(team.home)),
      checksum_ns_(team.nics.front()->checksum_offload() ? 0.0 : cpu.per_checksum_byte_ns),
      context_(context),
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
  for (std::size_t i = 0; i < team.nics.size(); ++i) {
    ports_.push_back(Port{team.nics[i], team.addresses[i], {}, {}});
    interrupts_ |= team.nics[i]->interrupt();
  }
  master_ = bus.bus().add_master(basename(), master, this);
  declare_formulas();
  SC_THREAD(cpu_process);
  if (two_cpus_) SC_THREAD(app_process);
}

void NicDriver::declare_formulas() {
  stats_.level("tx_frames_inside", "frames",
               "posted frames not yet reclaimed: in the ring, the FIFO, the MAC, or awaiting "
               "write-back or reclaim",
               value_of([this] {
                 double n = 0;
                 for (const Port& p : ports_) n += static_cast<double>(p.nic->tx_frames_inside());
                 return n;
               }));
  stats_.level("frames_in_handler", "frames", "frames the handler holds at the end",
               value_of(in_handler_));
  const auto cpus = static_cast<double>(cpu_.logical_cpus);
  stats_.rate(
      "cpu_utilisation", "fraction",
      "share of the CPU the host's network work takes, the mean over its logical CPUs "
      "(as Windows' and IOmeter's CPU % reads)",
      share_of_time([this, cpus] { return static_cast<double>(cpu_busy_ps_.value()) / cpus; }));
  if (two_cpus_) {
    stats_.rate("interrupt_cpu_utilisation", "fraction",
                "share of the first logical CPU's time busy: interrupt handler, receive path",
                share_of_time([this] {
                  return static_cast<double>(cpu_busy_ps_.value() - app_cpu_busy_ps_);
                }));
    stats_.rate("application_cpu_utilisation", "fraction",
                "share of the second logical CPU's time busy: the applications' calls",
                share_of_time([this] { return static_cast<double>(app_cpu_busy_ps_); }));
  }
  stats_.rate("delivered_throughput", "bit/s", "DA..FCS bits processed per second",
              bits_per_second(octets_));
  stats_.rate("sent_throughput", "bit/s", "DA..FCS bits of frames sent and reclaimed per second",
              bits_per_second(tx_octets_));
  if (!stacks_.empty()) stacks_.add_totals(stats_);
  stats_.ratio("frames_per_interrupt", "frames", "frames processed per handler run",
               value_of(delivered_), value_of(handler_runs_), per_event());
  // The 2003 review's P/E index: Mb/s over CPU %. With an application, its bytes (received plus
  // acknowledged) count; without, the frames' DA..FCS bytes delivered plus sent.
  stats_.ratio("pe_index", "(Mb/s)/%",
               "Mb/s (application bytes with an application, else DA..FCS bytes, both directions) "
               "divided by CPU %",
               value_of([this] {
                 return !stacks_.empty()
                            ? static_cast<double>(stacks_.app_bytes_received() +
                                                  stacks_.app_bytes_acknowledged())
                            : static_cast<double>(octets_.value() + tx_octets_.value());
               }),
               value_of(cpu_busy_ps_), [cpus](double bytes, double busy_ps, const StatContext& c) {
                 const double cpu = 100.0 * busy_ps / cpus / static_cast<double>(c.elapsed_ps);
                 const double mbps = 8.0 * bytes * c.per_second() / 1e6;
                 return cpu > 0 ? mbps / cpu : std::nan("");
               });
}

void NicDriver::pci_done(const PciRequest& request, Picoseconds at) {
  Nic& nic = *ports_[(request.tag >> 4) & 0xF].nic;
  const auto descriptors = static_cast<std::int64_t>(request.tag >> 8);
  switch (request.tag & 0xF) {
    case kIcrTag:
      icr_read_.notify(sc_core::SC_ZERO_TIME);
      break;
    case kTailTag:
      nic.give_descriptors(descriptors, at);
      break;
    case kTxTailTag:
      nic.give_tx_descriptors(descriptors, at);
      break;
    default:
      break;
  }
}

double NicDriver::tx_cost_ns(std::int64_t frames) const {
  return static_cast<double>(frames) *
         (cpu_.per_sent_packet_ns +
          (cpu_.per_byte_ns + checksum_ns_) * static_cast<double>(tx_.frame_bytes));
}

void NicDriver::spend(double ns, int k) {
  const Picoseconds cost = round_to_ps(ns * 1000.0);
  const Picoseconds start = now_ps();
  if (cost > 0) pause(cost, k);
  // The time it took: the work itself, unless a Hyper-Threading sibling slowed it.
  const auto busy = static_cast<std::uint64_t>(now_ps() - start);
  cpu_busy_ps_ += busy;
  if (k == 1) app_cpu_busy_ps_ += busy;
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

void NicDriver::post_tx(std::size_t port, std::vector<FramePtr>& frames) {
  Port& p = ports_[port];
  const auto n = static_cast<std::uint64_t>(frames.size());
  for (auto& frame : frames) {
    p.tx_sizes.push_back(frame->size());
    p.nic->post_tx(std::move(frame));
  }
  frames.clear();
  tx_posted_ += n;
  events.emit(EventKind::tx_post, now_ps(), nullptr, p.nic->basename(),
              static_cast<std::int64_t>(n));
  register_access(port, PciCommand::memory_write, kNicRegisterTdt,
                  kTxTailTag | (port << 4) | (n << 8));
}

void NicDriver::register_access(std::size_t port, PciCommand command, std::uint64_t address,
                                std::uint64_t tag) {
  PciRequest r;
  r.target = ports_[port].nic->register_target();
  r.command = command;
  r.address = address;
  r.bytes = 4;
  r.tag = tag;
  bus_.request(master_, r);
}

void NicDriver::pause(Picoseconds cost, int k) {
  cpus_.run(k, cost);
  ++context_.activations;
  // The CPU resumes at an instant where a bus transfer may also end (a write-back making frames
  // visible, a tail write landing): it sees what the bus completes at this instant, whichever
  // of the two the simulation kernel runs first.
  bus_.settle();
}

void NicDriver::service_interrupt(std::size_t port) {
  Port& p = ports_[port];
  Nic& nic = *p.nic;
  const Picoseconds start = now_ps();
  ++handler_runs_;
  in_isr_ = true;
  events.emit(EventKind::isr_start, start, nullptr, nic.basename());
  if (cpu_.read_icr) {
    register_access(port, PciCommand::memory_read, kNicRegisterIcr, kIcrTag | (port << 4));
    wait(icr_read_);
    ++context_.activations;
  }
  handling_ = nic.take_received();
  const std::vector<ReceivedFrame>& frames = handling_;
  const std::int64_t reclaimed = nic.take_tx_completed();
  tx_reclaimed_ += static_cast<std::uint64_t>(reclaimed);
  if (reclaimed > 0)
    events.emit(EventKind::tx_reclaim, now_ps(), nullptr, nic.basename(), reclaimed);
  for (std::int64_t i = 0; i < reclaimed; ++i) {
    tx_octets_ += p.tx_sizes.front();
    p.tx_sizes.pop_front();
  }
  in_handler_ = frames.size();
  const bool raw = !tx_.to.empty() && port == 0;
  double cost_ns = cpu_.interrupt_ns;
  if (raw) cost_ns += tx_cost_ns(reclaimed);  // refill the ring as it drains
  for (const auto& f : frames)
    cost_ns += cpu_.per_packet_ns +
               (cpu_.per_byte_ns + checksum_ns_) * static_cast<double>(f.frame->size());
  std::int64_t buffers = 0;
  for (const auto& f : frames) buffers += f.descriptors;
  cost_ns += cpu_.per_refill_ns * static_cast<double>(buffers);
  const Picoseconds cost = round_to_ps(cost_ns * 1000.0);
  if (cost > 0) pause(cost);
  const Picoseconds now = now_ps();
  for (const auto& f : frames) {
    ++delivered_;
    octets_ += f.frame->size();
    latency_.record(now - f.frame->queued_ps);
    events.emit(EventKind::deliver, now, f.frame.get());
    if (!stacks_.empty()) stacks_.receive(*f.frame, now);
  }
  in_handler_ = 0;
  const auto processed = static_cast<std::int64_t>(frames.size());
  const bool any = processed > 0;
  handling_.clear();
  cpu_busy_ps_ += static_cast<std::uint64_t>(now - start);
  if (any) {
    // Hand the buffers back: a posted write of the tail register; the CPU does not wait.
    refills_ += static_cast<std::uint64_t>(buffers);
    register_access(port, PciCommand::memory_write, kNicRegisterRdt,
                    kTailTag | (port << 4) | (static_cast<std::uint64_t>(buffers) << 8));
  }
  if (raw && reclaimed > 0) {
    raw_ = build_raw(reclaimed);
    post_tx(0, raw_);
  }
  in_isr_ = false;
  events.emit(EventKind::isr_end, now, nullptr, nic.basename(), processed);
  nic.interrupt_handled(now);
}

bool NicDriver::post_stack_frames(int k) {
  while (posting_) {
    wait(posted_);
    ++context_.activations;
  }
  double frames = 0;
  double bytes = 0;
  double acks = 0;
  auto has_room = [this](std::size_t port) {
    return ports_[port].room(tx_ring_) > static_cast<std::int64_t>(ports_[port].posting.size());
  };
  while (true) {
    // Which NIC the next frame goes out of: the next in turn, or its end's own.
    std::optional<std::size_t> end;
    std::size_t port = next_port_;
    if (round_robin_) {
      if (!has_room(port)) break;
      end = stacks_.next_to_send([](std::size_t) { return true; });
      if (!end) break;
      next_port_ = (next_port_ + 1) % ports_.size();
    } else {
      end = stacks_.next_to_send([&](std::size_t i) { return has_room(home_[i]); });
      if (!end) break;
      port = home_[*end];
    }
    HostStack& stack = *stacks_.stacks()[*end];
    if (stack.next_is_pure_ack()) acks += 1;
    ports_[port].posting.push_back(round_robin_ ? stack.take_frame(ports_[port].address)
                                                : stack.take_frame());
    frames += 1;
    bytes += static_cast<double>(ports_[port].posting.back()->size());
  }
  if (frames == 0) return false;
  posting_ = true;
  spend(cpu_.per_sent_packet_ns * (frames - acks) + cpu_.per_sent_ack_ns * acks +
            checksum_ns_ * bytes,
        k);
  for (std::size_t n = 0; n < ports_.size(); ++n)
    if (!ports_[n].posting.empty()) post_tx(n, ports_[n].posting);
  posting_ = false;
  if (two_cpus_) posted_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

bool NicDriver::any_irq_asserted() const {
  for (const Port& p : ports_)
    if (p.nic->irq_asserted()) return true;
  return false;
}

void NicDriver::cpu_process() {
  ++context_.activations;  // and one for every resumption below
  if (!tx_.to.empty()) {
    // The raw sender fills the ring at start-up.
    spend(tx_cost_ns(tx_ring_ - 1));
    raw_ = build_raw(tx_ring_ - 1);
    post_tx(0, raw_);
  }
  sc_core::sc_event_or_list work = interrupts_;
  if (!stacks_.empty()) work |= stacks_.wake();
  while (true) {
    // A line may have been raised while the CPU was busy with something else.
    bool served = false;
    for (std::size_t k = 0; k < ports_.size() && !served; ++k)
      if (ports_[k].nic->irq_asserted()) {
        service_interrupt(k);
        served = true;
      }
    if (served) continue;
    if (stacks_.empty()) {
      wait(interrupts_);
      ++context_.activations;
      continue;
    }
    // The stacks' frames go into the rings as soon as they exist (a send call runs down to the
    // driver), as far as they have room: per_sent_packet_ns each.
    if (post_stack_frames()) continue;
    if (two_cpus_) {  // the calls are the second CPU's
      // Waiting for the other CPU's posting may have let a line rise unseen.
      if (!any_irq_asserted()) {
        wait(work);
        ++context_.activations;
      }
      continue;
    }
    if (auto call = stacks_.poll(now_ps())) {
      ++app_calls_;
      spend(call_cost_ns(cpu_, call->second));
      call->first->perform(call->second, now_ps());
      continue;
    }
    if (post_stack_frames()) continue;  // the poll's window update
    wait(work);
    ++context_.activations;
  }
}

void NicDriver::app_process() {
  ++context_.activations;  // and one for every resumption below
  while (true) {
    // A send call runs down to the driver on the caller's CPU.
    if (post_stack_frames(1)) continue;
    if (auto call = stacks_.poll(now_ps())) {
      ++app_calls_;
      spend(call_cost_ns(cpu_, call->second), 1);
      call->first->perform(call->second, now_ps());
      continue;
    }
    wait(stacks_.wake());
    ++context_.activations;
  }
}

}  // namespace gbesim
