// The standard charts for known results directories (written here in the formats gbesim writes):
// which charts, their series, axis titles and point counts, and the rendered files.

#include "ui/chart_style.hpp"
#include "ui/standard_charts.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <system_error>

#include <QCoreApplication>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>

#include "analysis/comparisons.hpp"
#include "analysis/diameter.hpp"
#include "analysis/result_files.hpp"
#include "ui/render.hpp"
#include "ui/validation_charts.hpp"

namespace gbesim::ui {
namespace {

// This process's scratch directory, removed when it exits: ctest runs each test in a process of
// its own, two at a time, and two that shared a directory (every chart test makes the same
// result directories) could find it gone under them.
const std::filesystem::path& scratch() {
  static const struct Scratch {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("gbesim-ui-" + std::to_string(::getpid()));
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } scratch;
  return scratch.dir;
}

std::filesystem::path fresh(const std::string& name) {
  const auto dir = scratch() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
}

// Series shown in the legend (error bars are hidden there), by name.
std::map<std::string, QLineSeries*> named_lines(QChart* chart) {
  std::map<std::string, QLineSeries*> out;
  for (auto* s : chart->series())
    if (auto* l = qobject_cast<QLineSeries*>(s); l && !l->name().isEmpty())
      out[l->name().toStdString()] = l;
  return out;
}

std::string axis_title(QChart* chart, Qt::Orientation o) {
  const auto axes = chart->axes(o);
  return axes.empty() ? "" : axes[0]->titleText().toStdString();
}

// A gbesim phy directory: two categories at three lengths, every variant; a two-trace eye.
std::filesystem::path phy_dir() {
  const auto dir = fresh("phy");
  write(dir / "phy.json", R"({"seed": 1, "channel": "cable"})");
  std::string cable =
      "category,length_m,cancellation,snr_db,required_snr_db,margin_db,ber_coded,"
      "octet_error_coded,ber_uncoded,octet_error_uncoded\n";
  for (const char* cat : {"cat5", "cat6"})
    for (int len : {0, 100, 200})
      for (const char* v : {"all", "no_next_cancel", "no_echo_cancel"})
        cable += std::string(cat) + "," + std::to_string(len) + "," + v + ",20,19," +
                 std::to_string(10 - len / 20) + (len == 0 ? ",1e-29" : ",1e-12") +
                 ",1e-11,1e-6,1e-5\n";
  write(dir / "cable.csv", cable);
  std::string eye = "category,length_m,trace,point,time_ns,raw,equalised\n";
  for (int t = 0; t < 2; ++t)
    for (int p = 0; p < 32; ++p)
      eye += "cat5,100," + std::to_string(t) + "," + std::to_string(p) + "," +
             std::to_string(p * 0.5) + ",0.1,1\n";
  write(dir / "eye.csv", eye);
  return dir;
}

TEST(Charts, PhyResultsGiveMarginBerAndEyeChartsWithTheirSeries) {
  const Results r = load_results(phy_dir().string());
  ASSERT_EQ(r.kind, ResultsKind::phy);
  auto charts = standard_charts(r);
  std::map<std::string, QChart*> by_name;
  for (auto& c : charts) by_name[c.name] = c.chart;
  ASSERT_EQ(charts.size(), 4u);  // margin, ber, eye, eye-raw (no awgn.csv here)
  QChart* margin = by_name.at("phy-margin");
  EXPECT_EQ(axis_title(margin, Qt::Horizontal), "cable length (m)");
  EXPECT_EQ(axis_title(margin, Qt::Vertical), "SNR margin (dB)");
  const auto lines = named_lines(margin);
  ASSERT_EQ(lines.size(), 4u);  // 2 categories x (all, no NEXT cancellation)
  EXPECT_EQ(lines.at("cat6, all cancellers")->count(), 3);
  EXPECT_DOUBLE_EQ(lines.at("cat6, all cancellers")->at(2).y(), 0.0);  // 10 - 200/20
  QChart* ber = by_name.at("phy-ber");
  EXPECT_EQ(axis_title(ber, Qt::Vertical), "bit-error rate (below 1e-15 drawn at 1e-15)");
  EXPECT_EQ(named_lines(ber).size(), 5u);  // coded + uncoded per category, and the target
  // Clipped to a meaningful range: 1e-29 at 0 m is drawn on the 1e-15 floor, not 14 decades
  // further down.
  auto* ber_axis = qobject_cast<QLogValueAxis*>(ber->axes(Qt::Vertical)[0]);
  ASSERT_NE(ber_axis, nullptr);
  EXPECT_DOUBLE_EQ(ber_axis->min(), 1e-15);
  EXPECT_DOUBLE_EQ(named_lines(ber).at("cat5, coded (Viterbi)")->at(0).y(), 1e-15);
  // The eye: one series per trace, points up to the next decision (time < 8 ns).
  QChart* eye = by_name.at("phy-eye");
  EXPECT_EQ(eye->series().size(), 2);
  EXPECT_EQ(qobject_cast<QLineSeries*>(eye->series()[0])->count(), 16);
  for (auto& c : charts) delete c.chart;
}

std::filesystem::path cew_dir() {
  const auto dir = fresh("cew");
  // Named unlike the built-in study: the charts are chosen by the axes.
  write(dir / "sweep.json", R"({"name": "my copy of the extension study", "replications": 3})");
  std::string s = "point,mode,frame_bytes,senders,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* mode : {"full duplex", "half duplex + extension"})
    for (int bytes : {64, 1518})
      for (int senders : {1, 8}) {
        const std::string p = std::to_string(point++) + "," + mode + "," + std::to_string(bytes) +
                              "," + std::to_string(senders) + ",";
        s += p + "s0.mac,tx_efficiency,fraction,3,0.5,0.01\n";
        s += p + "analysis,single_sender_efficiency,fraction,3,0.5,0\n";
        s += p + "network,delivered_throughput,bit/s,3,5e8,1e6\n";
        for (const char* share :
             {"frame_share", "preamble_share", "extension_share", "collision_share", "idle_share"})
          s += p + "domain0," + share + ",fraction,3,0.2,0\n";
      }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, CarrierExtensionSweepGivesEfficiencyWithAnalyticLinesAndTimeShares) {
  const auto dir = cew_dir();
  const Results r = load_results(dir.string());
  ASSERT_EQ(r.kind, ResultsKind::sweep);
  EXPECT_EQ(r.axes, (std::vector<std::string>{"mode", "frame_bytes", "senders"}));
  EXPECT_EQ(r.points.size(), 8u);
  auto charts = standard_charts(r);
  ASSERT_EQ(charts.size(), 3u);
  EXPECT_EQ(charts[0].name, "efficiency");
  const auto lines = named_lines(charts[0].chart);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.at("half duplex + extension, simulated")->count(), 2);
  EXPECT_EQ(lines.at("full duplex, analytic")->pen().style(), Qt::DashLine);
  // Error bars: one hidden series per simulated point with a CI (2 modes x 2 sizes).
  EXPECT_EQ(charts[0].chart->series().size(), 4 + 4);
  EXPECT_EQ(axis_title(charts[0].chart, Qt::Horizontal), "frame size (bytes)");
  EXPECT_EQ(charts[2].name, "time-share");
  auto* bars = qobject_cast<QStackedBarSeries*>(charts[2].chart->series()[0]);
  ASSERT_NE(bars, nullptr);
  EXPECT_EQ(bars->count(), 5);                // frame, preamble, extension, collisions, idle
  EXPECT_EQ(bars->barSets()[0]->count(), 2);  // two frame sizes
  for (auto& c : charts) delete c.chart;
}

std::filesystem::path diameter_dir() {
  const auto dir = fresh("diameter");
  write(dir / "sweep.json", R"({"name": "diameter-vs-slot-time", "replications": 1})");
  std::string s =
      "point,speed,slot_time_bits,traffic,stations.*.traffic[0].frame_bytes,"
      "topology.cables[*].length_m,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* slot : {"512", "4096"})
    for (int len : {10, 50, 90}) {
      const std::string p = std::to_string(point++) + ",1000 Mb/s," + slot + ",saturated,64," +
                            std::to_string(len) + ",";
      s += p + "domain0,late_collisions_per_1000_frames,frames,1," + std::to_string(len) + ",0\n";
      s += p + "domain0,late_or_unseen_collisions_per_1000_frames,collisions,1," +
           std::to_string(len) + ",0\n";
      s += p + "domain0,efficiency,fraction,1,0.5,0\n";
      // The edge: 25 m per cable for the 512-bit slot, 180 m for 4096.
      s += p + "topology.domain0,max_legal_path_cable,m,1," +
           std::string(slot == std::string("512") ? "50" : "360") + ",0\n";
    }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, DiameterSweepMarksEachSlotTimesPdvEdge) {
  const auto dir = diameter_dir();
  auto charts = standard_charts(load_results(dir.string()));
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[0].name, "late-collisions");
  const auto lines = named_lines(charts[0].chart);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.at("slot 512 bits")->count(), 3);
  EXPECT_DOUBLE_EQ(lines.at("slot 512 bits: PDV edge")->at(0).x(), 25.0);
  EXPECT_DOUBLE_EQ(lines.at("slot 4096 bits: PDV edge")->at(1).x(), 180.0);
  EXPECT_EQ(lines.at("slot 4096 bits: PDV edge")->pen().style(), Qt::DashLine);
  for (auto& c : charts) delete c.chart;
}

