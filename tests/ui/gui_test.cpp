// gbesim-gui driven with QTest, offscreen: open a scenario, change a parameter, run a short
// simulation (the simulator is the child process), the chart receives points; Cancel leaves an
// interrupted run; a scenario with an error shows it as the CLI words it.

#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "ui/gui/main_window.hpp"
#include "ui/gui/parameter_form.hpp"

namespace gbesim::ui {
namespace {

const char* kScenario = R"({"name": "gui", "description": "two stations",
  "duration_ns": 2000000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}]})";

struct Gui {
  explicit Gui(const std::string& name, const std::string& scenario = kScenario) {
    // Of this process (ctest runs tests two at a time, each in a process of its own).
    dir = std::filesystem::temp_directory_path() /
          ("gbesim-gui-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "s.json") << scenario;
    window = std::make_unique<MainWindow>(GBESIM_BINARY,
                                          QString::fromStdString((dir / "results").string()));
    EXPECT_TRUE(window->open_scenario(QString::fromStdString((dir / "s.json").string())));
  }
  ~Gui() {
    window.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  Gui(const Gui&) = delete;
  Gui& operator=(const Gui&) = delete;
  void set(const QString& path, const QString& text) {
    auto* line = window->findChild<QLineEdit*>("param:" + path);
    ASSERT_NE(line, nullptr) << path.toStdString();
    line->selectAll();
    QTest::keyClicks(line, text);
  }
  void choose(const QString& path, const QString& text) {
    auto* box = window->findChild<QComboBox*>("param:" + path);
    ASSERT_NE(box, nullptr) << path.toStdString();
    const int index = box->findText(text);
    ASSERT_GE(index, 0) << text.toStdString();
    box->setCurrentIndex(index);
  }
  void click(const char* button) {
    auto* b = window->findChild<QPushButton*>(button);
    ASSERT_NE(b, nullptr);
    QTest::mouseClick(b, Qt::LeftButton);
  }
  int wait_finished(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(600'000)) return -1;  // a hang guard, not a timing
    return spy.takeFirst().at(0).toInt();
  }
  nlohmann::json run_json() const {
    std::ifstream in(window->results_dir().toStdString() + "/run.json");
    return nlohmann::json::parse(in);
  }
  std::filesystem::path dir;
  std::unique_ptr<MainWindow> window;
};

TEST(Gui, ChangedParameterRunsAndTheChartReceivesPoints) {
  Gui g("run");
  g.set("duration_ns", "200000");
  EXPECT_EQ(g.window->overrides(), QStringList{"duration_ns=200000"});
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("run");
  ASSERT_EQ(g.wait_finished(spy), 0) << g.window->log_text().toStdString();
  EXPECT_EQ(g.run_json()["status"], "complete");
  EXPECT_EQ(g.run_json()["simulated_ps"], 200'000'000);  // the form's value was used
  // A run no answer reads: the Answer pane shows the simulator's own summary.
  EXPECT_TRUE(g.window->answer_text().contains("tx frames"))
      << g.window->answer_text().toStdString();
  ASSERT_GE(g.window->chart_count(), 1);
  auto* bars = qobject_cast<QBarSeries*>(g.window->chart(0)->series().at(0));
  ASSERT_NE(bars, nullptr);
  ASSERT_EQ(bars->barSets().size(), 2);
  EXPECT_EQ(bars->barSets()[0]->count(), 2);    // stations a and b
  EXPECT_GT(bars->barSets()[0]->at(0), 900.0);  // a sends 1518-byte frames near line rate
  // Export: PNG and SVG of the chart, the scalars as CSV.
  const auto stem = (g.dir / "exported").string();
  g.window->export_chart(0, QString::fromStdString(stem));
  EXPECT_TRUE(std::filesystem::exists(stem + ".png"));
  EXPECT_TRUE(std::filesystem::exists(stem + ".svg"));
  g.window->export_csv(QString::fromStdString((g.dir / "x.csv").string()));
  EXPECT_GT(std::filesystem::file_size(g.dir / "x.csv"), 1000u);
}

// A cable past its segment limit: the warning the run recorded heads the Answer pane.
TEST(Gui, TheAnswerPaneShowsTheRunsWarnings) {
  Gui g("warn");
  g.set("links[0].cable_m", "250");
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("run");
  ASSERT_EQ(g.wait_finished(spy), 0) << g.window->log_text().toStdString();
  EXPECT_TRUE(g.window->answer_text().startsWith(
      "gui\nWarning: links[0]: 250 m of cat5e is longer than 1000BASE-T's 100 m segment limit"))
      << g.window->answer_text().toStdString();
}

TEST(Gui, CancelLeavesAnInterruptedRun) {
  Gui g("cancel");
  // The longest duration there is: no machine finishes it. Cancel once the run reports progress
  // (then it is simulating, however fast or slow the machine).
  g.set("duration_ns", "1125899906842624");
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("run");
  while (g.window->running() && !g.window->log_text().contains("simulated ("))
    QTest::qWait(20);  // a poll: the events keep flowing until the condition holds
  ASSERT_TRUE(g.window->running()) << g.window->log_text().toStdString();
  g.click("cancel");
  EXPECT_EQ(g.wait_finished(spy), 130);
  EXPECT_EQ(g.run_json()["status"], "interrupted");
  EXPECT_GT(g.run_json()["simulated_ps"].get<long long>(), 0);
  EXPECT_GE(g.window->chart_count(), 1);  // the partial results are shown
}

// The form reaches every block the scenario writes: a link's cable length and a host's NIC
// profile are edited like the run's duration, and the run uses them.
TEST(Gui, EditsACableLengthAndANicProfileAndRuns) {
  Gui g("nic", R"({"name": "guinic", "description": "a NIC receiving", "duration_ns": 200000,
    "stations": {"a": {}, "b": {"traffic": [{"pattern": "saturated", "to": "a",
                                             "frame_bytes": 1518}]}},
    "links": [{"between": ["a", "b"], "cable_m": 10}],
    "hosts": {"h": {"nic": {"station": "a", "profile": "intel-82540em"}}}})");
  EXPECT_EQ(g.window->overrides(), QStringList{});
  // Choices are drop-downs of their legal values; a profile may be typed (a file of one's own),
  // and what is typed stays as typed.
  auto* profile = g.window->findChild<QComboBox*>("param:hosts.h.nic.profile");
  ASSERT_NE(profile, nullptr);
  EXPECT_EQ(profile->completer(), nullptr);
  EXPECT_GE(profile->findText("natsemi-dp83820-card"), 0);
  profile->lineEdit()->selectAll();
  QTest::keyClicks(profile->lineEdit(), "natsemi-dp83820");
  EXPECT_EQ(profile->currentText(), "natsemi-dp83820");
  profile->setCurrentIndex(profile->findText("intel-82540em"));
  for (const char* choice : {"param:links[0].medium", "param:links[0].phy"}) {
    auto* box = g.window->findChild<QComboBox*>(choice);
    ASSERT_NE(box, nullptr) << choice;
    EXPECT_FALSE(box->isEditable()) << choice;
  }
  EXPECT_GE(g.window->findChild<QComboBox*>("param:links[0].medium")->findText("cat6"), 0);
  EXPECT_EQ(g.window->findChild<QComboBox*>("param:links[0].phy")->count(), 2);
  g.set("links[0].cable_m", "50");
  g.choose("hosts.h.nic.profile", "natsemi-dp83820");
  EXPECT_EQ(g.window->overrides(),
            (QStringList{"links[0].cable_m=50", "hosts.h.nic.profile=natsemi-dp83820"}));
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("run");
  ASSERT_EQ(g.wait_finished(spy), 0) << g.window->log_text().toStdString();
  const auto config = g.run_json()["config"];
  EXPECT_EQ(config["links"][0]["cable_m"], 50.0);
  // The DP83820's FIFOs (32 KB receive, 8 KB transmit), not the 82540EM's (48 KB, 16 KB).
  EXPECT_EQ(config["hosts"]["h"]["nic"]["rx_fifo_bytes"], 32768);
  EXPECT_EQ(config["hosts"]["h"]["nic"]["tx_fifo_bytes"], 8192);
}

// The search box keeps the rows whose path, name or doc holds every word; each element's rows
// sit together in its group (station a's traffic and MAC keys, then b's).
TEST(Gui, TheFilterFindsACableLengthAndGroupsEachElement) {
  Gui g("filter", R"({"name": "guif", "description": "two senders", "duration_ns": 200000,
    "stations": {"a": {"mac": {"duplex": "full"}, "traffic": [{"pattern": "saturated", "to": "b"}]},
                 "b": {"mac": {"duplex": "full"}, "traffic": [{"pattern": "saturated", "to": "a"}]}},
    "links": [{"between": ["a", "b"], "cable_m": 10}]})");
  ParameterForm* form = g.window->form();
  const QStringList all = form->shown_paths();
  ASSERT_GT(all.size(), 40);
  int runs_of_a = 0;  // stretches of consecutive rows of station a
  for (int i = 0; i < all.size(); ++i)
    runs_of_a +=
        all[i].startsWith("stations.a.") && (i == 0 || !all[i - 1].startsWith("stations.a."));
  EXPECT_EQ(runs_of_a, 1);
  form->set_search("cable");
  const QStringList cable = form->shown_paths();
  EXPECT_TRUE(cable.contains("links[0].cable_m")) << cable.join(' ').toStdString();
  EXPECT_FALSE(cable.contains("duration_ns"));
  EXPECT_LT(cable.size(), 10);
  form->set_search("CABLE_M length");  // every word, any case
  EXPECT_EQ(form->shown_paths(), QStringList{"links[0].cable_m"});
  form->set_search("no such words");
  EXPECT_TRUE(form->shown_paths().isEmpty());
  form->set_search("");
  EXPECT_EQ(form->shown_paths(), all);
  // A link's ends are chosen from the stations.
  auto* ends = g.window->findChild<QWidget*>("param:links[0].between");
  ASSERT_NE(ends, nullptr);
  auto boxes = ends->findChildren<QComboBox*>();
  ASSERT_EQ(boxes.size(), 2);
  boxes[1]->setCurrentIndex(boxes[1]->findText("a"));
  EXPECT_EQ(g.window->overrides(), QStringList{"links[0].between=[\"a\",\"a\"]"});
}

// A scenario of thousands of rows makes each group's widgets when the group is first opened or
// found: 250 stations, and one is found by typing its name and a key; nothing changed is an
// override.
TEST(Gui, AScenarioOfThousandsOfRowsIsFoundWithoutMakingThemAll) {
  nlohmann::json s = {{"name", "many"}, {"description", "250 stations"}, {"duration_ns", 1000}};
  for (int i = 0; i < 250; ++i)
    s["stations"]["s" + std::to_string(i)] = {
        {"traffic", {{{"pattern", "saturated"}, {"to", "s" + std::to_string((i + 1) % 250)}}}}};
  Gui g("many", s.dump());
  ParameterForm* form = g.window->form();
  EXPECT_GT(form->shown_paths().size(), static_cast<int>(ParameterForm::kBuiltAtOnce));
  EXPECT_EQ(g.window->findChild<QWidget*>("param:stations.s140.traffic[0].to"), nullptr);
  form->set_search("s140 traffic[0].to");
  EXPECT_EQ(form->shown_paths(), QStringList{"stations.s140.traffic[0].to"});
  auto* to = g.window->findChild<QComboBox*>("param:stations.s140.traffic[0].to");
  ASSERT_NE(to, nullptr);
  EXPECT_EQ(to->currentText(), "s141");
  EXPECT_GE(to->findText("broadcast"), 0);
  EXPECT_EQ(g.window->overrides(), QStringList{});
  to->setCurrentIndex(to->findText("s7"));
  EXPECT_EQ(g.window->overrides(), QStringList{"stations.s140.traffic[0].to=s7"});
}

// A small PCI sweep: the Answer pane shows its answer table as the report does, the tabs are
// named by their charts' titles, the progress bar counted the runs.
TEST(Gui, TheAnswerPaneShowsTheSweepsAnswerTable) {
  Gui g("answer", R"({"name": "guipci", "description": "a small PCI sweep", "duration_ns": 2000000,
    "stations": {"a": {}, "b": {"traffic": [{"pattern": "saturated", "to": "a", "frame_bytes": 1518}]}},
    "links": [{"between": ["a", "b"], "cable_m": 10}],
    "hosts": {"h": {"pci": {"mode": "pci", "width_bits": 32, "clock_mhz": 33},
                    "nic": {"station": "a", "profile": "intel-82540em"}, "cpu": {},
                    "tx": {"frame_bytes": 1518}}},
    "sweep": {"bus": [
        {"label": "PCI 32/33", "set": {"hosts.h.pci": {"mode": "pci", "width_bits": 32, "clock_mhz": 33}}},
        {"label": "PCI 64/66", "set": {"hosts.h.pci": {"mode": "pci", "width_bits": 64, "clock_mhz": 66}}}],
      "direction": [{"label": "rx", "set": {}},
        {"label": "tx", "set": {"stations.b.traffic[0].enabled": false, "hosts.h.tx.to": "b"}}]}})");
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("sweep");
  ASSERT_EQ(g.wait_finished(spy), 0) << g.window->log_text().toStdString();
  const QString answer = g.window->answer_text();
  EXPECT_TRUE(answer.contains("What throughput can each NIC and bus carry"))
      << answer.toStdString();
  for (const char* cell : {"bus", "direction", "limited by", "bus clocks/frame", "PCI 32/33",
                           "PCI 64/66", "1,066", "4,266"})
    EXPECT_TRUE(answer.contains(cell)) << cell << "\n" << answer.toStdString();
  EXPECT_TRUE(answer.contains("intel-82540em is a 32-bit PCI device")) << answer.toStdString();
  ASSERT_GE(g.window->chart_count(), 1);
  for (int i = 0; i < g.window->chart_count(); ++i)
    EXPECT_FALSE(g.window->chart_tab(i).startsWith("pci-")) << g.window->chart_tab(i).toStdString();
  auto* progress = g.window->findChild<QProgressBar*>();
  ASSERT_NE(progress, nullptr);
  EXPECT_EQ(progress->maximum(), 4);  // counted in runs
  EXPECT_EQ(progress->value(), 4);
}

