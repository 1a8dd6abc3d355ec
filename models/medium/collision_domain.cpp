#include "models/medium/collision_domain.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <type_traits>

namespace gbesim {

DelayMatrix::DelayMatrix(const std::vector<std::vector<Picoseconds>>& delay_ps)
    : n_(delay_ps.size()) {
  // The diagonal is unused: kept as 0.
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t k = 0; k < n_; ++k) {
      if (i == k) continue;
      max_ = std::max(max_, delay_ps[i][k]);
      if (delay_ps[i][k] != delay_ps[k][i]) symmetric_ = false;
    }
  if (symmetric_ && try_parts(delay_ps)) return;
  // Matrix 0 from-major, matrix 1 (when not symmetric) to-major.
  auto fill = [&](auto& out, bool transposed) {
    using T = typename std::decay_t<decltype(out)>::value_type;
    out.assign(n_ * n_, 0);
    for (std::size_t row = 0; row < n_; ++row)
      for (std::size_t col = 0; col < n_; ++col)
        if (row != col)
          out[row * n_ + col] =
              static_cast<T>(transposed ? delay_ps[col][row] : delay_ps[row][col]);
  };
  const bool narrow = max_ <= std::numeric_limits<std::int32_t>::max();
  for (int m = 0; m < (symmetric_ ? 1 : 2); ++m) {
    if (narrow) {
      fill(narrow_[m], m == 1);
    } else {
      fill(wide_[m], m == 1);
    }
  }
}

bool DelayMatrix::try_parts(const std::vector<std::vector<Picoseconds>>& delay_ps) {
  // part_i from a triangle with two other stations j, l: (d(i,j) + d(i,l) - d(j,l)) / 2, which
  // for an exact sum form is part_i itself; what rounding left over must fit a byte.
  if (n_ < 3) return false;
  std::vector<Picoseconds> part(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    const std::size_t j = i == 0 ? 1 : 0;
    const std::size_t l = i <= 1 ? 2 : 1;
    part[i] = (delay_ps[i][j] + delay_ps[i][l] - delay_ps[j][l]) / 2;
  }
  std::vector<std::int8_t> rest(n_ * n_, 0);
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t k = 0; k < n_; ++k) {
      if (i == k) continue;
      const Picoseconds r = delay_ps[i][k] - part[i] - part[k];
      if (r < std::numeric_limits<std::int8_t>::min() ||
          r > std::numeric_limits<std::int8_t>::max())
        return false;
      rest[i * n_ + k] = static_cast<std::int8_t>(r);
    }
  part_ = std::move(part);
  rest_ = std::move(rest);
  rest_min_ = std::numeric_limits<std::int8_t>::max();
  rest_max_ = std::numeric_limits<std::int8_t>::min();
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t k = 0; k < n_; ++k)
      if (i != k) {
        rest_min_ = std::min<Picoseconds>(rest_min_, rest_[i * n_ + k]);
        rest_max_ = std::max<Picoseconds>(rest_max_, rest_[i * n_ + k]);
      }
  // Every pair the same (equal cables, or none off by a rounding): nothing per pair to keep.
  if (rest_min_ == rest_max_) std::vector<std::int8_t>().swap(rest_);
  return true;
}

DelayMatrix::Row DelayMatrix::row(int matrix, std::size_t station) const {
  Row r;
  if (!part_.empty()) {
    r.rest_ = rest_.empty() ? nullptr : rest_.data() + station * n_;
    r.part_ = part_.data();
    r.own_ = part_[station];
    r.rest_min_ = rest_min_;
    return r;
  }
  if (!wide_[matrix].empty()) {
    r.wide_ = wide_[matrix].data() + station * n_;
  } else {
    r.narrow_ = narrow_[matrix].data() + station * n_;
  }
  return r;
}

