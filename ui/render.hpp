#pragma once
// Charts to files, offscreen: PNG (a QChartView grabbed at the house size) and SVG
// (QSvgGenerator). Written atomically: to a temporary name, then renamed.

#include <QSize>
#include <QString>
#include <QtCharts/QChart>

#include "ui/chart_style.hpp"

namespace gbesim::ui {

// Takes ownership of the chart. Writes <stem>.png and <stem>.svg; throws std::runtime_error on
// failure.
void save_chart(QChart* chart, const QString& stem, QSize size = kChartSize);

}  // namespace gbesim::ui