std::filesystem::path contention_dir() {
  const auto dir = fresh("contention");
  write(dir / "sweep.json", R"({"name": "halfduplex-contention", "replications": 3})");
  std::string s =
      "point,rate_mbps,duration_ns,stations.*.traffic[0].frame_bytes,stations,component,name,"
      "unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* rate : {"100", "1000"})
    for (const char* size : {"64", "1518"})
      for (int n : {1, 2, 4}) {
        const std::string p = std::to_string(point++) + "," + rate + ",20000000," + size + "," +
                              std::to_string(n) + ",";
        s += p + "domain0,efficiency,fraction,3,0.9,0.01\n";
        s += p + "domain0,fairness,index,3,1,0\n";
        s += p + "domain0,throughput,bit/s,3,9e8,1e6\n";
        s += p + "s0.mac,access_delay_mean,ns,3,5000,100\n";
        s += p + "analysis,metcalfe_boggs_efficiency,fraction,3," + std::to_string(1.0 - 0.1 * n) +
             ",0\n";
      }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Comparisons, DiameterSweepGivesTheFirstLateCollisionLengthAgainstThePdvEdge) {
  // Late collisions per 1000 frames equal the length here: the first is at 10 m for both slots.
  const auto rows = comparisons(load_results(diameter_dir().string()));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& c : rows) {
    EXPECT_EQ(c.unit, "m");
    EXPECT_DOUBLE_EQ(c.simulated, 10.0);
  }
  std::vector<double> edges = {rows[0].analytic, rows[1].analytic};
  std::sort(edges.begin(), edges.end());
  EXPECT_EQ(edges, (std::vector<double>{25.0, 180.0}));

  // Results that carry the longest station cable the path delay allows compare against it (an
  // asymmetric plant's edge is not half its longest path).
  const auto dir = diameter_dir();
  std::ofstream(dir / "summary.csv", std::ios::app)
      << "0,1000 Mb/s,512,saturated,64,10,topology.domain0,max_station_cable_pdv,m,1,21.5,0\n"
      << "3,1000 Mb/s,4096,saturated,64,10,topology.domain0,max_station_cable_pdv,m,1,177.25,0\n";
  const auto station = comparisons(load_results(dir.string()));
  ASSERT_EQ(station.size(), 2u);
  edges = {station[0].analytic, station[1].analytic};
  std::sort(edges.begin(), edges.end());
  EXPECT_EQ(edges, (std::vector<double>{21.5, 177.25}));
}

// A diameter sweep's answer: per combination of the other axes, the legal length beside the last
// clean and first failing swept lengths, counting collisions the senders never saw as failures.
TEST(DiameterAnswers, StateTheLegalLengthBesideTheFirstFailure) {
  const auto dir = fresh("diameter-answers");
  write(dir / "sweep.json", R"({"name": "my-own-study", "replications": 1})");
  std::string s =
      "point,traffic,topology.cables[*].length_m,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  // Saturated: late collisions from 102 m. Poisson: none seen by the senders, but frames damaged
  // at the receivers from 105 m.
  for (const char* traffic : {"saturated", "poisson"})
    for (int len : {100, 101, 102, 105}) {
      const bool saturated = traffic == std::string("saturated");
      const std::string p =
          std::to_string(point++) + "," + traffic + "," + std::to_string(len) + ",";
      s += p + "domain0,late_collisions_per_1000_frames,collisions,1," +
           (saturated && len >= 102 ? "34.5" : "0") + ",0\n";
      s += p + "domain0,unnoticed_collision_losses,frames,1," +
           (!saturated && len >= 105 ? "40" : "0") + ",0\n";
      s += p + "topology.domain0,max_station_cable_pdv,m,1,101.439,0\n";
      s += p + "topology.domain0,max_station_cable,m,1,100,0\n";
      s += p + "topology.domain0,budget,bit times,1,4096,0\n";
    }
  write(dir / "summary.csv", s);
  const Results r = load_results(dir.string());
  const auto answers = diameter_answers(r);
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].where,
            (std::vector<std::pair<std::string, std::string>>{{"traffic", "saturated"}}));
  EXPECT_DOUBLE_EQ(*answers[0].legal_pdv_m, 101.439);
  EXPECT_DOUBLE_EQ(*answers[0].last_clean_m, 101);
  EXPECT_DOUBLE_EQ(*answers[0].first_failing_m, 102);
  EXPECT_DOUBLE_EQ(*answers[1].last_clean_m, 102);
  EXPECT_DOUBLE_EQ(*answers[1].first_failing_m, 105);
  EXPECT_EQ(diameter_answer_text(answers[0]),
            "traffic=saturated: legal up to 101.44 m per cable at slot 4096 BT by the path delay "
            "(100.00 m with the PHY's segment limit); simulated: no failure up to 101 m, first "
            "failure at 102 m (late collisions: 34.5 per 1000 frames)");
  EXPECT_NE(diameter_answer_text(answers[1])
                .find("first failure at 105 m (40 frames damaged by "
                      "collisions their senders never saw)"),
            std::string::npos);
  const auto summary = diameter_summary(answers);
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0],
            "all points: legal up to 101.44 m per cable at slot 4096 BT by the path delay (100.00 "
            "m with the PHY's segment limit); simulated: first failure between 102 m and 105 m in "
            "2 of 2 combinations");
  // The comparison rows use the same first failures.
  const auto rows = comparisons(r);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[1].simulated, 105);
  EXPECT_DOUBLE_EQ(rows[1].analytic, 101.439);
}

