#include "ui/standard_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QStackedBarSeries>

#include "analysis/bus_timeline.hpp"
#include "ui/chart_style.hpp"

namespace gbesim::ui {

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

bool is_number(const std::string& s, double& v) {
  const auto n = parse_number(s);
  if (n) v = *n;
  return n.has_value();
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  double min_or(double d) const { return std::isfinite(lo) ? lo : d; }
  double max_or(double d) const { return std::isfinite(hi) ? (hi > lo ? hi : hi + 1) : d; }
};

// One line per group: x, y, CI half-width.
struct Line {
  Line() = default;
  explicit Line(std::string n) : name(std::move(n)) {}
  std::string name;
  std::vector<double> x, y, half;
  bool analytic = false;
  int color = 0;
};

// A logarithmic axis in the house style (the title's size as value_axis gives it).
QLogValueAxis* log_axis(const QString& title, double base, double lo, double hi,
                        const char* format) {
  auto* a = new QLogValueAxis();
  a->setTitleText(title);
  a->setBase(base);
  a->setRange(lo, hi);
  a->setLabelFormat(format);
  QFont f = a->titleFont();
  f.setPointSize(12);
  a->setTitleFont(f);
  return a;
}

// The value axis of a chart of lines over `yr`. Lines whose peaks differ by more than 10x
// (10 Mb/s beside 1000, full duplex beside half) flatten the lower ones on a linear axis: a
// logarithmic one then, whole decades, when every value is positive and no range is fixed.
QAbstractAxis* y_axis_for(const std::vector<Line>& lines, const Range& yr,
                          const std::string& y_title,
                          std::optional<std::pair<double, double>> y_range) {
  double lowest_peak = std::numeric_limits<double>::infinity(), highest_peak = 0;
  bool positive = !lines.empty();
  for (const auto& l : lines) {
    if (l.y.empty()) continue;
    const double peak = *std::max_element(l.y.begin(), l.y.end());
    lowest_peak = std::min(lowest_peak, peak);
    highest_peak = std::max(highest_peak, peak);
    for (std::size_t i = 0; i < l.y.size(); ++i) positive = positive && l.y[i] - l.half[i] > 0;
  }
  if (!y_range && positive && highest_peak > 10.000001 * lowest_peak) {
    auto* a = log_axis(q(y_title + ", log scale"), 10,
                       std::pow(10.0, std::floor(std::log10(yr.min_or(1)))),
                       std::pow(10.0, std::ceil(std::log10(yr.max_or(10)))), "%g");
    a->setMinorTickCount(8);
    return a;
  }
  const double ylo = y_range ? y_range->first : std::min(0.0, yr.min_or(0));
  const double yhi = y_range ? y_range->second : yr.max_or(1) * 1.05;
  return value_axis(q(y_title), ylo, yhi);
}

QChart* line_chart(const std::string& title, const std::string& x_title, const std::string& y_title,
                   const std::vector<Line>& lines,
                   std::optional<std::pair<double, double>> y_range = std::nullopt,
                   bool log2_x = false) {
  QChart* chart = new_chart(q(title));
  Range xr, yr;
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.x.size(); ++i) {
      xr.add(l.x[i]);
      yr.add(l.y[i] - l.half[i]);
      yr.add(l.y[i] + l.half[i]);
    }
  QAbstractAxis* ax = nullptr;
  if (log2_x) {
    ax = log_axis(q(x_title), 2, xr.min_or(1), xr.max_or(2), "%.0f");
  } else {
    ax = value_axis(q(x_title), xr.min_or(0), xr.max_or(1), false);
  }
  QAbstractAxis* ay = y_axis_for(lines, yr, y_title, y_range);
  chart->addAxis(ax, Qt::AlignBottom);
  chart->addAxis(ay, Qt::AlignLeft);
  // No two lines alike: a colour already taken (by a line of the same kind) moves on to the
  // next dash pattern.
  // Lines that coincide stay visible: the earlier simulated lines are drawn wider, with larger
  // markers, under the later ones, and the analytic references are drawn last, on top.
  std::set<std::pair<int, bool>> taken;
  std::vector<const Line*> order;
  for (const auto& l : lines)
    if (!l.analytic) order.push_back(&l);
  const auto simulated = order.size();
  for (const auto& l : lines)
    if (l.analytic) order.push_back(&l);
  std::vector<int> colors(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    colors[k] = order[k]->color;
    while (!taken.insert({colors[k], order[k]->analytic}).second) colors[k] += 8;
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Line& l = *order[k];
    auto* s = line_series(q(l.name), colors[k], l.analytic);
    if (!l.analytic) {
      const double under = static_cast<double>(simulated - 1 - k);
      QPen pen = s->pen();
      pen.setWidthF(std::min(5.0, 2.5 + 1.0 * under));
      s->setPen(pen);
      s->setMarkerSize(std::min(12.0, 6.0 + 2.0 * under));
    }
    for (std::size_t i = 0; i < l.x.size(); ++i) s->append(l.x[i], l.y[i]);
    chart->addSeries(s);
    s->attachAxis(ax);
    s->attachAxis(ay);
    add_error_bars(chart, s, l.x, l.y, l.half);
  }
  place_legend(chart, static_cast<int>(lines.size()));
  return chart;
}

// The lowest bit-error rate a chart shows: 1e-15 is one error in about 11.6 days at 1 Gb/s,
// beyond any measurement; lower values are drawn on the axis floor.
constexpr double kBerFloor = 1e-15;

double clamp_log(double v) {
  return std::clamp(std::isfinite(v) ? v : 1.0, kBerFloor, 1.0);
}

// ---- gbesim phy ---------------------------------------------------------------------------

// The margin and the bit-error rates per cable category against length, from cable.csv: each
// category's lines with all cancellers (solid) and without NEXT cancellation (dashed), its coded
// and uncoded BER.
void cable_lines(const CsvTable& t, std::vector<Line>& margin, std::vector<Line>& ber) {
  std::vector<std::string> cats;
  for (std::size_t i = 0; i < t.rows.size(); ++i)
    if (std::find(cats.begin(), cats.end(), t.at(i, "category")) == cats.end())
      cats.push_back(t.at(i, "category"));
  for (std::size_t c = 0; c < cats.size(); ++c) {
    Line all{cats[c] + ", all cancellers"}, no_next{cats[c] + ", no NEXT cancellation"};
    Line coded{cats[c] + ", coded (Viterbi)"}, uncoded{cats[c] + ", uncoded"};
    all.color = no_next.color = coded.color = uncoded.color = static_cast<int>(c);
    no_next.analytic = uncoded.analytic = true;  // dashed
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      if (t.at(i, "category") != cats[c]) continue;
      const double len = t.number(i, "length_m");
      const std::string v = t.at(i, "cancellation");
      if (v == "all") {
        all.x.push_back(len);
        all.y.push_back(t.number(i, "margin_db"));
        coded.x.push_back(len);
        coded.y.push_back(clamp_log(t.number(i, "ber_coded")));
        uncoded.x.push_back(len);
        uncoded.y.push_back(clamp_log(t.number(i, "ber_uncoded")));
      } else if (v == "no_next_cancel") {
        no_next.x.push_back(len);
        no_next.y.push_back(t.number(i, "margin_db"));
      }
    }
    for (Line* l : {&all, &no_next, &coded, &uncoded}) l->half.assign(l->x.size(), 0.0);
    margin.push_back(all);
    margin.push_back(no_next);
    ber.push_back(coded);
    ber.push_back(uncoded);
  }
}

