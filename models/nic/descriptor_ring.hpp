#pragma once
// One descriptor ring as a NIC's DMA engine sees it: plain logic, no kernel. The driver posts
// descriptors (a tail-register write makes them visible); the engine fetches them into its
// on-chip cache in batches -- when what it holds or is fetching drops to prefetch_threshold, up
// to prefetch_batch and never past descriptor_cache -- uses one per buffer, and writes status
// back over the descriptors of finished frames in ring order. Positions wrap modulo the ring
// size; a fetch or write-back that wraps is one access of consecutive addresses (as the model
// issues it; a real engine splits it at the ring's end).
//
// Does not model: the descriptor formats' fields (only their size in bytes), a ring the driver
// lets the engine overrun (the driver never posts more than the ring holds less one), and
// head/tail registers the engine writes back to host memory.

#include <cstdint>
#include <optional>

namespace gbesim {

struct DescriptorRingParams {
  std::uint64_t ring_base = 0;    // host address of descriptor 0
  std::uint64_t buffer_base = 0;  // host address of buffer 0
  std::int64_t descriptors = 256;
  std::int64_t descriptor_bytes = 16;
  std::int64_t buffer_bytes = 2048;
  std::int64_t cache = 64;               // descriptors the engine holds on chip
  std::int64_t prefetch_threshold = 16;  // fetch when it holds (or fetches) at most this many
  std::int64_t prefetch_batch = 16;      // descriptors per fetch, at most
};

// A bus access over descriptors: `count` of them from `address`.
struct RingAccess {
  std::uint64_t address = 0;
  std::int64_t count = 0;
  std::int64_t bytes = 0;
};

class DescriptorRing {
 public:
  explicit DescriptorRing(const DescriptorRingParams& params) : p_(params) {}

  // The driver made n more descriptors visible (a tail write has landed).
  void post(std::int64_t n) { host_available_ += n; }
  // The fetch to issue now, if one is due; it is then in flight until fetch_done().
  std::optional<RingAccess> next_fetch();
  void fetch_done() {
    cached_ += fetching_;
    fetching_ = 0;
  }

  // Uses a cached descriptor (one buffer); false if none is on chip.
  bool take();
  // Descriptors taken for a frame that was then dropped return to the cache.
  void give_back(std::int64_t n) { cached_ += n; }
  // The address of byte `offset` of the `k`-th buffer of the frame being filled (buffers are
  // used in ring order, from the first one not yet consumed).
  std::uint64_t buffer_address(std::int64_t k, std::int64_t offset) const;
  // The frame being filled is done with its n buffers: the next frame starts after them.
  void consume(std::int64_t n) { buffer_index_ += n; }

  // The status write-back over n descriptors of finished frames, from the oldest not yet
  // written back; written_back(n) once it has landed.
  RingAccess writeback(std::int64_t n) const;
  void written_back(std::int64_t n) { writeback_index_ += n; }

  std::int64_t cached() const { return cached_; }
  std::int64_t fetching() const { return fetching_; }
  std::int64_t host_available() const { return host_available_; }
  // No descriptor on chip, none coming and none posted: the engine must wait for the driver.
  bool starved() const { return cached_ == 0 && fetching_ == 0 && host_available_ == 0; }

 private:
  std::uint64_t descriptor_address(std::int64_t index) const {
    return p_.ring_base +
           static_cast<std::uint64_t>((index % p_.descriptors) * p_.descriptor_bytes);
  }

  DescriptorRingParams p_;
  std::int64_t cached_ = 0;           // on chip, free
  std::int64_t fetching_ = 0;         // being fetched
  std::int64_t host_available_ = 0;   // posted by the driver, not yet fetched
  std::int64_t fetch_index_ = 0;      // ring position of the next fetch
  std::int64_t writeback_index_ = 0;  // ring position of the next write-back
  std::int64_t buffer_index_ = 0;     // ring position of the next frame's first buffer
};

}  // namespace gbesim
