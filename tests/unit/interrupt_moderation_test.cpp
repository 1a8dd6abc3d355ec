// Interrupt moderation as plain logic, against hand-computed instants (ps).

#include "models/nic/interrupt_moderation.hpp"

#include <gtest/gtest.h>

namespace gbesim {
namespace {

constexpr Picoseconds kUs = 1'000'000;

TEST(InterruptModeration, NoneFiresAtTheFirstPendingFrame) {
  NicParams p;
  p.moderation = Moderation::none;
  InterruptModeration m(p);
  EXPECT_EQ(m.ready_ps(), kForeverPs);  // nothing pending
  m.frames_visible(1, 3 * kUs, false);
  m.frames_visible(1, 5 * kUs, true);
  EXPECT_EQ(m.ready_ps(), 3 * kUs);
  m.taken();
  EXPECT_FALSE(m.pending());
  EXPECT_EQ(m.ready_ps(), kForeverPs);
}

TEST(InterruptModeration, CoalescingWaitsForFramesOrTime) {
  NicParams p;
  p.moderation = Moderation::coalesce;
  p.coalesce_frames = 3;
  p.coalesce_us = 0;
  InterruptModeration m(p);
  m.frames_visible(1, 1 * kUs, false);
  m.frames_visible(1, 2 * kUs, false);
  EXPECT_EQ(m.ready_ps(), kForeverPs);  // two of three, and no time limit
  m.frames_visible(1, 4 * kUs, true);
  EXPECT_EQ(m.ready_ps(), 4 * kUs);  // the third, a completion, counts too
  p.coalesce_us = 10;
  InterruptModeration timed(p);
  timed.frames_visible(1, 1 * kUs, false);
  EXPECT_EQ(timed.ready_ps(), 11 * kUs);  // 10 us after the first
}

// 8254x: RDTR 8 x 1.024 us = 8.192 us after the last frame, RADV 32 x 1.024 = 32.768 us after
// the first, whichever is sooner; then at least ITR 100 x 256 ns = 25.6 us after the last
// interrupt.
TEST(InterruptModeration, ItrTakesTheSoonerTimerAndKeepsTheMinimumInterval) {
  NicParams p;
  p.moderation = Moderation::itr;
  p.rdtr_1024ns = 8;
  p.radv_1024ns = 32;
  p.itr_256ns = 100;
  InterruptModeration m(p);
  m.frames_visible(1, 0, false);
  m.frames_visible(1, 5 * kUs, false);
  EXPECT_EQ(m.ready_ps(), 5 * kUs + 8'192'000);  // the packet timer from the last frame
  for (Picoseconds t = 10 * kUs; t <= 30 * kUs; t += 5 * kUs) m.frames_visible(1, t, false);
  EXPECT_EQ(m.ready_ps(), 32'768'000);  // the absolute timer from the first wins
  m.raised(20 * kUs);
  EXPECT_EQ(m.ready_ps(), 20 * kUs + 25'600'000);  // no sooner than ITR after the last
  m.taken();
  // Transmit completions use their own timers (TIDV/TADV, here 0: at once), then the ITR.
  m.frames_visible(1, 50 * kUs, true);
  EXPECT_EQ(m.ready_ps(), 50 * kUs);
}

// What sets the instant: with ITR 488 (124.928 us) and RADV 8 (8.192 us), a frame 200 us after
// the last interrupt fires on RADV at 208.192 us; one 50 us after it waits for the ITR interval
// (124.928 us), and from 58.192 us to then it is held by the ITR with its timer ended.
TEST(InterruptModeration, ItSaysWhichRuleSetsTheInstant) {
  NicParams p;
  p.moderation = Moderation::itr;
  p.itr_256ns = 488;
  p.radv_1024ns = 8;
  InterruptModeration m(p);
  m.raised(0);
  m.frames_visible(1, 200 * kUs, false);
  EXPECT_EQ(m.ready_ps(), 200 * kUs + 8'192'000);
  EXPECT_EQ(m.cause(), InterruptCause::rx_timer);
  EXPECT_FALSE(m.held_by_itr(205 * kUs));
  m.taken();
  m.frames_visible(1, 50 * kUs, false);
  EXPECT_EQ(m.ready_ps(), 124'928'000);
  EXPECT_EQ(m.cause(), InterruptCause::itr_hold);
  EXPECT_FALSE(m.held_by_itr(58 * kUs));  // RADV still running
  EXPECT_TRUE(m.held_by_itr(59 * kUs));
  EXPECT_FALSE(m.held_by_itr(124'928'000));
  p.moderation = Moderation::coalesce;
  p.coalesce_frames = 2;
  p.coalesce_us = 10;
  InterruptModeration c(p);
  c.frames_visible(1, 0, false);
  EXPECT_EQ(c.cause(), InterruptCause::coalesce_time);
  c.frames_visible(1, kUs, false);
  EXPECT_EQ(c.cause(), InterruptCause::coalesce_count);
}

}  // namespace
}  // namespace gbesim
