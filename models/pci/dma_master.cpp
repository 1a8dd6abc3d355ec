#include "models/pci/dma_master.hpp"

#include <algorithm>

namespace gbesim {

DmaMaster::DmaMaster(sc_core::sc_module_name name, const DmaTrafficParams& traffic,
                     const PciMasterParams& master, std::size_t target, PciBusModule& bus,
                     SimContext& context)
    : sc_module(name),
      params_(traffic),
      bus_(bus),
      target_(target),
      context_(context),
      stats_(context.stats, std::string(this->name())),
      requests_(stats_, "requests", "requests", "requests issued"),
      completed_(stats_, "requests_completed", "requests", "requests whose last byte moved"),
      bytes_(stats_, "bytes", "bytes", "bytes moved by completed requests"),
      behind_(stats_, "requests_late", "requests",
              "requests issued late because max_outstanding were already waiting") {
  index_ = bus.bus().add_master(basename(), master, this);
  if (traffic.rate_mbps > 0)
    gap_ps_ = round_to_ps(static_cast<double>(traffic.request_bytes) * 1e6 / traffic.rate_mbps);
  next_ps_ = traffic.start_ns * kPsPerNs;
  stats_.rate("mbps", "MB/s", "bytes moved per second (10^6 bytes/s)",
              megabytes_per_second(bytes_));
  SC_THREAD(run);
}

void DmaMaster::issue() {
  PciRequest r;
  r.target = target_;
  r.command = params_.command;
  r.bytes = params_.request_bytes;
  r.address = address_;
  address_ = (address_ + static_cast<std::uint64_t>(params_.request_bytes)) % (1ULL << 30);
  ++requests_;
  ++outstanding_;
  bus_.request(index_, r);
}

void DmaMaster::pci_done(const PciRequest& request, Picoseconds) {
  --outstanding_;
  ++completed_;
  bytes_ += static_cast<std::uint64_t>(request.bytes);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void DmaMaster::run() {
  while (true) {
    ++context_.activations;  // the start, and every resumption
    const Picoseconds now = now_ps();
    if (now < next_ps_) {
      wait(to_sc_time(next_ps_ - now));
      continue;
    }
    if (outstanding_ >= params_.max_outstanding) {
      wait(wake_);
      continue;
    }
    if (gap_ps_ > 0 && now > next_ps_) ++behind_;  // due earlier, held back by the bus
    issue();
    next_ps_ = gap_ps_ > 0 ? std::max(next_ps_ + gap_ps_, now) : now;
  }
}

}  // namespace gbesim
