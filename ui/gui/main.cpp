// gbesim-gui [--results DIR] [--show RESULTS_DIR] [--find TEXT] [--screenshot FILE] [--size WxH]
//            [SCENARIO]
// The simulator is the `gbesim` binary beside this one (or $GBESIM).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QRegularExpression>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

#include "ui/gui/main_window.hpp"
#include "ui/gui/parameter_form.hpp"

namespace {

// Whether Qt can open a window here: a platform asked for, or an X11 or Wayland display.
bool display_available() {
  for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(v);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  QCommandLineParser parser;
  parser.setApplicationDescription("gbesim desktop: edit, run and sweep scenarios; see the charts");
  const QCommandLineOption help(QStringList{"h", "help"}, "show this help and exit");
  QCommandLineOption results(QString("results"), "results root (default results)", "dir",
                             "results");
  QCommandLineOption show(QString("show"), "show this results directory's charts", "dir");
  QCommandLineOption find(QString("find"), "show only the parameters that match this text", "text");
  QCommandLineOption shot(QString("screenshot"), "save the window as PNG and quit", "file");
  QCommandLineOption size(QString("size"),
                          "window size, e.g. 1366x768 (default: fits the screen, at most "
                          "1600x1000)",
                          "WxH");
  parser.addOption(help);
  parser.addOption(results);
  parser.addOption(show);
  parser.addOption(find);
  parser.addOption(shot);
  parser.addOption(size);
  parser.addPositionalArgument("scenario", "scenario JSON file to open");
  // The arguments are read before Qt opens a display, so --help and mistakes need none.
  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  if (!parser.parse(args)) {
    std::fprintf(stderr, "gbesim-gui: %s\n(gbesim-gui --help lists the options)\n",
                 qPrintable(parser.errorText()));
    return 2;
  }
  if (parser.isSet(help)) {
    std::printf("%s", qPrintable(parser.helpText().replace("<executable_name>", "gbesim-gui")));
    return 0;
  }
  int width = 0, height = 0;
  if (parser.isSet(size)) {
    const auto m = QRegularExpression("^(\\d+)x(\\d+)$").match(parser.value(size));
    if (!m.hasMatch() || m.captured(1).toInt() < 320 || m.captured(2).toInt() < 240) {
      std::fprintf(stderr,
                   "gbesim-gui: --size %s: expected WIDTHxHEIGHT in pixels, at least 320x240 "
                   "(e.g. 1366x768)\n",
                   qPrintable(parser.value(size)));
      return 2;
    }
    width = m.captured(1).toInt();
    height = m.captured(2).toInt();
  }
  if (!display_available()) {
    std::fprintf(stderr,
                 "gbesim-gui: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it in a "
                 "desktop session, or headless with QT_QPA_PLATFORM=offscreen and --screenshot "
                 "FILE\n");
    return 2;
  }

  QApplication app(argc, argv);
  QApplication::setApplicationName("gbesim-gui");
  const QString gbesim = qEnvironmentVariableIsSet("GBESIM")
                             ? qEnvironmentVariable("GBESIM")
                             : QDir(QApplication::applicationDirPath()).filePath("gbesim");
  gbesim::ui::MainWindow window(gbesim, parser.value(results));
  if (width > 0) window.resize(width, height);
  if (!parser.positionalArguments().isEmpty())
    window.open_scenario(parser.positionalArguments()[0]);
  if (parser.isSet(show)) window.show_results(parser.value(show));
  if (parser.isSet(find)) window.form()->set_search(parser.value(find));
  window.show();
  if (parser.isSet(shot)) {
    QTimer::singleShot(500, [&] {
      window.grab().save(parser.value(shot), "PNG");
      QApplication::quit();
    });
  }
  return QApplication::exec();
}