TEST(Gui, AScenarioErrorIsShownAsTheCliWordsIt) {
  std::string s = kScenario;
  s.replace(s.find("\"cable_m\""), 9, "\"cable_mm\"");
  Gui g("error", s);
  QSignalSpy spy(g.window.get(), &MainWindow::finished);
  g.click("run");
  EXPECT_EQ(g.wait_finished(spy), 2);
  EXPECT_TRUE(
      g.window->log_text().contains("links[0].cable_mm: unknown key; did you mean \"cable_m\"?"))
      << g.window->log_text().toStdString();
  EXPECT_EQ(g.window->chart_count(), 0);
}

// The window fits a 1366 x 768 laptop screen, and a chart's long legend entries wrap instead of
// being cut off: every line of every entry at most 34 characters, the words all there.
TEST(Gui, FitsA1366By768ScreenAndWrapsLongLegendEntries) {
  Gui gui("fit");
  const QSize least = gui.window->minimumSizeHint();
  EXPECT_LE(least.width(), 1366);
  EXPECT_LE(least.height(), 768);
  gui.window->resize(1366, 768);
  EXPECT_EQ(gui.window->size(), QSize(1366, 768));
  // A sweep whose series are named by long mode labels.
  const auto sweep = gui.dir / "results" / "long";
  std::filesystem::create_directories(sweep);
  std::ofstream(sweep / "sweep.json") << R"({"name": "long-labels", "replications": 1})";
  std::ofstream summary(sweep / "summary.csv");
  summary << "point,mode,frame_bytes,senders,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* mode : {"half duplex + extension + bursting", "full duplex"})
    for (const char* bytes : {"64", "1518"})
      summary << point++ << "," << mode << "," << bytes
              << ",1,s0.mac,tx_efficiency,fraction,1,0.5,\n";
  summary.close();
  ASSERT_TRUE(gui.window->show_results(QString::fromStdString(sweep.string())));
  QChart* chart = gui.window->chart(0);
  ASSERT_NE(chart, nullptr);
  int wrapped = 0;
  for (auto* marker : chart->legend()->markers()) {
    const QStringList lines = marker->label().split("<br>");
    wrapped += lines.size() > 1;
    for (const auto& line : lines) EXPECT_LE(line.size(), 34) << line.toStdString();
    EXPECT_EQ(lines.join(' ').toStdString(), marker->series()->name().toStdString());
  }
  EXPECT_EQ(wrapped, 1);  // "half duplex + extension + bursting, simulated"
}

// `gbesim-gui --help` needs no display; without one, the app says so and exits 2 (no crash).
TEST(Gui, HelpNeedsNoDisplayAndNoDisplayIsAClearError) {
  auto run = [](const std::string& args) {
    const std::string command =
        std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM ") + GBESIM_GUI_BINARY +
        " " + args + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::string out;
    std::array<char, 512> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) out += buffer.data();
    const int status = pclose(pipe);
    return std::pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1, out);
  };
  const auto [help_code, help] = run("--help");
  EXPECT_EQ(help_code, 0) << help;
  EXPECT_NE(help.find("Usage: gbesim-gui [options] scenario"), std::string::npos) << help;
  EXPECT_NE(help.find("--size <WxH>"), std::string::npos) << help;
  const auto [code, out] = run("");
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("gbesim-gui: no display (DISPLAY and WAYLAND_DISPLAY are unset)"),
            std::string::npos)
      << out;
  const auto [bad_code, bad] = run("--size 12");
  EXPECT_EQ(bad_code, 2) << bad;
  EXPECT_NE(bad.find("--size 12: expected WIDTHxHEIGHT in pixels"), std::string::npos) << bad;
}

}  // namespace
}  // namespace gbesim::ui
