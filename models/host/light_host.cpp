#include "models/host/light_host.hpp"

namespace gbesim {

LightHost::LightHost(sc_core::sc_module_name name, const CpuParams& cpu, Mac& mac, StackSet& stacks,
                     SimContext& context)
    : sc_module(name),
      cpu_(with_copy_cost(cpu)),
      mac_(mac),
      stacks_(stacks),
      context_(context),
      stats_(context.stats, std::string(this->name())),
      delivered_(stats_, "frames_delivered", "frames", "frames the CPU took in"),
      octets_(stats_, "octets_delivered", "bytes", "their DA..FCS bytes"),
      interrupts_(stats_, "interrupts", "interrupts", "times the CPU took received frames in"),
      cpu_busy_ps_(stats_, "cpu_busy_time", "ps", "CPU time spent on frames and calls"),
      sent_(stats_, "frames_sent", "frames", "frames the CPU posted to the MAC"),
      app_calls_(stats_, "app_calls", "calls", "the applications' send/receive calls") {
  mac.attach_client(this);
  stats_.rate("cpu_utilisation", "fraction", "share of the CPU the host's network work takes",
              share_of_time(cpu_busy_ps_));
  stacks_.add_totals(stats_);
  SC_THREAD(cpu_process);
}

void LightHost::mac_receive(FramePtr frame, Picoseconds) {
  inbox_.push_back(std::move(frame));
  arrived_.notify(sc_core::SC_ZERO_TIME);
}

void LightHost::mac_tx_done(const Frame&, Picoseconds, bool) {
  room_.notify(sc_core::SC_ZERO_TIME);
}

void LightHost::spend(double ns) {
  const Picoseconds cost = round_to_ps(ns * 1000.0);
  if (cost > 0) {
    wait(to_sc_time(cost));
    ++context_.activations;
  }
  cpu_busy_ps_ += static_cast<std::uint64_t>(cost);
}

bool LightHost::post_frames() {
  // Frames already paid for wait for room first (the station's traffic sources share the queue).
  if (!posting_.empty()) {
    if (mac_.tx_queue().full()) return false;
    enqueue_posting();
    return true;
  }
  const std::size_t room = mac_.tx_queue().capacity() - mac_.tx_queue().size();
  double cost = 0;
  while (posting_.size() < room) {
    const auto end = stacks_.next_to_send([](std::size_t) { return true; });
    if (!end) break;
    HostStack& stack = *stacks_.stacks()[*end];
    cost += stack.next_is_pure_ack() ? cpu_.per_sent_ack_ns : cpu_.per_sent_packet_ns;
    posting_.push_back(stack.take_frame());
    cost += cpu_.per_checksum_byte_ns * static_cast<double>(posting_.back()->size());
  }
  if (posting_.empty()) return false;
  spend(cost);
  sent_ += posting_.size();
  enqueue_posting();
  return true;
}

void LightHost::enqueue_posting() {
  std::size_t moved = 0;
  while (moved < posting_.size() && !mac_.tx_queue().full())
    mac_.enqueue(std::move(posting_[moved++]));
  posting_.erase(posting_.begin(), posting_.begin() + static_cast<std::ptrdiff_t>(moved));
}

void LightHost::cpu_process() {
  ++context_.activations;  // and one for every resumption below
  const sc_core::sc_event_or_list work = arrived_ | room_ | stacks_.wake();
  while (true) {
    if (!inbox_.empty()) {
      handling_.swap(inbox_);
      ++interrupts_;
      double cost = cpu_.interrupt_ns;
      for (const auto& f : handling_)
        cost += cpu_.per_packet_ns + cpu_.per_refill_ns +
                (cpu_.per_byte_ns + cpu_.per_checksum_byte_ns) * static_cast<double>(f->size());
      spend(cost);
      const Picoseconds now = now_ps();
      for (const auto& f : handling_) {
        ++delivered_;
        octets_ += f->size();
        stacks_.receive(*f, now);
      }
      handling_.clear();
      continue;
    }
    if (post_frames()) continue;
    if (auto call = stacks_.poll(now_ps())) {
      ++app_calls_;
      spend(call_cost_ns(cpu_, call->second));
      call->first->perform(call->second, now_ps());
      continue;
    }
    if (post_frames()) continue;
    wait(work);
    ++context_.activations;
  }
}

}  // namespace gbesim
