#pragma once
// One look for every chart gbesim draws: 1200 x 800, a title, axes with units, a legend at the
// bottom, one palette, solid lines for simulated values and dashed ones for analytic references,
// 95 % confidence intervals as vertical bars.

#include <QColor>
#include <QSize>
#include <QString>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <vector>

namespace gbesim::ui {

inline const QSize kChartSize(1200, 800);

QColor series_color(int index);
// A chart with the house style: title, legend at the bottom, margins, fonts.
QChart* new_chart(const QString& title);
// A value axis titled with its unit, e.g. "cable length (m)"; `nice` rounds the range outwards.
QValueAxis* value_axis(const QString& title, double min, double max, bool nice = true);
// Legend below the plot for a few series, beside it for many (long names stay readable); a
// chart of lines shows each line's own pen in its legend; analytic references (line_series)
// are drawn over the simulated lines. Call once the series are added.
void place_legend(QChart* chart, int entries);
// Legend entries longer than `columns` characters broken at spaces onto more lines, so a
// narrow legend shows them whole instead of cutting them off.
void wrap_legend(QChart* chart, int columns);
// `text` broken at spaces into lines of at most `width` pixels in `font` ("<br>" between them,
// each line HTML-escaped); unchanged when it fits on one line. A word longer than a line stays
// whole.
QString wrap_to_width(const QString& text, const QFont& font, qreal width);
// The chart's title and axis titles wrapped to the room a chart of `size` leaves them, so that
// Qt never draws them cut ("..."). The texts as first set are kept, so every size starts from
// them (`unwrapped_title`).
void fit_texts(QChart* chart, const QSizeF& size);
QString unwrapped_title(const QChart* chart);
// Each named analytic reference (line_series(..., true)) labelled on the plot, in its colour,
// just above its last point there, or at the nearest place no other label takes; call once the
// chart is laid out. The labels are the chart's items; the caller removes them before the next.
std::vector<QGraphicsItem*> label_analytic(QChart* chart);
// Line series in the house colors (index 8 and on: the colours again with another dash
// pattern); analytic references dashed, thinner and darker.
QLineSeries* line_series(const QString& name, int color, bool analytic = false);
// Vertical 95 % CI bars at (x, y +- half): one series per bar, hidden from the legend, attached
// to the chart's axes.
void add_error_bars(QChart* chart, QLineSeries* like, const std::vector<double>& x,
                    const std::vector<double>& y, const std::vector<double>& half);

}  // namespace gbesim::ui