TEST(Charts, ContentionSweepGivesEfficiencyDelayAndFairnessPerRateAndSize) {
  const auto dir = contention_dir();
  auto charts = standard_charts(load_results(dir.string()));
  ASSERT_EQ(charts.size(), 4u);
  EXPECT_EQ(charts[1].name, "contention-throughput");
  EXPECT_DOUBLE_EQ(named_lines(charts[1].chart).at("100 Mb/s, 1518-byte frames")->at(2).y(), 900.0);
  // Efficiency: each simulated line with Metcalfe-Boggs for the same stations and frames, dashed.
  EXPECT_EQ(charts[0].name, "contention-efficiency");
  const auto efficiency = named_lines(charts[0].chart);
  ASSERT_EQ(efficiency.size(), 8u);
  const auto* mb = efficiency.at("Metcalfe-Boggs, 1000 Mb/s, 64-byte frames");
  EXPECT_DOUBLE_EQ(mb->at(2).y(), 0.6);  // 4 stations
  EXPECT_EQ(mb->pen().style(), Qt::DashLine);
  EXPECT_NE(efficiency.at("1000 Mb/s, 64-byte frames")->pen().style(), Qt::DashLine);
  EXPECT_EQ(charts[2].name, "contention-access-delay");
  const auto lines = named_lines(charts[2].chart);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.at("1000 Mb/s, 64-byte frames")->count(), 3);
  EXPECT_DOUBLE_EQ(lines.at("1000 Mb/s, 64-byte frames")->at(0).y(), 5.0);  // ns -> us
  EXPECT_EQ(axis_title(charts[2].chart, Qt::Vertical), "mean access delay (us)");
  for (auto& c : charts) delete c.chart;
}

std::filesystem::path pci_dir() {
  const auto dir = fresh("pci");
  write(dir / "sweep.json", R"({"name": "my-pci", "replications": 1})");
  std::string s =
      "point,bus,stations.b.traffic[0].frame_bytes,hosts.h.tx.frame_bytes,hosts.h.nic.profile,"
      "direction,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* bus : {"PCI 32/33", "PCI 64/66", "PCIe x1"})
    for (const char* nic : {"intel-82540em", "natsemi-dp83820", "intel-82573"})
      for (const char* dir : {"rx", "tx", "both"}) {
        // As pci-ceiling's `exclude`: PCI chips on the PCI buses, the PCIe chip on the link.
        if ((std::string(bus) == "PCIe x1") != (std::string(nic) == "intel-82573")) continue;
        const std::string p =
            std::to_string(point++) + "," + bus + ",1518,1518," + nic + "," + dir + ",";
        const bool slow = std::string(bus) == "PCI 32/33";
        s += p + "h.driver,delivered_throughput,bit/s,1," + (slow ? "7e8" : "9.8e8") + ",\n";
        s += p + "h.driver,sent_throughput,bit/s,1," + (slow ? "6e8" : "9.8e8") + ",\n";
        for (const char* d : {"rx", "tx"}) {
          s += p + "analysis.h," + d + "_bottleneck_bus,bool,1," + (slow ? "1" : "0") + ",\n";
          s += p + "analysis.h," + d + "_bottleneck_wire,bool,1," + (slow ? "0" : "1") + ",\n";
        }
        s += p + "analysis.h,rx_data_clocks_per_frame,clocks,1,400,\n";
        s += p + "analysis.h,rx_descriptor_fetch_clocks_per_frame,clocks,1,10,\n";
      }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, PciSweepGivesBarsPerBusAndNicLabelledWithTheBottleneck) {
  auto charts = standard_charts(load_results(pci_dir().string()));
  // rx, tx, both for the PCI buses and their chips; again for the PCIe link and its chip; cycles
  ASSERT_EQ(charts.size(), 7u);
  EXPECT_EQ(charts[0].name, "pci-throughput-rx");
  EXPECT_EQ(charts[3].name, "pci-throughput-rx-2");
  auto* link = qobject_cast<QBarSeries*>(charts[3].chart->series()[0]);
  ASSERT_NE(link, nullptr);
  ASSERT_EQ(link->barSets().size(), 1);  // only the PCIe chip, no empty bars for PCI chips
  EXPECT_EQ(link->barSets()[0]->label(), "intel-82573");
  auto* bars = qobject_cast<QBarSeries*>(charts[0].chart->series()[0]);
  ASSERT_NE(bars, nullptr);
  ASSERT_EQ(bars->barSets().size(), 2);                // two NICs
  EXPECT_DOUBLE_EQ(bars->barSets()[0]->at(0), 700.0);  // Mb/s on PCI 32/33
  auto* both = qobject_cast<QBarSeries*>(charts[2].chart->series()[0]);
  EXPECT_DOUBLE_EQ(both->barSets()[1]->at(1), 1960.0);  // rx + tx on PCI 64/66
  // The labels appear once the chart is laid out: one per bar.
  QChartView view(charts[0].chart);
  view.resize(1200, 800);
  view.show();
  QCoreApplication::processEvents();
  charts[0].annotate(charts[0].chart);
  QStringList labels;
  for (auto* item : charts[0].chart->childItems())
    if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) labels << t->text();
  labels.sort();
  EXPECT_EQ(labels, (QStringList{"bus", "bus", "wire", "wire"}));
  auto* cycles = qobject_cast<QStackedBarSeries*>(charts[6].chart->series()[0]);
  ASSERT_NE(cycles, nullptr);
  EXPECT_DOUBLE_EQ(cycles->barSets()[0]->at(0), 400.0);
  EXPECT_EQ(cycles->barSets()[0]->count(), 2);  // the PCI buses only
  for (std::size_t i = 1; i < charts.size(); ++i) delete charts[i].chart;
}