// The BER lines on a log axis, down to the decade below the lowest rate shown, with the 1e-10
// target.
QChart* ber_chart(const std::vector<Line>& ber) {
  QChart* b = new_chart("1000BASE-T bit-error rate vs cable length (cables at their limits)");
  auto* ax = value_axis("cable length (m)", 0, 200, false);
  auto* ay = new QLogValueAxis();
  ay->setTitleText("bit-error rate (below 1e-15 drawn at 1e-15)");
  ay->setBase(10);
  // From the decade below the lowest rate shown (at most down to the floor) to 1.
  double lowest = 1;
  for (const auto& l : ber)
    for (double y : l.y) lowest = std::min(lowest, y);
  ay->setRange(std::max(kBerFloor, std::min(1e-11, std::pow(10.0, std::floor(std::log10(lowest))))),
               1);
  ay->setLabelFormat("%.0e");
  b->addAxis(ax, Qt::AlignBottom);
  b->addAxis(ay, Qt::AlignLeft);
  double xmax = 0;
  for (const auto& l : ber) {
    auto* s = line_series(q(l.name), l.color, l.analytic);
    for (std::size_t i = 0; i < l.x.size(); ++i) {
      s->append(l.x[i], l.y[i]);
      xmax = std::max(xmax, l.x[i]);
    }
    b->addSeries(s);
    s->attachAxis(ax);
    s->attachAxis(ay);
  }
  ax->setRange(0, std::max(1.0, xmax));
  auto* target = line_series("target 1e-10", 7, true);
  target->append(0, 1e-10);
  target->append(std::max(1.0, xmax), 1e-10);
  b->addSeries(target);
  target->attachAxis(ax);
  target->attachAxis(ay);
  place_legend(b, static_cast<int>(ber.size()) + 1);
  return b;
}

void cable_charts(const CsvTable& t, std::vector<StandardChart>& out) {
  std::vector<Line> margin, ber;
  cable_lines(t, margin, ber);
  QChart* m = line_chart("1000BASE-T SNR margin for a coded BER of 1e-10 vs cable length",
                         "cable length (m)", "SNR margin (dB)", margin, std::pair(-15.0, 25.0));
  out.push_back({"phy-margin", m, {}});
  out.push_back({"phy-ber", ber_chart(ber), {}});
}

// The eye at the slicer after equalisation, and at the receiver input, from eye.csv.
void eye_charts(const CsvTable& t, std::vector<StandardChart>& out) {
  const std::string cat = t.rows.empty() ? "" : t.at(0, "category");
  const std::string len = t.rows.empty() ? "" : t.at(0, "length_m");
  for (const char* which : {"equalised", "raw"}) {
    const bool eq = std::string(which) == "equalised";
    QChart* c = new_chart(
        q(eq ? "Eye at the slicer after FFE + DFE, " + cat + ", " + len + " m"
             : "Eye at the receiver input (no equalisation), " + cat + ", " + len + " m"));
    std::map<int, QLineSeries*> traces;
    Range yr;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      if (t.at(i, "category") != cat) continue;
      const int trace = static_cast<int>(t.number(i, "trace"));
      auto& s = traces[trace];
      if (s == nullptr) {
        s = new QLineSeries();
        QPen pen(series_color(0));
        pen.setWidthF(0.8);
        s->setPen(pen);
        s->setName(q("traces"));
      }
      // One symbol period either side of the sampling instant (4 ns): the DFE has removed
      // the decided symbols' tails for this decision only.
      if (t.number(i, "time_ns") >= 8) continue;
      const double v = t.number(i, which);
      s->append(t.number(i, "time_ns"), v);
      yr.add(v);
    }
    auto* ax = value_axis("time (ns); the decision is at 4 ns", 0, 8, false);
    auto* ay = value_axis(eq ? "level (PAM-5 units)" : "received (PAM-5 units at the transmitter)",
                          yr.min_or(-1), yr.max_or(1));
    c->addAxis(ax, Qt::AlignBottom);
    c->addAxis(ay, Qt::AlignLeft);
    bool first = true;
    for (auto& [trace, s] : traces) {
      c->addSeries(s);
      s->attachAxis(ax);
      s->attachAxis(ay);
      if (!first)
        for (auto* mk : c->legend()->markers(s)) mk->setVisible(false);
      first = false;
    }
    out.push_back({eq ? "phy-eye" : "phy-eye-raw", c});
  }
}

// Uncoded and trellis-coded error rates against SNR over AWGN, from awgn.csv.
void awgn_chart(const CsvTable& t, std::vector<StandardChart>& out) {
  QChart* c = new_chart("4D-PAM5 over AWGN: uncoded and trellis-coded error rates");
  Range xr;
  for (std::size_t i = 0; i < t.rows.size(); ++i) xr.add(t.number(i, "snr_db"));
  auto* ax = value_axis("SNR per dimension (dB)", xr.min_or(0), xr.max_or(30), false);
  auto* ay = new QLogValueAxis();
  ay->setTitleText("error rate");
  ay->setRange(1e-7, 1);
  ay->setLabelFormat("%.0e");
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  const std::vector<std::pair<const char*, const char*>> cols = {
      {"uncoded_ser", "uncoded PAM-5 symbol error rate (simulated)"},
      {"uncoded_ser_closed_form", "2(1 - 1/5) Q(1/2 sigma) (closed form)"},
      {"uncoded_4d_error_rate", "uncoded 4D symbol error rate"},
      {"coded_byte_error_rate", "coded octet error rate after Viterbi"}};
  for (std::size_t k = 0; k < cols.size(); ++k) {
    auto* s = line_series(cols[k].second, static_cast<int>(k), k == 1);
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      const double v = t.number(i, cols[k].first);
      if (v > 0) s->append(t.number(i, "snr_db"), std::max(v, 1e-7));
    }
    c->addSeries(s);
    s->attachAxis(ax);
    s->attachAxis(ay);
  }
  place_legend(c, static_cast<int>(cols.size()));
  out.push_back({"phy-awgn", c, {}});
}

