// The collision domain's history and the 802.3 Deference process, on hand-drawn timelines.
// Times are plain picosecond numbers; the gap is 96 and its first part 64, as in bit times.

#include "models/medium/collision_domain.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "models/common/rng.hpp"

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

// An independent reference for the three queries, straight from the definitions: every signal
// kept, as seen at the station, sorted and merged into busy periods, and the Deference process
// followed from the oldest of them; the collision onset and a clear reception by looking at
// every signal. The domain's own versions look only as far back as they must (deference from
// the latest busy period after a quiet full gap, the others from the newest ends back); on
// random dense histories -- overlapping signals, long bursts, open transmissions, prunes -- every
// answer must be the same.
struct Sent {
  std::size_t station;
  Picoseconds start;
  Picoseconds stop;  // kForeverPs while open
};

struct Busy {
  Picoseconds from, to;
  bool own;
};

std::vector<Busy> reference_periods(const std::vector<Sent>& kept,
                                    const std::vector<std::vector<Picoseconds>>& delay,
                                    std::size_t k) {
  std::vector<Busy> signals;
  for (const Sent& s : kept) {
    const Picoseconds d = s.station == k ? 0 : delay[s.station][k];
    signals.push_back(
        {s.start + d, s.stop == kForeverPs ? kForeverPs : s.stop + d, s.station == k});
  }
  std::sort(signals.begin(), signals.end(), [](const Busy& a, const Busy& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  std::vector<Busy> busy;
  for (const Busy& b : signals) {
    if (!busy.empty() && b.from <= busy.back().to) {
      busy.back().to = std::max(busy.back().to, b.to);
      busy.back().own = busy.back().own || b.own;
    } else {
      busy.push_back(b);
    }
  }
  return busy;
}

std::optional<Picoseconds> reference_release(const std::vector<Sent>& kept,
                                             const std::vector<std::vector<Picoseconds>>& delay,
                                             std::size_t k, Picoseconds t0) {
  const std::vector<Busy> busy = reference_periods(kept, delay, k);
  if (busy.empty() || busy.front().from >= t0) return t0;
  std::size_t p = 0;
  while (true) {
    if (busy[p].to == kForeverPs) return std::nullopt;
    if (!busy[p].own && p + 1 < busy.size() && busy[p + 1].from < busy[p].to + kPart1) {
      ++p;
      continue;
    }
    const Picoseconds gap_end = busy[p].to + kIfg;
    if (gap_end >= t0) return gap_end;
    std::size_t q = p + 1;
    while (q < busy.size() && busy[q].to <= gap_end) ++q;
    if (q < busy.size() && std::max(busy[q].from, gap_end) < t0) {
      p = q;
      continue;
    }
    return t0;
  }
}

TEST(CollisionDomain, EveryAnswerMatchesAReferenceThatLooksAtTheWholeHistory) {
  RngStream rng(7, "collision-domain-reference");
  int compared = 0;
  // Trials 60 on have delays of the sum form (cables to a repeater): part_i + part_k + a rest
  // of up to 0, 1, 5 or 40 ps, so the busy periods come from the repeater's -- where the rests
  // spread, not always (signals within the spread of touching are merged at the station).
  std::uint64_t from_repeater = 0;
  std::uint64_t merged_here = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const bool sum_form = trial >= 60;
    const std::size_t n = (sum_form ? 3 : 2) + rng.uniform_below(6);
    std::vector<std::vector<Picoseconds>> delay(n, std::vector<Picoseconds>(n, 0));
    std::vector<Picoseconds> part(n);
    for (Picoseconds& p : part) p = rng.uniform_range(40, 150);
    const Picoseconds spread = std::array<Picoseconds, 4>{0, 1, 5, 40}[trial % 4];
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        delay[i][j] = delay[j][i] = sum_form
                                        ? part[i] + part[j] + rng.uniform_range(-spread, spread)
                                        : rng.uniform_range(0, trial % 3 == 0 ? 20 : 300);
    Picoseconds max_delay = 0;
    for (const auto& row : delay)
      max_delay = std::max(max_delay, *std::max_element(row.begin(), row.end()));
    CollisionDomain c(delay);
    std::vector<Sent> all;
    std::vector<Picoseconds> pruned_to;  // horizons passed to prune
    Picoseconds now = 0;
    Picoseconds horizon = -kForeverPs;
    for (int step = 0; step < 300; ++step) {
      // Dense traffic: steps of a fraction of a gap, transmissions from a few bits to a burst.
      now += rng.uniform_range(0, step % 50 < 40 ? 60 : 400);
      const std::size_t s = rng.uniform_below(n);
      if (!c.transmitting(s)) {
        c.begin(s, now);
        all.push_back({s, now, kForeverPs});
      } else if (rng.uniform_below(3) != 0 || now - c.current_start(s) > 2000) {
        c.end(s, now);
        for (Sent& t : all)
          if (t.station == s && t.stop == kForeverPs) t.stop = now;
      }
      if (step % 97 == 96) {
        horizon = now - 500;
        c.prune(horizon);
      }
      std::vector<Sent> kept;
      for (const Sent& t : all)
        if (t.stop == kForeverPs || t.stop + max_delay >= horizon) kept.push_back(t);
      // Queries as the MAC makes them (t0 a recent instant) and from further back.
      for (int q = 0; q < 3; ++q) {
        const std::size_t k = rng.uniform_below(n);
        const Picoseconds t0 = now - rng.uniform_range(0, q == 0 ? 200 : 1500);
        if (t0 - kIfg - kPart1 < horizon) continue;  // before what a prune keeps for deference
        ASSERT_EQ(release(c, k, t0), reference_release(kept, delay, k, t0))
            << "trial " << trial << " step " << step << " station " << k << " t0 " << t0;
        // The collision onset for a transmission started at t0, and a clear reception over
        // [t0, t0 + span) from a sender.
        Picoseconds first = kForeverPs;
        const std::size_t sender = (k + 1) % n;
        const Picoseconds to = t0 + rng.uniform_range(1, 800);
        bool clear = true;
        for (const Sent& t : kept) {
          const Picoseconds d = t.station == k ? 0 : delay[t.station][k];
          const Picoseconds leave = t.stop == kForeverPs ? kForeverPs : t.stop + d;
          if (leave <= t0) continue;
          if (t.station != k) first = std::min(first, std::max(t.start + d, t0));
          if (t.station != sender && t.start + d < to) clear = false;
        }
        ASSERT_EQ(c.first_signal_from(k, t0), first) << "trial " << trial << " step " << step;
        ASSERT_EQ(c.clear_reception(sender, k, t0, to), clear)
            << "trial " << trial << " step " << step;
        // The busy periods from an instant on: every true one that ends at or after it is
        // there with its end, and with its start and own flag too if it starts at or after it;
        // every one given that starts at or after it is a true one.
        const Picoseconds from = t0 - rng.uniform_range(0, 800);
        const std::vector<Busy> truth = reference_periods(kept, delay, k);
        const std::vector<CollisionDomain::BusyPeriod> given = c.busy_periods(k, from);
        for (const Busy& b : truth) {
          if (b.to < from) continue;
          const auto it =
              std::find_if(given.begin(), given.end(), [&](const CollisionDomain::BusyPeriod& g) {
                return g.end == b.to && (b.from < from || (g.start == b.from && g.own == b.own));
              });
          ASSERT_NE(it, given.end()) << "trial " << trial << " step " << step << " from " << from
                                     << ": [" << b.from << ", " << b.to << ") missing";
        }
        for (const CollisionDomain::BusyPeriod& g : given) {
          if (g.start < from) continue;
          ASSERT_TRUE(std::any_of(
              truth.begin(), truth.end(),
              [&](const Busy& b) { return b.from == g.start && b.to == g.end && b.own == g.own; }))
              << "trial " << trial << " step " << step << " from " << from;
        }
        ++compared;
      }
    }
    if (sum_form) {
      from_repeater += c.periods_from_repeater();
      merged_here += c.periods_merged_here();
    }
  }
  EXPECT_GT(compared, 40000);
  // Most questions in the sum-form trials were answered from the repeater's periods, some not.
  EXPECT_GT(from_repeater, merged_here);
  EXPECT_GT(merged_here, 0u);
}

// A station's Deference cycle can begin more than a gap before its frame became ready, and
// what it began with still matters. Station 0 sends [0, 100); station 1's signal [50, 1000)
// keeps the carrier up at station 0 until 1005, so the busy period [0, 1005) holds station 0's
// own transmission: its gap is the whole 96 with carrier ignored, and station 0, waiting since
// 500, goes at 1101 although station 1's next signal arrives at 1045. Pruned to the ready time
// less the gap and its first part (340) -- a tempting rule that is wrong --
// the history loses station 0's own signal (gone everywhere by 105): the period left is
// [55, 1005) without it, the signal at 1045 restarts the gap, and the answer is 1205 + 96.
// prune_for_deference keeps the signal until that period is over at station 0.
// Station 0 sends [0, 100), station 1 [50, 1000) and [1040, 1200), 5 ps apart.
CollisionDomain own_period_history(CollisionDomain c) {
  c.begin(0, 0);
  c.begin(1, 50);
  c.end(0, 100);
  c.end(1, 1000);
  c.begin(1, 1040);
  c.end(1, 1200);
  return c;
}

TEST(CollisionDomain, PruningKeepsTheBusyPeriodAStationsOwnTransmissionBegan) {
  auto history = [] { return own_period_history(pair(5)); };
  const Picoseconds wanted = 500 - kIfg - kPart1;
  {
    CollisionDomain c = history();
    c.prune(wanted);  // what the rule before did
    EXPECT_EQ(release(c, 0, 500), 1301);
  }
  {
    CollisionDomain c = history();
    EXPECT_EQ(release(c, 0, 500), 1101);
    EXPECT_EQ(c.prune_for_deference(wanted), 100 + 5);  // stops at station 0's transmission
    EXPECT_EQ(release(c, 0, 500), 1101);
  }
  {
    // Released at once at 1400 (no carrier for a full gap before): every period is over by
    // 1240, so everything goes, and the walk goes on from 1400 needing nothing before it.
    CollisionDomain c = history();
    EXPECT_EQ(release(c, 0, 1400), 1400);
    EXPECT_EQ(c.prune_for_deference(1400 - kIfg - kPart1), 1400 - kIfg - kPart1);
    EXPECT_EQ(release(c, 0, 1450), 1450);
  }
}

// The same history, station 0 now in backoff until 1050 (not deferring: it asks only after
// the prune): its own transmission's busy period at it, [0, 1005), is kept until it is over
// there, with both forms of the delays (a pair's matrix; three stations on a repeater).
// Pruned as the rule before did, station 0's answer is 1,301 again instead of 1,101. Once the
// period is over it goes; and with a gap longer than the shortest signal nothing goes at all.
TEST(CollisionDomain, AStationsOwnBusyPeriodIsKeptUntilItIsOverThere) {
  for (const bool sum_form : {false, true}) {
    SCOPED_TRACE(sum_form ? "sum form" : "matrix");
    auto history = [&] {
      return own_period_history(sum_form ? CollisionDomain({{0, 5, 5}, {5, 0, 5}, {5, 5, 0}})
                                         : pair(5));
    };
    {
      CollisionDomain c = history();
      c.prune(850);
      EXPECT_EQ(release(c, 0, 1050), 1301);
    }
    {
      CollisionDomain c = history();
      EXPECT_EQ(c.prune_for_deference(850), 100 + 5);  // stops at station 0's transmission
      EXPECT_EQ(release(c, 0, 1050), 1101);
    }
    {
      CollisionDomain c = history();
      EXPECT_EQ(c.prune_for_deference(1150), 1150);  // over at 1005 (at station 1 at 1000)
      EXPECT_EQ(c.prune_for_deference(1300), 1300);  // station 1's last, alone, over at 1200
    }
    {
      CollisionDomain c = history();
      c.set_shortest_signal(kIfg, kIfg + 1);
      EXPECT_EQ(c.prune_for_deference(850), -kForeverPs);
    }
  }
}

// A signal that joins a station's own busy period to a later one is kept as long as that
// period goes on. Station 0 sends [1000, 1100); station 2's [700, 1000) reaches it over
// [1000, 1300) and station 1's [1290, 2000) over [1295, 2005): one busy period [1000, 2005)
// holding station 0's own signal, so station 0, asking about 2050, goes at 2101 although station
// 1's [2040, 2200) arrives at 2045. Station 2's signal ends first and has left every station by
// 1301; forgotten, it would leave [1000, 1100) and [1295, 2005) apart, the latter without the
// own flag, and the answer would be 2205 + 96. (Delays not of the sum form: station 2 hears
// station 0 301 ps after it sends, station 0 hears station 2 after 300.)
TEST(CollisionDomain, ASignalJoiningAStationsOwnBusyPeriodToTheNextIsKept) {
  CollisionDomain c({{0, 5, 301}, {5, 0, 300}, {300, 300, 0}});
  c.begin(2, 700);
  c.end(2, 1000);
  c.begin(0, 1000);
  c.end(0, 1100);
  c.begin(1, 1290);
  c.end(1, 2000);
  c.begin(1, 2040);
  c.end(1, 2200);
  EXPECT_EQ(c.prune_for_deference(1350), 1000 + 301);  // not even station 2's: at 0 until 2005
  EXPECT_EQ(c.prune_for_deference(1900), 1000 + 301);
  EXPECT_EQ(release(c, 0, 2050), 2101);
  c.prune(1350);  // what pruning by each signal's sender alone would forget
  EXPECT_EQ(release(c, 0, 2050), 2301);
}

// Pruned at every step with prune_for_deference, for the questions the MACs ask (each station
// about its waiting frame's ready time, never earlier than its last), every answer is the one
// the whole history gives. Every transmission lasts at least a gap, as a MAC's does (preamble
// and jam): a walk that starts from a busy period in the wrong state is back in step by that
// period's end (docs/medium.md), and every transmission is kept until each busy period it is
// in is over.
TEST(CollisionDomain, PrunedAtEveryStepEveryAnswerIsTheWholeHistorys) {
  RngStream rng(11, "collision-domain-prune");
  int compared = 0;
  int kept_longer = 0;  // prunes held back by a busy period not yet over
  for (int trial = 0; trial < 80; ++trial) {
    const bool sum_form = trial % 2 == 1;
    const std::size_t n = (sum_form ? 3 : 2) + rng.uniform_below(6);
    std::vector<std::vector<Picoseconds>> delay(n, std::vector<Picoseconds>(n, 0));
    std::vector<Picoseconds> part(n);
    for (Picoseconds& p : part) p = rng.uniform_range(40, 150);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        delay[i][j] = delay[j][i] = sum_form ? part[i] + part[j] + rng.uniform_range(-5, 5)
                                             : rng.uniform_range(0, trial % 3 == 0 ? 20 : 300);
    CollisionDomain c(delay);
    std::vector<Sent> all;
    std::vector<Picoseconds> ready(n, kForeverPs);  // each station's waiting frame, if any
    Picoseconds now = 0;
    for (int step = 0; step < 400; ++step) {
      now += rng.uniform_range(0, step % 50 < 40 ? 60 : 400);
      const std::size_t s = rng.uniform_below(n);
      if (!c.transmitting(s)) {
        c.begin(s, now);
        all.push_back({s, now, kForeverPs});
      } else if (now - c.current_start(s) >= kIfg &&
                 (rng.uniform_below(3) != 0 || now - c.current_start(s) > 2000)) {
        c.end(s, now);
        for (Sent& t : all)
          if (t.station == s && t.stop == kForeverPs) t.stop = now;
      }
      // A station gets a frame (ready now, or after a backoff), or its frame goes.
      const std::size_t k = rng.uniform_below(n);
      if (ready[k] == kForeverPs) {
        ready[k] = now + (rng.uniform_below(3) == 0 ? rng.uniform_range(0, 500) : 0);
      } else if (rng.uniform_below(4) == 0) {
        ready[k] = kForeverPs;
      }
      // Each station with a frame ready by now asks about it.
      for (std::size_t q = 0; q < n; ++q) {
        if (ready[q] > now) continue;
        ASSERT_EQ(release(c, q, ready[q]), reference_release(all, delay, q, ready[q]))
            << "trial " << trial << " step " << step << " station " << q << " t0 " << ready[q];
        Picoseconds first = kForeverPs;
        for (const Sent& t : all) {
          if (t.station == q) continue;
          const Picoseconds d = delay[t.station][q];
          if (t.stop != kForeverPs && t.stop + d <= ready[q]) continue;
          first = std::min(first, std::max(t.start + d, ready[q]));
        }
        ASSERT_EQ(c.first_signal_from(q, ready[q]), first) << "trial " << trial;
        ++compared;
      }
      const Picoseconds oldest = std::min(now, *std::min_element(ready.begin(), ready.end()));
      const Picoseconds wanted = oldest - kIfg - kPart1;
      const Picoseconds horizon = c.prune_for_deference(wanted);
      if (horizon < wanted) ++kept_longer;
    }
  }
  EXPECT_GT(compared, 20000);
  EXPECT_GT(kept_longer, 1000);
}

TEST(CollisionDomain, ABriefSignalNearTheStartOfARepeatersPeriodIsSeenApart) {
  // Parts 100 ps each; station 3 hears station 0 40 ps later and station 1 40 ps sooner than
  // the parts say. At the repeater station 1's 2 ps signal comes 1 ps after station 0's long
  // one began (one period); at station 3 it comes 79 ps before: two periods, so the gap is
  // timed from the brief one (163 + 96), and station 0's carrier at 240 falls in the gap's
  // second part (after 163 + 64) and is ignored.
  const std::vector<std::vector<Picoseconds>> delays = {
      {0, 200, 200, 240}, {200, 0, 200, 160}, {200, 200, 0, 200}, {240, 160, 200, 0}};
  CollisionDomain c(delays);
  c.begin(0, 0);
  c.begin(1, 1);
  c.end(1, 3);
  c.end(0, 1000);
  const std::vector<CollisionDomain::BusyPeriod> seen = c.busy_periods(3, -kForeverPs);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].start, 161);
  EXPECT_EQ(seen[0].end, 163);
  EXPECT_EQ(seen[1].start, 240);
  EXPECT_EQ(seen[1].end, 1240);
  EXPECT_EQ(release(c, 3, 200), 163 + kIfg);
  EXPECT_EQ(c.periods_merged_here(), 2u);  // the repeater's period is unsure: merged here
}

