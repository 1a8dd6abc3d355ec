#pragma once
// The answer of a diameter sweep (a results directory with a cable-length axis:
// topology.cables[...].cable_m, or a collision domain's cable_m): per combination of the other
// axes, the longest legal cable beside the simulated first failing length.
//
// Legal: for the geometry the sweep varies -- the cables its axis sets, all at one length, the
// others as they are (run.json's swept_cable_limits: by the path delay, and with their PHY's
// segment limit, computed by each run from its plant) -- else the topology report's longest
// station cable (topology.domain0.max_station_cable_pdv / max_station_cable). A plant that breaks a
// repeater rule (count, class, 5-4-3: topology.domain0.repeater_rule_breaches and run.json's
// repeater_rule_breaches) is illegal whatever its cables; the answer says so first. Failing: a
// frame lost to a collision its sender did not handle -- a late collision
// (domain0.late_collisions_per_1000_frames > 0), or a collision that reached a receiver only
// after the sender had stopped (domain0.unnoticed_collision_losses > 0: the sender counts the
// frame as sent, the receiver sees an FCS error). Past the edge the second kind takes over where
// the first falls back to 0, so both count. The swept step bounds how close the simulated edge
// can come to the legal length.
// Does not model: replications' spread of the first failure (a point fails when any of its
// replications' mean is above 0).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

struct DiameterAnswer {
  std::vector<std::pair<std::string, std::string>> where;  // the other axes' values
  std::size_t point = 0;                                   // the group's first failing point
  std::optional<double> legal_pdv_m;                       // the path delay's limit
  std::optional<double> legal_m;                           // with the segment limit
  std::optional<double> budget_bt;
  double longest_swept_m = 0;
  std::optional<double> last_clean_m;     // the longest swept length before the first failure
  std::optional<double> first_failing_m;  // none: nothing failed up to longest_swept_m
  std::string failure;                    // what failed there, in words
  std::string swept;    // what the legal length is of: "per cable", "of topology.cables[0]"
  std::string illegal;  // a repeater rule the plant breaks, in words; empty when none
  std::size_t illegal_points = 0;  // the group's points that break it
  std::size_t points = 0;          // the group's points
};

// The cable a topology.cables[i].cable_m (or .length_m, its old name) path sets: its index as
// written ("3", or "*" for every cable), or nullopt for any other path.
std::optional<std::string> cable_of_length_path(const std::string& path);
// Whether a swept axis varies cable lengths (one of its paths is topology.cables[i or *].cable_m
// or a collision domain's cable_m); the cable-length axis of a results directory, or -1.
bool is_diameter_axis(const std::string& axis);
int diameter_axis(const Results& results);
std::vector<DiameterAnswer> diameter_answers(const Results& results);

// One line per answer: "speed=1000 Mb/s, ...: legal up to 101.44 m per cable at slot 4096 BT by
// the path delay (100.00 m with the PHY's segment limit); simulated: no failure up to 101 m, first
// failure at 102 m (late collisions: 34.3 per 1000 frames)".
std::string diameter_answer_text(const DiameterAnswer& a);
// The answers condensed per legal length (per speed and slot time in the built-in study): the
// legal length and the range of simulated first failures over the other axes.
std::vector<std::string> diameter_summary(const std::vector<DiameterAnswer>& answers);

}  // namespace gbesim
