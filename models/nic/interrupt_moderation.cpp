#include "models/nic/interrupt_moderation.hpp"

#include <algorithm>

namespace gbesim {

void InterruptModeration::frames_visible(std::int64_t n, Picoseconds now, bool transmit) {
  if (frames_ == 0) first_ps_ = now;
  frames_ += n;
  last_ps_ = now;
  Pending& p = transmit ? tx_ : rx_;
  if (p.count == 0) p.first = now;
  p.count += n;
  p.last = now;
}

void InterruptModeration::taken() {
  frames_ = 0;
  rx_ = {};
  tx_ = {};
}

const char* to_string(InterruptCause c) {
  switch (c) {
    case InterruptCause::immediate:
      return "immediate";
    case InterruptCause::coalesce_count:
      return "coalesce_count";
    case InterruptCause::coalesce_time:
      return "coalesce_time";
    case InterruptCause::rx_timer:
      return "rx_timer";
    case InterruptCause::tx_timer:
      return "tx_timer";
    case InterruptCause::itr_hold:
      return "itr_hold";
  }
  return "?";
}

std::pair<Picoseconds, InterruptCause> InterruptModeration::ready() const {
  if (frames_ == 0) return {kForeverPs, InterruptCause::immediate};
  if (params_.moderation == Moderation::coalesce) {
    if (frames_ >= params_.coalesce_frames) return {last_ps_, InterruptCause::coalesce_count};
    if (params_.coalesce_us > 0)
      return {first_ps_ + params_.coalesce_us * kPsPerUs, InterruptCause::coalesce_time};
    return {kForeverPs, InterruptCause::coalesce_count};
  }
  if (params_.moderation != Moderation::itr) return {first_ps_, InterruptCause::immediate};
  const auto [rx, tx] = timers();
  const Picoseconds ready = std::min(rx, tx);
  if (ready >= kForeverPs) return {kForeverPs, InterruptCause::rx_timer};
  if (itr_floor() > ready) return {itr_floor(), InterruptCause::itr_hold};
  return {ready, rx <= tx ? InterruptCause::rx_timer : InterruptCause::tx_timer};
}

std::pair<Picoseconds, Picoseconds> InterruptModeration::timers() const {
  auto delayed = [](const Pending& p, std::int64_t packet, std::int64_t absolute) {
    if (p.count == 0) return kForeverPs;
    if (packet == 0 && absolute == 0) return p.first;
    Picoseconds t = kForeverPs;
    if (packet > 0) t = std::min(t, p.last + packet * 1'024'000);
    if (absolute > 0) t = std::min(t, p.first + absolute * 1'024'000);
    return t;
  };
  return {delayed(rx_, params_.rdtr_1024ns, params_.radv_1024ns),
          delayed(tx_, params_.tidv_1024ns, params_.tadv_1024ns)};
}

bool InterruptModeration::held_by_itr(Picoseconds now) const {
  if (frames_ == 0 || params_.moderation != Moderation::itr) return false;
  const auto [rx, tx] = timers();
  return std::min(rx, tx) <= now && now < itr_floor();
}

}  // namespace gbesim
