#pragma once
// A collision domain's statistics, declared in one place: the time the medium carried the parts
// of successful transmissions (counted by the medium), the shares of time they, collisions and
// idleness take, and the domain's totals over its stations' own counts (collisions, losses,
// bursts, fairness), evaluated when results are written.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/half_duplex.hpp"
#include "models/common/stats.hpp"
#include "models/common/time.hpp"

namespace gbesim {

class SharedMediumStats {
 public:
  // `stations`: the domain's stations, as they attach; `busy_ps`: the time at least one of them
  // transmitted, up to `elapsed`.
  SharedMediumStats(StatRegistry& registry, std::string component, Picoseconds bit_ps,
                    const std::vector<HalfDuplexStation*>& stations,
                    std::function<double(Picoseconds elapsed)> busy_ps);

  StatGroup group;
  Counter transmissions{group, "transmissions", "transmissions",
                        "transmissions begun (attempts and bursts), successful or not"};
  Counter preamble_ps{group, "preamble_time", "ps", "preamble and SFD of successful frames"};
  Counter frame_ps{group, "frame_time", "ps", "DA..FCS bits of successful frames"};
  Counter extension_ps{group, "extension_time", "ps",
                       "carrier extension and the extension filling gaps inside bursts"};

 private:
  // Busy, carrying each part of good frames, colliding, idle; the throughputs.
  void declare_time(Picoseconds bit_ps);
  // The stations' collisions, losses and bursts summed, and the fairness index.
  void declare_station_totals();
  // A count summed over the stations: now, as a quantity, as a formula.
  double total(std::uint64_t HalfDuplexCounts::*count) const;
  Quantity summed(std::uint64_t HalfDuplexCounts::*count) const;
  StatGroup::Formula sum_of(std::uint64_t HalfDuplexCounts::*count) const;
  // The time the frames on the wire at `elapsed` have been sent so far unharmed.
  double in_progress_ps(Picoseconds elapsed) const;
  // Jain's fairness index of the bits sent since the restart by the stations that tried to send.
  double fairness() const;

  const std::vector<HalfDuplexStation*>& stations_;
  const std::function<double(Picoseconds)> busy_ps_;
  // Each station's counts when the statistics restarted (the fairness index covers the rest).
  std::vector<HalfDuplexCounts> fairness_base_;
};

}  // namespace gbesim
