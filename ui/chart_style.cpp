#include "ui/chart_style.hpp"

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QRegularExpression>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <algorithm>
#include <cmath>
#include <optional>

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

namespace {

// Analytic references last, so that they are drawn over the simulated lines they are compared
// with (Qt draws series in the order they were added); their axes go with them.
void raise_analytic(QChart* chart) {
  for (QAbstractSeries* s : chart->series()) {
    if (!s->property("analytic").toBool()) continue;
    const auto axes = s->attachedAxes();
    chart->removeSeries(s);
    chart->addSeries(s);
    for (QAbstractAxis* axis : axes) s->attachAxis(axis);
  }
}

}  // namespace

void place_legend(QChart* chart, int entries) {
  raise_analytic(chart);
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

namespace {

// `text` in lines of at most `width` pixels in `font`, broken between the pieces `piece` matches
// (a piece's trailing space is dropped at a line's end); each line HTML-escaped, "<br>" between.
QString wrap_pieces(const QString& text, const QFont& font, qreal width,
                    const QRegularExpression& piece) {
  const QFontMetricsF metrics(font);
  if (metrics.horizontalAdvance(text) <= width) return text;
  QStringList lines;
  QString line;
  for (auto it = piece.globalMatch(text); it.hasNext();) {
    const QString part = it.next().captured(0);
    if (!line.trimmed().isEmpty() && metrics.horizontalAdvance(line + part.trimmed()) > width) {
      lines << line.trimmed().toHtmlEscaped();
      line.clear();
    }
    line += part;
  }
  if (!line.trimmed().isEmpty()) lines << line.trimmed().toHtmlEscaped();
  return lines.join("<br>");
}

}  // namespace

QString wrap_to_width(const QString& text, const QFont& font, qreal width) {
  static const QRegularExpression word("[^ ]+ ?| ");
  return wrap_pieces(text, font, width, word);
}

namespace {

// The text an object's title had before it was first wrapped.
QString first_text(QObject* object, const QString& now) {
  if (!object->property("unwrapped").isValid()) object->setProperty("unwrapped", now);
  return object->property("unwrapped").toString();
}

}  // namespace

namespace {

// A legend's entries whole in the room a chart of `size` leaves it: below the plot while one row
// holds them, else beside it with labels wrapped at 22 characters; the font one point smaller
// at a time (down to 7 points) while the column is taller than the plot. Qt would shorten them.
void fit_legend(QChart* chart, const QSizeF& size) {
  QLegend* legend = chart->legend();
  std::vector<QLegendMarker*> shown;
  // Entries without a label (a CI bar's) are hidden; a marker's own visibility is not yet
  // settled while the chart is first laid out.
  for (auto* m : legend->markers())
    if (!m->label().isEmpty()) shown.push_back(m);
  if (shown.empty()) return;
  if (!legend->property("points").isValid())
    legend->setProperty("points", legend->font().pointSize());
  auto plain = [](const QLegendMarker* m) { return m->label().replace("<br>", " "); };
  QFont font = legend->font();
  const QFontMetricsF title(chart->titleFont());
  const qreal plot_height =
      size.height() - title.lineSpacing() * (1 + chart->title().count("<br>")) - 110;
  for (int points = legend->property("points").toInt(); points >= 7; --points) {
    font.setPointSize(points);
    const QFontMetricsF m(font);
    // A row shares its width among the entries when they do not all fit: the widest decides.
    qreal widest = 0;
    for (auto* marker : shown) widest = std::max(widest, m.horizontalAdvance(plain(marker)));
    const qreal row = static_cast<qreal>(shown.size()) * (widest + 3 * m.height());
    if (legend->alignment() == Qt::AlignBottom && row <= size.width() - 40) break;
    legend->setAlignment(Qt::AlignRight);
    for (auto* marker : shown) marker->setLabel(plain(marker));
    wrap_legend(chart, 22);
    qreal column = 0;
    for (auto* marker : shown) column += m.lineSpacing() * (1 + marker->label().count("<br>")) + 6;
    if (column <= plot_height) break;
  }
  legend->setFont(font);
}

// wrap_to_width, breaking also after a slash where a word alone is too wide ("64/576/1518").
QString wrap_category(const QString& text, const QFont& font, qreal width) {
  static const QRegularExpression piece("[^ /]*/|[^ /]+ ?| ");
  return wrap_pieces(text, font, width, piece);
}

// A category axis below the plot gives each category an equal share of about half the chart's
// width: a name longer than its share ("64/576/1518 8:3:1") wraps at spaces within it.
void fit_categories(QBarCategoryAxis* axis, const QSizeF& size) {
  if (axis->count() == 0) return;
  if (!axis->property("categories").isValid()) axis->setProperty("categories", axis->categories());
  const QStringList first = axis->property("categories").toStringList();
  const qreal room = size.width() * 0.5 / static_cast<qreal>(first.size());
  QStringList fitted;
  for (const QString& category : first) fitted << wrap_category(category, axis->labelsFont(), room);
  if (fitted != axis->categories()) axis->setCategories(fitted);
}

}  // namespace

void fit_texts(QChart* chart, const QSizeF& size) {
  // The title spans the chart less its margins; an axis title runs along the plot, which the
  // tick labels, the other axis and a legend beside it narrow to about half the chart.
  chart->setTitle(
      wrap_to_width(first_text(chart, chart->title()), chart->titleFont(), size.width() - 60));
  for (QAbstractAxis* axis : chart->axes()) {
    const qreal room =
        axis->orientation() == Qt::Horizontal ? size.width() * 0.5 : size.height() * 0.45;
    axis->setTitleText(wrap_to_width(first_text(axis, axis->titleText()), axis->titleFont(), room));
    if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis);
        categories != nullptr && axis->orientation() == Qt::Horizontal)
      fit_categories(categories, size);
  }
  fit_legend(chart, size);
}