std::filesystem::path nic_review_dir() {
  const auto dir = fresh("nic-review");
  write(dir / "sweep.json", R"({"name": "nic-review-2003", "replications": 1})");
  std::string s =
      "point,nic,hosts.pc.app.request_bytes,hosts.pc.app.direction,component,name,unit,n,mean,"
      "ci95_half_width\n";
  int point = 0;
  for (const char* nic : {"Intel 82540EM", "HardLink HA-32G (AC1002)"})
    for (int bytes : {128, 1024, 65536})
      for (const char* d : {"receive", "send"}) {
        const std::string p =
            std::to_string(point++) + "," + nic + "," + std::to_string(bytes) + "," + d + ",";
        s += p + "pc.stack,receive_throughput,bit/s,1,8e8,\n";
        s += p + "pc.stack,send_throughput,bit/s,1,7e8,\n";
        s += p + "pc.driver,cpu_utilisation,fraction,1,0.25,\n";
      }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, NicReviewGivesThroughputCpuAndPeIndexVsRequestSize) {
  auto charts = standard_charts(load_results(nic_review_dir().string()));
  ASSERT_EQ(charts.size(), 6u);
  EXPECT_EQ(charts[2].name, "nic-review-pe-receive");
  const auto pe = named_lines(charts[2].chart);
  ASSERT_EQ(pe.size(), 2u);
  EXPECT_EQ(pe.at("Intel 82540EM")->count(), 3);
  EXPECT_DOUBLE_EQ(pe.at("Intel 82540EM")->at(0).y(), 800.0 / 25.0);  // Mb/s per CPU %
  const auto cpu = named_lines(charts[1].chart);
  EXPECT_DOUBLE_EQ(cpu.at("Intel 82540EM")->at(2).y(), 25.0);
  EXPECT_DOUBLE_EQ(named_lines(charts[3].chart).at("Intel 82540EM")->at(1).y(), 700.0);
  EXPECT_EQ(axis_title(charts[0].chart, Qt::Horizontal), "request size (bytes)");
  for (auto& c : charts) delete c.chart;
}

// "s0.mac" -> "<station>.mac", "h.driver" -> "<host>.driver", "analysis.h" -> "analysis.<host>",
// "domain0" -> "domain<i>": the patterns `gbesim stats` names components by.
std::string stats_pattern(const std::string& component) {
  static const std::regex index("(domain|link|source)[0-9]+");
  static const std::regex station("^[^.]+\\.(mac|sink)$");
  static const std::regex host("^[^.]+\\.(pci|nic|driver|stack|bridge)$");
  static const std::regex analysis_host("^analysis\\.[^.<]+$");
  std::string out = std::regex_replace(component, index, "$1<i>");
  if (std::regex_match(out, station)) return "<station>" + out.substr(out.find('.'));
  if (std::regex_match(out, host)) return "<host>" + out.substr(out.find('.'));
  if (std::regex_match(out, analysis_host)) return "analysis.<host>";
  return out;
}

// Every statistic the standard charts and the report's comparisons read by name is one gbesim
// records (`gbesim stats`): renaming a statistic in a model without its readers fails here.
TEST(Charts, EveryStatisticTheChartsAndComparisonsReadByNameExists) {
  std::set<std::pair<std::string, std::string>> described;
  {
    FILE* pipe = popen(GBESIM_BINARY " stats --json", "r");
    ASSERT_NE(pipe, nullptr);
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
    ASSERT_EQ(pclose(pipe), 0);
    for (const auto& s : nlohmann::json::parse(text))
      described.emplace(s["component"].get<std::string>(), s["name"].get<std::string>());
  }
  const auto run = fresh("asked-run");
  write(run / "run.json", R"({"name": "r", "status": "complete"})");
  write(run / "scalars.csv", "component,name,unit,value\na.mac,tx_throughput,bit/s,1\n");
  std::size_t asked = 0;
  for (const auto& dir :
       {cew_dir(), diameter_dir(), contention_dir(), pci_dir(), nic_review_dir(), phy_dir(), run}) {
    const Results r = load_results(dir.string());
    for (auto& c : standard_charts(r)) delete c.chart;
    comparisons(r);
    for (const auto& [component, name] : r.asked()) {
      EXPECT_EQ(described.count({stats_pattern(component), name}), 1u)
          << dir << ": " << component << " " << name << " (as " << stats_pattern(component) << ")";
      ++asked;
    }
  }
  EXPECT_GE(asked, 40u);
}

// A `gbesim validate` directory: one chart per source and unit, each figure at (measured,
// simulated) as a calibration or a prediction marker, with the diagonal and the +-20 % lines.
TEST(Charts, AValidationDirectoryGivesSimulatedAgainstMeasuredPerSourceAndUnit) {
  auto row = [](const std::string& source, const std::string& id, const std::string& unit,
                double measured, double simulated, ValidationRole role) {
    ScoreRow r;
    r.source = source;
    r.id = id;
    r.kind = "figure";
    r.unit = unit;
    r.role = role;
    r.measured = measured;
    r.simulated = simulated;
    r.error_pct = 100 * (simulated / measured - 1);
    r.tolerance_pct = 20;
    return r;
  };
  ScoreRow claim;
  claim.source = "a.txt";
  claim.id = "order";
  claim.kind = "claim";
  const std::vector<ScoreRow> rows = {
      row("a.txt", "rx", "Mb/s", 840, 655, ValidationRole::calibration),
      row("a.txt", "tx", "Mb/s", 690, 712, ValidationRole::prediction),
      row("a.txt", "cpu", "%", 24, 25, ValidationRole::prediction),
      row("b.txt", "agg", "KB/s", 49500, 60002, ValidationRole::prediction), claim};
  const auto dir = fresh("validation");
  {
    std::ofstream f(dir / "validation.csv");
    f << scorecard_csv(rows);
  }
  EXPECT_FALSE(is_validation_directory(dir));  // no record
  std::ofstream(dir / "validation.json") << R"({"kind": "validation"})";
  ASSERT_TRUE(is_validation_directory(dir));
  auto charts = validation_charts(read_validation_directory(dir));
  ASSERT_EQ(charts.size(), 3u);
  EXPECT_EQ(charts[0].name, "validation-a-mb-s");
  EXPECT_EQ(charts[1].name, "validation-a-percent");
  EXPECT_EQ(charts[2].name, "validation-b-kb-s");
  std::map<std::string, int> points;
  for (QAbstractSeries* s : charts[0].chart->series())
    if (auto* xy = qobject_cast<QXYSeries*>(s)) points[s->name().toStdString()] = xy->count();
  EXPECT_EQ(points["calibration rows (may be fitted)"], 1);
  EXPECT_EQ(points["prediction rows"], 1);
  EXPECT_EQ(points["simulated = measured"], 2);
  EXPECT_EQ(points["+20 %"], 2);
  const auto axes = charts[0].chart->axes(Qt::Horizontal);
  ASSERT_EQ(axes.size(), 1);
  EXPECT_EQ(axes[0]->titleText().toStdString(), "measured (Mb/s)");
  for (auto& c : charts) delete c.chart;

  std::ofstream(dir / "validation.csv", std::ios::app)
      << "a.txt,x,figure,guess,w,c,q,u,1,1,0,20,yes,\n";
  try {
    read_validation_directory(dir);
    FAIL() << "no error";
  } catch (const ResultsError& e) {
    EXPECT_NE(std::string(e.what()).find("validation.csv: line 7: role: expected calibration or "
                                         "prediction, got \"guess\""),
              std::string::npos)
        << e.what();
  }
}

