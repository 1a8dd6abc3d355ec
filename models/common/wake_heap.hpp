#pragma once
// The pending wakes of a set of members (stations of a collision domain, by index): each member
// has at most one, the instant it last asked for, and they come out earliest first, members of
// the same instant in index order. A binary heap that knows where each member sits, so that
// moving a wake costs a walk up or down, and nothing cancelled is left behind (SystemC's timed
// notifications leave a cancelled entry in its queue until its time).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/common/time.hpp"

namespace gbesim {

class WakeHeap {
 public:
  explicit WakeHeap(std::size_t members = 0) : at_(members, kForeverPs), slot_(members, kNone) {}

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // The earliest wake's member and instant (not empty()).
  std::size_t top() const { return heap_.front(); }
  Picoseconds top_at() const { return at_[heap_.front()]; }
  // The member's pending wake, or kForeverPs.
  Picoseconds at(std::size_t member) const { return at_[member]; }

  // Wake `member` at `at`, in place of any wake pending for it.
  void set(std::size_t member, Picoseconds at) {
    const Picoseconds was = at_[member];
    at_[member] = at;
    if (slot_[member] == kNone) {
      slot_[member] = heap_.size();
      heap_.push_back(static_cast<std::uint32_t>(member));
      up(slot_[member]);
    } else if (at < was) {
      up(slot_[member]);
    } else if (at > was) {
      down(slot_[member]);
    }
  }

  // Takes the earliest wake off (not empty()); returns its member.
  std::size_t pop() {
    const std::size_t member = heap_.front();
    at_[member] = kForeverPs;
    slot_[member] = kNone;
    const std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = last;
      slot_[last] = 0;
      down(0);
    }
    return member;
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  bool before(std::uint32_t a, std::uint32_t b) const {
    return at_[a] != at_[b] ? at_[a] < at_[b] : a < b;
  }
  void place(std::size_t i, std::uint32_t member) {
    heap_[i] = member;
    slot_[member] = i;
  }
  void up(std::size_t i) {
    const std::uint32_t member = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!before(member, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, member);
  }
  void down(std::size_t i) {
    const std::uint32_t member = heap_[i];
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= heap_.size()) break;
      if (child + 1 < heap_.size() && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], member)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, member);
  }

  std::vector<Picoseconds> at_;    // each member's pending wake
  std::vector<std::size_t> slot_;  // where it sits in heap_, or kNone
  std::vector<std::uint32_t> heap_;
};

}  // namespace gbesim
