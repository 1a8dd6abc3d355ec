// gbesim-gui driven with QTest, offscreen: open a scenario, change a parameter, run a short
// simulation (the simulator is the child process), the chart receives points; Cancel leaves an
// interrupted run; a scenario with an error shows it as the CLI words it.

#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ui/gui/main_window.hpp"

namespace gbesim::ui {
namespace {

const char* kScenario = R"({"name": "gui", "description": "two stations",
  "duration_ns": 2000000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}]})";

struct Gui {
  explicit Gui(const std::string& name, const std::string& scenario = kScenario) {
    dir = std::filesystem::temp_directory_path() / ("gbesim-gui-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "s.json") << scenario;
    window = std::make_unique<MainWindow>(GBESIM_BINARY,
                                          QString::fromStdString((dir / "results").string()));
    EXPECT_TRUE(window->open_scenario(QString::fromStdString((dir / "s.json").string())));
  }
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

}  // namespace
}  // namespace gbesim::ui
