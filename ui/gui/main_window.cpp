#include "ui/gui/main_window.hpp"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtCharts/QChartView>

#include <fstream>

#include "analysis/results.hpp"
#include "ui/chart_style.hpp"
#include "ui/gui/answer_view.hpp"
#include "ui/gui/parameter_form.hpp"
#include "ui/render.hpp"
#include "ui/standard_charts.hpp"

namespace gbesim::ui {

namespace {

// Legend entries longer than this wrap onto more lines (the chart panel of a 1366-pixel screen
// has room for about this many beside a plot).
constexpr int kLegendColumns = 34;

}  // namespace

MainWindow::MainWindow(QString gbesim, QString results_root, QWidget* parent)
    : QMainWindow(parent), gbesim_(std::move(gbesim)), results_root_(std::move(results_root)) {
  setWindowTitle("gbesim");
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(build_controls());
  split->addWidget(build_views());
  split->setSizes({540, 1060});
  setCentralWidget(split);
  // At most 1600 x 1000, inside the screen's free area (a 1366 x 768 laptop included).
  QSize want(1600, 1000);
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    const QRect free = screen->availableGeometry();
    want = want.boundedTo(QSize(free.width() * 95 / 100, free.height() * 92 / 100));
  }
  resize(want);
  connect_process();
  load_parameter_tables();
  refresh_results_list();
}

// The left pane: the scenario, its form, Run / Sweep / Cancel, the progress bar and the log.
QWidget* MainWindow::build_controls() {
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  auto* open_button = new QPushButton("Open scenario...");
  open_button->setObjectName("open");
  scenario_label_ = new QLabel("no scenario");
  scenario_label_->setWordWrap(true);
  // The description, however long, is one click away rather than in the form's room.
  about_ = new QToolButton;
  about_->setObjectName("about");
  about_->setText("description");
  about_->setCheckable(true);
  about_->setArrowType(Qt::RightArrow);
  about_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  about_->setStyleSheet("QToolButton{border:none}");
  description_ = new QLabel;
  description_->setWordWrap(true);
  description_->setVisible(false);
  auto* title_row = new QHBoxLayout;
  title_row->addWidget(open_button);
  title_row->addWidget(scenario_label_, 1);
  title_row->addWidget(about_);
  left_layout->addLayout(title_row);
  left_layout->addWidget(description_);
  connect(about_, &QToolButton::toggled, this, [this](bool on) {
    about_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    description_->setVisible(on);
  });
  form_ = new ParameterForm;
  left_layout->addWidget(form_, 3);
  auto* buttons = new QHBoxLayout;
  run_button_ = new QPushButton("Run");
  run_button_->setObjectName("run");
  sweep_button_ = new QPushButton("Sweep");
  sweep_button_->setObjectName("sweep");
  cancel_button_ = new QPushButton("Cancel");
  cancel_button_->setObjectName("cancel");
  cancel_button_->setEnabled(false);
  buttons->addWidget(run_button_);
  buttons->addWidget(sweep_button_);
  buttons->addWidget(cancel_button_);
  left_layout->addLayout(buttons);
  progress_ = new QProgressBar;
  progress_->setRange(0, 100);
  progress_->setValue(0);
  left_layout->addWidget(progress_);
  log_ = new QPlainTextEdit;
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(2000);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));  // the CLI's tables align
  log_->setLineWrapMode(QPlainTextEdit::NoWrap);
  left_layout->addWidget(log_, 1);
  connect(open_button, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Open scenario", "scenarios", "*.json");
    if (!f.isEmpty()) open_scenario(f);
  });
  connect(run_button_, &QPushButton::clicked, this, &MainWindow::run);
  connect(sweep_button_, &QPushButton::clicked, this, &MainWindow::sweep);
  connect(cancel_button_, &QPushButton::clicked, this, &MainWindow::cancel);
  return left;
}

// The right pane: the charts, and the earlier results with their exports.
QWidget* MainWindow::build_views() {
  auto* right = new QSplitter(Qt::Vertical);
  answer_ = new QTextBrowser;
  answer_->setObjectName("answer");
  answer_->setPlaceholderText("The answer of a run or sweep appears here when it ends.");
  charts_ = new QTabWidget;
  auto* browser = new QWidget;
  auto* browser_layout = new QVBoxLayout(browser);
  browser_layout->addWidget(new QLabel("Earlier results (" + results_root_ + ")"));
  results_list_ = new QListWidget;
  browser_layout->addWidget(results_list_);
  auto* export_row = new QHBoxLayout;
  auto* export_png = new QPushButton("Export chart (PNG + SVG)...");
  auto* export_csv_button = new QPushButton("Export CSV...");
  export_row->addWidget(export_png);
  export_row->addWidget(export_csv_button);
  browser_layout->addLayout(export_row);
  right->addWidget(answer_);
  right->addWidget(charts_);
  right->addWidget(browser);
  right->setSizes({170, 640, 110});
  connect(results_list_, &QListWidget::currentTextChanged, this, [this](const QString& name) {
    if (!name.isEmpty()) show_results(QDir(results_root_).filePath(name));
  });
  connect(export_png, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Export chart (stem)", "chart");
    if (!f.isEmpty() && charts_->count() > 0) export_chart(charts_->currentIndex(), f);
  });
  connect(export_csv_button, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Export CSV", "results.csv", "*.csv");
    if (!f.isEmpty()) export_csv(f);
  });
  return right;
}