CollisionDomain::CollisionDomain(std::vector<std::vector<Picoseconds>> delay_ps)
    : delay_(delay_ps),
      max_delay_(delay_.max()),
      open_start_(delay_.size(), -1),
      cycle_start_(delay_.size(), kForeverPs),
      cycle_t0_(delay_.size(), 0),
      at_repeater_(delay_.has_parts() ? delay_.size() : 0) {
  // The repeater's periods bound every station's where the delays are cable lengths: no part
  // negative, and a station's own signal never later than the others' shift would put it.
  repeater_bounds_ = delay_.has_parts();
  for (std::size_t k = 0; repeater_bounds_ && k < delay_.size(); ++k) {
    const Picoseconds p = delay_.part(k);
    if (p < 0 || p + delay_.rest_min() < 0) repeater_bounds_ = false;
    max_part_ = std::max(max_part_, p);
  }
}

void CollisionDomain::remember(std::size_t station, Picoseconds start, Picoseconds t0) const {
  cycle_start_[station] = start;
  cycle_t0_[station] = t0;
}

Picoseconds CollisionDomain::prune_for_deference(Picoseconds wanted) {
  // What a walk from a busy period it did not follow needs is proven only where every signal
  // lasts at least a gap (docs/medium.md): otherwise nothing is forgotten.
  if (!prunable_) return -kForeverPs;
  Picoseconds horizon = wanted;
  // A transmission goes only once every busy period it is in, at any station, is over before
  // the horizon: a period still going on must keep its own flag (what gap follows it) and the
  // signals that join it to the station's own.
  for (std::size_t j = 0; j < ended_.size() && ended_[j].stop + max_delay_ < horizon; ++j) {
    if (!periods_over(j, horizon)) {
      horizon = ended_[j].stop + max_delay_;
      break;
    }
  }
  prune(horizon);
  return horizon;
}

bool CollisionDomain::periods_over(std::size_t j, Picoseconds horizon) const {
  const Entry& e = ended_[j];
  // The counts of how answers found their periods are about answers: left as they were.
  struct Keep {
    std::uint64_t& a;
    std::uint64_t& b;
    const std::uint64_t a0, b0;
    ~Keep() {
      a = a0;
      b = b0;
    }
  } keep{from_repeater_, merged_here_, from_repeater_, merged_here_};
  if (!repeater_bounds_) {
    // Over everywhere if the medium fell quiet everywhere before the horizon: each signal is
    // somewhere only within [start, stop + the largest delay), so the periods holding this one
    // are over by the end of the union of those around it (found in one pass in end order: a
    // signal passed over because it began after the union so far ends no later than the one
    // that later reaches it).
    Picoseconds quiet = e.stop + max_delay_;
    for (std::size_t i = j + 1; i < ended_.size() && quiet < horizon; ++i)
      if (ended_[i].start <= quiet) quiet = std::max(quiet, ended_[i].stop + max_delay_);
    for (const Entry& o : open_)
      if (o.start <= quiet) quiet = kForeverPs;
    if (quiet < horizon) return true;
    // Otherwise at every station, the busy period the signal is in there, from the kept signals
    // (each forgotten one went only once its periods were over before that prune's horizon).
    for (std::size_t k = 0; k < size(); ++k) {
      const Picoseconds at = e.stop + (k == e.station ? 0 : delay_(e.station, k));
      periods_from(k, at);
      const auto it = std::find_if(periods_.begin(), periods_.end(), [&](const BusyPeriod& q) {
        return q.start <= at && q.end >= at;
      });
      if (it != periods_.end() && it->end >= horizon) return false;
    }
    return true;
  }
  // With the sum form from cable lengths, from the repeater's period holding it: its signals
  // have left every station k by its end + part(k) + the largest rest; an earlier period's
  // signals only come sooner (a station's own signal reaches it 2 part(k) + a rest before the
  // others' from the repeater would: sooner too), and a later one's come more than the spread
  // after it ends (where it is sure): every period at every station that holds one of them is
  // over by then, but where a station's own later signal joins it (that signal is kept).
  if (merged_to_ < repeater_signals_.size()) merge_at_repeater();
  const RepeaterSignal* const signals = repeater_signals_.data();
  const RepeaterSignal* x =
      first_arriving(signals, signals + repeater_signals_.size(), e.start + delay_.part(e.station));
  while (x->station != e.station) ++x;  // among those that arrived with it
  const auto m = static_cast<std::uint32_t>(x - signals);
  const auto q =
      std::upper_bound(repeater_periods_.begin(), repeater_periods_.end(), m,
                       [](std::uint32_t i, const RepeaterPeriod& r) { return i < r.members; }) -
      1;
  if (q->unsure || q->end == kForeverPs) return false;
  if (q + 1 != repeater_periods_.end() && (q + 1)->unsure) return false;
  return q->end + max_part_ + delay_.rest_max() < horizon;
}

