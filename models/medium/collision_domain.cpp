#include "models/medium/collision_domain.hpp"

#include <algorithm>
#include <cassert>

namespace gbesim {

CollisionDomain::CollisionDomain(std::vector<std::vector<Picoseconds>> delay_ps)
    : delay_(std::move(delay_ps)),
      delay_to_(delay_.size(), std::vector<Picoseconds>(delay_.size(), 0)),
      history_(delay_.size()) {
  for (std::size_t i = 0; i < delay_.size(); ++i)
    for (std::size_t k = 0; k < delay_.size(); ++k) {
      if (i != k) max_delay_ = std::max(max_delay_, delay_[i][k]);
      delay_to_[k][i] = delay_[i][k];
    }
}

void CollisionDomain::begin(std::size_t station, Picoseconds start) {
  assert(all_.empty() || all_.back().start <= start);  // begin order is time order
  history_[station].push_back({start, kForeverPs, next_serial_});
  all_.push_back({station, start, kForeverPs});
  open_.push_back(next_serial_);
  ++next_serial_;
  sending_.insert(std::upper_bound(sending_.begin(), sending_.end(), station), station);
}

void CollisionDomain::end(std::size_t station, Picoseconds stop) {
  Transmission& t = history_[station].back();
  t.stop = stop;
  longest_ = std::max(longest_, stop - t.start);
  if (t.serial >= first_serial_)
    all_[static_cast<std::size_t>(t.serial - first_serial_)].stop = stop;
  open_.erase(std::find(open_.begin(), open_.end(), t.serial));
  sending_.erase(std::lower_bound(sending_.begin(), sending_.end(), station));
}

template <typename F>
void CollisionDomain::for_each_recent(Picoseconds from, F&& f) const {
  for (std::size_t j = all_.size(); j-- > 0;) {
    const Entry& e = all_[j];
    // Ended by start + longest_ and arrived everywhere max_delay_ later: gone by `from`, and so
    // is every transmission that began before it (open ones are visited below).
    if (e.start + longest_ + max_delay_ <= from) break;
    // Only what the station's own history still holds (prune drops a station's oldest first, so
    // all_ may keep a few it has dropped): the same transmissions the per-station view has.
    const auto& h = history_[e.station];
    if (h.empty() || first_serial_ + j < h.front().serial) continue;
    f(e);
  }
  for (const std::uint64_t serial : open_)
    if (serial >= first_serial_) f(all_[static_cast<std::size_t>(serial - first_serial_)]);
}

bool CollisionDomain::open_signal_by(std::size_t station, Picoseconds t) const {
  const std::vector<Picoseconds>& to_here = delay_to_[station];
  for (const std::uint64_t serial : open_) {
    const Entry& e = all_[static_cast<std::size_t>(serial - first_serial_)];
    if (e.start + (e.station == station ? 0 : to_here[e.station]) <= t) return true;
  }
  return false;
}

bool CollisionDomain::transmitting(std::size_t station) const {
  const auto& h = history_[station];
  return !h.empty() && h[h.size() - 1].stop == kForeverPs;
}

Picoseconds CollisionDomain::current_start(std::size_t station) const {
  const auto& h = history_[station];
  return h[h.size() - 1].start;
}

const std::vector<CollisionDomain::Interval>& CollisionDomain::seen_at(std::size_t station) const {
  // The transmissions the stations' histories hold, from all_ (begin order): a station's history
  // is the newest part of its transmissions, so an entry is held if it is not older than the
  // first one its station holds. Arrivals are start + delay with delay in [0, max_delay_], so in
  // begin order they are nearly sorted already: each is moved back only past the few that began
  // less than max_delay_ earlier (insertion), not sorted from scratch.
  std::vector<Interval>& out = scratch_;
  out.clear();
  const std::vector<Picoseconds>& to_here = delay_to_[station];
  for (std::size_t j = 0; j < all_.size(); ++j) {
    const Entry& e = all_[j];
    const auto& h = history_[e.station];
    if (h.empty() || first_serial_ + j < h.front().serial) continue;
    const bool own = e.station == station;
    const Picoseconds d = own ? 0 : to_here[e.station];
    const Interval iv{e.start + d, e.stop == kForeverPs ? kForeverPs : e.stop + d, own};
    std::size_t k = out.size();
    out.push_back(iv);
    while (k > 0 && before(iv, out[k - 1])) {
      out[k] = out[k - 1];
      --k;
    }
    out[k] = iv;
  }
  return out;
}

std::optional<Picoseconds> CollisionDomain::deference_release(std::size_t station, Picoseconds t0,
                                                              Picoseconds ifg_ps,
                                                              Picoseconds part1_ps) const {
  // Busy periods at this station: signals (and own transmissions) merged where they overlap or
  // touch, in time order.
  std::vector<Period>& periods = periods_;
  periods.clear();
  for (const Interval& iv : seen_at(station)) {
    if (!periods.empty() && iv.arrive <= periods.back().end) {
      periods.back().end = std::max(periods.back().end, iv.leave);
      periods.back().own = periods.back().own || iv.own;
    } else {
      periods.push_back({iv.arrive, iv.leave, iv.own});
    }
  }
  // Follow the Deference process from the oldest busy period kept, cycle by cycle: a busy
  // period, its gap, deferring off, until carrier is next present. Carrier that arrives in a gap
  // where it is ignored starts a new cycle only once the gap has ended. A signal arriving at t0
  // itself is not sensed by a decision at t0.
  if (periods.empty() || periods.front().start >= t0) return t0;
  std::size_t p = 0;
  for (;;) {
    if (periods[p].end == kForeverPs) return std::nullopt;
    const Picoseconds off = periods[p].end;
    if (!periods[p].own && p + 1 < periods.size() && periods[p + 1].start < off + part1_ps) {
      ++p;  // carrier in the first part of the gap restarts it
      continue;
    }
    const Picoseconds release = off + ifg_ps;
    if (release >= t0) return release;  // the frame was waiting when deference ended
    // Deference ended before the frame came; it resumed when carrier was next present.
    std::size_t q = p + 1;
    while (q < periods.size() && periods[q].end <= release) ++q;
    if (q < periods.size() && std::max(periods[q].start, release) < t0) {
      p = q;
      continue;
    }
    return t0;
  }
}

// Both queries take the minimum (or any) over the transmissions present after `from`: the same
// set whichever order they are visited in, so they are exact whatever for_each_recent skips.
Picoseconds CollisionDomain::first_signal_from(std::size_t station, Picoseconds from) const {
  Picoseconds first = kForeverPs;
  const std::vector<Picoseconds>& to_here = delay_to_[station];
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
  const std::vector<Picoseconds>& to_here = delay_to_[receiver];
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
  for (auto& h : history_) {
    while (!h.empty() && h.front().stop != kForeverPs && h.front().stop + max_delay_ < horizon)
      h.pop_front();
  }
  while (!all_.empty() && all_.front().stop != kForeverPs &&
         all_.front().stop + max_delay_ < horizon) {
    all_.pop_front();
    ++first_serial_;
  }
}

}  // namespace gbesim