// The simulator's output: progress lines, its log, and what its exit code means.
void MainWindow::connect_process() {
  connect(&process_, &QProcess::readyReadStandardError, this, &MainWindow::read_progress);
  connect(&process_, &QProcess::readyReadStandardOutput, this, [this] {
    const QString text = QString::fromUtf8(process_.readAllStandardOutput());
    run_output_ += text;
    log(text.trimmed());
  });
  connect(&process_, qOverload<int, QProcess::ExitStatus>(&QProcess::finished), this,
          [this](int code, QProcess::ExitStatus) {
            read_progress();
            run_button_->setEnabled(true);
            sweep_button_->setEnabled(true);
            cancel_button_->setEnabled(false);
            const QString what = code == 0     ? "done"
                                 : code == 130 ? "interrupted"
                                 : code == 2   ? "not run: the scenario has errors (see above)"
                                               : "failed (exit " + QString::number(code) + ")";
            statusBar()->showMessage(what);
            log("-- " + what);
            if (progress_->maximum() == 0) progress_->setRange(0, 100);
            if (code == 0) progress_->setValue(progress_->maximum());
            if (code == 0 || code == 130) show_results(pending_out_);
            refresh_results_list();
            emit finished(code);
          });
}

// The scenario's paths (types, ranges, defaults, docs) come from the simulator itself.
void MainWindow::load_parameter_tables() {
  QProcess params;
  params.start(gbesim_, {"params", "--json"});
  params.waitForFinished(30000);
  try {
    tables_ = nlohmann::json::parse(params.readAllStandardOutput().toStdString());
  } catch (const std::exception&) {
    log("cannot read the scenario's parameters from " + gbesim_ + " params --json");
    tables_ = nlohmann::json::object();
  }
}

void MainWindow::log(const QString& text) {
  if (!text.isEmpty()) log_->appendPlainText(text);
}

QString MainWindow::log_text() const {
  return log_->toPlainText();
}

bool MainWindow::open_scenario(const QString& file) {
  std::ifstream in(file.toStdString());
  try {
    scenario_ = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    log("cannot open " + file + ": " + e.what());
    return false;
  }
  scenario_file_ = file;
  scenario_label_->setText("<b>" + QString::fromStdString(scenario_.value("name", "")) + "</b>");
  description_->setText(QString::fromStdString(scenario_.value("description", "")));
  scenario_label_->setToolTip(description_->text());
  form_->load(tables_, scenario_);
  statusBar()->showMessage("opened " + file);
  return true;
}

QStringList MainWindow::overrides() const {
  return form_->overrides();
}

void MainWindow::start(const QStringList& arguments, const QString& out_dir) {
  if (scenario_file_.isEmpty() || running()) return;
  pending_out_ = out_dir;
  run_output_.clear();
  progress_->setRange(0, 0);  // busy until the child's first progress line
  progress_->setFormat("%p%");
  run_button_->setEnabled(false);
  sweep_button_->setEnabled(false);
  cancel_button_->setEnabled(true);
  QStringList args = arguments;
  for (const auto& s : overrides()) args << "--set" << s;
  log("$ gbesim " + args.join(' '));
  statusBar()->showMessage("running");
  process_.start(gbesim_, args);
}

void MainWindow::run() {
  const QString out =
      QDir(results_root_).filePath(QString::fromStdString(scenario_.value("name", "run")));
  start({"run", scenario_file_, "--out", out}, out);
}

void MainWindow::sweep() {
  const QString out =
      QDir(results_root_).filePath(QString::fromStdString(scenario_.value("name", "sweep")));
  start({"sweep", scenario_file_, "-j", "2", "--out", out}, out);
}

void MainWindow::cancel() {
  if (running()) {
    log("-- cancel");
    process_.terminate();  // SIGTERM: the run stops and writes an interrupted record
  }
}

