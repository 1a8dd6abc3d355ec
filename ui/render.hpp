#pragma once
// Charts to files, offscreen: PNG (a QChartView grabbed at the house size) and SVG
// (QSvgGenerator). Written atomically: to a temporary name, then renamed.

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QtCharts/QChart>
#include <functional>

#include "ui/chart_style.hpp"

namespace gbesim::ui {

// Takes ownership of the chart. Writes <stem>.png and <stem>.svg; throws std::runtime_error on
// failure.
void save_chart(QChart* chart, const QString& stem,
                const std::function<void(QChart*)>& annotate = {}, QSize size = kChartSize);
// The same drawing in memory, for embedding (the report): PNG bytes.
QByteArray chart_png(QChart* chart, const std::function<void(QChart*)>& annotate = {},
                     QSize size = kChartSize);

}  // namespace gbesim::ui
