#pragma once
// A deliberately simple reference of the 802.3 Clause 4 half-duplex rules, stepped one bit time
// at a time (no events, no SystemC), for differential testing of the event-driven MAC and
// collision domain. It follows the Pascal processes directly: at every bit boundary t,
//   1. timers that expire at t (a frame, jam, fill or backoff ends; a gap ends) take effect;
//   2. frames arriving at t join their station's queue;
//   3. a station with a frame ready and not deferring starts sending at t;
//   4. a station sending during bit t while another station's signal is present at it during
//      bit t has detected a collision at t;
//   5. each station's Deference process looks at bit t: carrier (another signal present) or
//      its own transmission.
// It shares nothing with the model but the random stream its backoff draws come from.

#include <cstdint>
#include <string>
#include <vector>

namespace gbesim::reference {

struct FrameArrival {
  std::int64_t at_bits;
  std::int64_t bytes;
};

struct StationSetup {
  std::string name;  // the backoff stream is (seed, name + ".mac")
  std::vector<FrameArrival> frames;
};

struct Setup {
  std::int64_t rate_mbps = 1000;
  std::int64_t slot_bits = 4096;
  bool extension = true;
  bool bursting = false;
  std::int64_t burst_limit_bits = 65536;
  std::int64_t ifg_bits = 96;
  std::int64_t ifg_part1_bits = 64;
  std::int64_t attempt_limit = 16;
  std::int64_t backoff_limit = 10;
  std::int64_t jam_bits = 32;
  bool retry_late_collisions = true;  // 10/100 Mb/s only
  std::uint64_t seed = 1;
  std::vector<std::vector<std::int64_t>> delay_bits;  // [from][to]
  std::vector<StationSetup> stations;
  std::int64_t duration_bits = 100000;  // bit boundaries 0 .. duration - 1 are simulated
};

// One attempt to send a frame (or a collision in a burst's fill, frame = -1).
struct Attempt {
  std::int64_t frame = -1;  // index into the station's frames, in arrival order
  std::int64_t start_bits = -1;
  std::int64_t end_bits = -1;  // last bit + 1: the frame's end (ok) or the jam's end; -1 if not yet
  std::string outcome;         // "ok", "collision", "late", or "" while unfinished
  bool operator==(const Attempt& o) const {
    return frame == o.frame && start_bits == o.start_bits && end_bits == o.end_bits &&
           outcome == o.outcome;
  }
};

struct Drop {
  std::int64_t frame;
  std::int64_t at_bits;
  std::string reason;  // "excessive_collisions" or "late_collision"
  bool operator==(const Drop& o) const {
    return frame == o.frame && at_bits == o.at_bits && reason == o.reason;
  }
};

struct StationTimeline {
  std::vector<Attempt> attempts;
  std::vector<Drop> drops;
};

std::vector<StationTimeline> simulate(const Setup& setup);
std::string describe(const Attempt& a);

}  // namespace gbesim::reference
