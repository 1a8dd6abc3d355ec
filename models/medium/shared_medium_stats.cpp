#include "models/medium/shared_medium_stats.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gbesim {

SharedMediumStats::SharedMediumStats(StatRegistry& registry, std::string component,
                                     Picoseconds bit_ps,
                                     const std::vector<HalfDuplexStation*>& stations,
                                     std::function<double(Picoseconds elapsed)> busy_ps)
    : group(registry, std::move(component)), stations_(stations), busy_ps_(std::move(busy_ps)) {
  declare_time(bit_ps);
  declare_station_totals();
  group.rate("efficiency", "fraction", "DA..FCS bits of successful frames over capacity",
             share_of_time(frame_ps));
}

void SharedMediumStats::declare_time(Picoseconds bit_ps) {
  group.total("busy_time", "ps", "time at least one station transmitted (any signal)",
              [this](const StatContext& c) { return busy_ps_(c.elapsed_ps); });
  group.rate("frame_share", "fraction", "share of time carrying DA..FCS bits of good frames",
             share_of_time(frame_ps));
  group.rate("preamble_share", "fraction", "share of time carrying preamble and SFD",
             share_of_time(preamble_ps));
  group.rate("extension_share", "fraction",
             "share of time carrying carrier extension (and burst fill)",
             share_of_time(extension_ps));
  // Shares of the time the statistics cover (since a restart): picoseconds of elapsed ones.
  const auto in_progress = [this](const StatContext& c) { return in_progress_ps(c.elapsed_ps); };
  group.ratio("in_progress_share", "fraction",
              "share of time taken by a frame still on the wire, so far unharmed, at the end "
              "(after a warm-up: net of the one on the wire at the restart)",
              in_progress, elapsed_ps(), fraction_of_span());
  group.ratio(
      "collision_share", "fraction",
      "share of time on collided attempts and jam (busy time not carrying a successful frame, "
      "nor a frame still in progress)",
      [this](const StatContext& c) {
        const double good =
            static_cast<double>(frame_ps.value() + preamble_ps.value() + extension_ps.value());
        return std::max(0.0, busy_ps_(c.elapsed_ps) - good - in_progress_ps(c.elapsed_ps));
      },
      elapsed_ps(), fraction_of_span());
  group.ratio(
      "idle_share", "fraction", "share of time no station transmitted",
      [this](const StatContext& c) {
        return static_cast<double>(c.elapsed_ps) - busy_ps_(c.elapsed_ps);
      },
      elapsed_ps(), fraction_of_span());
  group.rate("throughput", "bit/s", "DA..FCS bits of successful frames per second",
             [this, bit_ps](const StatContext& c) {
               return static_cast<double>(frame_ps.value()) / static_cast<double>(bit_ps) *
                      c.per_second();
             });
  group.rate("payload_throughput", "bit/s",
             "MAC client data bits (payload and pad) of successful frames per second",
             bits_per_second(summed(&HalfDuplexCounts::octets_transmitted_ok)));
}

void SharedMediumStats::declare_station_totals() {
  using Counts = HalfDuplexCounts;
  group.ratio("collisions_per_frame", "collisions/frame",
              "collisions met by all stations per frame sent successfully",
              sum_of(&Counts::collisions), sum_of(&Counts::frames_transmitted_ok), per_event());
  group.ratio("late_collisions_per_1000_frames", "collisions",
              "late collisions met by all stations per 1000 transmission attempts",
              sum_of(&Counts::late_collisions), sum_of(&Counts::attempts), per_event(1000.0));
  group.total("unnoticed_collision_losses", "frames",
              "frames their sender counted as sent that reached the receiver damaged: the "
              "colliding signal arrived after the sender had stopped (receivers' FCS errors)",
              sum_of(&Counts::frame_check_sequence_errors));
  group.ratio("late_or_unseen_collisions_per_1000_frames", "collisions",
              "collisions the slot time did not cover, per 1000 transmission attempts: late "
              "collisions the senders met, and collisions they never saw (receivers' FCS "
              "errors; past the diameter edge these take over from late collisions)",
              value_of([this] {
                return total(&Counts::late_collisions) +
                       total(&Counts::frame_check_sequence_errors);
              }),
              sum_of(&Counts::attempts), per_event(1000.0));
  group.ratio(
      "collision_losses_per_1000_frames", "frames",
      "frames lost to collisions (late-collision and excessive-collision drops, "
      "unnoticed losses) per 1000 frames the stations finished with",
      value_of([this] {
        return total(&Counts::late_collision_drops) + total(&Counts::excessive_collision_drops) +
               total(&Counts::frame_check_sequence_errors);
      }),
      value_of([this] {
        return total(&Counts::frames_transmitted_ok) + total(&Counts::late_collision_drops) +
               total(&Counts::excessive_collision_drops);
      }),
      per_event(1000.0));
  group.total("late_collision_drops", "frames",
              "frames dropped after a late collision (never retried at 1000 Mb/s), all stations",
              sum_of(&Counts::late_collision_drops));
  group.total("excessive_collision_drops", "frames",
              "frames dropped after attempt_limit collisions, all stations",
              sum_of(&Counts::excessive_collision_drops));
  group.total("bursts", "bursts", "frame bursts sent on the domain (first frame successful)",
              sum_of(&Counts::bursts));
  group.ratio("frames_per_burst", "frames", "mean frames per burst",
              sum_of(&Counts::frames_in_bursts), sum_of(&Counts::bursts), per_event());
  // After a warm-up, fairness is over what each station did since: its counts at the restart.
  group.on_restart([this](Picoseconds) {
    fairness_base_.clear();
    for (const HalfDuplexStation* s : stations_) fairness_base_.push_back(s->half_duplex_counts(0));
  });
  group.summary("fairness", "index",
                "Jain's fairness index of DA..FCS bits sent, over the stations that tried to send",
                value_of([this] { return fairness(); }));
}

double SharedMediumStats::total(std::uint64_t HalfDuplexCounts::*count) const {
  double n = 0;
  for (const HalfDuplexStation* s : stations_)
    n += static_cast<double>(s->half_duplex_counts(0).*count);
  return n;
}

Quantity SharedMediumStats::summed(std::uint64_t HalfDuplexCounts::*count) const {
  return [this, count] { return total(count); };
}

StatGroup::Formula SharedMediumStats::sum_of(std::uint64_t HalfDuplexCounts::*count) const {
  return value_of(summed(count));
}

double SharedMediumStats::in_progress_ps(Picoseconds elapsed) const {
  double ps = 0;
  for (const HalfDuplexStation* s : stations_)
    ps += static_cast<double>(s->half_duplex_counts(elapsed).clean_in_progress_ps);
  return ps;
}

double SharedMediumStats::fairness() const {
  double sum = 0;
  double squares = 0;
  double n = 0;
  for (std::size_t i = 0; i < stations_.size(); ++i) {
    HalfDuplexCounts counts = stations_[i]->half_duplex_counts(0);
    if (i < fairness_base_.size()) {
      counts.attempts -= fairness_base_[i].attempts;
      counts.frame_octets_transmitted -= fairness_base_[i].frame_octets_transmitted;
    }
    if (counts.attempts == 0) continue;
    const double x = static_cast<double>(counts.frame_octets_transmitted);
    sum += x;
    squares += x * x;
    n += 1;
  }
  return squares > 0 ? sum * sum / (n * squares) : std::nan("");
}

}  // namespace gbesim