TEST(CollisionDomain, AStationsOwnSignalBridgingTwoOthersAtTheRepeaterLeavesThemApartThere) {
  // Parts 100 ps each, no rest: every pair 200 ps apart. At the repeater station 0's signal
  // [100, 1100), station 2's own [1100, 1300) and station 1's [1250, 2250) make one period; at
  // station 2 the others' come 100 ps later and its own 100 ps sooner: station 0's [200, 1200)
  // holding its own [1000, 1200), then station 1's [1350, 2350) after a 150 ps gap -- two
  // periods, found from the repeater's (the others merged without the one own signal).
  const std::vector<std::vector<Picoseconds>> delays = {
      {0, 200, 200}, {200, 0, 200}, {200, 200, 0}};
  CollisionDomain c(delays);
  c.begin(0, 0);
  c.end(0, 1000);
  c.begin(2, 1000);
  c.begin(1, 1150);
  c.end(2, 1200);
  c.end(1, 2150);
  const std::vector<CollisionDomain::BusyPeriod> seen = c.busy_periods(2, -kForeverPs);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].start, 200);
  EXPECT_EQ(seen[0].end, 1200);
  EXPECT_TRUE(seen[0].own);
  EXPECT_EQ(seen[1].start, 1350);
  EXPECT_EQ(seen[1].end, 2350);
  EXPECT_FALSE(seen[1].own);
  EXPECT_EQ(c.periods_from_repeater(), 1u);
  EXPECT_EQ(c.periods_merged_here(), 0u);
  // Station 0 (its own signal first in the repeater's period): its own [0, 1000), then station
  // 2's [1200, 1400) and station 1's [1350, 2350) as one period.
  const std::vector<CollisionDomain::BusyPeriod> at0 = c.busy_periods(0, -kForeverPs);
  ASSERT_EQ(at0.size(), 2u);
  EXPECT_EQ(at0[0].start, 0);
  EXPECT_EQ(at0[0].end, 1000);
  EXPECT_TRUE(at0[0].own);
  EXPECT_EQ(at0[1].start, 1200);
  EXPECT_EQ(at0[1].end, 2350);
  EXPECT_FALSE(at0[1].own);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// Every delay read back through the compact forms equals the matrix given, from either side;
