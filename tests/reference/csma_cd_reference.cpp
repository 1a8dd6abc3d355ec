#include "tests/reference/csma_cd_reference.hpp"

#include <algorithm>
#include <deque>

#include "models/common/rng.hpp"

namespace gbesim::reference {
namespace {

enum class Tx { idle, sending, fill, jam };
enum class Def { wait_carrier, busy, own_gap, part1, part2 };

struct Station {
  explicit Station(std::uint64_t seed, const std::string& name) : rng(seed, name + ".mac") {}
  RngStream rng;
  std::size_t next_arrival = 0;
  std::deque<std::int64_t> queue;
  std::int64_t hol = -1;
  std::int64_t ready_at = 0;
  std::int64_t attempts = 0;
  Tx tx = Tx::idle;
  std::int64_t attempt_start = 0, frame_start = 0, frame_end = 0, fill_end = 0, jam_end = 0;
  std::int64_t burst_start = 0;
  bool first_of_transmission = true, bursting = false, late = false, jam_in_fill = false;
  Def def = Def::wait_carrier;
  bool deferring = false, was_transmitting = false;
  std::int64_t gap_end = 0;
  std::vector<char> sent;
  StationTimeline timeline;
};

}  // namespace

std::string describe(const Attempt& a) {
  return "frame " + std::to_string(a.frame) + " [" + std::to_string(a.start_bits) + ", " +
         std::to_string(a.end_bits) + ") " + a.outcome;
}

std::vector<StationTimeline> simulate(const Setup& s) {
  const std::size_t n = s.stations.size();
  std::vector<Station> st;
  for (const auto& setup : s.stations) {
    st.emplace_back(s.seed, setup.name);
    st.back().sent.assign(static_cast<std::size_t>(s.duration_bits), 0);
  }
  auto sent = [&](std::size_t i, std::int64_t t) {
    return t >= 0 && t < s.duration_bits && st[i].sent[static_cast<std::size_t>(t)] != 0;
  };
  auto carrier = [&](std::size_t k, std::int64_t t) {
    for (std::size_t i = 0; i < n; ++i)
      if (i != k && sent(i, t - s.delay_bits[i][k])) return true;
    return false;
  };
  auto bytes_of = [&](std::size_t k, std::int64_t frame) {
    return s.stations[k].frames[static_cast<std::size_t>(frame)].bytes;
  };
  auto take_next = [&](Station& x, std::int64_t t) {
    x.hol = -1;
    if (x.queue.empty()) return;
    x.hol = x.queue.front();
    x.queue.pop_front();
    x.ready_at = t;
    x.attempts = 0;
  };
  auto start_frame = [&](std::size_t k, std::int64_t t, bool in_burst) {
    Station& x = st[k];
    if (!in_burst) {
      x.attempt_start = t;
      x.first_of_transmission = true;
      x.bursting = s.bursting;
      x.burst_start = t;
    } else {
      x.first_of_transmission = false;
    }
    ++x.attempts;
    std::int64_t bits = 8 * bytes_of(k, x.hol);
    if (x.first_of_transmission && s.extension && bits < s.slot_bits) bits = s.slot_bits;
    x.frame_start = t;
    x.frame_end = t + 64 + bits;
    x.tx = Tx::sending;
    x.timeline.attempts.push_back({x.hol, t, -1, ""});
  };
  auto drop = [&](Station& x, std::int64_t t, const std::string& reason) {
    x.timeline.drops.push_back({x.hol, t, reason});
    take_next(x, t);
  };

  for (std::int64_t t = 0; t < s.duration_bits; ++t) {
    // 0. Frames arriving at t join the queue.
    for (std::size_t k = 0; k < n; ++k) {
      Station& x = st[k];
      const auto& frames = s.stations[k].frames;
      while (x.next_arrival < frames.size() && frames[x.next_arrival].at_bits == t)
        x.queue.push_back(static_cast<std::int64_t>(x.next_arrival++));
    }
    // 1. Timers that expire at t.
    for (std::size_t k = 0; k < n; ++k) {
      Station& x = st[k];
      if (x.tx == Tx::sending && t == x.frame_end) {
        x.timeline.attempts.back().end_bits = t;
        x.timeline.attempts.back().outcome = "ok";
        take_next(x, t);
        if (x.bursting && x.hol >= 0 && t + s.ifg_bits < x.burst_start + s.burst_limit_bits) {
          x.tx = Tx::fill;
          x.fill_end = t + s.ifg_bits;
        } else {
          x.tx = Tx::idle;
          x.bursting = false;
        }
      } else if (x.tx == Tx::fill && t == x.fill_end) {
        start_frame(k, t, true);
      } else if (x.tx == Tx::jam && t == x.jam_end) {
        x.tx = Tx::idle;
        x.timeline.attempts.back().end_bits = t;
        if (x.jam_in_fill) {
          x.ready_at = t;
          x.attempts = 0;
        } else {
          if (x.late && (s.rate_mbps >= 1000 || !s.retry_late_collisions)) {
            drop(x, t, "late_collision");
          } else if (x.attempts >= s.attempt_limit) {
            drop(x, t, "excessive_collisions");
          } else {
            const auto range = std::uint64_t{1} << std::min(x.attempts, s.backoff_limit);
            x.ready_at = t + static_cast<std::int64_t>(x.rng.uniform_below(range)) * s.slot_bits;
          }
        }
      }
      if (x.hol < 0 && x.tx == Tx::idle) take_next(x, t);
      // The Deference process's timers.
      for (bool changed = true; changed;) {
        changed = false;
        if ((x.def == Def::own_gap || x.def == Def::part2) && t == x.gap_end) {
          x.deferring = false;
          x.def = Def::wait_carrier;
        } else if (x.def == Def::part1 && t == x.gap_end) {
          x.def = Def::part2;
          x.gap_end = t + (s.ifg_bits - s.ifg_part1_bits);
          changed = true;
        }
      }
    }
    // 2. A ready frame goes if its station is not deferring.
    for (std::size_t k = 0; k < n; ++k) {
      Station& x = st[k];
      if (x.tx == Tx::idle && x.hol >= 0 && t >= x.ready_at && !x.deferring)
        start_frame(k, t, false);
    }
    for (std::size_t k = 0; k < n; ++k)
      st[k].sent[static_cast<std::size_t>(t)] = st[k].tx != Tx::idle ? 1 : 0;
    // 3. Collisions: sending during bit t while another signal is here during bit t.
    for (std::size_t k = 0; k < n; ++k) {
      Station& x = st[k];
      if ((x.tx != Tx::sending && x.tx != Tx::fill) || !carrier(k, t)) continue;
      x.jam_in_fill = x.tx == Tx::fill;
      x.late = x.jam_in_fill || !x.first_of_transmission || t - x.attempt_start > s.slot_bits;
      const std::int64_t from = x.jam_in_fill ? t : std::max(t, x.frame_start + 64);
      x.jam_end = from + s.jam_bits;
      x.tx = Tx::jam;
      x.bursting = false;
      if (x.jam_in_fill) {
        x.timeline.attempts.push_back({-1, t, -1, "late"});
      } else {
        x.timeline.attempts.back().outcome = x.late ? "late" : "collision";
      }
    }
    // 4. Each Deference process looks at bit t.
    for (std::size_t k = 0; k < n; ++k) {
      Station& x = st[k];
      const bool busy_now = carrier(k, t) || sent(k, t);
      switch (x.def) {
        case Def::wait_carrier:
          if (busy_now) {
            x.deferring = true;
            x.was_transmitting = sent(k, t);
            x.def = Def::busy;
          }
          break;
        case Def::busy:
          x.was_transmitting = x.was_transmitting || sent(k, t);
          if (!busy_now) {
            x.def = x.was_transmitting ? Def::own_gap : Def::part1;
            x.gap_end = t + (x.was_transmitting ? s.ifg_bits : s.ifg_part1_bits);
          }
          break;
        case Def::part1:
          if (carrier(k, t)) {
            x.def = Def::busy;
            x.was_transmitting = false;
          }
          break;
        case Def::own_gap:
        case Def::part2:
          break;
      }
    }
  }
  std::vector<StationTimeline> out;
  for (auto& x : st) out.push_back(std::move(x.timeline));
  return out;
}

}  // namespace gbesim::reference
