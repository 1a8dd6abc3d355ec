#pragma once
// The standard charts for a results directory, chosen by what it contains (docs/charts.md):
//  - a `gbesim phy` directory: SNR margin and BER vs cable length per category, the eye at the
//    slicer before and after equalisation, AWGN error rates;
//  - a sweep with the axes of a built-in study (by axis, not by the study's name): carrier
//    extension (mode x frame_bytes x senders), cable length (links[0].cable_m x medium),
//    contention (stations x rate_mbps x frame size), diameter (cable length x slot time), PCI
//    ceilings (bus x NIC x direction), the 2003 NIC review (request size x NIC x direction);
//  - any other sweep: delivered throughput against each numeric axis (up to three), one line per
//    combination of the others, and the collision domain's efficiency when it has one;
//  - a single run: transmit and receive throughput per station, and its time series.
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