void phy_charts(const Results& r, std::vector<StandardChart>& out) {
  if (r.tables.count("cable")) cable_charts(r.tables.at("cable"), out);
  if (r.tables.count("eye")) eye_charts(r.tables.at("eye"), out);
  if (r.tables.count("awgn")) awgn_chart(r.tables.at("awgn"), out);
}

// ---- sweeps -------------------------------------------------------------------------------

// Lines of `component.name` (scaled) vs a numeric axis, one per value of `series_axis`, at the
// points matching `fixed`.
std::vector<Line> lines_by(const Results& r, const std::string& x_axis,
                           const std::string& series_axis,
                           const std::vector<std::pair<std::string, std::string>>& fixed,
                           const std::string& component, const std::string& name, double scale,
                           const std::string& suffix = "", bool analytic = false) {
  std::vector<Line> out;
  const auto series_values =
      series_axis.empty() ? std::vector<std::string>{""} : r.values_of(series_axis);
  for (std::size_t k = 0; k < series_values.size(); ++k) {
    auto where = fixed;
    if (!series_axis.empty()) where.emplace_back(series_axis, series_values[k]);
    Line l{series_values[k] + suffix};
    l.color = static_cast<int>(k);
    l.analytic = analytic;
    for (std::size_t p : r.where(where)) {
      double x = 0;
      if (!is_number(r.points[p][static_cast<std::size_t>(r.axis(x_axis))], x)) continue;
      const auto v = r.value(p, component, name);
      if (!v) continue;
      l.x.push_back(x);
      l.y.push_back(v->mean * scale);
      l.half.push_back(analytic ? 0.0 : v->ci95 * scale);
    }
    if (!l.x.empty()) out.push_back(l);
  }
  return out;
}

void carrier_extension_charts(const Results& r, std::vector<StandardChart>& out) {
  auto sim = lines_by(r, "frame_bytes", "mode", {{"senders", "1"}}, "s0.mac", "tx_efficiency", 1.0,
                      ", simulated");
  auto ana = lines_by(r, "frame_bytes", "mode", {{"senders", "1"}}, "analysis",
                      "single_sender_efficiency", 1.0, ", analytic", true);
  sim.insert(sim.end(), ana.begin(), ana.end());
  out.push_back(
      {"efficiency", line_chart("One sender at 1000 Mb/s: efficiency vs frame size per mode",
                                "frame size (bytes)", "efficiency (DA..FCS bits / line bits)", sim,
                                std::pair(0.0, 1.0))});
  auto goodput = lines_by(r, "frame_bytes", "mode", {{"senders", "8"}}, "network",
                          "delivered_throughput", 1e-6);
  out.push_back(
      {"goodput", line_chart("Eight senders: delivered throughput vs frame size",
                             "frame size (bytes)", "delivered throughput (Mb/s)", goodput)});
  // Time share of the medium, half duplex with extension, 8 senders, per frame size.
  const std::string mode = "half duplex + extension";
  QChart* c = new_chart(q("Where the medium's time goes: " + mode + ", eight senders"));
  auto* bars = new QStackedBarSeries();
  const std::vector<std::pair<const char*, const char*>> shares = {
      {"frame_share", "frame bits"},
      {"preamble_share", "preamble"},
      {"extension_share", "carrier extension"},
      {"collision_share", "collisions"},
      {"idle_share", "idle"}};
  QStringList categories;
  std::vector<QBarSet*> sets;
  for (std::size_t k = 0; k < shares.size(); ++k) {
    sets.push_back(new QBarSet(shares[k].second));
    sets.back()->setColor(series_color(static_cast<int>(k)));
  }
  for (const auto& size : r.values_of("frame_bytes")) {
    const auto pts = r.where({{"mode", mode}, {"senders", "8"}, {"frame_bytes", size}});
    if (pts.empty()) continue;
    categories << q(size);
    for (std::size_t k = 0; k < shares.size(); ++k) {
      const auto v = r.value(pts[0], "domain0", shares[k].first);
      *sets[k] << (v ? v->mean * 100 : 0.0);
    }
  }
  for (auto* s : sets) bars->append(s);
  c->addSeries(bars);
  auto* ax = new QBarCategoryAxis();
  ax->append(categories);
  ax->setTitleText("frame size (bytes)");
  auto* ay = value_axis("share of time (%)", 0, 100);
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  bars->attachAxis(ax);
  bars->attachAxis(ay);
  out.push_back({"time-share", c, {}});
}

void cable_length_charts(const Results& r, std::vector<StandardChart>& out) {
  const std::string x = "links[0].cable_m";
  const std::string s = "links[0].medium";
  out.push_back({"goodput", line_chart("Goodput of a saturated 1518-byte stream vs cable length",
                                       "cable length (m)", "received throughput (Mb/s)",
                                       lines_by(r, x, s, {}, "b.mac", "rx_throughput", 1e-6))});
  out.push_back({"margin", line_chart("1000BASE-T SNR margin vs cable length (link-level model)",
                                      "cable length (m)", "SNR margin (dB)",
                                      lines_by(r, x, s, {}, "analysis.link0", "phy_margin_db", 1.0),
                                      std::pair(-10.0, 15.0))});
}

// Lines of a scalar vs a numeric axis, one per combination of `series_axes` (labelled by
// `label`), at the points matching `fixed`.
std::vector<Line> lines_by_many(
    const Results& r, const std::string& x_axis, const std::vector<std::string>& series_axes,
    const std::vector<std::pair<std::string, std::string>>& fixed, const std::string& component,
    const std::string& name, double scale,
    const std::function<std::string(const std::vector<std::string>&)>& label) {
  std::map<std::string, Line> by;
  std::vector<std::string> order;
  for (std::size_t p : r.where(fixed)) {
    std::vector<std::string> key;
    for (const auto& a : series_axes)
      key.push_back(r.points[p][static_cast<std::size_t>(r.axis(a))]);
    const std::string k = label(key);
    double x = 0;
    if (!is_number(r.points[p][static_cast<std::size_t>(r.axis(x_axis))], x)) continue;
    const auto v = r.value(p, component, name);
    if (!v) continue;
    if (!by.count(k)) {
      order.push_back(k);
      by[k] = Line(k);
      by[k].color = static_cast<int>(order.size() - 1);
    }
    by[k].x.push_back(x);
    by[k].y.push_back(v->mean * scale);
    by[k].half.push_back(v->ci95 * scale);
  }
  std::vector<Line> out;
  for (const auto& k : order) out.push_back(by[k]);
  return out;
}