// the delays take `bytes`.
void expect_same_delays(const std::vector<std::vector<Picoseconds>>& d, std::size_t bytes) {
  const DelayMatrix m(d);
  EXPECT_EQ(m.bytes(), bytes);
  const std::size_t n = d.size();
  for (std::size_t i = 0; i < n; ++i) {
    const DelayMatrix::Row from = m.from_row(i);
    const DelayMatrix::Row to = m.to_row(i);
    EXPECT_EQ(m(i, i), 0);
    for (std::size_t k = 0; k < n; ++k) {
      if (i == k) continue;
      ASSERT_EQ(m(i, k), d[i][k]) << i << " -> " << k;
      ASSERT_EQ(from[k], d[i][k]) << i << " -> " << k;
      ASSERT_EQ(to[k], d[k][i]) << k << " -> " << i;
      // The bound a loop may test first never exceeds the delay.
      ASSERT_LE(from.at_least(k), d[i][k]) << i << " -> " << k;
      ASSERT_LE(to.at_least(k), d[k][i]) << k << " -> " << i;
    }
  }
}

template <typename F>
std::vector<std::vector<Picoseconds>> matrix(std::size_t n, const F& f) {
  std::vector<std::vector<Picoseconds>> d(n, std::vector<Picoseconds>(n, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      if (i != k) d[i][k] = f(i, k);
  return d;
}

TEST(DelayMatrix, CableSumsRoundedLikeTheLoaderAreExact) {
  // (cable_i + cable_k) x 5.56 ns/m + 0.35 us of devices, rounded to the picosecond, as
  // DomainConfig::delay_ps does: the sum form, with what rounding leaves in a byte.
  RngStream rng(18, "delay-matrix");
  std::vector<double> cable(300);
  for (double& c : cable) c = 1.0 + static_cast<double>(rng.uniform_below(98'000)) / 1000.0;
  expect_same_delays(matrix(cable.size(),
                            [&](std::size_t i, std::size_t k) {
                              return round_to_ps(((cable[i] + cable[k]) * 5.56 + 350.0) * 1000.0);
                            }),
                     300 * 8 + 300 * 300);
}

TEST(DelayMatrix, PairsThatAllHaveTheSameRestKeepNoBytePerPair) {
  // Whole metres at 5 ns/m: every pair is exactly the sum of its two parts (the rest 0, as in a
  // domain of equal cables); then one more picosecond on every pair, which rounding could leave
  // (the rest 1 everywhere). Either way only the parts are kept, and every delay reads back.
  RngStream rng(18, "delay-matrix-same-rest");
  std::vector<Picoseconds> part(200);
  for (Picoseconds& p : part)
    p = 350'000 + 5'000 * static_cast<Picoseconds>(rng.uniform_below(100));
  for (const Picoseconds extra : {Picoseconds{0}, Picoseconds{1}}) {
    const auto d = matrix(part.size(),
                          [&](std::size_t i, std::size_t k) { return part[i] + part[k] + extra; });
    expect_same_delays(d, 200 * 8);
    const DelayMatrix m(d);
    EXPECT_EQ(m.rest_min(), extra);
    EXPECT_EQ(m.rest_max(), extra);
    EXPECT_EQ(m.from_row(3).at_least(7), d[3][7]);  // exact when every rest is the same
  }
}

TEST(DelayMatrix, AnyOtherMatrixIsKeptWhole) {
  RngStream rng(18, "delay-matrix-any");
  // Symmetric but no sum form (a random matrix), asymmetric, and delays beyond 32 bits.
  std::vector<std::vector<Picoseconds>> sym = matrix(40, [&](std::size_t, std::size_t) {
    return static_cast<Picoseconds>(rng.uniform_below(1'000'000));
  });
  for (std::size_t i = 0; i < sym.size(); ++i)
    for (std::size_t k = 0; k < i; ++k) sym[i][k] = sym[k][i];
  expect_same_delays(sym, 40 * 40 * 4);
  expect_same_delays(matrix(40,
                            [&](std::size_t, std::size_t) {
                              return static_cast<Picoseconds>(rng.uniform_below(1'000'000));
                            }),
                     2 * 40 * 40 * 4);
  expect_same_delays(matrix(7,
                            [&](std::size_t i, std::size_t k) {
                              return Picoseconds{3'000'000'000} +
                                     static_cast<Picoseconds>(i * 10 + k);
                            }),
                     2 * 7 * 7 * 8);
  expect_same_delays({{0, 5}, {7, 0}}, 2 * 2 * 2 * 4);
  expect_same_delays({{0}}, 4);
}

}  // namespace
}  // namespace gbesim
