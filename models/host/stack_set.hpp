#pragma once
// The application ends one host's CPU runs (docs/host.md, "Several applications"): which end a
// received frame belongs to, and whose turn it is to make a call or to send a frame. Ends take
// turns one call or one frame at a time, so no connection starves another.
// A frame belongs to the end whose peer address and port and own port it carries, as a socket's
// 4-tuple; a non-first IP fragment (no ports) to the end its first fragment went to. A host with
// one end gives it every frame without looking (as before there were several).

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <systemc>

#include "models/common/stats.hpp"
#include "models/host/driver_params.hpp"
#include "models/host/host_stack.hpp"

namespace gbesim {

// What an application call costs a host's CPU: per_request_ns for a new request (a send or
// receive call of its own) and per_byte_ns for each byte it copies in.
inline double call_cost_ns(const CpuParams& cpu, const AppCall& call) {
  return (call.new_request ? cpu.per_request_ns : 0.0) +
         cpu.per_byte_ns * static_cast<double>(call.bytes);
}

class StackSet {
 public:
  void add(HostStack* stack);
  bool empty() const { return stacks_.empty(); }
  const std::vector<HostStack*>& stacks() const { return stacks_; }

  // Hands a received frame to its end; a frame of no end is dropped (counted by the caller's
  // frames delivered all the same: the CPU handled it).
  void receive(const Frame& frame, Picoseconds now);
  // The next end, in turn, with a frame to send and that ready(its index) lets send.
  template <class Ready>
  std::optional<std::size_t> next_to_send(Ready ready) {
    for (std::size_t i = 0; i < stacks_.size(); ++i) {
      const std::size_t k = (send_turn_ + i) % stacks_.size();
      if (!stacks_[k]->has_frames() || !ready(k)) continue;
      send_turn_ = (k + 1) % stacks_.size();
      return k;
    }
    return std::nullopt;
  }
  // The next application call, in turn, and the end making it.
  std::optional<std::pair<HostStack*, AppCall>> poll(Picoseconds now);
  // Fires when any end has new work (build after the last add()).
  const sc_core::sc_event_or_list& wake() const { return wake_; }

  // Totals over the ends: application bytes received, and acknowledged (udp: sent).
  std::uint64_t app_bytes_received() const;
  std::uint64_t app_bytes_acknowledged() const;
  // Reports the totals as rates of the host's CPU: app_receive_throughput, app_send_throughput.
  void add_totals(StatGroup& stats) const;

 private:
  HostStack* owner(const Frame& frame);

  std::vector<HostStack*> stacks_;
  std::size_t send_turn_ = 0;
  std::size_t call_turn_ = 0;
  sc_core::sc_event_or_list wake_;
  // Datagrams whose first fragment arrived and whose last has not: (source IP, IP id) -> end.
  std::map<std::uint64_t, HostStack*> fragments_;
};

}  // namespace gbesim
