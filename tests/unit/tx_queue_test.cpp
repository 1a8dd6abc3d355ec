// The MAC's transmit queue: a bounded FIFO on a ring. Against std::deque over long random
// sequences of pushes and pops, for capacities that make the ring wrap at every position.

#include "models/mac/tx_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>

namespace gbesim {
namespace {

TEST(TxQueue, KeepsFifoOrderAcrossEveryWrapOfTheRing) {
  FramePool pool;
  std::mt19937_64 rng(11);
  for (const std::size_t capacity : {1u, 2u, 3u, 7u, 8u, 64u}) {
    TxQueue queue(capacity);
    std::deque<std::uint64_t> reference;
    std::uint64_t next_id = 1;
    std::vector<std::uint64_t> announced;
    queue.dequeued.connect([&](const Frame& f) { announced.push_back(f.id); });
    for (int step = 0; step < 20'000; ++step) {
      const bool push = !queue.full() && (queue.empty() || rng() % 2 == 0);
      if (push) {
        FramePtr f = pool.acquire();
        f->id = next_id;
        queue.push(std::move(f));
        reference.push_back(next_id++);
      } else {
        const FramePtr f = queue.pop();
        ASSERT_EQ(f->id, reference.front()) << capacity << " " << step;
        ASSERT_EQ(announced.back(), reference.front());
        reference.pop_front();
      }
      ASSERT_EQ(queue.size(), reference.size());
      ASSERT_EQ(queue.full(), reference.size() == capacity);
      ASSERT_EQ(queue.empty(), reference.empty());
    }
  }
}

// The ring's slots are allocated as the queue first holds that many (four, then doubling up to
// the capacity), its frames moved over in order wherever the ring had wrapped to.
TEST(TxQueue, GrowsItsRingAsItFillsKeepingTheOrder) {
  FramePool pool;
  for (const std::size_t capacity : {1u, 3u, 4u, 5u, 9u, 256u}) {
    for (std::size_t offset = 0; offset < 4; ++offset) {
      TxQueue queue(capacity);
      EXPECT_EQ(queue.slots(), std::min<std::size_t>(capacity, 4));
      std::deque<std::uint64_t> reference;
      std::uint64_t next_id = 1;
      auto push = [&] {
        FramePtr f = pool.acquire();
        f->id = next_id;
        queue.push(std::move(f));
        reference.push_back(next_id++);
      };
      auto pop = [&] {
        const FramePtr f = queue.pop();
        ASSERT_EQ(f->id, reference.front()) << capacity << " " << offset;
        reference.pop_front();
      };
      // Wrap the first ring by `offset` places, then fill the queue to its capacity.
      for (std::size_t i = 0; i < offset && !queue.full(); ++i) {
        push();
        pop();
      }
      while (!queue.full()) {
        push();
        // 4 slots, then 8, 16, ... as the frames held need them, and the capacity at last.
        std::size_t slots = 4;
        while (slots < queue.size()) slots *= 2;
        ASSERT_EQ(queue.slots(), std::min(capacity, slots)) << capacity << " " << queue.size();
      }
      EXPECT_EQ(queue.size(), capacity);
      EXPECT_EQ(queue.slots(), capacity);
      while (!queue.empty()) pop();
      EXPECT_TRUE(reference.empty());
    }
  }
}

}  // namespace
}  // namespace gbesim