void CollisionDomain::begin(std::size_t station, Picoseconds start) {
  assert(open_start_[station] < 0);
  if (delay_.has_parts()) add_at_repeater(station, start);
  open_.push_back({station, start, kForeverPs});
  open_start_[station] = start;
  sending_.insert(std::upper_bound(sending_.begin(), sending_.end(), station), station);
}

void CollisionDomain::end(std::size_t station, Picoseconds stop) {
  const auto it = std::find_if(open_.begin(), open_.end(),
                               [station](const Entry& e) { return e.station == station; });
  Entry e = *it;
  open_.erase(it);
  if (delay_.has_parts()) end_at_repeater(station, stop);
  e.stop = stop;
  open_start_[station] = -1;
  sending_.erase(std::lower_bound(sending_.begin(), sending_.end(), station));
  // Ends come in time order (a simulation ends transmissions as time goes on); a hand-made
  // history may not, so the entry is moved back past any that ended later.
  ended_.push_back(e);
  for (std::size_t j = ended_.size() - 1; j > 0 && ended_[j - 1].stop > stop; --j)
    std::swap(ended_[j - 1], ended_[j]);
}

template <typename F>
void CollisionDomain::for_each_recent(Picoseconds from, F&& f) const {
  for (std::size_t j = ended_.size(); j-- > 0;) {
    const Entry& e = ended_[j];
    // Left every station by stop + max_delay_: gone by `from`, and so is every transmission
    // that ended before it.
    if (e.stop + max_delay_ <= from) break;
    f(e);
  }
  for (const Entry& e : open_) f(e);
}

bool CollisionDomain::open_signal_by(std::size_t station, Picoseconds t) const {
  const DelayMatrix::Row to_here = delay_.to_row(station);
  for (const Entry& e : open_)
    if (e.start + (e.station == station ? 0 : to_here[e.station]) <= t) return true;
  return false;
}

bool CollisionDomain::transmitting(std::size_t station) const {
  return open_start_[station] >= 0;
}

Picoseconds CollisionDomain::current_start(std::size_t station) const {
  return open_start_[station];
}

namespace {

// Sorts signals taken in end order into arrival order. They are nearly sorted already (signals
// of alike length end in the order they arrive): each is moved back past the few it overtakes,
// unless that turns out to be many (the jams of a collision of hundreds of stations end
// together, in no order of arrival), when they are sorted outright.
template <typename T, typename Less>
void sort_nearly_sorted(std::vector<T>& v, Less before) {
  std::size_t moves = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    const T x = v[i];
    std::size_t k = i;
    while (k > 0 && before(x, v[k - 1])) {
      v[k] = v[k - 1];
      --k;
    }
    v[k] = x;
    moves += i - k;
    if (moves > 4 * v.size()) {
      std::sort(v.begin(), v.end(), before);
      return;
    }
  }
}

}  // namespace

