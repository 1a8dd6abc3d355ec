#pragma once
// gbesim-gui's window: open a scenario, find and edit its parameters in a form generated from the
// scenario schema (ui/gui/parameter_form), run it or its sweep as a child `gbesim` process
// (progress bar from its progress lines, Cancel sends SIGTERM and leaves an `interrupted` run),
// show the answer (ui/gui/answer_view) above the standard charts (ui/standard_charts) when it
// ends, browse earlier results, export PNG/SVG/CSV. No SystemC in this process: the simulator is
// always the child.

#include <QDateTime>
#include <QMainWindow>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

class QChart;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QToolButton;
class QWidget;

namespace gbesim {
class Results;
}

namespace gbesim::ui {

class ParameterForm;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // gbesim: the simulator binary; results_root: where runs go and earlier results are found.
  MainWindow(QString gbesim, QString results_root, QWidget* parent = nullptr);

  // Loads a scenario file into the form; false (and the reason in the log) if it cannot.
  bool open_scenario(const QString& file);
  // Shows the charts of a results directory; false if it is not one.
  bool show_results(const QString& dir);
  // The `--set path=value` overrides the form holds (values changed from the scenario's).
  QStringList overrides() const;

  ParameterForm* form() const { return form_; }
  // The Answer pane's text, as shown.
  QString answer_text() const;
  int chart_count() const;
  QString chart_tab(int index) const;
  QChart* chart(int index) const;
  QString results_dir() const { return results_dir_; }
  QString log_text() const;
  bool running() const { return process_.state() != QProcess::NotRunning; }
  void export_chart(int index, const QString& stem);
  void export_csv(const QString& file) const;

 public slots:
  void run();
  void sweep();
  void cancel();
  void refresh_results_list();

 signals:
  // The child ended: exit code (0 done, 130 interrupted, 2 bad input, ...).
  void finished(int exit_code);

 private:
  QWidget* build_controls();
  QWidget* build_views();
  void connect_process();
  void load_parameter_tables();
  void start(const QStringList& arguments, const QString& out_dir);
  void read_progress();
  void show_answer(const Results& results);
  void show_charts(const Results& results);
  void log(const QString& text);

  QString gbesim_;
  QString results_root_;
  QString scenario_file_;
  nlohmann::json scenario_;
  nlohmann::json tables_;  // `gbesim params --json`: {"paths": [...], "rules": [...]}
  QString results_dir_;
  QProcess process_;
  QString pending_out_;
  QDateTime summary_seen_;
  QString run_output_;  // what the child printed on stdout

  QLabel* scenario_label_;
  QToolButton* about_;
  QLabel* description_;
  ParameterForm* form_;
  QPushButton* run_button_;
  QPushButton* sweep_button_;
  QPushButton* cancel_button_;
  QProgressBar* progress_;
  QPlainTextEdit* log_;
  QTextBrowser* answer_;
  QTabWidget* charts_;
  QListWidget* results_list_;
};

}  // namespace gbesim::ui
