#include "ui/render.hpp"

#include <QFile>
#include <QPainter>
#include <QPixmap>
#include <QtCharts/QChartView>
#include <QtSvg/QSvgGenerator>
#include <stdexcept>

namespace gbesim::ui {

namespace {

void replace(const QString& tmp, const QString& final_name) {
  QFile::remove(final_name);
  if (!QFile::rename(tmp, final_name))
    throw std::runtime_error("cannot write " + final_name.toStdString());
}

}  // namespace

void save_chart(QChart* chart, const QString& stem, QSize size) {
  QChartView view(chart);  // owns the chart from here
  view.setRenderHint(QPainter::Antialiasing);
  view.resize(size);
  view.setFrameShape(QFrame::NoFrame);
  view.show();
  const QPixmap pixmap = view.grab();
  const QString png = stem + ".png";
  if (!pixmap.save(png + ".tmp", "PNG"))
    throw std::runtime_error("cannot write " + png.toStdString());
  replace(png + ".tmp", png);

  const QString svg = stem + ".svg";
  QSvgGenerator generator;
  generator.setFileName(svg + ".tmp");
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(chart->title());
  {
    QPainter painter(&generator);
    painter.setRenderHint(QPainter::Antialiasing);
    view.render(&painter);
  }
  replace(svg + ".tmp", svg);
}

}  // namespace gbesim::ui
