#pragma once
// Charts to files, offscreen: PNG (a QChartView grabbed at the house size) and SVG
// (QSvgGenerator), drawn in memory and written atomically (QSaveFile: a temporary, then a
// rename), or handed to the caller to write.

#include <QApplication>
#include <QByteArray>
#include <QSize>
#include <QString>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <functional>
#include <vector>

#include "ui/chart_style.hpp"

namespace gbesim::ui {

// A QApplication for command-line rendering: offscreen (no display needed, or used) unless
// QT_QPA_PLATFORM says otherwise, and quiet about the platform's chatter (critical messages
// still reach stderr).
class OffscreenApplication {
 public:
  OffscreenApplication();
  ~OffscreenApplication();

 private:
  int argc_ = 1;
  char name_[8] = "gbesim";
  char* argv_[2] = {name_, nullptr};
  QApplication* app_;
};

// A chart view that wraps its chart's titles to its size whenever it is resized (fit_texts),
// and draws the analytic references' labels (label_analytic) and the chart's annotations (bar
// labels) again wherever its plot area moves: what the desktop app shows and what the files are
// drawn from.
class FittedChartView : public QChartView {
 public:
  explicit FittedChartView(QChart* chart, std::function<void(QChart*)> annotate = {});

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void annotate_again();
  std::function<void(QChart*)> annotate_;
  std::vector<QGraphicsItem*> annotations_;
};

// Takes ownership of the chart. Writes <stem>.png and <stem>.svg; throws std::runtime_error on
// failure.
void save_chart(QChart* chart, const QString& stem,
                const std::function<void(QChart*)>& annotate = {}, QSize size = kChartSize);
// Both drawings in memory; takes ownership of the chart.
struct ChartFiles {
  QByteArray png;
  QByteArray svg;
};
ChartFiles chart_files(QChart* chart, const std::function<void(QChart*)>& annotate = {},
                       QSize size = kChartSize);
// The same drawing in memory, for embedding (the report): PNG bytes.
QByteArray chart_png(QChart* chart, const std::function<void(QChart*)>& annotate = {},
                     QSize size = kChartSize);

}  // namespace gbesim::ui
