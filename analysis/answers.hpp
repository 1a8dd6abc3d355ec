#pragma once
// The answers a results directory gives, in words, chosen by what it contains (not by the study's
// name), for the top of `gbesim report`:
//  - diameter: a cable-length axis and the topology report -> the legal length per cable beside
//    the simulated first failing length (analysis/diameter);
//  - carrier extension: points with carrier extension and their partners with frame bursting
//    (or without extension) -> the share of the medium's time the extension takes per frame
//    size and mix, and the efficiency bursting wins back, per group of the other axes;
//  - PCI / NIC ceilings: a host's per-frame bus accounting (analysis.<host>) -> per bus, frame
//    size and direction the simulated ceiling over the NICs, the bottleneck the run showed and
//    the mechanism behind it (bus clocks per frame by part, data phases against waits);
//  - PHY: a `gbesim phy` reach table -> the length at zero margin per cable category and
//    receiver (which cancellers it has).
// Each answer says how its numbers were found and what any analytic reference assumes. Pure C++.

#include <string>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

struct Answer {
  std::string kind;                  // "diameter", "carrier-extension", "pci", "phy"
  std::string question;              // the heading, a question
  std::vector<std::string> lines;    // the answer: one sentence each
  std::string method;                // how the numbers were found, what references assume
  std::vector<std::string> details;  // one line per combination (long: shown collapsed)
  std::string chart;                 // the standard chart that shows it (ui/standard_charts)
};

std::vector<Answer> answers(const Results& results);

// What an analytic reference of the comparisons (analysis/comparisons) assumes, by its quantity
// name ("Metcalfe-Boggs efficiency", ...); empty when unknown.
std::string reference_assumptions(const std::string& quantity);

}  // namespace gbesim
