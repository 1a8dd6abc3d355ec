#pragma once
// The rules answers() applies (analysis/answers), each deciding from a results directory's axes,
// scalars and resolved scenarios whether it answers, and the text helpers they share. Internal to
// analysis: nothing outside it includes this header.
//  - answers.cpp: diameter, carrier extension, PCI / NIC ceilings, PHY reach;
//  - answers_ethernet.cpp: contention, line rate, cable errors;
//  - answers_systems.cpp: host applications, switch drops and PAUSE.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/answers.hpp"
#include "analysis/results.hpp"

namespace gbesim::answer_rules {

// ---- the rules ------------------------------------------------------------------------------

void contention(const Results& r, std::vector<Answer>& out);
void line_rate(const Results& r, std::vector<Answer>& out);
void cable_errors(const Results& r, std::vector<Answer>& out);
void host_applications(const Results& r, std::vector<Answer>& out);
void switch_drops(const Results& r, std::vector<Answer>& out);

// ---- what the rules read from a point's scenario ------------------------------------------

// Stations with an enabled traffic source, in the scenario's order.
std::vector<std::string> senders_of(const nlohmann::json& config);
// The hosts that run applications over a NIC (a `nic` and an `app` or `apps`), by name.
std::vector<std::string> application_hosts(const nlohmann::json& config);
// Whether every station's MAC runs full duplex.
bool all_full_duplex(const nlohmann::json& config);

// ---- text -------------------------------------------------------------------------------

std::string percent(double share);  // 0.8123 -> "81.2 %"
std::string mbps(double bps);       // 9.8e8 -> "980 Mb/s"
// A count or rate with thousands grouped: 1488095.2 -> "1,488,095"; below 1000 one decimal is
// kept ("138.6") unless the value is whole.
std::string grouped(double value);
// A count of frames, rounded: "1 frame", "2,827 frames".
std::string frames_text(double frames);
// A small share with two significant digits below 1 %: 0.037 -> "3.7 %", 0.00024 -> "0.024 %".
std::string small_percent(double share);
std::string join(const std::vector<std::string>& parts, const std::string& separator = ", ");

// ---- axes and points ------------------------------------------------------------------------

// "profile=x, bus=y": short axis names, for sentences.
std::string short_label_of(const Results& r, std::size_t p, const std::vector<std::size_t>& axes);
// Every axis, in order.
std::vector<std::size_t> every_axis(const Results& r);
// Every axis but the given ones.
std::vector<std::size_t> axes_except(const Results& r, const std::vector<int>& skip);
// The first axis whose path contains `part`, or -1.
int axis_containing(const Results& r, const std::string& part);
// The axes on which two points differ.
std::vector<std::size_t> differing_axes(const Results& r, std::size_t a, std::size_t b);
// The axes whose value follows from axis `k`'s at every point, `k` included: the other columns
// of a linked axis ("rate_mbps, duration_ns" are two columns), or an axis with one value.
std::vector<int> determined_by(const Results& r, int k);

// The axes along which a property of the points changes while every other axis is held (a
// linked axis's columns together): the axes that vary the number of senders, or a host's NIC.
std::vector<int> axes_changing(const Results& r,
                               const std::map<std::size_t, std::string>& property);

// Points grouped by their values on `axes`, groups and points in first-seen order; the label is
// short_label_of those axes, less any that an earlier one determines ("all points" when none).
struct PointGroup {
  std::string label;
  std::vector<std::size_t> points;
};
std::vector<PointGroup> group_points(const Results& r, const std::vector<std::size_t>& axes,
                                     const std::vector<std::size_t>& points);
// Every point that has a complete run.
std::vector<std::size_t> points_with_results(const Results& r);

// A scalar's mean, when present.
std::optional<double> mean_of(const Results& r, std::size_t p, const std::string& component,
                              const std::string& name);

}  // namespace gbesim::answer_rules