bool CollisionDomain::periods_from(std::size_t station, Picoseconds from) const {
  // The ended transmissions that may be present here at or after `from` are the newest ends
  // back to the first whose signal had left every station by then: ends are in time order, so
  // it is found by halving (the repeater's periods need no walk over the signals).
  std::size_t first = 0;
  for (std::size_t past = ended_.size(); first < past;) {
    const std::size_t mid = first + (past - first) / 2;
    if (ended_[mid].stop + max_delay_ >= from) {
      past = mid;
    } else {
      first = mid + 1;
    }
  }
  if (repeater_periods(station, from, first)) {
    ++from_repeater_;
    return first == 0;
  }
  ++merged_here_;
  // The signals as seen here, in arrival order, merged.
  std::vector<Interval>& seen = scratch_;
  seen.clear();
  const DelayMatrix::Row to_here = delay_.to_row(station);
  auto add = [&](const Entry& e) {
    const bool own = e.station == station;
    const Picoseconds d = own ? 0 : to_here[e.station];
    seen.push_back({e.start + d, e.stop == kForeverPs ? kForeverPs : e.stop + d, own});
  };
  for (std::size_t j = first; j < ended_.size(); ++j) add(ended_[j]);
  for (const Entry& e : open_) add(e);
  sort_nearly_sorted(seen, before);
  merge_periods(seen);
  return first == 0;
}

void CollisionDomain::merge_periods(const std::vector<Interval>& seen) const {
  std::vector<BusyPeriod>& periods = periods_;
  periods.clear();
  for (const Interval& iv : seen) {
    if (!periods.empty() && iv.arrive <= periods.back().end) {
      periods.back().end = std::max(periods.back().end, iv.leave);
      periods.back().own = periods.back().own || iv.own;
    } else {
      periods.push_back({iv.arrive, iv.leave, iv.own});
    }
  }
}

void CollisionDomain::add_at_repeater(std::size_t station, Picoseconds start) {
  const RepeaterSignal x{start + delay_.part(station), kForeverPs, 0,
                         static_cast<std::uint32_t>(station), false};
  // Signals begin as time goes on, reaching the repeater after their station's part: the new
  // one goes after every one that arrived no later, near the end.
  std::size_t at = repeater_signals_.size();
  while (at > 0 && repeater_signals_[at - 1].arrive > x.arrive) --at;
  repeater_signals_.insert(repeater_signals_.begin() + static_cast<std::ptrdiff_t>(at), x);
  at_repeater_[station].push_back(x.arrive);
  merged_to_ = std::min(merged_to_, at);
}

const CollisionDomain::RepeaterSignal* CollisionDomain::first_arriving(const RepeaterSignal* first,
                                                                       const RepeaterSignal* last,
                                                                       Picoseconds arrive) {
  return std::lower_bound(first, last, arrive,
                          [](const RepeaterSignal& x, Picoseconds t) { return x.arrive < t; });
}

void CollisionDomain::end_at_repeater(std::size_t station, Picoseconds stop) {
  // The station's open signal is its newest: found by its arrival, among those that arrived
  // with it (the signals of a collision of hundreds of stations end in no order of arrival).
  const Picoseconds arrive = at_repeater_[station].back();
  const RepeaterSignal* const signals = repeater_signals_.data();
  const RepeaterSignal* it = first_arriving(signals, signals + repeater_signals_.size(), arrive);
  while (it->station != station || it->leave != kForeverPs) ++it;
  assert(it->arrive == arrive);  // begun, so there
  const auto at = static_cast<std::size_t>(it - signals);
  repeater_signals_[at].leave = stop + delay_.part(station);
  merged_to_ = std::min(merged_to_, at);
}