void contention_charts(const Results& r, std::vector<StandardChart>& out) {
  const std::string size = "stations.*.traffic[0].frame_bytes";
  auto label = [](const std::vector<std::string>& k) {
    return k[0] + " Mb/s, " + k[1] + "-byte frames";
  };
  const std::vector<std::string> series = {"rate_mbps", size};
  // Beside each simulated line, dashed, Metcalfe and Boggs's slotted idealisation for the same
  // stations and frames (analysis.metcalfe_boggs_efficiency; docs/medium.md).
  std::vector<Line> efficiency =
      lines_by_many(r, "stations", series, {}, "domain0", "efficiency", 1.0, label);
  for (Line l : lines_by_many(
           r, "stations", series, {}, "analysis", "metcalfe_boggs_efficiency", 1.0,
           [&](const std::vector<std::string>& k) { return "Metcalfe-Boggs, " + label(k); })) {
    l.analytic = true;
    l.half.assign(l.half.size(), 0.0);
    efficiency.push_back(std::move(l));
  }
  out.push_back({"contention-efficiency",
                 line_chart("Half-duplex contention: efficiency vs number of stations (dashed: "
                            "Metcalfe-Boggs)",
                            "stations contending", "efficiency (DA..FCS bits / line bits)",
                            efficiency, std::pair(0.0, 1.0))});
  out.push_back(
      {"contention-throughput",
       line_chart("Half-duplex contention: throughput vs number of stations", "stations contending",
                  "collision-domain throughput, DA..FCS (Mb/s)",
                  lines_by_many(r, "stations", series, {}, "domain0", "throughput", 1e-6, label))});
  out.push_back({"contention-access-delay",
                 line_chart("Half-duplex contention: mean access delay of station 0",
                            "stations contending", "mean access delay (us)",
                            lines_by_many(r, "stations", series, {}, "s0.mac", "access_delay_mean",
                                          1e-3, label))});
  out.push_back(
      {"contention-fairness",
       line_chart("Half-duplex contention: fairness (Jain's index) vs stations",
                  "stations contending", "fairness index",
                  lines_by_many(r, "stations", series, {}, "domain0", "fairness", 1.0, label),
                  std::pair(0.0, 1.05))});
}

void diameter_charts(const Results& r, std::vector<StandardChart>& out) {
  // length_m: cable_m's old name, in results written before the rename.
  const std::string x = r.axis("topology.cables[*].length_m") >= 0 ? "topology.cables[*].length_m"
                                                                   : "topology.cables[*].cable_m";
  // The built-in study's slice; a sweep without one of these axes is not sliced on it.
  std::vector<std::pair<std::string, std::string>> fixed;
  for (const auto& [axis, value] : std::vector<std::pair<std::string, std::string>>{
           {"speed", "1000 Mb/s"},
           {"traffic", "saturated"},
           {"stations.*.traffic[0].frame_bytes", "64"}})
    if (r.axis(axis) >= 0) fixed.emplace_back(axis, value);
  auto label = [](const std::vector<std::string>& k) { return "slot " + k[0] + " bits"; };
  // Collisions the slot did not cover: late collisions and, past the edge where the collision
  // reaches the sender only after it has stopped (no late collision is seen), frames damaged
  // at their receivers.
  auto late = lines_by_many(r, x, {"slot_time_bits"}, fixed, "domain0",
                            "late_or_unseen_collisions_per_1000_frames", 1.0, label);
  // The analytic edge per slot time: the longest station cable the path delay allows (results
  // from before it: the longest legal path / 2, the same for this symmetric star).
  std::vector<Line> edges;
  double top = 1;
  for (const auto& l : late)
    for (double y : l.y) top = std::max(top, y);
  for (const auto& slot : r.values_of("slot_time_bits")) {
    const auto line = std::find_if(late.begin(), late.end(),
                                   [&](const Line& l) { return l.name == label({slot}); });
    auto where = fixed;
    where.emplace_back("slot_time_bits", slot);
    const auto pts = r.where(where);
    if (line == late.end() || pts.empty()) continue;
    const auto station = r.value(pts[0], "topology.domain0", "max_station_cable_pdv");
    const auto path = r.value(pts[0], "topology.domain0", "max_legal_path_cable");
    if (!station && !path) continue;
    const double edge = station ? station->mean : path->mean / 2;
    Line e(line->name + ": PDV edge");
    e.color = line->color;
    e.analytic = true;
    e.x = {edge, edge};
    e.y = {0, top};
    e.half = {0, 0};
    edges.push_back(e);
  }
  late.insert(late.end(), edges.begin(), edges.end());
  out.push_back({"late-collisions",
                 line_chart("1000 Mb/s, 64-byte frames: late and unseen collisions vs cable "
                            "length per slot time",
                            "cable length from each station to the repeater (m)",
                            "late or unseen collisions per 1000 frames", late)});
  out.push_back({"diameter-efficiency",
                 line_chart("1000 Mb/s, 64-byte frames: efficiency vs cable length per slot time",
                            "cable length from each station to the repeater (m)",
                            "efficiency (DA..FCS bits / line bits)",
                            lines_by_many(r, x, {"slot_time_bits"}, fixed, "domain0", "efficiency",
                                          1.0, label),
                            std::pair(0.0, 1.0))});
}

// Grouped bars per bus x NIC for each direction, each bar labelled with its bottleneck.
void pci_throughput_charts(const Results& r, const std::string& size_axis, const std::string& size,
                           const std::vector<std::string>& buses,
                           const std::vector<std::string>& nics, const std::string& suffix,
                           std::vector<StandardChart>& out) {
  for (const char* direction : {"rx", "tx", "both"}) {
    const std::string d = direction;
    QChart* c = new_chart(q("Throughput ceilings, " + size + "-byte frames, " +
                            (d == "rx"   ? "receive"
                             : d == "tx" ? "transmit"
                                         : "both directions") +
                            " (bars: bus x NIC; label: bottleneck)"));
    auto* bars = new QBarSeries();
    std::vector<std::vector<std::string>> labels(nics.size());
    double hi = 1;
    for (std::size_t n = 0; n < nics.size(); ++n) {
      auto* set = new QBarSet(q(nics[n]));
      set->setColor(series_color(static_cast<int>(n)));
      for (const auto& bus : buses) {
        const auto pts = r.where(
            {{"bus", bus}, {size_axis, size}, {"hosts.h.nic.profile", nics[n]}, {"direction", d}});
        double v = 0;
        std::string label;
        if (!pts.empty()) {
          const auto rx = r.value(pts[0], "h.driver", "delivered_throughput");
          const auto tx = r.value(pts[0], "h.driver", "sent_throughput");
          v = ((d != "tx" && rx) ? rx->mean : 0) + ((d != "rx" && tx) ? tx->mean : 0);
          for (const char* dir : {"rx", "tx"}) {
            if ((d == "rx" && std::string(dir) == "tx") || (d == "tx" && std::string(dir) == "rx"))
              continue;
            for (const char* b : {"wire", "bus", "fifo", "cpu"}) {
              const auto f = r.value(pts[0], "analysis.h", std::string(dir) + "_bottleneck_" + b);
              if (f && f->mean > 0.5)
                label +=
                    (label.empty() ? "" : "/") + (d == "both" ? std::string(dir) + ":" : "") + b;
            }
          }
        }
        *set << v * 1e-6;
        hi = std::max(hi, v * 1e-6);
        labels[n].push_back(label);
      }
      bars->append(set);
    }
    c->addSeries(bars);
    auto* ax = new QBarCategoryAxis();
    for (const auto& b : buses) ax->append(q(b));
    ax->setTitleText("bus");
    auto* ay = value_axis("application throughput, DA..FCS (Mb/s)", 0, hi * 1.15);
    c->addAxis(ax, Qt::AlignBottom);
    c->addAxis(ay, Qt::AlignLeft);
    bars->attachAxis(ax);
    bars->attachAxis(ay);
    place_legend(c, static_cast<int>(nics.size()));
    auto annotate = [labels, bars](QChart* chart) {
      const auto sets = bars->barSets();
      const double width = bars->barWidth();
      for (int n = 0; n < static_cast<int>(sets.size()); ++n)
        for (int i = 0; i < sets[n]->count(); ++i) {
          const std::string& text =
              labels[static_cast<std::size_t>(n)][static_cast<std::size_t>(i)];
          if (text.empty()) continue;
          const double x = i - width / 2 + (n + 0.5) * width / static_cast<double>(sets.size());
          const QPointF at = chart->mapToPosition(QPointF(x, sets[n]->at(i)), bars);
          auto* item = new QGraphicsSimpleTextItem(q(text), chart);
          QFont f = item->font();
          f.setPointSize(8);
          item->setFont(f);
          item->setRotation(-90);
          item->setPos(at.x() - item->boundingRect().height() / 2, at.y() - 4);
        }
    };
    out.push_back({"pci-throughput-" + d + suffix, c, annotate});
  }
}