TEST(Charts, RenderWritesPngOfTheHouseSizeAndSvg) {
  const Results r = load_results(phy_dir().string());
  auto charts = standard_charts(r);
  const auto out = fresh("render");
  const auto stem = (out / "m").string();
  save_chart(charts[0].chart, QString::fromStdString(stem));
  for (std::size_t i = 1; i < charts.size(); ++i) delete charts[i].chart;
  const QImage png(QString::fromStdString(stem + ".png"));
  ASSERT_FALSE(png.isNull());
  EXPECT_EQ(png.width(), 1200);
  EXPECT_EQ(png.height(), 800);
  // Not blank: the drawing uses more than a handful of colours.
  std::set<QRgb> colours;
  for (int y = 0; y < png.height(); y += 7)
    for (int x = 0; x < png.width(); x += 7) colours.insert(png.pixel(x, y));
  EXPECT_GT(colours.size(), 20u);
  std::ifstream svg(stem + ".svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), {});
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("SNR margin"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(stem + ".png.tmp"));
}

TEST(Charts, EveryStandardChartOfTheKnownDirectoriesRendersAPngOfTheHouseSize) {
  const auto out = fresh("render-all");
  int rendered = 0;
  for (const auto& dir :
       {phy_dir(), cew_dir(), diameter_dir(), contention_dir(), pci_dir(), nic_review_dir()}) {
    for (auto& c : standard_charts(load_results(dir.string()))) {
      const auto stem = (out / (dir.filename().string() + "-" + c.name)).string();
      save_chart(c.chart, QString::fromStdString(stem), c.annotate);
      const QImage png(QString::fromStdString(stem + ".png"));
      ASSERT_FALSE(png.isNull()) << stem;
      EXPECT_EQ(png.size(), QSize(1200, 800)) << stem;
      std::set<QRgb> colours;
      for (int y = 0; y < png.height(); y += 9)
        for (int x = 0; x < png.width(); x += 9) colours.insert(png.pixel(x, y));
      EXPECT_GT(colours.size(), 10u) << stem;
      ++rendered;
    }
  }
  EXPECT_EQ(rendered, 4 + 3 + 2 + 4 + 7 + 6);
}

// A user's own sweep, frame size x station count (not a built-in study's axes): a throughput
// chart against each axis with the axis's title and unit, one line per value of the other, and
// the collision domain's efficiency; ten sizes x ten station counts pass the palette's eight.
std::filesystem::path user_sweep_dir() {
  const auto dir = fresh("user-sweep");
  write(dir / "sweep.json", R"({"name": "size-by-stations", "replications": 2})");
  std::string s =
      "point,stations.*.traffic[0].frame_bytes,stations,component,name,unit,n,mean,"
      "ci95_half_width\n";
  int point = 0;
  for (int size = 64; size <= 1504; size += 160)
    for (int n = 2; n <= 20; n += 2) {
      const std::string p =
          std::to_string(point++) + "," + std::to_string(size) + "," + std::to_string(n) + ",";
      s += p + "network,delivered_throughput,bit/s,2," + std::to_string(size * 1e5 / n) + ",1e5\n";
      s += p + "domain0,efficiency,fraction,2,0.5,0.01\n";
    }
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, AUsersOwnSweepGetsThroughputChartsAgainstEachAxis) {
  auto charts = standard_charts(load_results(user_sweep_dir().string()));
  std::map<std::string, QChart*> by_name;
  for (auto& c : charts) by_name[c.name] = c.chart;
  ASSERT_EQ(charts.size(), 4u);  // throughput and efficiency against each axis
  QChart* by_size = by_name.at("throughput");
  EXPECT_EQ(axis_title(by_size, Qt::Horizontal), "frame size (bytes)");
  EXPECT_EQ(axis_title(by_size, Qt::Vertical), "delivered throughput, DA..FCS (Mb/s)");
  auto lines = named_lines(by_size);
  ASSERT_EQ(lines.size(), 10u);  // stations=2 .. stations=20
  ASSERT_EQ(lines.at("stations=4")->count(), 10);
  EXPECT_DOUBLE_EQ(lines.at("stations=4")->at(1).x(), 224);
  EXPECT_DOUBLE_EQ(lines.at("stations=4")->at(1).y(), 224 * 1e5 / 4 * 1e-6);
  QChart* by_stations = by_name.at("throughput-by-stations");
  EXPECT_EQ(axis_title(by_stations, Qt::Horizontal), "stations");
  lines = named_lines(by_stations);
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines.at("frame_bytes=1504")->count(), 10);
  EXPECT_EQ(axis_title(by_name.at("efficiency"), Qt::Vertical),
            "efficiency (DA..FCS bits / line bits)");
  EXPECT_EQ(axis_title(by_name.at("efficiency-by-stations"), Qt::Horizontal), "stations");
  for (auto& c : charts) delete c.chart;
}

