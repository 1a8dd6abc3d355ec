#include "ui/validation_charts.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <QtCharts/QScatterSeries>

#include "analysis/result_files.hpp"
#include "ui/chart_style.hpp"

namespace gbesim::ui {
namespace {

// A name a file may carry: letters and digits, the rest as '-'.
std::string slug(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '%') {
      out += "percent";
      continue;
    }
    const bool plain = std::isalnum(c) != 0;
    if (plain)
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "x" : out;
}

QScatterSeries* markers(const QString& name, int color, QScatterSeries::MarkerShape shape) {
  auto* s = new QScatterSeries();
  s->setName(name);
  s->setMarkerShape(shape);
  s->setMarkerSize(13);
  s->setColor(series_color(color));
  s->setBorderColor(series_color(color).darker(130));
  return s;
}

StandardChart one_chart(const std::string& source, const std::string& unit,
                        const std::vector<const ScoreRow*>& rows) {
  double top = 0;
  for (const ScoreRow* r : rows) top = std::max({top, *r->measured, r->simulated.value_or(0)});
  top = top > 0 ? top * 1.1 : 1;
  QChart* chart =
      new_chart(QString::fromStdString(source + ": simulated against measured (" + unit + ")"));
  auto* calibration =
      markers("calibration rows (may be fitted)", 1, QScatterSeries::MarkerShapeRectangle);
  auto* prediction = markers("prediction rows", 0, QScatterSeries::MarkerShapeCircle);
  for (const ScoreRow* r : rows)
    if (r->simulated)
      (r->role == ValidationRole::calibration ? calibration : prediction)
          ->append(*r->measured, *r->simulated);
  const QString u = QString::fromStdString(unit);
  auto* x = value_axis("measured (" + u + ")", 0, top);
  auto* y = value_axis("simulated (" + u + ")", 0, top);
  top = std::max(x->max(), y->max());  // the rounded range: the lines reach the plot's edges
  auto* agree = line_series("simulated = measured", 7, true);
  agree->append(0, 0);
  agree->append(top, top);
  auto* above = line_series("+20 %", 6, true);
  above->append(0, 0);
  above->append(top / 1.2, top);
  auto* below = line_series("-20 %", 6, true);
  below->append(0, 0);
  below->append(top, 0.8 * top);
  for (QAbstractSeries* s :
       std::initializer_list<QAbstractSeries*>{agree, above, below, calibration, prediction})
    chart->addSeries(s);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  place_legend(chart, 5);
  const std::string stem = std::filesystem::path(source).stem().string();  // 001_... of 001_....txt
  return {"validation-" + slug(stem) + "-" + slug(unit), chart};
}

}  // namespace

bool is_validation_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(dir / "validation.json", ec)) &&
         !std::filesystem::exists(std::filesystem::symlink_status(dir / "run.json", ec)) &&
         !std::filesystem::exists(std::filesystem::symlink_status(dir / "sweep.json", ec));
}

std::vector<ScoreRow> read_validation_directory(const std::filesystem::path& dir) {
  const nlohmann::json record = read_record_file(dir / "validation.json");
  const auto kind = record.find("kind");
  if (kind == record.end() || *kind != "validation")
    throw ResultsError((dir / "validation.json").string() +
                       ": \"kind\": expected \"validation\" (gbesim validate's record)");
  const std::string text = read_recorded_file(dir, "validation.csv", record, "validation.json");
  return read_scorecard(text, (dir / "validation.csv").string());
}

std::vector<StandardChart> validation_charts(const std::vector<ScoreRow>& rows) {
  // Per source and unit, in the order the rows come.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<const ScoreRow*>> groups;
  for (const ScoreRow& r : rows) {
    if (r.kind != "figure" || !r.measured) continue;
    const auto key = std::make_pair(r.source, r.unit);
    if (groups[key].empty()) order.push_back(key);
    groups[key].push_back(&r);
  }
  std::vector<StandardChart> out;
  for (const auto& key : order) out.push_back(one_chart(key.first, key.second, groups[key]));
  return out;
}

}  // namespace gbesim::ui
