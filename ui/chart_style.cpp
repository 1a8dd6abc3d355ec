#include "ui/chart_style.hpp"

#include <QFont>
#include <QPen>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <algorithm>
#include <cmath>

#include <QtCharts/QXYSeries>

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
    // Labels with as many decimals as the ticks need: "10000", not Qt's "10000.0"; "0.25".
    const double step = (a->max() - a->min()) / std::max(1, a->tickCount() - 1);
    int decimals = 0;
    auto whole = [](double v) {
      return std::abs(v - std::round(v)) < 1e-6 * std::max(1.0, std::abs(v));
    };
    while (decimals < 6 &&
           !(whole(step * std::pow(10.0, decimals)) && whole(a->min() * std::pow(10.0, decimals))))
      ++decimals;
    a->setLabelFormat(QString("%.%1f").arg(decimals));
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
  // Beside the plot, labels wrap at about 22 characters, so the legend keeps to about a fifth
  // of the chart's width (a dozen one-line labels took a third); nothing is cut.
  if (entries > 4) wrap_legend(chart, 22);
  // A chart of lines shows a piece of each line in its legend, so solid (simulated) and dashed
  // (analytic) tell apart; bars keep their filled squares.
  const auto series = chart->series();
  const bool lines_only = !series.empty() && std::all_of(series.begin(), series.end(), [](auto* s) {
    return qobject_cast<QXYSeries*>(s) != nullptr;
  });
  if (lines_only) chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
}

void wrap_legend(QChart* chart, int columns) {
  for (auto* marker : chart->legend()->markers()) {
    const QString label = marker->label();
    if (label.size() <= columns) continue;
    QString wrapped, line;
    for (const QString& word : label.split(' ')) {
      if (!line.isEmpty() && line.size() + 1 + word.size() > columns) {
        wrapped += (wrapped.isEmpty() ? "" : "<br>") + line;
        line.clear();
      }
      line += (line.isEmpty() ? "" : " ") + word;
    }
    wrapped += (wrapped.isEmpty() ? "" : "<br>") + line;
    marker->setLabel(wrapped);
  }
}

QLineSeries* line_series(const QString& name, int color, bool analytic) {
  // Colours repeat after eight; each repetition takes the next dash pattern, so no two series of
  // a chart share a pen. Analytic references are dashed, thinner, darker and without markers.
  static const Qt::PenStyle kSimulated[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine,
                                            Qt::DashDotDotLine};
  static const Qt::PenStyle kAnalytic[] = {Qt::DashLine, Qt::DashDotDotLine, Qt::DotLine,
                                           Qt::DashDotLine};
  auto* s = new QLineSeries();
  s->setName(name);
  const int round = (color / 8) % 4;
  QColor c = series_color(color);
  if (analytic) c = c.darker(160);
  QPen pen(c);
  pen.setWidthF(analytic ? 2.0 : 2.5);
  pen.setStyle(analytic ? kAnalytic[round] : kSimulated[round]);
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
