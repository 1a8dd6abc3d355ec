#pragma once
// The MAC client's transmit queue: a bounded FIFO of frames between the MAC's clients (traffic
// sources, a NIC's transmit path, an ideal host endpoint) and the MAC. It holds frames and
// announces each one leaving (dequeued); drop accounting and events belong to the MAC that owns
// it, which refuses a frame when the queue is full (tail drop).
// Does not model: priority classes or several queues (one FIFO, no 802.1p), or a limit in bytes
// (capacity counts frames, whatever their size). PAUSE frames the MAC sends do not pass through it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/common/frame.hpp"
#include "models/common/hook.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// A client that puts a frame in the queue at once whenever one of its own leaves it (a saturated
// source): true if, from now until `until` and for `pops` more frames of its own leaving, it will
// (its frame is in the queue, it may go on generating, and the MAC accepts its frames).
class QueueKeeper {
 public:
  virtual ~QueueKeeper() = default;
  virtual bool keeps_queue_filled(Picoseconds until, std::uint64_t pops) const = 0;
};

class TxQueue {
 public:
  explicit TxQueue(std::size_t capacity)
      : capacity_(capacity), slots_(std::min(capacity, kFirstSlots)) {}

  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == capacity_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  // Slots allocated so far (for tests).
  std::size_t slots() const { return slots_.size(); }

  // Caller checks full() first. (head_ + size_ < 2 x slots: a subtraction wraps it, where a
  // remainder would be an integer division on every frame.)
  void push(FramePtr frame) {
    if (size_ == slots_.size()) grow();
    std::size_t tail = head_ + size_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = std::move(frame);
    ++size_;
  }
  FramePtr pop() {
    FramePtr f = std::move(slots_[head_]);
    if (++head_ == slots_.size()) head_ = 0;
    --size_;
    dequeued(*f);
    return f;
  }

  // Fires with each frame as it leaves the queue (a saturated source refills from here).
  Hook<const Frame&> dequeued;

 private:
  // Slots are allocated as the queue first holds that many frames, doubling up to the capacity:
  // a saturated source keeps one or two queued, and a thousand MACs need not hold 4 MiB of
  // empty 256-frame rings. The frames move over in order, the oldest first.
  static constexpr std::size_t kFirstSlots = 4;
  void grow() {
    std::vector<FramePtr> more(std::min(capacity_, 2 * slots_.size()));
    for (std::size_t i = 0; i < size_; ++i) {
      std::size_t at = head_ + i;
      if (at >= slots_.size()) at -= slots_.size();
      more[i] = std::move(slots_[at]);
    }
    slots_.swap(more);
    head_ = 0;
  }

  std::size_t capacity_;
  std::vector<FramePtr> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace gbesim
