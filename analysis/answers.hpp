#pragma once
// The answers a results directory gives, in words, chosen by what it contains (not by the study's
// name), printed by `gbesim sweep`, written to answers.txt and put at the top of `gbesim report`:
//  - diameter: a cable-length axis and the topology report -> the legal length per cable beside
//    the simulated first failing length (analysis/diameter);
//  - carrier extension: points with carrier extension and their partners with frame bursting
//    (or without extension) -> the share of the medium's time the extension takes per frame
//    size and mix, and the efficiency bursting wins back, per group of the other axes;
//  - PCI / NIC ceilings: a host's per-frame bus accounting (analysis.<host>) -> per bus, frame
//    size and direction the simulated ceiling over the NICs, the bottleneck the run showed and
//    the mechanism behind it (bus clocks per frame by part, data phases against waits);
//  - PHY: a `gbesim phy` reach table -> the length at zero margin per cable category and
//    receiver (which cancellers it has);
//  - contention: three or more counts of senders on one collision domain (the axes that change
//    the count, whatever their names) -> per group of the other axes the efficiency from the
//    fewest to the most stations beside Metcalfe-Boggs (analysis.metcalfe_boggs_efficiency) and
//    Jain's fairness index (the domain's fairness);
//  - line rate: every point one saturated full-duplex sender of fixed-size frames, no host, and
//    a frame-size or line-rate axis -> whether every run sent exactly the frames the closed form
//    (analysis/line_rate) completes in it, and per size the simulated frame rate beside it;
//  - cable errors: links whose bit errors the PHY model sets (analysis.link<k>) and a
//    cable-length axis -> per group of the other axes the longest length with no frame lost,
//    where losses begin, and the goodput there and at the longest;
//  - host applications: a host running applications over a NIC -> what they get at the largest
//    and smallest workload (the numeric axis with most values) over the NIC arrangements (the
//    axis that changes the host's NIC), its CPU, and where a switch dropped frames;
//  - switch: a switch, and no host applications -> the frames it dropped, what got delivered and
//    the PAUSE frames it sent, with PAUSE off and on when an axis sets it.
// Each answer says how its numbers were found and what any analytic reference assumes; a results
// directory with none says why (no_answer_reason). Pure C++; the rules live in answers.cpp,
// answers_ethernet.cpp and answers_systems.cpp (analysis/answer_rules.hpp).

#include <string>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

struct Answer {
  // "diameter", "carrier-extension", "pci", "phy", "contention", "line-rate", "cable-errors",
  // "host-applications", "switch"
  std::string kind;
  std::string question;              // the heading, a question
  std::vector<std::string> lines;    // the answer: one sentence each
  std::string method;                // how the numbers were found, what references assume
  std::vector<std::string> details;  // one line per combination (long: shown collapsed)
  // The answer at a glance where it is a table: a header row, then a row per case (text
  // cells); shown before the lines, which then say what the table cannot. Empty: none.
  std::vector<std::vector<std::string>> table;
  std::string chart;  // the standard chart that shows it (ui/standard_charts)
};

std::vector<Answer> answers(const Results& results);

// A table as aligned text: columns padded to their widest cell, two spaces apart, a rule under
// the header; each line starts with `indent`.
std::string table_text(const std::vector<std::vector<std::string>>& table,
                       const std::string& indent);

// Why a results directory has no answer, in one or two sentences: the shapes of study gbesim
// answers and how this one differs ("This sweep varies stations.a.traffic[0].load_bps, which no
// answer reads."); empty when answers() has one.
std::string no_answer_reason(const Results& results);

// What an analytic reference of the comparisons (analysis/comparisons) assumes, by its quantity
// name ("Metcalfe-Boggs efficiency", ...); empty when unknown.
std::string reference_assumptions(const std::string& quantity);

}  // namespace gbesim