// PCI ceilings at one frame size: grouped bars per bus x NIC for a direction, each bar labelled
// with the bottleneck the run showed; and the bus clocks per frame by part (analysis/pci_cycles).
void pci_charts(const Results& r, std::vector<StandardChart>& out) {
  const std::string size_axis = "stations.b.traffic[0].frame_bytes";
  // 1518 bytes when swept, else the last size swept.
  const auto sizes = r.values_of(size_axis);
  const bool has_1518 = std::find(sizes.begin(), sizes.end(), "1518") != sizes.end();
  const std::string size = has_1518 ? "1518" : sizes.empty() ? "" : sizes.back();
  const auto all_buses = r.values_of("bus");
  const auto all_nics = r.values_of("hosts.h.nic.profile");
  // Buses that carry the same NICs chart together (a sweep's `exclude` may keep PCI chips off
  // PCI Express links): one set of charts per group, the first unnumbered.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups;
  for (const auto& bus : all_buses) {
    std::vector<std::string> present;
    for (const auto& n : all_nics)
      if (!r.where({{"bus", bus}, {size_axis, size}, {"hosts.h.nic.profile", n}}).empty())
        present.push_back(n);
    if (present.empty()) continue;
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto& x) { return x.second == present; });
    if (g == groups.end())
      groups.push_back({{bus}, present});
    else
      g->first.push_back(bus);
  }
  if (groups.empty()) groups.push_back({all_buses, all_nics});
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const auto& buses = groups[gi].first;
    const auto& nics = groups[gi].second;
    const std::string suffix = gi == 0 ? "" : "-" + std::to_string(gi + 1);
    pci_throughput_charts(r, size_axis, size, buses, nics, suffix, out);
  }
  const auto& buses = groups[0].first;
  const auto& nics = groups[0].second;
  // Bus clocks per frame by part, receive, first NIC, per bus.
  if (!nics.empty()) {
    QChart* c = new_chart(q("Bus clocks per " + size + "-byte received frame, " + nics[0] +
                            " (per-frame PCI cycle accounting)"));
    auto* bars = new QStackedBarSeries();
    const std::vector<std::pair<const char*, const char*>> parts = {
        {"rx_data_clocks_per_frame", "data"},
        {"rx_descriptor_fetch_clocks_per_frame", "descriptor fetch"},
        {"rx_writeback_clocks_per_frame", "write-back"},
        {"rx_register_clocks_per_frame", "register accesses"},
        {"rx_split_wait_clocks_per_frame", "split-read wait"}};
    double hi = 1;
    std::vector<double> totals(buses.size(), 0.0);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      auto* set = new QBarSet(parts[k].second);
      set->setColor(series_color(static_cast<int>(k)));
      for (std::size_t b = 0; b < buses.size(); ++b) {
        const auto pts = r.where({{"bus", buses[b]},
                                  {size_axis, size},
                                  {"hosts.h.nic.profile", nics[0]},
                                  {"direction", "rx"}});
        const auto v = pts.empty() ? std::nullopt : r.value(pts[0], "analysis.h", parts[k].first);
        *set << (v ? v->mean : 0.0);
        totals[b] += v ? v->mean : 0.0;
        hi = std::max(hi, totals[b]);
      }
      bars->append(set);
    }
    c->addSeries(bars);
    auto* ax = new QBarCategoryAxis();
    for (const auto& b : buses) ax->append(q(b));
    ax->setTitleText("bus");
    auto* ay = value_axis("bus clocks per frame", 0, hi * 1.1);
    c->addAxis(ax, Qt::AlignBottom);
    c->addAxis(ay, Qt::AlignLeft);
    bars->attachAxis(ax);
    bars->attachAxis(ay);
    place_legend(c, static_cast<int>(parts.size()));
    out.push_back({"pci-cycles", c, {}});
  }
}

// The 2003 review's figures: application throughput, CPU and the P/E index (Mb/s per CPU %)
// vs request size per NIC, for receive and send.
void nic_review_charts(const Results& r, std::vector<StandardChart>& out) {
  const std::string x = "hosts.pc.app.request_bytes";
  for (const char* direction : {"receive", "send"}) {
    const std::string d = direction;
    const std::vector<std::pair<std::string, std::string>> fixed = {{"hosts.pc.app.direction", d}};
    const std::string what = d == "receive" ? "receive_throughput" : "send_throughput";
    auto label = [](const std::vector<std::string>& k) { return k[0]; };
    auto tput = lines_by_many(r, x, {"nic"}, fixed, "pc.stack", what, 1e-6, label);
    auto cpu = lines_by_many(r, x, {"nic"}, fixed, "pc.driver", "cpu_utilisation", 100.0, label);
    std::vector<Line> pe;
    for (std::size_t i = 0; i < tput.size() && i < cpu.size(); ++i) {
      Line l(tput[i].name);
      l.color = tput[i].color;
      for (std::size_t k = 0; k < tput[i].x.size() && k < cpu[i].x.size(); ++k) {
        if (!(cpu[i].y[k] > 0)) continue;
        l.x.push_back(tput[i].x[k]);
        l.y.push_back(tput[i].y[k] / cpu[i].y[k]);
        l.half.push_back(0);
      }
      pe.push_back(l);
    }
    const std::string verb = d == "receive" ? "receiving" : "sending";
    out.push_back(
        {"nic-review-throughput-" + d,
         line_chart("Application throughput " + verb + " vs request size", "request size (bytes)",
                    "application throughput (Mb/s)", tput, std::nullopt, true)});
    out.push_back({"nic-review-cpu-" + d,
                   line_chart("CPU load " + verb + " vs request size", "request size (bytes)",
                              "CPU (%)", cpu, std::pair(0.0, 100.0), true)});
    out.push_back(
        {"nic-review-pe-" + d,
         line_chart("P/E index " + verb + ": Mb/s per CPU % vs request size",
                    "request size (bytes)", "P/E index (Mb/s per CPU %)", pe, std::nullopt, true)});
  }
}

