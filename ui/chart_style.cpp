#include "ui/chart_style.hpp"

#include <QFont>
#include <QPen>
#include <QtCharts/QLegendMarker>
#include <cmath>

namespace gbesim::ui {

QColor series_color(int index) {
  // Colour-blind-safe (Okabe & Ito 2008).
  static const QColor kPalette[] = {
      QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115),  QColor(204, 121, 167),
      QColor(230, 159, 0), QColor(86, 180, 233), QColor(240, 228, 66), QColor(0, 0, 0)};
  return kPalette[index % 8];
}

QChart* new_chart(const QString& title) {
  auto* chart = new QChart();
  chart->setTitle(title);
  QFont f = chart->titleFont();
  f.setPointSize(16);
  f.setBold(true);
  chart->setTitleFont(f);
  chart->legend()->setAlignment(Qt::AlignBottom);
  QFont lf = chart->legend()->font();
  lf.setPointSize(11);
  chart->legend()->setFont(lf);
  chart->setMargins(QMargins(12, 12, 12, 12));
  chart->setBackgroundBrush(Qt::white);
  chart->setAnimationOptions(QChart::NoAnimation);
  return chart;
}

QValueAxis* value_axis(const QString& title, double min, double max, bool nice) {
  auto* a = new QValueAxis();
  a->setTitleText(title);
  a->setRange(min, max);
  QFont f = a->titleFont();
  f.setPointSize(12);
  a->setTitleFont(f);
  if (nice) {
    a->applyNiceNumbers();
  } else if (max > min) {
    // Exact range, ticks on round numbers (1, 2 or 5 times a power of ten).
    const double raw = (max - min) / 6;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    double step = decade;
    for (double m : {2.0, 5.0, 10.0})
      if (step < raw) step = m * decade;
    a->setTickType(QValueAxis::TicksDynamic);
    a->setTickAnchor(0);
    a->setTickInterval(step);
    a->setLabelFormat(step >= 1 ? "%.0f" : "%g");
  }
  return a;
}

void place_legend(QChart* chart, int entries) {
  chart->legend()->setAlignment(entries > 4 ? Qt::AlignRight : Qt::AlignBottom);
}

QLineSeries* line_series(const QString& name, int color, bool analytic) {
  auto* s = new QLineSeries();
  s->setName(name);
  QPen pen(series_color(color));
  pen.setWidthF(analytic ? 1.5 : 2.5);
  if (analytic) pen.setStyle(Qt::DashLine);
  s->setPen(pen);
  s->setPointsVisible(!analytic);
  return s;
}

void add_error_bars(QChart* chart, QLineSeries* like, const std::vector<double>& x,
                    const std::vector<double>& y, const std::vector<double>& half) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(half[i] > 0)) continue;
    auto* bar = new QLineSeries();
    bar->append(x[i], y[i] - half[i]);
    bar->append(x[i], y[i] + half[i]);
    QPen pen(like->pen().color());
    pen.setWidthF(1.5);
    bar->setPen(pen);
    chart->addSeries(bar);
    for (auto* axis : like->attachedAxes()) bar->attachAxis(axis);
    for (auto* m : chart->legend()->markers(bar)) m->setVisible(false);
  }
}

}  // namespace gbesim::ui