void CollisionDomain::merge_at_repeater() const {
  // Signal x reaches station k over [x.arrive, x.leave) + part(k) + a rest in [lo, hi]: within
  // [x.arrive + hi, x.leave + lo) and [x.arrive + lo, x.leave + hi) whatever the rest. A signal
  // that joins a period even when it comes as late and the period ends as early as the rests
  // allow (arrive <= end - spread, and it lasts at least the spread), and a period that stays
  // apart even when it comes as early and the one before ends as late (start > end + spread),
  // are the same at every station: merged from the narrow intervals or from the wide ones the
  // groups are the same, so merged from the true ones too. A period with anything closer is
  // unsure.
  std::vector<RepeaterSignal>& signals = repeater_signals_;
  std::vector<RepeaterPeriod>& periods = repeater_periods_;
  const Picoseconds spread = delay_.rest_max() - delay_.rest_min();
  std::size_t m = merged_to_;
  // Resume from the state just before the first changed signal: the periods before its own
  // stand, and its own as merged up to the signal before it.
  const auto in =
      std::upper_bound(periods.begin(), periods.end(), m,
                       [](std::size_t i, const RepeaterPeriod& q) { return i < q.members; });
  periods.erase(in, periods.end());
  if (!periods.empty()) {
    RepeaterPeriod& q = periods.back();
    if (m == q.members) {
      periods.pop_back();
    } else {
      q.end = signals[m - 1].run_end;
      q.unsure = signals[m - 1].run_unsure;
      q.members_end = static_cast<std::uint32_t>(m);
    }
  }
  for (; m < signals.size(); ++m) {
    RepeaterSignal& x = signals[m];
    const bool brief = x.leave - x.arrive < spread;
    if (!periods.empty() && x.arrive <= periods.back().end) {
      RepeaterPeriod& q = periods.back();
      q.unsure = q.unsure || brief || x.arrive > q.end - spread;
      q.end = std::max(q.end, x.leave);
      q.members_end = static_cast<std::uint32_t>(m + 1);
    } else {
      const bool close = !periods.empty() && x.arrive <= periods.back().end + spread;
      periods.push_back({x.arrive, x.leave, static_cast<std::uint32_t>(m),
                         static_cast<std::uint32_t>(m + 1), brief || close});
    }
    x.run_end = periods.back().end;
    x.run_unsure = periods.back().unsure;
  }
  merged_to_ = signals.size();
}

// The repeater's periods as seen at one station: each becomes intervals in `seen` (scratch_),
// shifted by the station's part and the rest, with the station's own signals where it sent them.
struct CollisionDomain::PeriodsHere {
  const CollisionDomain& d;
  std::size_t station;
  Picoseconds lo;      // the least rest
  Picoseconds spread;  // the most rest less the least
  Picoseconds shift;   // the station's part
  DelayMatrix::Row to_here;
  std::vector<Interval>& seen;

