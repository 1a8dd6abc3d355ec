#include "models/nic/descriptor_ring.hpp"

#include <algorithm>

namespace gbesim {

std::optional<RingAccess> DescriptorRing::next_fetch() {
  const std::int64_t held = cached_ + fetching_;
  if (held > p_.prefetch_threshold || host_available_ == 0 || held >= p_.cache) return std::nullopt;
  const std::int64_t n = std::min({p_.prefetch_batch, host_available_, p_.cache - held});
  fetching_ = n;
  host_available_ -= n;
  const RingAccess a{descriptor_address(fetch_index_), n, n * p_.descriptor_bytes};
  fetch_index_ += n;
  return a;
}

bool DescriptorRing::take() {
  if (cached_ == 0) return false;
  --cached_;
  return true;
}

std::uint64_t DescriptorRing::buffer_address(std::int64_t k, std::int64_t offset) const {
  return p_.buffer_base + static_cast<std::uint64_t>(
                              ((buffer_index_ + k) % p_.descriptors) * p_.buffer_bytes + offset);
}

RingAccess DescriptorRing::writeback(std::int64_t n) const {
  return {descriptor_address(writeback_index_), n, n * p_.descriptor_bytes};
}

}  // namespace gbesim