// A user's own sweep over categories only (an extension mode x a NIC name): no numeric axis to
// draw a line against, and a category has no slope -- so bars, one per category of the first
// axis, one set per value of the other, for delivered throughput and the domain's efficiency.
TEST(Charts, AUsersCategoricalSweepGetsBarsPerCategory) {
  const auto dir = fresh("user-categories");
  write(dir / "sweep.json", R"({"name": "mine", "replications": 1})");
  std::string s = "point,mode,nic,component,name,unit,n,mean,ci95_half_width\n";
  int point = 0;
  for (const char* mode : {"extension", "bursting"})
    for (const char* nic : {"a", "b", "c"}) {
      const std::string p = std::to_string(point) + "," + mode + "," + nic + ",";
      s += p + "network,delivered_throughput,bit/s,1," + std::to_string((point + 1) * 1e8) + ",0\n";
      s += p + "domain0,efficiency,fraction,1," + std::to_string(0.1 * (point + 1)) + ",0\n";
      ++point;
    }
  write(dir / "summary.csv", s);
  auto charts = standard_charts(load_results(dir.string()));
  ASSERT_EQ(charts.size(), 4u);  // by mode, and by NIC
  std::map<std::string, QChart*> by_name;
  for (auto& c : charts) by_name[c.name] = c.chart;
  EXPECT_EQ(axis_title(by_name.at("throughput-by-nic"), Qt::Horizontal), "nic");
  for (const char* name : {"throughput", "efficiency"}) {
    QChart* c = by_name.at(name);
    ASSERT_EQ(c->series().size(), 1);
    auto* bars = dynamic_cast<QBarSeries*>(c->series().front());
    ASSERT_NE(bars, nullptr) << name;
    ASSERT_EQ(bars->count(), 3);  // nic=a, nic=b, nic=c
    EXPECT_EQ(bars->barSets()[1]->label(), "nic=b");
    ASSERT_EQ(bars->barSets()[1]->count(), 2);  // extension, bursting
    const double scale = std::string(name) == "throughput" ? 100 : 0.1;
    EXPECT_NEAR(bars->barSets()[1]->at(0), 2 * scale, 1e-9);  // point 1: extension, b
    EXPECT_NEAR(bars->barSets()[1]->at(1), 5 * scale, 1e-9);  // point 4: bursting, b
    EXPECT_EQ(axis_title(c, Qt::Horizontal), "mode");
  }
  for (auto& c : charts) delete c.chart;
}

// A numeric axis of two values (a slot time of 512 or 4096 bits) is a choice, not a scale: bars
// per value, no sloped line between them; three values or more are a line's axis.
TEST(Charts, TwoNumbersAreCategoriesAndThreeAreAScale) {
  for (const int values : {2, 3}) {
    const auto dir = fresh("slots-" + std::to_string(values));
    write(dir / "sweep.json", R"({"name": "slots", "replications": 1})");
    std::string s = "point,mac.slot_time_bits,component,name,unit,n,mean,ci95_half_width\n";
    for (int k = 0; k < values; ++k)
      s += std::to_string(k) + "," + std::to_string(512 << (2 * k)) +
           ",network,delivered_throughput,bit/s,1," + std::to_string(1e8 * (k + 1)) + ",0\n";
    write(dir / "summary.csv", s);
    auto charts = standard_charts(load_results(dir.string()));
    ASSERT_EQ(charts.size(), 1u);
    auto* bars = dynamic_cast<QBarSeries*>(charts.front().chart->series().front());
    EXPECT_EQ(bars != nullptr, values == 2);
    if (bars != nullptr) {
      auto* axis = dynamic_cast<QBarCategoryAxis*>(charts.front().chart->axes(Qt::Horizontal)[0]);
      ASSERT_NE(axis, nullptr);
      EXPECT_EQ(axis->categories(), (QStringList{"512", "2048"}));
    }
    for (auto& c : charts) delete c.chart;
  }
}

// Lines whose peaks differ by more than 10x (10 Mb/s beside 1000) are drawn on a logarithmic
// axis, so that the lower ones are not flat on the floor; within 10x the axis stays linear.
TEST(Charts, LinesThatDifferByMoreThanTenfoldGetALogarithmicAxis) {
  for (const double fast : {1000.0, 80.0}) {
    const auto dir = fresh("log-" + std::to_string(static_cast<int>(fast)));
    write(dir / "sweep.json", R"({"name": "rates", "replications": 1})");
    std::string s = "point,speed,frame_bytes,component,name,unit,n,mean,ci95_half_width\n";
    int point = 0;
    for (const double rate : {10.0, fast})
      for (int size : {64, 512, 1518})
        s += std::to_string(point++) + "," + std::to_string(static_cast<int>(rate)) + " Mb/s," +
             std::to_string(size) + ",network,delivered_throughput,bit/s,1," +
             std::to_string(rate * 1e6 * size / 1600.0) + ",0\n";
    write(dir / "summary.csv", s);
    auto charts = standard_charts(load_results(dir.string()));
    // Bars by speed (a name), then lines against the frame size.
    ASSERT_EQ(charts.size(), 2u);
    EXPECT_EQ(charts[1].name, "throughput-by-frame_bytes");
    const auto axes = charts[1].chart->axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    EXPECT_EQ(dynamic_cast<QLogValueAxis*>(axes.front()) != nullptr, fast == 1000.0) << fast;
    for (auto& c : charts) delete c.chart;
  }
}

// A legend beside the plot (more than four entries) keeps to about a fifth of the chart: its
// labels wrap at 22 characters a line, at spaces, and lose nothing.
TEST(Charts, ALegendBesideThePlotWrapsItsLabelsWithoutCuttingThem) {
  auto charts = standard_charts(load_results(contention_dir().string()));
  QChart* c = charts.front().chart;  // contention-efficiency: 4 lines, 4 Metcalfe-Boggs
  EXPECT_EQ(c->legend()->alignment(), Qt::AlignRight);
  int wrapped = 0;
  for (auto* marker : c->legend()->markers()) {
    if (marker->series()->name().isEmpty()) continue;  // a CI bar, hidden from the legend
    const QStringList lines = marker->label().split("<br>");
    for (const auto& line : lines) EXPECT_LE(line.size(), 22) << marker->label().toStdString();
    EXPECT_EQ(lines.join(" "), marker->series()->name());
    wrapped += lines.size() > 1;
  }
  EXPECT_GE(wrapped, 4);  // "Metcalfe-Boggs, 1000 Mb/s, 64-byte frames" and the like
  for (auto& x : charts) delete x.chart;
}

// Every text of every standard chart of the known directories -- title, axis titles, tick
// labels, legend, bar labels -- drawn whole, as rendered in a view of the desktop app's chart
// panel at 1366 x 768 (880 x 440) and at the files' 1200 x 800: Qt shortens a text that does not
// fit its box with "...", so none may end so. Long titles wrap instead.
// Eight categories with long names (frame-size mixes, as the carrier-extension study's).
std::filesystem::path long_categories_dir() {
  const auto dir = fresh("long-categories");
  write(dir / "sweep.json", R"({"name": "mixes", "replications": 1})");
  std::string s = "point,mix,component,name,unit,n,mean,ci95_half_width\n";
  for (int k = 0; k < 8; ++k)
    s += std::to_string(k) + ",64/576/1518 8:3:" + std::to_string(k + 1) + " (mean " +
         std::to_string(300 + k) + "),network,delivered_throughput,bit/s,1,5e8,0\n";
  write(dir / "summary.csv", s);
  return dir;
}