std::vector<QGraphicsItem*> label_analytic(QChart* chart) {
  std::vector<QGraphicsItem*> items;
  std::vector<QRectF> taken;
  const QRectF plot = chart->plotArea();
  for (QAbstractSeries* s : chart->series()) {
    auto* line = qobject_cast<QXYSeries*>(s);
    if (line == nullptr || !s->property("analytic").toBool() || s->name().isEmpty() ||
        !s->isVisible())
      continue;
    // Its last point on the plot (a line may run past the axis's end).
    std::optional<QPointF> end;
    for (int i = line->count() - 1; i >= 0 && !end; --i)
      if (const QPointF p = chart->mapToPosition(line->at(i), s);
          plot.adjusted(-1, -1, 1, 1).contains(p))
        end = p;
    if (!end) continue;
    auto* label = new QGraphicsSimpleTextItem(s->name(), chart);
    QFont font = label->font();
    font.setPointSize(8);
    label->setFont(font);
    label->setBrush(line->pen().color());
    const QSizeF box = label->boundingRect().size();
    const qreal x =
        std::clamp(end->x() - box.width() - 4, plot.left() + 2, plot.right() - box.width() - 2);
    const qreal y0 = end->y() - box.height() - 2;
    // Just above its end, else the nearest free place above or below it on the plot.
    std::optional<QRectF> place;
    for (std::size_t k = 0; k <= 2 * (taken.size() + 12) && !place; ++k) {
      const qreal step = (box.height() + 1) * static_cast<qreal>((k + 1) / 2);
      const QRectF candidate(QPointF(x, k % 2 == 1 ? y0 - step : y0 + step), box);
      if (plot.contains(candidate) &&
          std::none_of(taken.begin(), taken.end(),
                       [&](const QRectF& t) { return t.intersects(candidate); }))
        place = candidate;
    }
    if (!place) {  // no room: the legend names it
      delete label;
      continue;
    }
    // On a pale ground, over the lines it may cross.
    auto* ground = new QGraphicsRectItem(place->adjusted(-1, 0, 1, 0), chart);
    ground->setPen(Qt::NoPen);
    ground->setBrush(QColor(255, 255, 255, 215));
    ground->setZValue(1000);
    label->setZValue(1001);
    label->setPos(place->topLeft());
    taken.push_back(*place);
    items.push_back(ground);
    items.push_back(label);
  }
  return items;
}

QString unwrapped_title(const QChart* chart) {
  const QVariant first = chart->property("unwrapped");
  return first.isValid() ? first.toString() : chart->title();
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
  s->setProperty("analytic", analytic);
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
