#include "ui/gui/answer_view.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "analysis/answers.hpp"

namespace gbesim::ui {

namespace {

QString escaped(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

// Every distinct warning the runs recorded (run.json "warnings"), in the order met.
std::vector<std::string> warnings_of(const Results& r) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::size_t p = 0; p < std::max<std::size_t>(1, r.points.size()); ++p) {
    const nlohmann::json& record = r.record(p);
    if (!record.is_object() || !record.contains("warnings") || !record["warnings"].is_array())
      continue;
    for (const auto& w : record["warnings"])
      if (w.is_string() && seen.insert(w.get<std::string>()).second)
        out.push_back(w.get<std::string>());
  }
  return out;
}

QString table_html(const std::vector<std::vector<std::string>>& table) {
  QString h = "<table cellspacing=0 cellpadding=3 border=1 style='border-collapse:collapse'><tr>";
  for (const auto& cell : table.front()) h += "<th align=left>" + escaped(cell) + "</th>";
  h += "</tr>";
  for (std::size_t i = 1; i < table.size(); ++i) {
    h += "<tr>";
    for (const auto& cell : table[i]) h += "<td>" + escaped(cell) + "</td>";
    h += "</tr>";
  }
  return h + "</table>";
}

QString answer_section(const Answer& a) {
  QString h = "<h3>" + escaped(a.question) + "</h3>";
  if (!a.table.empty()) h += table_html(a.table);
  h += "<ul>";
  for (const auto& line : a.lines) h += "<li>" + escaped(line) + "</li>";
  h += "</ul><p style='color:#555'>" + escaped(a.method) + "</p>";
  return h;
}

}  // namespace

QString answer_html(const Results& results, const QString& run_output) {
  QString h = "<h2>" + escaped(results.name) + "</h2>";
  for (const auto& w : warnings_of(results))
    h += "<p style='background:#fff3cd;padding:4px'><b>Warning:</b> " + escaped(w) + "</p>";
  const std::vector<Answer> found = answers(results);
  for (const Answer& a : found) h += answer_section(a);
  if (!found.empty()) return h;
  if (results.kind == ResultsKind::sweep) {
    const std::string why = no_answer_reason(results);
    h += "<p>No stated answer" + (why.empty() ? QString(".") : ": " + escaped(why)) + "</p>";
  } else if (!run_output.trimmed().isEmpty()) {
    h += "<pre>" + run_output.toHtmlEscaped() + "</pre>";
  } else {
    h += "<p>A run: its figures are in the charts and in scalars.csv.</p>";
  }
  return h;
}

}  // namespace gbesim::ui
