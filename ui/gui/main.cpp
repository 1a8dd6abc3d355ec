// gbesim-gui [--results DIR] [--show RESULTS_DIR] [--screenshot FILE] [SCENARIO]
// The simulator is the `gbesim` binary beside this one (or $GBESIM).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include "ui/gui/main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("gbesim-gui");
  QCommandLineParser parser;
  parser.setApplicationDescription("gbesim desktop: edit, run and sweep scenarios; see the charts");
  parser.addHelpOption();
  QCommandLineOption results(QString("results"), "results root (default results)", "dir",
                             "results");
  QCommandLineOption show(QString("show"), "show this results directory's charts", "dir");
  QCommandLineOption shot(QString("screenshot"), "save the window as PNG and quit", "file");
  parser.addOption(results);
  parser.addOption(show);
  parser.addOption(shot);
  parser.addPositionalArgument("scenario", "scenario JSON file to open");
  parser.process(app);
  const QString gbesim = qEnvironmentVariableIsSet("GBESIM")
                             ? qEnvironmentVariable("GBESIM")
                             : QDir(QApplication::applicationDirPath()).filePath("gbesim");
  gbesim::ui::MainWindow window(gbesim, parser.value(results));
  if (!parser.positionalArguments().isEmpty())
    window.open_scenario(parser.positionalArguments()[0]);
  if (parser.isSet(show)) window.show_results(parser.value(show));
  window.show();
  if (parser.isSet(shot)) {
    QTimer::singleShot(500, [&] {
      window.grab().save(parser.value(shot), "PNG");
      QApplication::quit();
    });
  }
  return QApplication::exec();
}