// An axis's title with its unit, from the last part of its path.
std::string axis_title(const std::string& axis) {
  const std::string last = axis_short_name(axis);
  static const std::map<std::string, std::string> known = {
      {"frame_bytes", "frame size (bytes)"},
      {"stations", "stations"},
      {"senders", "senders"},
      {"cable_m", "cable length (m)"},
      {"length_m", "cable length (m)"},
      {"load_bps", "offered load (bit/s)"},
      {"rate_mbps", "line rate (Mb/s)"},
      {"slot_time_bits", "slot time (bit times)"},
      {"duration_ns", "duration (ns)"},
      {"request_bytes", "request size (bytes)"},
      {"burst_limit_bits", "burst limit (bits)"},
      {"ifg_bits", "inter-frame gap (bits)"},
      {"clock_mhz", "bus clock (MHz)"},
      {"width_bits", "bus width (bits)"},
      {"prefetch_bytes", "prefetch (bytes)"},
      {"read_latency_clocks", "read latency (clocks)"}};
  const auto it = known.find(last);
  return it != known.end() ? it->second : axis;
}

bool numeric_axis(const Results& r, const std::string& a) {
  const auto values = r.values_of(a);
  if (values.size() < 2) return false;
  double d = 0;
  return std::all_of(values.begin(), values.end(),
                     [&](const std::string& v) { return is_number(v, d); });
}

// A point's values on the axes other than `xi` that vary: "stations=4, mode=x" (short names).
std::string others_label(const Results& r, std::size_t p, int xi) {
  std::string group;
  for (std::size_t a = 0; a < r.axes.size(); ++a)
    if (static_cast<int>(a) != xi && r.values_of(r.axes[a]).size() > 1)
      group += (group.empty() ? "" : ", ") + axis_short_name(r.axes[a]) + "=" + r.points[p][a];
  return group;
}

// A scalar vs one numeric axis, one line per combination of the other axes (at most 12, each
// named by short axis names: "stations=4, mode=x").
std::vector<Line> lines_against(const Results& r, const std::string& x_axis,
                                const std::string& component, const std::string& name,
                                double scale) {
  std::map<std::string, Line> by_group;
  std::vector<std::string> order;
  const int xi = r.axis(x_axis);
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    const std::string group = others_label(r, p, xi);
    const auto v = r.value(p, component, name);
    double x = 0;
    if (!v || !is_number(r.points[p][static_cast<std::size_t>(xi)], x)) continue;
    if (!by_group.count(group)) {
      if (order.size() >= 12) continue;
      order.push_back(group);
      by_group[group].name = group.empty() ? "simulated" : group;
      by_group[group].color = static_cast<int>(order.size() - 1);
    }
    auto& l = by_group[group];
    l.x.push_back(x);
    l.y.push_back(v->mean * scale);
    l.half.push_back(v->ci95 * scale);
  }
  std::vector<Line> lines;
  for (const auto& g : order) lines.push_back(by_group[g]);
  return lines;
}

// A scalar per value of a categorical axis (a mode, a NIC, a bus: no order, no slope), as bars:
// a bar set per combination of the other axes (at most 8); null when no point has the scalar.
QChart* category_bars(const Results& r, const std::string& x_axis, const std::string& component,
                      const std::string& name, double scale, const std::string& y_title,
                      std::optional<std::pair<double, double>> range = std::nullopt) {
  const int xi = r.axis(x_axis);
  const auto categories = r.values_of(x_axis);
  std::vector<std::string> groups;
  std::map<std::string, std::vector<double>> values;
  double hi = 0;
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    const std::string group = others_label(r, p, xi);
    const auto v = r.value(p, component, name);
    if (!v) continue;
    if (!values.count(group)) {
      if (groups.size() >= 8) continue;
      groups.push_back(group);
      values[group].assign(categories.size(), 0.0);
    }
    const auto at =
        std::find(categories.begin(), categories.end(), r.points[p][static_cast<std::size_t>(xi)]);
    values[group][static_cast<std::size_t>(at - categories.begin())] = v->mean * scale;
    hi = std::max(hi, v->mean * scale);
  }
  if (groups.empty()) return nullptr;
  QChart* c = new_chart(
      q(r.name + ": " + y_title.substr(0, y_title.find(" (")) + " by " + axis_title(x_axis)));
  auto* bars = new QBarSeries();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    auto* set = new QBarSet(q(groups[g].empty() ? "simulated" : groups[g]));
    set->setColor(series_color(static_cast<int>(g)));
    for (double v : values[groups[g]]) *set << v;
    bars->append(set);
  }
  c->addSeries(bars);
  auto* ax = new QBarCategoryAxis();
  for (const auto& v : categories) ax->append(q(v));
  ax->setTitleText(q(axis_title(x_axis)));
  auto* ay = range ? value_axis(q(y_title), range->first, range->second)
                   : value_axis(q(y_title), 0, std::max(hi * 1.15, 1e-9));
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  bars->attachAxis(ax);
  bars->attachAxis(ay);
  place_legend(c, static_cast<int>(groups.size()));
  if (groups.size() == 1 && groups.front().empty()) c->legend()->hide();
  return c;
}

// An axis drawn as a line: numbers, at least three of them. Two values (a slot time of 512 or
// 4096 bits, a 32- or 64-bit bus) and names are categories: bars, with no slope between them.
bool ordered_axis(const Results& r, const std::string& a) {
  return numeric_axis(r, a) && r.values_of(a).size() >= 3;
}

