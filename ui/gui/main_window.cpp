#include "ui/gui/main_window.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtCharts/QChartView>

#include <fstream>

#include "analysis/results.hpp"
#include "ui/render.hpp"
#include "ui/standard_charts.hpp"

namespace gbesim::ui {

namespace {

QString text_of(const nlohmann::json& v) {
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return QString::number(v.get<long long>());
  if (v.is_number()) return QString::number(v.get<double>(), 'g', 12);
  return QString::fromStdString(v.dump());
}

}  // namespace

MainWindow::MainWindow(QString gbesim, QString results_root, QWidget* parent)
    : QMainWindow(parent), gbesim_(std::move(gbesim)), results_root_(std::move(results_root)) {
  setWindowTitle("gbesim");
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  auto* open_button = new QPushButton("Open scenario...");
  open_button->setObjectName("open");
  scenario_label_ = new QLabel("no scenario");
  scenario_label_->setWordWrap(true);
  left_layout->addWidget(open_button);
  left_layout->addWidget(scenario_label_);
  auto* scroll = new QScrollArea;
  form_widget_ = new QWidget;
  form_ = new QFormLayout(form_widget_);
  scroll->setWidget(form_widget_);
  scroll->setWidgetResizable(true);
  left_layout->addWidget(scroll, 1);
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
  left_layout->addWidget(log_, 1);

  auto* right = new QSplitter(Qt::Vertical);
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
  right->addWidget(charts_);
  right->addWidget(browser);
  right->setSizes({720, 220});

  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(left);
  split->addWidget(right);
  split->setSizes({460, 1140});
  setCentralWidget(split);
  resize(1600, 1000);

  connect(open_button, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Open scenario", "scenarios", "*.json");
    if (!f.isEmpty()) open_scenario(f);
  });
  connect(run_button_, &QPushButton::clicked, this, &MainWindow::run);
  connect(sweep_button_, &QPushButton::clicked, this, &MainWindow::sweep);
  connect(cancel_button_, &QPushButton::clicked, this, &MainWindow::cancel);
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
  connect(&process_, &QProcess::readyReadStandardError, this, &MainWindow::read_progress);
  connect(&process_, &QProcess::readyReadStandardOutput, this,
          [this] { log(QString::fromUtf8(process_.readAllStandardOutput()).trimmed()); });
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
            if (code == 0) progress_->setValue(100);
            if (code == 0 || code == 130) show_results(pending_out_);
            refresh_results_list();
            emit finished(code);
          });

  // The parameter tables come from the simulator itself.
  QProcess params;
  params.start(gbesim_, {"params", "--json"});
  params.waitForFinished(30000);
  try {
    tables_ = nlohmann::json::parse(params.readAllStandardOutput().toStdString());
  } catch (const std::exception&) {
    log("cannot read the parameter tables from " + gbesim_ + " params --json");
    tables_ = nlohmann::json::array();
  }
  refresh_results_list();
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
  scenario_label_->setText("<b>" + QString::fromStdString(scenario_.value("name", "")) +
                           "</b><br>" + QString::fromStdString(scenario_.value("description", "")));
  build_form();
  statusBar()->showMessage("opened " + file);
  return true;
}