// Progress lines: a run's "... (37%) ..." and a sweep's "12/48 runs done"; everything else is
// shown as the CLI worded it.
void MainWindow::read_progress() {
  const QString text = QString::fromUtf8(process_.readAllStandardError());
  for (QString line : text.split(QRegularExpression("[\r\n]"), Qt::SkipEmptyParts)) {
    static const QRegularExpression percent(R"(\((\d+)%\))");
    static const QRegularExpression runs(R"((\d+)/(\d+) runs done)");
    if (const auto m = runs.match(line); m.hasMatch()) {
      progress_->setRange(0, std::max(1, m.captured(2).toInt()));
      progress_->setFormat("%v / %m runs");
      progress_->setValue(m.captured(1).toInt());
      // The sweep rewrites its summary every few seconds: follow it.
      const QFileInfo summary(QDir(pending_out_).filePath("summary.csv"));
      if (summary.exists() && summary.lastModified() != summary_seen_) {
        summary_seen_ = summary.lastModified();
        const int tab = charts_->currentIndex();
        if (show_results(pending_out_) && tab >= 0 && tab < charts_->count())
          charts_->setCurrentIndex(tab);
      }
    } else if (const auto p = percent.match(line); p.hasMatch()) {
      progress_->setRange(0, 100);
      progress_->setValue(p.captured(1).toInt());
    }
    log(line);
  }
}

bool MainWindow::show_results(const QString& dir) {
  Results results;
  try {
    results = load_results(dir.toStdString());
  } catch (const std::exception& e) {
    log(e.what());
    return false;
  }
  show_answer(results);
  show_charts(results);
  results_dir_ = dir;
  return true;
}

// The answer as the report words it; a run the app just ran adds what the simulator printed.
void MainWindow::show_answer(const Results& results) {
  const bool ran_here = QDir(results.dir.c_str()) == QDir(pending_out_);
  answer_->setHtml(answer_html(results, ran_here ? run_output_ : QString()));
}

// One tab per standard chart, named by the chart's title (shortened; the whole title as tooltip).
void MainWindow::show_charts(const Results& results) {
  while (charts_->count() > 0) {
    QWidget* w = charts_->widget(0);
    charts_->removeTab(0);
    delete w;
  }
  for (auto& c : standard_charts(results)) {
    wrap_legend(c.chart, kLegendColumns);
    auto* view = new FittedChartView(c.chart, c.annotate);
    view->setRenderHint(QPainter::Antialiasing);
    QString title = unwrapped_title(c.chart);
    title.remove(QRegularExpression("<[^>]*>"));
    const QString tab = title.isEmpty()
                            ? QString::fromStdString(c.name)
                            : QFontMetrics(charts_->font()).elidedText(title, Qt::ElideRight, 260);
    const int at = charts_->addTab(view, tab);
    charts_->setTabToolTip(at, title);
  }
}

QString MainWindow::answer_text() const {
  return answer_->toPlainText();
}

QString MainWindow::chart_tab(int index) const {
  return charts_->tabText(index);
}

int MainWindow::chart_count() const {
  return charts_->count();
}

QChart* MainWindow::chart(int index) const {
  auto* view = qobject_cast<QChartView*>(charts_->widget(index));
  return view ? view->chart() : nullptr;
}

void MainWindow::export_chart(int index, const QString& stem) {
  // A fresh copy of the chart (the shown one belongs to its view), from the files as they are
  // now: a directory damaged since it was shown is said, not a crash.
  Results results;
  try {
    results = load_results(results_dir_.toStdString());
  } catch (const std::exception& e) {
    statusBar()->showMessage(QString::fromStdString(std::string("cannot export: ") + e.what()));
    return;
  }
  auto all = standard_charts(results);
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    if (i == index)
      save_chart(all[static_cast<std::size_t>(i)].chart, stem,
                 all[static_cast<std::size_t>(i)].annotate);
    else
      delete all[static_cast<std::size_t>(i)].chart;
  }
}

void MainWindow::export_csv(const QString& file) const {
  for (const char* name : {"summary.csv", "scalars.csv", "cable.csv", "awgn.csv"}) {
    const QString from = QDir(results_dir_).filePath(name);
    if (QFile::exists(from)) {
      QFile::remove(file);
      QFile::copy(from, file);
      return;
    }
  }
}

void MainWindow::refresh_results_list() {
  const QString current = results_list_->currentItem() ? results_list_->currentItem()->text() : "";
  results_list_->blockSignals(true);
  results_list_->clear();
  QDir root(results_root_);
  for (const auto& d : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    const QDir sub(root.filePath(d));
    if (sub.exists("run.json") || sub.exists("sweep.json") || sub.exists("phy.json"))
      results_list_->addItem(d);
  }
  results_list_->blockSignals(false);
}

}  // namespace gbesim::ui