  Picoseconds here(const RepeaterSignal& x, Picoseconds t) const {
    return t - d.delay_.part(x.station) + to_here[x.station];
  }
  // The others' signals x..x_end that make one period [start, end) at the repeater, as one
  // interval here: shifted by this station's part and the rest, or where the rests differ,
  // from the earliest here of those that came within the spread of its start to the latest of
  // those that left within it of its end.
  void add(const RepeaterSignal* x, const RepeaterSignal* x_end, Picoseconds start,
           Picoseconds end) {
    if (spread == 0) {
      seen.push_back({start + shift + lo, end == kForeverPs ? end : end + shift + lo, false});
      return;
    }
    Picoseconds first_here = kForeverPs;
    Picoseconds last_here = end == kForeverPs ? kForeverPs : -kForeverPs;
    for (; x != x_end; ++x) {
      if (x->station == station) continue;
      if (x->arrive <= start + spread) first_here = std::min(first_here, here(*x, x->arrive));
      if (end != kForeverPs && x->leave >= end - spread)
        last_here = std::max(last_here, here(*x, x->leave));
    }
    seen.push_back({first_here, last_here, false});
  }
  // The station's own signal, where it sent it.
  void add_own(const RepeaterSignal& x) {
    seen.push_back({x.arrive - shift, x.leave == kForeverPs ? kForeverPs : x.leave - shift, true});
  }
  // A period with one own signal, mine_x, and every rest the same: the others merged without
  // it, found from the merge with it. The ones before it are one piece, ending where the period
  // had got to just before it; past it, leaving it out can part the rest only while it alone
  // held the end: once the others reach its leaving, they join from there on as they did with
  // it, to the period's end.
  void add_around_lone_own(const RepeaterSignal* members, const RepeaterSignal* members_end,
                           const RepeaterSignal* mine_x, Picoseconds period_end) {
    add_own(*mine_x);
    bool piece = mine_x != members;
    Picoseconds start = piece ? members->arrive : 0;
    Picoseconds end = piece ? (mine_x - 1)->run_end : 0;
    auto close_piece = [&] {
      seen.push_back(
          {start + shift + lo, end == kForeverPs ? kForeverPs : end + shift + lo, false});
    };
    const RepeaterSignal* x = mine_x + 1;
    for (; x != members_end; ++x) {
      if (piece && end >= mine_x->leave) break;
      if (piece && x->arrive <= end) {
        end = std::max(end, x->leave);
        continue;
      }
      if (piece) close_piece();
      piece = true;
      start = x->arrive;
      end = x->leave;
    }
    if (x != members_end) end = period_end;
    if (piece) close_piece();
  }
  // A period holding the station's own signals: the others' merged again without them, each
  // piece one interval here as long as every signal in it joins it whatever the rests (none is
  // brief: the period is sure), and its own where it sent them; pieces that come close or
  // overlap here are merged later with the rest. False where a signal joins a piece within the
  // spread of its end (too close to call).
  bool add_without_own(const RepeaterSignal* members, const RepeaterSignal* members_end) {
    const RepeaterSignal* piece = nullptr;
    Picoseconds start = 0;
    Picoseconds end = 0;
    for (const RepeaterSignal* x = members; x != members_end; ++x) {
      if (x->station == station) {
        add_own(*x);
        continue;
      }
      if (piece != nullptr && x->arrive <= end) {
        if (x->arrive > end - spread) return false;
        end = std::max(end, x->leave);
        continue;
      }
      if (piece != nullptr) add(piece, x, start, end);
      piece = x;
      start = x->arrive;
      end = x->leave;
    }
    if (piece != nullptr) add(piece, members_end, start, end);
    return true;
  }
};

bool CollisionDomain::repeater_periods(std::size_t station, Picoseconds from,
                                       std::size_t first) const {
  if (!delay_.has_parts()) return false;
  if (merged_to_ < repeater_signals_.size()) merge_at_repeater();
  const Picoseconds lo = delay_.rest_min();
  const Picoseconds hi = delay_.rest_max();
  const Picoseconds spread = hi - lo;
  const Picoseconds shift = delay_.part(station);
  const std::vector<Picoseconds>& mine = at_repeater_[station];
  const bool own = !mine.empty();
  // The periods that may still be present here at or after `from` (all of them when the
  // question is about the whole history). A period left out ended here before `from`, and so
  // did the station's own signals in it if 2 part + hi >= 0, as it is for every delay made of
  // cable lengths (any other is left to periods_from).
  if (own && 2 * shift + hi < 0) return false;
  const std::vector<RepeaterPeriod>& periods = repeater_periods_;
  const auto p0 = first == 0
                      ? periods.begin()
                      : std::lower_bound(periods.begin(), periods.end(), from,
                                         [&](const RepeaterPeriod& q, Picoseconds t) {
                                           return q.end != kForeverPs && q.end + shift + hi < t;
                                         });
  for (auto q = p0; q != periods.end(); ++q)
    if (q->unsure) return false;
  std::vector<Interval>& seen = scratch_;
  seen.clear();
  PeriodsHere here{*this, station, lo, spread, shift, delay_.to_row(station), seen};
  bool resort = false;
  // The station's own signals not yet passed: those that arrived before a period began are in
  // none from it on.
  auto mine_next = mine.begin();
  for (auto q = p0; q != periods.end(); ++q) {
    const RepeaterSignal* members = repeater_signals_.data() + q->members;
    const RepeaterSignal* members_end = repeater_signals_.data() + q->members_end;
    while (mine_next != mine.end() && *mine_next < q->start) ++mine_next;
    auto mine_past = mine_next;
    while (mine_past != mine.end() && *mine_past <= q->end) ++mine_past;
    if (mine_past == mine_next) {
      here.add(members, members_end, q->start, q->end);
      continue;
    }
    resort = true;
    if (spread == 0 && mine_past - mine_next == 1) {
      const RepeaterSignal* mine_x = first_arriving(members, members_end, *mine_next);
      while (mine_x->station != station) ++mine_x;  // among those that arrived with it
      here.add_around_lone_own(members, members_end, mine_x, q->end);
    } else if (!here.add_without_own(members, members_end)) {
      return false;
    }
    mine_next = mine_past;
  }
  if (resort) sort_nearly_sorted(seen, before);
  merge_periods(seen);
  return true;
}