TEST(Charts, NoTextIsCutAtTheAppsOrTheFilesSize) {
  int texts = 0, wrapped = 0, wrapped_categories = 0;
  for (const QSize size : {QSize(880, 440), kChartSize})
    for (const auto& dir : {phy_dir(), cew_dir(), diameter_dir(), contention_dir(), pci_dir(),
                            nic_review_dir(), long_categories_dir()})
      for (auto& c : standard_charts(load_results(dir.string()))) {
        FittedChartView view(c.chart, c.annotate);  // owns the chart
        view.resize(size);
        view.show();
        QCoreApplication::processEvents();
        wrapped += c.chart->title().contains("<br>");
        for (QAbstractAxis* axis : c.chart->axes())
          if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis))
            wrapped_categories += categories->categories().join(' ').count("<br>");
        for (QGraphicsItem* item : view.scene()->items()) {
          QString text;
          if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
          if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = t->text();
          if (text.isEmpty() || !item->isVisible()) continue;
          ++texts;
          EXPECT_FALSE(text.endsWith("...") || text.contains(QChar(0x2026)))
              << dir.filename().string() << " " << c.name << " at " << size.width() << "x"
              << size.height() << ": \"" << text.toStdString() << "\"";
        }
      }
  EXPECT_GT(texts, 500);
  EXPECT_GT(wrapped, 5);             // the PCI titles, at least, take two lines in the app
  EXPECT_GE(wrapped_categories, 8);  // the mixes' names, in two lines or more
}

// Analytic references are drawn over the simulated lines (they come last among the series) and
// labelled on the plot: each named one by its name, in its colour, inside the plot area, no two
// labels overlapping, at the app's size and the files'.
TEST(Charts, AnalyticReferencesAreDrawnOnTopAndLabelled) {
  int charts_with_references = 0, labels = 0;
  for (const QSize size : {QSize(880, 440), kChartSize})
    for (const auto& dir : {cew_dir(), contention_dir(), diameter_dir(), phy_dir()})
      for (auto& c : standard_charts(load_results(dir.string()))) {
        bool seen_analytic = false;
        std::map<QString, QColor> named;
        for (QAbstractSeries* s : c.chart->series()) {
          const bool analytic = s->property("analytic").toBool();
          if (!analytic && !s->name().isEmpty()) {
            EXPECT_FALSE(seen_analytic) << c.name << ": " << s->name().toStdString();
          }
          seen_analytic = seen_analytic || analytic;
          if (analytic && !s->name().isEmpty())
            named[s->name()] = qobject_cast<QXYSeries*>(s)->pen().color();
        }
        charts_with_references += seen_analytic;
        FittedChartView view(c.chart);  // owns the chart
        view.resize(size);
        view.show();
        QCoreApplication::processEvents();
        std::vector<QRectF> boxes;
        for (QGraphicsItem* item : c.chart->childItems()) {
          auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item);
          if (t == nullptr || !named.count(t->text())) continue;
          ++labels;
          EXPECT_EQ(t->brush().color(), named[t->text()]) << t->text().toStdString();
          const QRectF box = t->mapRectToParent(t->boundingRect());
          EXPECT_TRUE(c.chart->plotArea().contains(box))
              << c.name << ": " << t->text().toStdString();
          for (const QRectF& other : boxes)
            EXPECT_FALSE(other.intersects(box)) << c.name << ": " << t->text().toStdString();
          boxes.push_back(box);
          named.erase(t->text());
        }
        EXPECT_TRUE(named.empty())
            << c.name << ": unlabelled " << named.begin()->first.toStdString();
      }
  EXPECT_GE(charts_with_references, 8);  // four charts, two sizes
  EXPECT_GE(labels, 20);
}

// Tick labels carry the decimals their ticks need and no more: "10000", not "10000.0".
TEST(Charts, AxisLabelsHaveTheDecimalsTheirTicksNeed) {
  const std::vector<std::tuple<double, double, std::string>> cases = {
      {0, 9500, "%.0f"}, {0, 0.93, "%.1f"}, {0, 1.05, "%.1f"}, {0, 730, "%.0f"}};
  for (const auto& [lo, hi, format] : cases) {
    QValueAxis* a = value_axis("v", lo, hi);
    EXPECT_EQ(a->labelFormat().toStdString(), format) << lo << " .. " << hi;
    delete a;
  }
}

// No two series a chart shows in its legend look alike: line series differ in colour or dash
// pattern (analytic references dashed and darker than their simulated line), bar sets in
// colour. Over every standard chart of the known directories and the ten-line user sweep.
TEST(Charts, NoTwoSeriesOfAChartHaveTheSamePen) {
  int charts_checked = 0;
  for (const auto& dir : {phy_dir(), cew_dir(), diameter_dir(), contention_dir(), pci_dir(),
                          nic_review_dir(), user_sweep_dir()}) {
    for (auto& c : standard_charts(load_results(dir.string()))) {
      std::set<std::tuple<QRgb, int, bool>> pens;
      std::set<QString> names;
      int shown = 0;
      for (auto* series : c.chart->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(series)) {
          // Error bars have no name; an eye's traces are one entry, "traces".
          if (line->name().isEmpty() || !names.insert(line->name()).second) continue;
          ++shown;
          EXPECT_TRUE(pens.insert({line->pen().color().rgb(), line->pen().style(), false}).second)
              << c.name << ": " << line->name().toStdString();
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
          for (auto* set : bars->barSets()) {
            ++shown;
            EXPECT_TRUE(pens.insert({set->color().rgb(), 0, true}).second)
                << c.name << ": " << set->label().toStdString();
          }
        }
      }
      EXPECT_GT(shown, 0) << c.name;
      ++charts_checked;
      delete c.chart;
    }
  }
  EXPECT_EQ(charts_checked, 4 + 3 + 2 + 4 + 7 + 6 + 4);
}

