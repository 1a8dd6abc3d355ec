#include "ui/gui/main_window.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtCharts/QChartView>

#include <fstream>

#include "analysis/results.hpp"
#include "ui/chart_style.hpp"
#include "ui/render.hpp"
#include "ui/standard_charts.hpp"

namespace gbesim::ui {

namespace {

// Legend entries longer than this wrap onto more lines (the chart panel of a 1366-pixel screen
// has room for about this many beside a plot).
constexpr int kLegendColumns = 34;

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
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(build_controls());
  split->addWidget(build_views());
  split->setSizes({460, 1140});
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
  scenario_label_->setText("<b>" + QString::fromStdString(scenario_.value("name", "")) +
                           "</b><br>" + QString::fromStdString(scenario_.value("description", "")));
  build_form();
  statusBar()->showMessage("opened " + file);
  return true;
}

namespace {

// Where a schema path (stations.*.mac.ifg_bits, links[*].cable_m) occurs in the scenario as
// written: wildcards expand over the elements there are, and a key is shown when the object
// holding it is written (the scenario-wide "mac" and "sink" blocks always are). `value` is null
// when the key is not written (its default applies).
struct Place {
  std::string path;
  std::string parent;
  const nlohmann::json* value;
};

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : path) {
    if (c == '.') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c == '[') {
      if (!cur.empty()) out.push_back(cur);
      cur = "[";
    } else if (c == ']') {
      out.push_back(cur + "]");
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

void places(const nlohmann::json& node, const std::vector<std::string>& segs, std::size_t i,
            const std::string& prefix, std::vector<Place>& out) {
  static const nlohmann::json empty = nlohmann::json::object();
  const std::string& seg = segs[i];
  auto join = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
  if (i + 1 == segs.size()) {
    if (!node.is_object() || seg == "*" || seg == "[*]") return;
    out.push_back({join(seg), prefix, node.contains(seg) ? &node[seg] : nullptr});
    return;
  }
  if (seg == "*") {
    if (node.is_object())
      for (const auto& item : node.items())
        places(item.value(), segs, i + 1, join(item.key()), out);
  } else if (seg == "[*]") {
    if (node.is_array())
      for (std::size_t k = 0; k < node.size(); ++k)
        places(node[k], segs, i + 1, prefix + "[" + std::to_string(k) + "]", out);
  } else if (node.is_object() && node.contains(seg)) {
    places(node[seg], segs, i + 1, join(seg), out);
  } else if (i == 0 && (seg == "mac" || seg == "sink")) {
    places(empty, segs, i + 1, join(seg), out);
  }
}

// Forms of thousands of stations would be unusable; the CLI's --set reaches the rest.
constexpr std::size_t kMaxFormRows = 1500;

}  // namespace

// One editor per scalar the scenario has (or could have, in a block it writes): its value as
// written or its default; tooltip: doc, unit, range and rule. Named "param:<path>".
void MainWindow::build_form() {
  while (form_->rowCount() > 0) form_->removeRow(0);
  std::size_t rows = 0;
  std::string heading_of;
  const nlohmann::json& paths = tables_.contains("paths") ? tables_["paths"] : nlohmann::json();
  for (const auto& p : paths) {
    const std::string type = p.value("type", "");
    if (type == "object" || type == "map" || type == "list" || type == "structured") continue;
    const std::string range = p.value("range", "");
    // A reference with a list of names (a NIC profile) is a choice; other names are typed.
    const bool listed = type == "reference" && range.find(" | ") != std::string::npos;
    std::vector<Place> found;
    places(scenario_, segments(p.value("path", "")), 0, "", found);
    for (const auto& place : found) {
      if (rows++ >= kMaxFormRows) break;
      if (place.parent != heading_of) {
        heading_of = place.parent;
        auto* heading = new QLabel(
            QString::fromStdString("<b>" + (heading_of.empty() ? "run" : heading_of) + "</b>"));
        form_->addRow(heading);
      }
      const nlohmann::json value =
          place.value != nullptr ? *place.value : p.value("default", nlohmann::json());
      const QString path = QString::fromStdString(place.path);
      QString tip = QString::fromStdString(p.value("doc", ""));
      if (!p.value("unit", "").empty()) tip += "\nunit: " + QString::fromStdString(p["unit"]);
      if (!range.empty()) tip += "\nrange: " + QString::fromStdString(range);
      if (!p.value("rule", "").empty()) tip += "\nrule: " + QString::fromStdString(p["rule"]);
      QWidget* editor = nullptr;
      const QString original = value.is_null() ? QString() : text_of(value);
      if (type == "boolean") {
        auto* box = new QCheckBox;
        box->setChecked(value.is_boolean() && value.get<bool>());
        editor = box;
      } else if (type == "choice" || listed) {
        auto* box = new QComboBox;
        if (listed) {
          box->setEditable(true);  // or a profile file of one's own
          for (const auto& c : QString::fromStdString(range).split(" | "))
            if (!c.startsWith("<")) box->addItem(c);
        } else {
          for (const auto& c : p["choices"]) box->addItem(QString::fromStdString(c));
        }
        if (box->findText(original) < 0) box->insertItem(0, original);
        box->setCurrentText(original);
        editor = box;
      } else {
        auto* line = new QLineEdit(original);
        if ((type == "integer" || type == "number") && p.contains("min")) {
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
      const std::string key = place.path.substr(place.parent.empty() ? 0 : place.parent.size() + 1);
      const QString label =
          QString::fromStdString(key) +
          (p.value("unit", "").empty() ? "" : " (" + QString::fromStdString(p["unit"]) + ")");
      auto* l = new QLabel(label);
      l->setToolTip(tip);
      form_->addRow(l, editor);
    }
  }
  if (rows > kMaxFormRows)
    form_->addRow(new QLabel(QString("%1 more parameters: change them in the file or with --set")
                                 .arg(rows - kMaxFormRows)));
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
    wrap_legend(c.chart, kLegendColumns);
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