// Any sweep, by what it contains: each swept axis (up to four) against each headline statistic
// -- delivered throughput, and the collision domain's efficiency when the points have one --
// as lines against an ordered axis, one per combination of the others, or as bars per category.
void generic_sweep_charts(const Results& r, std::vector<StandardChart>& out) {
  const std::string throughput = "delivered throughput, DA..FCS (Mb/s)";
  const std::string efficiency = "efficiency (DA..FCS bits / line bits)";
  int shown = 0;
  for (const auto& a : r.axes) {
    const auto n = r.values_of(a).size();
    if (n < 2 || shown >= 4 || (!ordered_axis(r, a) && n > 16)) continue;
    const std::string suffix = shown++ == 0 ? "" : "-by-" + axis_short_name(a);
    if (!ordered_axis(r, a)) {
      if (QChart* c = category_bars(r, a, "network", "delivered_throughput", 1e-6, throughput))
        out.push_back({"throughput" + suffix, c});
      if (QChart* c =
              category_bars(r, a, "domain0", "efficiency", 1.0, efficiency, std::pair(0.0, 1.0)))
        out.push_back({"efficiency" + suffix, c});
      continue;
    }
    const auto lines = lines_against(r, a, "network", "delivered_throughput", 1e-6);
    if (!lines.empty())
      out.push_back(
          {"throughput" + suffix, line_chart(r.name + ": delivered throughput vs " + axis_title(a),
                                             axis_title(a), throughput, lines)});
    const auto eff = lines_against(r, a, "domain0", "efficiency", 1.0);
    if (!eff.empty())
      out.push_back({"efficiency" + suffix,
                     line_chart(r.name + ": collision-domain efficiency vs " + axis_title(a),
                                axis_title(a), efficiency, eff, std::pair(0.0, 1.0))});
  }
}

void run_chart(const Results& r, std::vector<StandardChart>& out) {
  // Stations: the run's configured stations with a MAC's throughput.
  QChart* c = new_chart(q(r.name + ": throughput per station"));
  auto* tx = new QBarSet("transmitted");
  auto* rx = new QBarSet("received");
  tx->setColor(series_color(0));
  rx->setColor(series_color(1));
  QStringList names;
  const auto& config = r.provenance.contains("config") ? r.provenance["config"] : nlohmann::json();
  if (config.contains("stations"))
    for (const auto& item : config["stations"].items()) {
      const auto t = r.value(0, item.key() + ".mac", "tx_throughput");
      const auto x = r.value(0, item.key() + ".mac", "rx_throughput");
      if (!t || !x) continue;
      names << q(item.key());
      *tx << t->mean * 1e-6;
      *rx << x->mean * 1e-6;
    }
  auto* bars = new QBarSeries();
  bars->append(tx);
  bars->append(rx);
  c->addSeries(bars);
  auto* ax = new QBarCategoryAxis();
  ax->append(names);
  ax->setTitleText("station");
  double hi = 1;
  for (int i = 0; i < tx->count(); ++i) hi = std::max({hi, tx->at(i), rx->at(i)});
  auto* ay = value_axis("throughput, DA..FCS (Mb/s)", 0, hi * 1.1);
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  bars->attachAxis(ax);
  bars->attachAxis(ay);
  out.push_back({"throughput", c, {}});
}

// A run's time series (series.csv): what the applications received per interval, one line per
// connection (iperf -i), or per station's MAC when no application ran; at most the 12 busiest.
void series_chart(const Results& r, std::vector<StandardChart>& out) {
  const auto it = r.tables.find("series");
  if (it == r.tables.end() || it->second.rows.empty()) return;
  const CsvTable& t = it->second;
  auto pick = [&](const std::string& suffix, const std::string& name) {
    std::map<std::string, std::vector<std::pair<double, double>>> lines;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      const std::string component = t.at(i, "component");
      if (t.at(i, "name") != name || component.size() < suffix.size() ||
          component.compare(component.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      lines[component].emplace_back(t.number(i, "time_s"), t.number(i, "value") * 1e-6);
    }
    return lines;
  };
  auto lines = pick("", "receive_throughput");
  for (auto l = lines.begin(); l != lines.end();)
    l = l->first.find(".stack") == std::string::npos ? lines.erase(l) : std::next(l);
  std::string what = "application bytes received";
  if (lines.empty()) {
    lines = pick(".mac", "rx_throughput");
    what = "DA..FCS bits received";
  }
  if (lines.empty()) return;
  // At most 12 lines, spread over the range of their means (so the slowest and the fastest are
  // both shown), in name order.
  std::vector<std::pair<double, std::string>> by_mean;
  for (const auto& [name, points] : lines) {
    double sum = 0;
    for (const auto& p : points) sum += p.second;
    by_mean.emplace_back(sum / static_cast<double>(points.size()), name);
  }
  std::sort(by_mean.begin(), by_mean.end());
  std::vector<std::string> shown;
  const std::size_t n = by_mean.size(), keep = std::min<std::size_t>(n, 12);
  for (std::size_t i = 0; i < keep; ++i) {
    const std::size_t k = keep == 1 ? 0 : (i * (n - 1) + (keep - 1) / 2) / (keep - 1);
    if (shown.empty() || shown.back() != by_mean[k].second) shown.push_back(by_mean[k].second);
  }
  std::sort(shown.begin(), shown.end());
  // "host_b1.stack_a1" -> "b1 from a1"; "h.stack" -> "h".
  auto label = [](std::string name) {
    if (name.rfind("host_", 0) == 0) name.erase(0, 5);
    if (const auto at = name.find(".stack_"); at != std::string::npos)
      name.replace(at, 7, " from ");
    else if (const auto dot = name.find(".stack"); dot != std::string::npos)
      name.erase(dot);
    else if (const auto mac = name.find(".mac"); mac != std::string::npos)
      name.erase(mac);
    return name;
  };
  QChart* c = new_chart(q(r.name + ": " + what + " per interval (series.csv)"));
  double x_hi = 0, y_hi = 1;
  auto* ax = value_axis("time (s)", 0, 1);
  auto* ay = value_axis("Mb/s", 0, 1);
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    auto* s = line_series(q(label(shown[k])), static_cast<int>(k));
    for (const auto& [x, y] : lines[shown[k]]) {
      s->append(x, y);
      x_hi = std::max(x_hi, x);
      y_hi = std::max(y_hi, y);
    }
    c->addSeries(s);
    s->attachAxis(ax);
    s->attachAxis(ay);
  }
  ax->setRange(0, x_hi);
  ay->setRange(0, y_hi * 1.1);
  place_legend(c, static_cast<int>(shown.size()));
  out.push_back({"series", c, {}});
}

// One bar of the bus timeline: [x0, x1) in clocks, centred on lane y.
QAreaSeries* timeline_bar(QChart* chart, const QString& name, const QColor& color, double x0,
                          double x1, double y, QAbstractAxis* ax, QAbstractAxis* ay) {
  constexpr double kHalf = 0.3;
  auto* upper = new QLineSeries();
  auto* lower = new QLineSeries();
  upper->append(x0, y + kHalf);
  upper->append(x1, y + kHalf);
  lower->append(x0, y - kHalf);
  lower->append(x1, y - kHalf);
  auto* bar = new QAreaSeries(upper, lower);
  bar->setName(name);
  bar->setColor(color);
  bar->setBorderColor(color);
  chart->addSeries(bar);
  bar->attachAxis(ax);
  bar->attachAxis(ay);
  return bar;
}

