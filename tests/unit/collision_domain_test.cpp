// The collision domain's history and the 802.3 Deference process, on hand-drawn timelines.
// Times are plain picosecond numbers; the gap is 96 and its first part 64, as in bit times.

#include "models/medium/collision_domain.hpp"

#include <gtest/gtest.h>

namespace gbesim {
namespace {

constexpr Picoseconds kIfg = 96;
constexpr Picoseconds kPart1 = 64;

// Two stations, no delay; or three with the given delays.
CollisionDomain pair(Picoseconds d = 0) {
  return CollisionDomain({{0, d}, {d, 0}});
}

std::optional<Picoseconds> release(const CollisionDomain& c, std::size_t k, Picoseconds t0) {
  return c.deference_release(k, t0, kIfg, kPart1);
}

TEST(CollisionDomain, AnIdleMediumLetsAFrameGoAtOnce) {
  CollisionDomain c = pair();
  EXPECT_EQ(release(c, 0, 1000), 1000);
}

TEST(CollisionDomain, AfterOurOwnTransmissionTheFullGapIsWaitedAndCarrierIgnored) {
  CollisionDomain c = pair();
  c.begin(0, 0);
  c.end(0, 1000);
  EXPECT_EQ(release(c, 0, 1000), 1096);
  c.begin(1, 1010);                      // the other station's carrier arrives inside our gap
  EXPECT_EQ(release(c, 0, 1000), 1096);  // ignored: we go at the end of the gap (and collide)
}

TEST(CollisionDomain, CarrierDefersUntilItDropsPlusTheGap) {
  CollisionDomain c = pair();
  c.begin(1, 100);
  EXPECT_EQ(release(c, 0, 300), std::nullopt);  // its end is not known yet
  c.end(1, 500);
  EXPECT_EQ(release(c, 0, 300), 596);
}

TEST(CollisionDomain, CarrierInTheFirstPartOfTheGapRestartsIt) {
  CollisionDomain c = CollisionDomain({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  c.begin(1, 100);
  c.end(1, 500);
  c.begin(2, 540);  // 540 < 500 + 64
  c.end(2, 700);
  EXPECT_EQ(release(c, 0, 300), 796);
}

TEST(CollisionDomain, CarrierInTheSecondPartOfTheGapIsIgnored) {
  CollisionDomain c = CollisionDomain({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  c.begin(1, 100);
  c.end(1, 500);
  c.begin(2, 564);  // exactly at the end of part 1: part 2
  c.end(2, 900);
  EXPECT_EQ(release(c, 0, 300), 596);
  // A frame that comes just as the gap ends goes then: the carrier that arrived in the ignored
  // part starts a new deference only after the gap has ended.
  EXPECT_EQ(release(c, 0, 596), 596);
  // A frame that comes after the gap ended, while that carrier is still on, defers to it.
  EXPECT_EQ(release(c, 0, 700), 996);
}

TEST(CollisionDomain, ASignalArrivingAtTheDecisionInstantIsNotDeferredTo) {
  CollisionDomain c = pair(50);
  c.begin(1, 950);  // reaches station 0 at exactly 1000
  EXPECT_EQ(release(c, 0, 1000), 1000);
  EXPECT_EQ(release(c, 0, 1001), std::nullopt);
}

TEST(CollisionDomain, DelaysShiftWhatEachStationSees) {
  CollisionDomain c = CollisionDomain({{0, 10, 300}, {10, 0, 290}, {300, 290, 0}});
  c.begin(2, 0);
  c.end(2, 1000);
  EXPECT_EQ(release(c, 0, 100), 100);  // station 2's signal has not reached 0 yet: go (and collide)
  EXPECT_EQ(release(c, 0, 400), 1300 + kIfg);
  EXPECT_EQ(release(c, 1, 400), 1290 + kIfg);
  EXPECT_EQ(c.first_signal_from(0, 100), 300);
  EXPECT_EQ(c.first_signal_from(1, 100), 290);
  EXPECT_EQ(c.first_signal_from(0, 1300), kForeverPs);
  EXPECT_EQ(c.first_signal_from(0, 500), 500);  // already present
}

TEST(CollisionDomain, ReceptionIsClearOnlyWithoutOtherSignals) {
  CollisionDomain c = CollisionDomain({{0, 10, 20}, {10, 0, 30}, {20, 30, 0}});
  c.begin(0, 0);
  c.end(0, 600);
  EXPECT_TRUE(c.clear_reception(0, 1, 10, 610));
  c.begin(2, 595);  // reaches station 1 at 625: after station 0's frame has passed it
  c.end(2, 700);
  EXPECT_TRUE(c.clear_reception(0, 1, 10, 610));
  c.begin(1, 605);  // station 1 itself transmits before the frame has fully arrived
  c.end(1, 700);
  EXPECT_FALSE(c.clear_reception(0, 1, 10, 610));
}

TEST(CollisionDomain, PruningKeepsWhatDeferenceStillNeeds) {
  CollisionDomain c = pair(5);
  for (Picoseconds t = 0; t < 100000; t += 1000) {
    c.begin(1, t);
    c.end(1, t + 500);
  }
  c.prune(99600 - kIfg);  // the oldest waiting frame is ready at 99600
  EXPECT_EQ(release(c, 0, 99600), 99505 + kIfg);
  EXPECT_EQ(release(c, 0, 200000), 200000);
}

// The shared medium skips telling a waiting station about an end when the ended signal, where
// the station sees it, lasts until another open signal has arrived there (open_signal_by): its
// answer is still "none yet". Checked here against the answer itself, both ways.
TEST(CollisionDomain, AnEndThatTouchesAnOpenSignalChangesNoWaitingAnswer) {
  // Station 2 sees station 0 after 100 and station 1 after 300.
  const std::vector<std::vector<Picoseconds>> delays = {{0, 10, 100}, {10, 0, 300}, {100, 300, 0}};
  {
    CollisionDomain c(delays);
    c.begin(0, 0);   // at station 2 over [100, ...)
    c.begin(1, 50);  // at station 2 from 350
    EXPECT_EQ(release(c, 2, 150), std::nullopt);
    c.end(0, 300);  // leaves station 2 at 400, after station 1's signal came (350): they touch
    EXPECT_TRUE(c.open_signal_by(2, 300 + 100));
    EXPECT_EQ(release(c, 2, 150), std::nullopt);  // so nothing was learned
  }
  {
    CollisionDomain c(delays);
    c.begin(0, 0);
    c.begin(1, 50);
    c.end(0, 100);  // leaves station 2 at 200, 150 before station 1's signal comes
    EXPECT_FALSE(c.open_signal_by(2, 100 + 100));
    EXPECT_TRUE(c.open_signal_by(2, 350));  // arrival at 350 counts at 350
    EXPECT_FALSE(c.open_signal_by(2, 349));
    EXPECT_EQ(release(c, 2, 150), 200 + kIfg);  // an answer: the station must be told
    c.end(1, 400);
    EXPECT_FALSE(c.open_signal_by(2, 1000000));  // nothing open
  }
}

}  // namespace
}  // namespace gbesim