// The top-level keys and the scenario-wide MAC block, one editor per parameter: its value in
// the scenario, or the default; tooltip: doc, unit and range.
void MainWindow::build_form() {
  while (form_->rowCount() > 0) form_->removeRow(0);
  for (const auto& table : tables_) {
    const std::string name = table.value("name", "");
    std::string prefix;
    const nlohmann::json* block = &scenario_;
    if (name == "(top level)") {
      prefix = "";
    } else if (name.rfind("mac,", 0) == 0) {
      prefix = "mac.";
      static const nlohmann::json empty = nlohmann::json::object();
      block = scenario_.contains("mac") ? &scenario_["mac"] : &empty;
    } else {
      continue;
    }
    auto* heading =
        new QLabel(QString::fromStdString("<b>" + (prefix.empty() ? std::string("run") : "mac") +
                                          "</b> — " + table.value("doc", "")));
    heading->setWordWrap(true);
    form_->addRow(heading);
    for (const auto& p : table["params"]) {
      const std::string type = p.value("type", "");
      if (type == "structured") continue;
      const std::string key = p.value("key", "");
      const QString path = QString::fromStdString(prefix + key);
      const nlohmann::json value = block->contains(key) ? (*block)[key] : p["default"];
      QString tip = QString::fromStdString(p.value("doc", ""));
      if (!p.value("unit", "").empty()) tip += "\nunit: " + QString::fromStdString(p["unit"]);
      if (p.contains("min"))
        tip += "\nrange: " + QString::number(p["min"].get<double>(), 'g', 16) + " .. " +
               QString::number(p["max"].get<double>(), 'g', 16);
      QWidget* editor = nullptr;
      QString original = text_of(value);
      if (type == "boolean") {
        auto* box = new QCheckBox;
        box->setChecked(value.is_boolean() && value.get<bool>());
        editor = box;
      } else if (type == "choice") {
        auto* box = new QComboBox;
        for (const auto& c : p["choices"]) box->addItem(QString::fromStdString(c));
        box->setCurrentText(original);
        editor = box;
      } else {
        auto* line = new QLineEdit(original);
        if (type == "integer" || type == "real") {
          auto* v = new QDoubleValidator(p["min"].get<double>(), p["max"].get<double>(),
                                         type == "integer" ? 0 : 12, line);
          v->setNotation(QDoubleValidator::StandardNotation);
          line->setValidator(v);
        }
        editor = line;
      }
      editor->setObjectName("param:" + path);
      editor->setProperty("original", original);
      editor->setToolTip(tip);
      const QString label =
          QString::fromStdString(key) +
          (p.value("unit", "").empty() ? "" : " (" + QString::fromStdString(p["unit"]) + ")");
      auto* l = new QLabel(label);
      l->setToolTip(tip);
      form_->addRow(l, editor);
    }
  }
}

QStringList MainWindow::overrides() const {
  QStringList sets;
  for (auto* w : form_widget_->findChildren<QWidget*>()) {
    if (!w->objectName().startsWith("param:")) continue;
    const QString path = w->objectName().mid(6);
    QString now;
    if (auto* b = qobject_cast<QCheckBox*>(w))
      now = b->isChecked() ? "true" : "false";
    else if (auto* c = qobject_cast<QComboBox*>(w))
      now = c->currentText();
    else if (auto* l = qobject_cast<QLineEdit*>(w))
      now = l->text();
    if (now != w->property("original").toString()) sets << path + "=" + now;
  }
  return sets;
}

void MainWindow::start(const QStringList& arguments, const QString& out_dir) {
  if (scenario_file_.isEmpty() || running()) return;
  pending_out_ = out_dir;
  progress_->setValue(0);
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
      progress_->setValue(100 * m.captured(1).toInt() / std::max(1, m.captured(2).toInt()));
      // The sweep rewrites its summary every few seconds: follow it.
      const QFileInfo summary(QDir(pending_out_).filePath("summary.csv"));
      if (summary.exists() && summary.lastModified() != summary_seen_) {
        summary_seen_ = summary.lastModified();
        const int tab = charts_->currentIndex();
        if (show_results(pending_out_) && tab >= 0 && tab < charts_->count())
          charts_->setCurrentIndex(tab);
      }
    } else if (const auto p = percent.match(line); p.hasMatch()) {
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
  while (charts_->count() > 0) {
    QWidget* w = charts_->widget(0);
    charts_->removeTab(0);
    delete w;
  }
  for (auto& c : standard_charts(results)) {
    auto* view = new QChartView(c.chart);
    view->setRenderHint(QPainter::Antialiasing);
    charts_->addTab(view, QString::fromStdString(c.name));
  }
  results_dir_ = dir;
  return true;
}

int MainWindow::chart_count() const {
  return charts_->count();
}

QChart* MainWindow::chart(int index) const {
  auto* view = qobject_cast<QChartView*>(charts_->widget(index));
  return view ? view->chart() : nullptr;
}

void MainWindow::export_chart(int index, const QString& stem) const {
  // A fresh copy of the chart (the shown one belongs to its view).
  const Results results = load_results(results_dir_.toStdString());
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