std::optional<Picoseconds> CollisionDomain::deference_release(std::size_t station, Picoseconds t0,
                                                              Picoseconds ifg_ps,
                                                              Picoseconds part1_ps) const {
  // The Deference process (4.2.8) is followed cycle by cycle from a busy period on: a busy
  // period, its gap, deferring off, until carrier is next present.
  std::size_t p = deference_start(station, t0, ifg_ps);
  const std::vector<BusyPeriod>& periods = periods_;
  // A signal arriving at t0 itself is not sensed by a decision at t0.
  if (p == periods.size() || periods[p].start >= t0) {
    remember(station, t0, t0);
    return t0;
  }
  // The cycle the walk is in, remembered for the station's next question whatever the answer.
  std::size_t cycle = p;
  std::optional<Picoseconds> answer;
  for (;;) {
    if (periods[p].end == kForeverPs) break;  // no answer yet
    const Picoseconds off = periods[p].end;
    if (!periods[p].own && p + 1 < periods.size() && periods[p + 1].start < off + part1_ps) {
      ++p;  // carrier in the first part of the gap restarts it
      continue;
    }
    const Picoseconds release = off + ifg_ps;
    if (release >= t0) {  // the frame was waiting when deference ended
      answer = release;
      break;
    }
    // Deference ended before the frame came; it resumed when carrier was next present. Carrier
    // that arrived in a gap where it is ignored starts a new cycle only once the gap has ended.
    std::size_t q = p + 1;
    while (q < periods.size() && periods[q].end <= release) ++q;
    if (q < periods.size() && std::max(periods[q].start, release) < t0) {
      p = q;
      cycle = p;
      continue;
    }
    // No carrier from the gap's end up to t0: deferring is off at t0, and the next question
    // starts from there.
    remember(station, t0, t0);
    return t0;
  }
  remember(station, periods[cycle].start, t0);
  return answer;
}

