#include "models/host/stack_set.hpp"

namespace gbesim {

void StackSet::add(HostStack* stack) {
  stacks_.push_back(stack);
  wake_ |= stack->wake();
}

HostStack* StackSet::owner(const Frame& frame) {
  if (stacks_.size() == 1) return stacks_.front();
  const auto p = parse_ip_frame(frame);
  if (!p) return nullptr;
  const std::uint64_t datagram = (std::uint64_t{p->source} << 16) | p->identification;
  if (p->fragment_offset_8 != 0) {
    const auto it = fragments_.find(datagram);
    if (it == fragments_.end()) return nullptr;
    HostStack* end = it->second;
    if (!p->more_fragments) fragments_.erase(it);
    return end;
  }
  for (HostStack* s : stacks_)
    if (s->peer_ip() == p->source && s->peer_port() == p->source_port &&
        s->own_port() == p->destination_port) {
      if (p->more_fragments) fragments_[datagram] = s;
      return s;
    }
  return nullptr;
}

void StackSet::receive(const Frame& frame, Picoseconds now) {
  if (HostStack* end = owner(frame)) end->receive(frame, now);
}

std::optional<std::pair<HostStack*, AppCall>> StackSet::poll(Picoseconds now) {
  for (std::size_t i = 0; i < stacks_.size(); ++i) {
    HostStack* s = stacks_[(call_turn_ + i) % stacks_.size()];
    if (auto call = s->poll(now)) {
      call_turn_ = (call_turn_ + i + 1) % stacks_.size();
      return std::make_pair(s, *call);
    }
  }
  return std::nullopt;
}

std::uint64_t StackSet::app_bytes_received() const {
  std::uint64_t n = 0;
  for (const HostStack* s : stacks_) n += s->app_bytes_received();
  return n;
}

std::uint64_t StackSet::app_bytes_acknowledged() const {
  std::uint64_t n = 0;
  for (const HostStack* s : stacks_) n += s->app_bytes_acknowledged();
  return n;
}

void StackSet::add_totals(StatGroup& stats) const {
  stats.rate("app_receive_throughput", "bit/s",
             "application bytes received per second, all the host's connections",
             bits_per_second([this] { return static_cast<double>(app_bytes_received()); }));
  stats.rate("app_send_throughput", "bit/s",
             "application bytes the peers acknowledged (udp: sent) per second, all the host's "
             "connections",
             bits_per_second([this] { return static_cast<double>(app_bytes_acknowledged()); }));
}

}  // namespace gbesim
