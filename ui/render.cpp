#include "ui/render.hpp"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QPainter>
#include <QPixmap>
#include <QResizeEvent>
#include <QSaveFile>
#include <QtCharts/QChartView>
#include <QtSvg/QSvgGenerator>
#include <cstdio>
#include <stdexcept>

namespace gbesim::ui {

namespace {

void write_file(const QString& name, const QByteArray& bytes) {
  QSaveFile file(name);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
    throw std::runtime_error("cannot write " + name.toStdString() + ": " +
                             file.errorString().toStdString());
}

}  // namespace

namespace {

// A view of the chart at the house size, laid out, annotated.
class LaidOut {
 public:
  LaidOut(QChart* chart, const std::function<void(QChart*)>& annotate, QSize size) : view_(chart) {
    view_.setRenderHint(QPainter::Antialiasing);
    view_.resize(size);
    view_.setFrameShape(QFrame::NoFrame);
    view_.show();
    QCoreApplication::processEvents();
    if (annotate) annotate(chart);
  }
  QChartView& view() { return view_; }

 private:
  FittedChartView view_;  // owns the chart
};

}  // namespace

FittedChartView::FittedChartView(QChart* chart, std::function<void(QChart*)> annotate)
    : QChartView(chart), annotate_(std::move(annotate)) {
  connect(chart, &QChart::plotAreaChanged, this, [this] { annotate_again(); });
}

// The annotations are the analytic references' labels and the items annotate() adds to the
// chart: those of the last layout go.
void FittedChartView::annotate_again() {
  for (QGraphicsItem* item : annotations_) delete item;
  annotations_ = label_analytic(chart());
  if (!annotate_) return;
  const QList<QGraphicsItem*> before = chart()->childItems();
  annotate_(chart());
  for (QGraphicsItem* item : chart()->childItems())
    if (!before.contains(item)) annotations_.push_back(item);
}

void FittedChartView::resizeEvent(QResizeEvent* event) {
  if (chart() != nullptr) fit_texts(chart(), event->size());
  QChartView::resizeEvent(event);
}

OffscreenApplication::OffscreenApplication() {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg)
      std::fprintf(stderr, "qt: %s\n", message.toLocal8Bit().constData());
  });
  app_ = new QApplication(argc_, argv_);
}

OffscreenApplication::~OffscreenApplication() {
  delete app_;
}

QByteArray chart_png(QChart* chart, const std::function<void(QChart*)>& annotate, QSize size) {
  LaidOut l(chart, annotate, size);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  l.view().grab().save(&buffer, "PNG");
  return bytes;
}

ChartFiles chart_files(QChart* chart, const std::function<void(QChart*)>& annotate, QSize size) {
  LaidOut l(chart, annotate, size);
  QChartView& view = l.view();
  ChartFiles out;
  QBuffer png(&out.png);
  png.open(QIODevice::WriteOnly);
  view.grab().save(&png, "PNG");
  QBuffer svg(&out.svg);
  svg.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&svg);
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(unwrapped_title(chart));
  {
    QPainter painter(&generator);
    painter.setRenderHint(QPainter::Antialiasing);
    view.render(&painter);
  }
  return out;
}

void save_chart(QChart* chart, const QString& stem, const std::function<void(QChart*)>& annotate,
                QSize size) {
  const ChartFiles files = chart_files(chart, annotate, size);
  write_file(stem + ".png", files.png);
  write_file(stem + ".svg", files.svg);
}

}  // namespace gbesim::ui
