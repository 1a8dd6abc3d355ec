#pragma once
// The standard charts for a results directory, chosen by what produced it (docs/charts.md):
//  - a `gbesim phy` directory: SNR margin and BER vs cable length per category, the eye at the
//    slicer before and after equalisation, AWGN error rates;
//  - carrier-extension-waste: efficiency vs frame size per mode with the analytic lines, the
//    time share of a half-duplex domain (frame, preamble, extension, collisions, idle);
//  - cable-length-ber: goodput and PHY margin vs cable length per category;
//  - any sweep: delivered throughput vs its first axis, one series per combination of the rest;
//  - a single run: transmit and receive throughput per station.
// Each chart is titled, has axis titles with units and a legend, and shows 95 % confidence
// intervals where the sweep has replications.

#include <functional>
#include <string>
#include <vector>

#include <QtCharts/QChart>

#include "analysis/results.hpp"

namespace gbesim::ui {

struct StandardChart {
  StandardChart(std::string n, QChart* c, std::function<void(QChart*)> a = {})
      : name(std::move(n)), chart(c), annotate(std::move(a)) {}
  std::string name;  // file stem: <name>.png, <name>.svg
  QChart* chart;     // owned by the caller
  // Drawn once the chart is laid out (text on bars needs the plot's geometry); may be empty.
  std::function<void(QChart*)> annotate;
};

std::vector<StandardChart> standard_charts(const Results& results);

}  // namespace gbesim::ui
