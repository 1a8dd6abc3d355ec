// The medium's queue of its stations' wakes (models/common/wake_heap.hpp): a member's wake is
// the instant it last asked for, and wakes come out earliest first, members of one instant in
// index order. Against a std::set of (instant, member) over long random runs.

#include "models/common/wake_heap.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

namespace gbesim {
namespace {

TEST(WakeHeap, AHandMadeOrder) {
  WakeHeap heap(4);
  heap.set(2, 500);
  heap.set(0, 700);
  heap.set(3, 500);
  heap.set(0, 900);  // put off: in place of its 700
  heap.set(1, 800);
  heap.set(1, 300);  // brought forward
  ASSERT_EQ(heap.size(), 4u);
  EXPECT_EQ(heap.at(0), 900);
  EXPECT_EQ(heap.top_at(), 300);
  EXPECT_EQ(heap.pop(), 1u);
  EXPECT_EQ(heap.pop(), 2u);  // 500, the lower index first
  EXPECT_EQ(heap.pop(), 3u);
  EXPECT_EQ(heap.at(3), kForeverPs);
  heap.set(3, 650);  // woken, it may ask again
  EXPECT_EQ(heap.pop(), 3u);
  EXPECT_EQ(heap.pop(), 0u);
  EXPECT_TRUE(heap.empty());
}

TEST(WakeHeap, MatchesAnOrderedSetOverRandomRuns) {
  std::mt19937_64 rng(18);
  for (const std::size_t members : {1u, 2u, 3u, 17u, 1024u}) {
    WakeHeap heap(members);
    std::set<std::pair<Picoseconds, std::size_t>> reference;
    std::vector<Picoseconds> pending(members, kForeverPs);
    Picoseconds now = 0;
    for (int step = 0; step < 50'000; ++step) {
      if (rng() % 3 != 0 || reference.empty()) {
        // Ask for a wake from now on, often at an instant others have too, sooner or later
        // than the one pending.
        const std::size_t m = rng() % members;
        const Picoseconds at = now + static_cast<Picoseconds>(rng() % 8) * 4'096;
        heap.set(m, at);
        reference.erase({pending[m], m});
        pending[m] = at;
        reference.insert({at, m});
      } else {
        const auto first = *reference.begin();
        ASSERT_EQ(heap.top_at(), first.first) << members << " " << step;
        ASSERT_EQ(heap.pop(), first.second) << members << " " << step;
        reference.erase(reference.begin());
        pending[first.second] = kForeverPs;
        now = first.first;
      }
      ASSERT_EQ(heap.size(), reference.size());
    }
  }
}

}  // namespace
}  // namespace gbesim