TEST(Charts, ANonResultsDirectoryIsAClearError) {
  const auto dir = fresh("empty");
  try {
    load_results(dir.string());
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a results directory (no run.json, sweep.json or "
                                         "phy.json)"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace gbesim::ui

namespace gbesim::ui {
namespace {

// A run with series.csv gets a "series" chart: one line per connection's receive rate (not the
// send side, not other statistics), points at each interval's end, labelled without the "host_"
// and ".stack" parts; at most 12 lines, spread so the slowest and the fastest both show.
TEST(Charts, ARunsSeriesGivesOneLinePerConnectionOverTime) {
  const auto dir = fresh("series");
  write(dir / "run.json", R"({"name": "agg", "seed": 1, "config": {"stations": {}}})");
  write(dir / "scalars.csv", "component,name,unit,value\nnetwork,tx_throughput,bit/s,0\n");
  std::string series = "time_s,component,name,unit,value\n";
  for (int t = 1; t <= 3; ++t) {
    for (int c = 1; c <= 14; ++c)
      series += std::to_string(t) + ",host_b" + std::to_string(c) + ".stack_a" + std::to_string(c) +
                ",receive_throughput,bit/s," + std::to_string(c * 1e7) + "\n";
    series += std::to_string(t) + ",host_a1.stack_b1,send_throughput,bit/s,5e8\n";
    series += std::to_string(t) + ",a1.mac,rx_throughput,bit/s,5e8\n";
  }
  write(dir / "series.csv", series);
  const Results r = load_results(dir.string());
  const auto charts = standard_charts(r);
  const auto it = std::find_if(charts.begin(), charts.end(),
                               [](const StandardChart& c) { return c.name == "series"; });
  ASSERT_NE(it, charts.end());
  const auto lines = named_lines(it->chart);
  EXPECT_EQ(lines.size(), 12u);
  ASSERT_TRUE(lines.count("b1 from a1"));    // the slowest
  ASSERT_TRUE(lines.count("b14 from a14"));  // the fastest
  EXPECT_EQ(lines.at("b14 from a14")->count(), 3);
  EXPECT_DOUBLE_EQ(lines.at("b14 from a14")->at(2).x(), 3.0);
  EXPECT_DOUBLE_EQ(lines.at("b14 from a14")->at(2).y(), 140.0);  // Mb/s
  EXPECT_EQ(axis_title(it->chart, Qt::Horizontal), "time (s)");
  for (const auto& c : charts) delete c.chart;
}

// A run's events.csv with bus events (a 30 ns bus): a transaction the trace cut (frame 6), frame
// 7's two reads (73 and 69 clocks), a descriptor write-back (6), the driver's register read (6),
// frame 8's read (19), and the NIC's interrupt line up from clock 145 to 160 -- written by hand as
// gbesim writes them. The timeline shows frames 7 and 8: 173 clocks, a lane per master and one
// for the interrupt, a bar per phase.
TEST(Charts, ARunsBusEventsGiveATimelineWithABarPerPhaseAndALanePerMaster) {
  const auto dir = fresh("bus-timeline");
  write(dir / "run.json", R"({"name": "bus", "seed": 1, "config": {"stations": {}}})");
  write(dir / "scalars.csv", "component,name,unit,value\nnetwork,tx_throughput,bit/s,0\n");
  // Row times are (200 + clock) x 30 000 ps.
  std::string csv = "time_ps,component,event,frame_id,bytes,detail\n";
  auto at = [&](int clock, const std::string& rest) {
    csv += std::to_string((200 + clock) * 30000LL) + "," + rest + "\n";
  };
  at(-3, "h.pci.nic,bus_turnaround,6,,");
  at(-2, "h.pci.nic,bus_end,6,40,complete 10");
  at(-2, "h.pci.nic,bus_request,7,1518,memory_read_multiple");
  at(-1, "h.pci.nic,bus_grant,7,,");
  for (const auto& [start, phases, bytes, ending] :
       {std::tuple{0, 64, 256, "disconnect"}, std::tuple{73, 60, 238, "complete"}}) {
    at(start, "h.pci.nic,bus_address,7,,memory_read_multiple");
    at(start + 1, "h.pci.nic,bus_turnaround,7,,");
    at(start + 2, "h.pci.nic,bus_wait,7,,");
    at(start + 8, "h.pci.nic,bus_data,7,,");
    at(start + 8 + phases, "h.pci.nic,bus_turnaround,7,,");
    at(start + 9 + phases, "h.pci.nic,bus_end,7," + std::to_string(bytes) + "," + ending + " " +
                               std::to_string(phases));
  }
  at(142, "h.pci.nic,bus_address,,,memory_write");
  at(143, "h.pci.nic,bus_data,,,");
  at(145, "h.nic,irq_assert,,,coalesce_time");
  at(147, "h.pci.nic,bus_turnaround,,,");
  at(148, "h.pci.nic,bus_end,,16,complete 4");
  at(148, "h.pci.driver,bus_address,,,memory_read");
  at(149, "h.pci.driver,bus_turnaround,,,");
  at(150, "h.pci.driver,bus_wait,,,");
  at(152, "h.pci.driver,bus_data,,,");
  at(153, "h.pci.driver,bus_turnaround,,,");
  at(154, "h.pci.driver,bus_end,,4,complete 1");
  at(154, "h.pci.nic,bus_address,8,,memory_read_multiple");
  at(155, "h.pci.nic,bus_turnaround,8,,");
  at(156, "h.pci.nic,bus_wait,8,,");
  at(160, "h.nic,irq_deassert,,,");
  at(162, "h.pci.nic,bus_data,8,,");
  at(172, "h.pci.nic,bus_turnaround,8,,");
  at(173, "h.pci.nic,bus_end,8,40,complete 10");
  write(dir / "events.csv", csv);
  const auto charts = standard_charts(load_results(dir.string()));
  const auto it = std::find_if(charts.begin(), charts.end(),
                               [](const StandardChart& c) { return c.name == "bus-timeline"; });
  ASSERT_NE(it, charts.end());
  std::map<std::string, int> bars;  // by phase
  std::set<std::string> legend;
  for (auto* s : it->chart->series()) {
    auto* area = qobject_cast<QAreaSeries*>(s);
    ASSERT_NE(area, nullptr);
    const std::string name = area->name().toStdString();
    bars[name.substr(0, name.find_first_of(", "))] += 1;
    legend.insert(name);  // each kind of bar once in the legend
  }
  // Five transactions; reads have two turnarounds, the write one; the interrupt one bar.
  EXPECT_EQ(bars,
            (std::map<std::string, int>{
                {"address", 5}, {"wait", 4}, {"data", 5}, {"turnaround", 9}, {"interrupt", 1}}));
  EXPECT_EQ(legend,
            (std::set<std::string>{"address, 2.5 clocks/frame", "wait, 10.0 clocks/frame",
                                   "data, 69.5 clocks/frame", "turnaround, 4.5 clocks/frame",
                                   "interrupt line raised"}));
  auto* lanes = qobject_cast<QCategoryAxis*>(it->chart->axes(Qt::Vertical).front());
  ASSERT_NE(lanes, nullptr);
  EXPECT_EQ(lanes->categoriesLabels(),
            (QStringList{"h.nic interrupt", "driver", "nic"}));  // bottom up
  EXPECT_EQ(axis_title(it->chart, Qt::Horizontal), "bus clocks from 6.000 us");
  const auto* x = qobject_cast<QValueAxis*>(it->chart->axes(Qt::Horizontal).front());
  EXPECT_DOUBLE_EQ(x->max(), 173.0);
  EXPECT_NE(it->chart->title().toStdString().find("2 frames in 173 bus clocks (30 ns)"),
            std::string::npos)
      << it->chart->title().toStdString();
  for (const auto& c : charts) delete c.chart;
}

}  // namespace
}  // namespace gbesim::ui