// The lanes of a bus window, top down: its masters in the order they first hold the bus, then
// each NIC's interrupt line.
std::vector<std::string> timeline_lanes(const BusWindow& w) {
  std::vector<std::string> lanes;
  auto add = [&](const std::string& lane) {
    if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) lanes.push_back(lane);
  };
  for (const auto& t : w.transactions) add(t.master);
  for (const auto& i : w.interrupts) add(i.nic + " interrupt");
  return lanes;
}

// A run's events.csv with bus events: a few frames on the PCI bus, one lane per master (each
// transaction's address, wait, data and turnaround clocks) and one per NIC interrupt line; the
// legend says how many clocks each kind of phase took per frame in the window.
void bus_timeline_chart(const Results& r, std::vector<StandardChart>& out) {
  const auto table = r.tables.find("events");
  if (table == r.tables.end()) return;
  const BusTimeline timeline = bus_timeline(event_rows(table->second));
  const BusWindow w = bus_window(timeline, 3);
  if (w.transactions.empty() || timeline.clock_ps <= 0) return;
  const double clock = static_cast<double>(timeline.clock_ps);
  const double span = static_cast<double>(w.to_ps - w.from_ps) / clock;
  auto x = [&](std::int64_t ps) { return static_cast<double>(ps - w.from_ps) / clock; };
  const std::vector<std::string> lanes = timeline_lanes(w);
  auto lane_y = [&](const std::string& lane) {
    return static_cast<double>(
        lanes.size() -
        static_cast<std::size_t>(std::find(lanes.begin(), lanes.end(), lane) - lanes.begin()));
  };
  const std::string frames = w.frames.empty()
                                 ? std::to_string(w.transactions.size()) + " transactions"
                                 : std::to_string(w.frames.size()) + " frames";
  QChart* c = new_chart(q(fmt::format(
      "{}: {} over {} in {:.0f} bus clocks ({:.0f} ns){}", r.name, w.bus, frames, span, clock / 1e3,
      w.frames.empty() ? "" : fmt::format(", {:.0f} per frame", span / w.frames.size()))));
  auto* ax =
      value_axis(q(fmt::format("bus clocks from {:.3f} us", w.from_ps / 1e6)), 0, span, false);
  auto* ay = new QCategoryAxis();
  ay->setRange(0.5, static_cast<double>(lanes.size()) + 0.5);
  ay->setStartValue(0.5);
  ay->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
  for (auto lane = lanes.rbegin(); lane != lanes.rend(); ++lane)  // bottom up
    ay->append(q(*lane), lane_y(*lane) + 0.5);
  c->addAxis(ax, Qt::AlignBottom);
  c->addAxis(ay, Qt::AlignLeft);
  // Each kind of phase in one colour, named in the legend once with its clocks in the window.
  const BusPhase kinds[] = {BusPhase::address, BusPhase::wait, BusPhase::data,
                            BusPhase::turnaround};
  const QColor colours[] = {series_color(0), series_color(1), series_color(2),
                            QColor(150, 150, 150)};
  std::set<std::string> named;
  auto shown_once = [&](QAreaSeries* bar, const std::string& kind) {
    if (!named.insert(kind).second) c->legend()->markers(bar).front()->setVisible(false);
  };
  for (const auto& t : w.transactions)
    for (const auto& seg : t.phases) {
      const auto k = static_cast<std::size_t>(seg.phase);
      const double clocks = static_cast<double>(w.ps_in(kinds[k])) / clock;
      const std::string name = w.frames.empty()
                                   ? fmt::format("{}, {:.0f} clocks", to_string(kinds[k]), clocks)
                                   : fmt::format("{}, {:.1f} clocks/frame", to_string(kinds[k]),
                                                 clocks / static_cast<double>(w.frames.size()));
      shown_once(timeline_bar(c, q(name), colours[k], x(seg.from_ps), x(seg.to_ps),
                              lane_y(t.master), ax, ay),
                 name);
    }
  for (const auto& i : w.interrupts)
    shown_once(timeline_bar(c, "interrupt line raised", series_color(3), x(i.from_ps), x(i.to_ps),
                            lane_y(i.nic + " interrupt"), ax, ay),
               "interrupt");
  // "frame 1", "frame 2", ... over the first transaction carrying each frame's data.
  std::vector<std::pair<QPointF, QString>> labels;
  for (std::size_t f = 0; f < w.frames.size(); ++f)
    for (const auto& t : w.transactions)
      if (t.frame_id == w.frames[f]) {
        labels.push_back(
            {QPointF(x(t.start_ps), lane_y(t.master) + 0.32), q("frame " + std::to_string(f + 1))});
        break;
      }
  QAbstractSeries* any = c->series().front();
  auto annotate = [labels, any](QChart* chart) {
    for (const auto& [at, text] : labels) {
      auto* item = new QGraphicsSimpleTextItem(text, chart);
      const QPointF p = chart->mapToPosition(at, any);
      item->setPos(p.x(), p.y() - item->boundingRect().height());
    }
  };
  out.push_back({"bus-timeline", c, annotate});
}

}  // namespace

std::vector<StandardChart> standard_charts(const Results& r) {
  std::vector<StandardChart> out;
  switch (r.kind) {
    case ResultsKind::phy:
      phy_charts(r, out);
      break;
    case ResultsKind::sweep: {
      // By what the sweep contains (its axes), not by its name: a copy of a built-in study
      // under another name gets the same charts; any other sweep gets the generic ones.
      auto has = [&](std::initializer_list<const char*> axes) {
        return std::all_of(axes.begin(), axes.end(), [&](const char* a) { return r.axis(a) >= 0; });
      };
      if (has({"mode", "frame_bytes", "senders"}))
        carrier_extension_charts(r, out);
      else if (has({"links[0].cable_m", "links[0].medium"}))
        cable_length_charts(r, out);
      else if (has({"stations", "rate_mbps", "stations.*.traffic[0].frame_bytes"}))
        contention_charts(r, out);
      else if (has({"topology.cables[*].cable_m", "slot_time_bits"}) ||
               has({"topology.cables[*].length_m", "slot_time_bits"}))
        diameter_charts(r, out);
      else if (has({"bus", "hosts.h.nic.profile", "direction"}))
        pci_charts(r, out);
      else if (has({"hosts.pc.app.request_bytes", "nic", "hosts.pc.app.direction"}))
        nic_review_charts(r, out);
      else
        generic_sweep_charts(r, out);
      break;
    }
    case ResultsKind::run:
      run_chart(r, out);
      series_chart(r, out);
      bus_timeline_chart(r, out);
      break;
  }
  return out;
}

}  // namespace gbesim::ui