// Inline: it runs at every decision a waiting station takes, where a call of its own would
// cost time.
inline std::size_t CollisionDomain::deference_start(std::size_t station, Picoseconds t0,
                                                    Picoseconds ifg_ps) const {
  // Where the walk starts matters only before a quiet stretch: a busy period that comes after
  // at least a full gap with no carrier here finds deferring off whatever came before (the
  // carrier before it dropped at least a gap earlier, with nothing in the gap's first part to
  // restart it), so every cycle followed from an earlier period passes through it. The history
  // is therefore looked at from the latest such period at or before t0: among the signals of
  // the last few hundred nanoseconds, then in the whole kept history, and from the oldest
  // period kept when that has none.
  // A station asks again and again as its frame waits, with t0 never earlier than before: the
  // latest cycle its last answer passed through, on the way to a t0 at or before this one, is
  // where this one starts (the cycles before it are the same and none ended the process), as
  // long as nothing from there on has been pruned.
  const Picoseconds cached = cycle_start_[station];
  if (cached != kForeverPs && cached >= pruned_to_ && t0 >= cycle_t0_[station]) {
    periods_from(station, cached);
    const auto it =
        std::lower_bound(periods_.begin(), periods_.end(), cached,
                         [](const BusyPeriod& q, Picoseconds start) { return q.start < start; });
    // No carrier from there up to t0 (a signal arriving at t0 itself is not sensed): deferring
    // is off, and stays so.
    if (it == periods_.end() || it->start >= t0) return periods_.size();
    return static_cast<std::size_t>(it - periods_.begin());
  }
  // A small window first (the last busy period or two), then the whole kept history.
  for (Picoseconds window = 2 * ifg_ps + max_delay_;; window = kForeverPs) {
    const Picoseconds from = window == kForeverPs ? -kForeverPs : t0 - window;
    const bool whole = periods_from(station, from);
    // The latest period at or before t0 with a quiet full gap before it, where the periods
    // from `from` on are whole and the gap lies after `from` too (all of them, and any gap,
    // when the history is whole: then the oldest period is the start if there is none).
    const std::vector<BusyPeriod>& periods = periods_;
    for (std::size_t r = periods.size(); r-- > 0;) {
      const Picoseconds b = periods[r].start;
      if (b > t0) continue;
      if (b - ifg_ps < from) break;
      if (r == 0 || periods[r - 1].end <= b - ifg_ps) return r;
    }
    // t0 itself after a quiet full gap: deferring is off and the frame goes.
    if (t0 - ifg_ps >= from) {
      const auto after = std::find_if(periods.begin(), periods.end(),
                                      [t0](const BusyPeriod& q) { return q.start >= t0; });
      if (after == periods.begin() || std::prev(after)->end <= t0 - ifg_ps) return periods.size();
    }
    if (whole) return 0;
  }
}

// Both queries take the minimum (or any) over the transmissions present after `from`: the same
// set whichever order they are visited in.
Picoseconds CollisionDomain::first_signal_from(std::size_t station, Picoseconds from) const {
  Picoseconds first = kForeverPs;
  const DelayMatrix::Row to_here = delay_.to_row(station);
  for_each_recent(from, [&](const Entry& t) {
    if (t.station == station) return;
    const Picoseconds d = to_here[t.station];
    const Picoseconds leave = t.stop == kForeverPs ? kForeverPs : t.stop + d;
    if (leave <= from) return;
    first = std::min(first, std::max(t.start + d, from));
  });
  return first;
}

bool CollisionDomain::clear_reception(std::size_t sender, std::size_t receiver, Picoseconds from,
                                      Picoseconds to) const {
  bool clear = true;
  const DelayMatrix::Row to_here = delay_.to_row(receiver);
  for_each_recent(from, [&](const Entry& t) {
    if (t.station == sender || !clear) return;
    const Picoseconds d = t.station == receiver ? 0 : to_here[t.station];
    const Picoseconds leave = t.stop == kForeverPs ? kForeverPs : t.stop + d;
    if (leave <= from) return;
    if (t.start + d < to) clear = false;
  });
  return clear;
}

void CollisionDomain::prune(Picoseconds horizon) {
  pruned_to_ = std::max(pruned_to_, horizon);
  while (!ended_.empty() && ended_.front().stop + max_delay_ < horizon) ended_.pop_front();
  // The repeater forgets the same transmissions. Prunes that forget anything are rare (a few
  // per thousand frames), so the periods are merged again from the first one forgotten.
  if (!delay_.has_parts() || repeater_signals_.size() == ended_.size() + open_.size()) return;
  std::size_t kept = 0;
  for (std::size_t m = 0; m < repeater_signals_.size(); ++m) {
    const RepeaterSignal& x = repeater_signals_[m];
    if (x.leave != kForeverPs && x.leave - delay_.part(x.station) + max_delay_ < horizon) {
      std::vector<Picoseconds>& mine = at_repeater_[x.station];
      assert(!mine.empty() && mine.front() == x.arrive);  // its oldest
      mine.erase(mine.begin());
      merged_to_ = std::min(merged_to_, kept);
    } else {
      repeater_signals_[kept++] = x;
    }
  }
  repeater_signals_.resize(kept);
}

}  // namespace gbesim
