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

Picoseconds InterruptModeration::ready_ps() const {
  if (frames_ == 0) return kForeverPs;
  if (params_.moderation == "coalesce")
    return frames_ >= params_.coalesce_frames ? last_ps_
           : params_.coalesce_us > 0          ? first_ps_ + params_.coalesce_us * kPsPerUs
                                              : kForeverPs;
  if (params_.moderation != "itr") return first_ps_;
  auto delayed = [](const Pending& p, std::int64_t packet, std::int64_t absolute) {
    if (p.count == 0) return kForeverPs;
    if (packet == 0 && absolute == 0) return p.first;
    Picoseconds t = kForeverPs;
    if (packet > 0) t = std::min(t, p.last + packet * 1'024'000);
    if (absolute > 0) t = std::min(t, p.first + absolute * 1'024'000);
    return t;
  };
  const Picoseconds ready = std::min(delayed(rx_, params_.rdtr_1024ns, params_.radv_1024ns),
                                     delayed(tx_, params_.tidv_1024ns, params_.tadv_1024ns));
  if (ready >= kForeverPs) return kForeverPs;
  return std::max(ready, last_raise_ps_ + params_.itr_256ns * 256'000);
}

}  // namespace gbesim
