#include "ui/charts_cli/report_command.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/core.h>

#include "analysis/answer_rules.hpp"
#include "analysis/answers.hpp"
#include "analysis/comparisons.hpp"
#include "analysis/diameter.hpp"
#include "analysis/host_limit.hpp"
#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "analysis/side_by_side.hpp"
#include "analysis/validation.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "ui/render.hpp"
#include "ui/standard_charts.hpp"
#include "ui/validation_charts.hpp"

namespace gbesim {

namespace {

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "-";
  if (v != 0 && (std::abs(v) >= 1e6 || std::abs(v) < 1e-3)) return fmt::format("{:.4g}", v);
  return fmt::format("{:.4f}", v);
}

std::string point_label(const Results& r, std::size_t p) {
  std::string s;
  for (std::size_t a = 0; a < r.axes.size(); ++a)
    s += (s.empty() ? "" : ", ") + r.axes[a] + " = " + r.points[p][a];
  return s.empty() ? "the run" : s;
}

// A member of a record as text, whatever its type ("?" when absent): records are input, and a
// wrong type must not stop the report.
std::string member_text(const nlohmann::json& record, const std::string& key) {
  if (!record.is_object() || !record.contains(key)) return "?";
  const auto& v = record[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

double member_number(const nlohmann::json& record, const std::string& key) {
  if (!record.is_object() || !record.contains(key) || !record[key].is_number()) return 0;
  return record[key].get<double>();
}

void provenance(const Results& r, std::ostringstream& h) {
  namespace fs = std::filesystem;
  h << "<table class=\"kv\">";
  auto row = [&](const std::string& k, const std::string& v) {
    h << "<tr><th>" << html_escape(k) << "</th><td>" << html_escape(v) << "</td></tr>";
  };
  row("results", r.dir);
  const auto& p = r.provenance;
  if (r.kind == ResultsKind::run) {
    row("version", member_text(p, "version"));
    row("seed", member_text(p, "seed"));
    row("status", member_text(p, "status"));
    row("wall time", number(member_number(p, "wall_seconds")) + " s");
    row("started", member_text(p, "started_at"));
  } else if (r.kind == ResultsKind::sweep) {
    // Every run's record, as many as the points and replications the summary holds (the loader
    // holds them to kMaxSweepRuns).
    const auto replications = static_cast<std::size_t>(p.value("replications", 1));
    const std::size_t runs = r.points.size() * replications;
    const auto first = read_record_or_null(fs::path(r.dir) / "runs" / "0" / "run.json");
    row("version", member_text(first, "version"));
    row("runs", std::to_string(runs) + " (" + std::to_string(r.points.size()) + " points x " +
                    std::to_string(replications) + " replications)");
    row("status", member_text(p, "status"));
    double wall = 0;
    int complete = 0;
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (std::size_t i = 0; i < runs; ++i) {
      const auto run =
          read_record_or_null(fs::path(r.dir) / "runs" / std::to_string(i) / "run.json");
      if (!run.is_object()) continue;
      wall += member_number(run, "wall_seconds");
      complete += member_text(run, "status") == "complete";
      if (run.contains("seed") && run["seed"].is_number_integer()) {
        lo = std::min<std::int64_t>(lo, run["seed"].get<std::int64_t>());
        hi = std::max<std::int64_t>(hi, run["seed"].get<std::int64_t>());
      }
    }
    row("complete", std::to_string(complete));
    row("seeds", lo <= hi ? std::to_string(lo) + " .. " + std::to_string(hi) : "?");
    row("wall time, all runs", number(wall) + " s");
  } else {
    row("seed", member_text(p, "seed"));
    if (p.contains("receiver")) row("receiver", p["receiver"].dump());
  }
  h << "</table>\n";
}

void figure(const Results& r, ui::StandardChart& c, std::ostringstream& h) {
  const QByteArray png = ui::chart_png(c.chart, c.annotate);
  h << "<figure id=\"" << html_escape(r.name + "-" + c.name) << "\"><img alt=\""
    << html_escape(c.name) << "\" src=\"data:image/png;base64," << png.toBase64().toStdString()
    << "\"></figure>\n";
}

// The answers first (analysis/answers): the question, the answer in sentences, how it was found,
// the chart that shows it, and the per-combination lines collapsed. Returns the charts shown.
std::set<std::string> answers_section(const Results& r, std::vector<ui::StandardChart>& charts,
                                      std::ostringstream& h) {
  std::set<std::string> shown;
  const std::vector<Answer> found = answers(r);
  // A sweep no rule answers says why, where an answer would be.
  if (found.empty() && r.kind == ResultsKind::sweep)
    if (const std::string why = no_answer_reason(r); !why.empty())
      h << "<p class=\"method\">No stated answer: " << html_escape(why) << "</p>\n";
  for (const Answer& a : found) {
    h << "<section class=\"answer\" id=\"answer-" << html_escape(r.name + "-" + a.kind) << "\"><h3>"
      << html_escape(a.question) << "</h3>\n";
    if (!a.table.empty()) {  // the answer at a glance: a header row, a row per case
      h << "<table class=\"answer-table\"><tr>";
      for (const auto& cell : a.table.front()) h << "<th>" << html_escape(cell) << "</th>";
      h << "</tr>";
      for (std::size_t i = 1; i < a.table.size(); ++i) {
        h << "<tr>";
        for (const auto& cell : a.table[i]) h << "<td>" << html_escape(cell) << "</td>";
        h << "</tr>";
      }
      h << "</table>\n";
    }
    h << "<ul>";
    for (const auto& line : a.lines) h << "<li>" << html_escape(line) << "</li>";
    h << "</ul>\n<p class=\"method\">" << html_escape(a.method) << "</p>\n";
    for (auto& c : charts)
      if (c.name == a.chart && !shown.count(c.name)) {
        figure(r, c, h);
        shown.insert(c.name);
      }
    if (!a.details.empty()) {
      h << "<details><summary>Per combination (" << a.details.size() << ")</summary><ul>";
      for (const auto& line : a.details) h << "<li>" << html_escape(line) << "</li>";
      h << "</ul></details>\n";
    }
    h << "</section>\n";
  }
  return shown;
}

// A table of more than a dozen rows starts collapsed, its heading the summary.
constexpr std::size_t kOpenRows = 12;

void open_table(const std::string& heading, std::size_t rows, std::ostringstream& h) {
  if (rows > kOpenRows)
    h << "<details><summary>" << html_escape(heading) << " (" << rows << " rows)</summary>\n";
  else
    h << "<h3>" << html_escape(heading) << "</h3>\n";
}

void close_table(std::size_t rows, std::ostringstream& h) {
  h << "</table>\n" << (rows > kOpenRows ? "</details>\n" : "");
}

void comparison_table(const Results& r, std::ostringstream& h) {
  const auto rows = comparisons(r);
  if (rows.empty()) return;
  // What each analytic reference assumes, once each, where the comparison is shown.
  std::vector<std::string> assumptions;
  for (const auto& c : rows) {
    const std::string a = reference_assumptions(c.quantity);
    if (!a.empty() && std::find(assumptions.begin(), assumptions.end(), a) == assumptions.end())
      assumptions.push_back(a);
  }
  h << "<h3>Simulated against analytic</h3>\n";
  for (const auto& a : assumptions) h << "<p class=\"assumes\">" << html_escape(a) << "</p>\n";
  open_table("Simulated against analytic, per point", rows.size(), h);
  h << "<table><tr><th>point</th><th>quantity</th>"
       "<th>simulated</th><th>analytic</th><th>difference</th><th>relative</th><th>unit</th></tr>";
  for (const auto& c : rows) {
    const double rel = c.analytic != 0 ? 100 * c.difference / c.analytic : NAN;
    h << "<tr><td>" << html_escape(point_label(r, c.point)) << "</td><td>"
      << html_escape(c.quantity) << "</td><td>" << number(c.simulated) << "</td><td>"
      << number(c.analytic) << "</td><td>" << number(c.difference)
      << (c.ci95 > 0 ? " &plusmn; " + number(c.ci95) : "") << "</td><td>"
      << (std::isfinite(rel) ? fmt::format("{:+.2f} %", rel) : "-") << "</td><td>"
      << html_escape(c.unit) << "</td></tr>\n";
  }
  close_table(rows.size(), h);
}

// Per point: the applications' goodput (what every connection end received, both directions),
// the frames every station received (DA..FCS), a collision domain's efficiency, and what limited
// each host with a NIC running applications (analysis/host_limit) -- each column where the results
// have it.
void per_point_table(const Results& r, std::ostringstream& h) {
  const std::vector<std::string> components = r.components();
  std::vector<std::string> ends;
  for (const auto& c : components)
    if (c.find(".stack") != std::string::npos) ends.push_back(c);
  std::vector<std::string> macs;  // every station's (a switch port is not a .mac)
  for (const auto& c : components)
    if (c.size() > 4 && c.compare(c.size() - 4, 4, ".mac") == 0) macs.push_back(c);
  bool domain = false, limits = false;
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    domain = domain || r.value(p, "domain0", "efficiency").has_value();
    limits = limits || !answer_rules::application_hosts(r.config(p)).empty();
  }
  open_table("Per point", r.points.size(), h);
  h << "<table><tr><th>point</th>"
    << (ends.empty() ? "" : "<th>applications' goodput, both ways (Mb/s)</th>")
    << "<th>frames received by stations, DA..FCS (Mb/s)</th>"
    << (domain ? "<th>collision-domain efficiency</th>" : "")
    << (limits ? "<th>limited by</th>" : "") << "</tr>";
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    h << "<tr><td>" << html_escape(point_label(r, p)) << "</td>";
    if (!ends.empty()) {
      double goodput = 0;
      for (const auto& c : ends)
        if (const auto v = r.value(p, c, "receive_throughput")) goodput += v->mean;
      h << "<td>" << number(goodput * 1e-6) << "</td>";
    }
    double received = 0;
    for (const auto& c : macs)
      if (const auto v = r.value(p, c, "rx_throughput")) received += v->mean;
    h << "<td>" << number(received * 1e-6) << "</td>";
    if (domain) {
      const auto e = r.value(p, "domain0", "efficiency");
      h << "<td>" << (e ? number(e->mean) : "-") << "</td>";
    }
    if (limits) {
      std::string text;
      for (const auto& host : answer_rules::application_hosts(r.config(p))) {
        const std::string limit = host_limit(
            r.config(p), host, components, [&](const std::string& c, const std::string& n) {
              const auto v = r.value(p, c, n);
              return v ? std::optional<double>(v->mean) : std::nullopt;
            });
        if (!limit.empty()) text += (text.empty() ? "" : "; ") + host + ": " + limit;
      }
      h << "<td>" << html_escape(text.empty() ? "-" : text) << "</td>";
    }
    h << "</tr>\n";
  }
  close_table(r.points.size(), h);
  h << "<p>"
    << (ends.empty() ? ""
                     : "Goodput: the bytes every connection end's application "
                       "received per second, summed over the ends (each "
                       "connection's both directions once). ")
    << "Frames received: the DA..FCS bits every station's MAC received OK per second, summed over "
       "the stations (a switch forwards, it does not receive).</p>\n";
}

void key_table(const Results& r, std::ostringstream& h) {
  if (r.kind == ResultsKind::phy) {
    if (!r.tables.count("reach")) return;
    const auto& t = r.tables.at("reach");
    h << "<h3>Length at zero margin (coded BER 1e-10)</h3>\n<table><tr>";
    for (const auto& c : t.columns) h << "<th>" << html_escape(c) << "</th>";
    h << "</tr>";
    for (const auto& row : t.rows) {
      h << "<tr>";
      for (const auto& v : row) h << "<td>" << html_escape(v) << "</td>";
      h << "</tr>\n";
    }
    h << "</table>\n";
    return;
  }
  per_point_table(r, h);
}

// Each later result beside the first, where their points match (analysis/side_by_side).
void side_by_side_section(const std::vector<Results>& all, std::ostringstream& h) {
  for (std::size_t k = 1; k < all.size(); ++k) {
    const Results& a = all.front();
    const Results& b = all[k];
    const auto rows = side_by_side(a, b);
    if (rows.empty()) continue;
    h << "<h2>" << html_escape(b.name) << " beside " << html_escape(a.name) << "</h2>\n<ul>";
    for (const auto& line : side_by_side_summary(rows, a.name, b.name))
      h << "<li>" << html_escape(line) << "</li>";
    h << "</ul>\n<p>Application throughput is the bytes the host's applications received, or had "
         "acknowledged, per second, over all its connections; CPU is the share of its one CPU the "
         "network work took. Points match by their swept values, axis by axis.</p>\n"
         "<details><summary>Per point</summary><table><tr><th>point</th><th>host</th>"
         "<th>quantity</th><th>"
      << html_escape(a.name) << "</th><th>" << html_escape(b.name) << "</th><th>relative</th></tr>";
    for (const auto& r : rows) {
      const double scale = r.unit == "bit/s" ? 1e-6 : 100;
      const std::string unit = r.unit == "bit/s" ? " Mb/s" : " %";
      h << "<tr><td>" << html_escape(point_label(a, r.point_a)) << "</td><td>"
        << html_escape(r.component) << "</td><td>" << html_escape(r.quantity) << "</td><td>"
        << number(r.a * scale) << unit << "</td><td>" << number(r.b * scale) << unit << "</td><td>"
        << (std::isfinite(r.relative()) ? fmt::format("{:+.1f} %", 100 * r.relative()) : "-")
        << "</td></tr>\n";
    }
    h << "</table></details>\n";
  }
}

void parameters(const Results& r, std::ostringstream& h) {
  nlohmann::json config;
  if (r.kind == ResultsKind::run && r.provenance.contains("config"))
    config = r.provenance["config"];
  if (r.kind == ResultsKind::sweep) {
    const auto first =
        read_record_or_null(std::filesystem::path(r.dir) / "runs" / "0" / "run.json");
    if (first.is_object() && first.contains("config")) config = first["config"];
  }
  if (config.is_null()) return;
  h << "<details><summary>Parameters as run"
    << (r.kind == ResultsKind::sweep ? " (first point)" : "") << "</summary><pre>"
    << html_escape(config.dump(2)) << "</pre></details>\n";
}

// The report's path, checked before anything is drawn: a file in a directory that exists or
// can be made, and nothing but a regular file replaced (a device, a FIFO, a directory or a link
// at that path is refused). ScenarioErrors name the path (exit code 2).
void validation_totals(const std::vector<ScoreRow>& rows, std::ostringstream& h) {
  h << "<h2>Validation against the source documents</h2>\n<table><tr><th>source</th><th>"
       "figures</th><th>within tolerance</th><th>predictions</th><th>within tolerance</th><th>"
       "median |error| of the predictions</th><th>claims</th><th>holding</th></tr>\n";
  for (const ScoreTotals& t : score_totals(rows))
    h << "<tr><td>" << html_escape(t.source) << "</td><td>" << t.figures << "</td><td>"
      << t.figures_within << "</td><td>" << t.predictions << "</td><td>" << t.predictions_within
      << "</td><td>"
      << (t.median_abs_prediction_error_pct
              ? fmt::format("{:.1f} %", *t.median_abs_prediction_error_pct)
              : "-")
      << "</td><td>" << t.claims << "</td><td>" << t.claims_holding << "</td></tr>\n";
  h << "</table>\n";
}

void validation_row(const ScoreRow& r, std::ostringstream& h) {
  const bool claim = r.kind == "claim";
  h << "<tr><td>" << html_escape(r.id) << "</td><td>" << role_name(r.role) << "</td><td>"
    << html_escape(claim ? "claim: " + r.condition + " (" + r.detail + ")" : r.condition)
    << "</td><td>" << (r.measured ? number(*r.measured) + " " + html_escape(r.unit) : "")
    << "</td><td>" << (r.simulated ? number(*r.simulated) : "") << "</td><td>"
    << (r.error_pct ? fmt::format("{:+.1f} %", *r.error_pct) : "") << "</td><td>"
    << (claim ? "" : fmt::format("{:g} %", r.tolerance_pct)) << "</td><td>"
    << (claim ? (r.within ? "holds" : "<b>fails</b>") : (r.within ? "yes" : "<b>no</b>"))
    << "</td></tr>\n";
}

// A `gbesim validate` directory: the totals, then per source document its simulated-against-
// measured charts and every row (figures with their errors, claims with their checks). Returns
// the charts drawn.
int validation_section(const std::vector<ScoreRow>& rows, std::ostringstream& h) {
  validation_totals(rows, h);
  int charts = 0;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t end = i;
    while (end < rows.size() && rows[end].source == rows[i].source) ++end;
    const std::vector<ScoreRow> of_source(rows.begin() + static_cast<std::ptrdiff_t>(i),
                                          rows.begin() + static_cast<std::ptrdiff_t>(end));
    h << "<h3>" << html_escape(rows[i].source) << "</h3>\n";
    for (auto& c : ui::validation_charts(of_source)) {
      h << "<img alt=\"" << html_escape(c.name) << "\" src=\"data:image/png;base64,"
        << ui::chart_png(c.chart, c.annotate).toBase64().toStdString() << "\">\n";
      ++charts;
    }
    h << "<table><tr><th>row</th><th>role</th><th>conditions</th><th>measured</th><th>"
         "simulated</th><th>error</th><th>tolerance</th><th>within</th></tr>\n";
    for (const ScoreRow& r : of_source) validation_row(r, h);
    h << "</table>\n";
    i = end;
  }
  return charts;
}

std::filesystem::path report_path(const ReportOptions& o) {
  const std::filesystem::path out =
      o.out_file.empty() ? std::filesystem::path(o.results_dirs.front()) / "report.html"
                         : std::filesystem::path(o.out_file);
  std::error_code ec;
  if (std::filesystem::is_directory(std::filesystem::symlink_status(out, ec)))
    throw ScenarioError({{out.string(), "",
                          "is a directory; -o takes the report's file name, e.g. " +
                              (out / "report.html").string()}});
  refuse_unless_replaceable(out);
  if (out.has_parent_path()) {
    const auto parent = out.parent_path();
    std::error_code made;
    std::filesystem::create_directories(parent, made);
    if (made || !std::filesystem::is_directory(parent, ec))
      throw ScenarioError(
          {{out.string(), "",
            "cannot be written: " + parent.string() +
                (std::filesystem::exists(parent, ec) ? " is not a directory"
                                                     : " cannot be made: " + made.message())}});
  }
  return out;
}

}  // namespace

int run_report(const ReportOptions& o) {
  const std::filesystem::path out = report_path(o);
  std::vector<Results> all;
  std::vector<std::vector<ScoreRow>> validations;
  for (const auto& dir : o.results_dirs) {
    try {
      if (ui::is_validation_directory(dir))
        validations.push_back(ui::read_validation_directory(dir));
      else
        all.push_back(load_results(dir));
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  const ui::OffscreenApplication app;

  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gbesim report"
       "</title>\n<style>body{font-family:sans-serif;max-width:1240px;margin:2em auto;color:#222}"
       "table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;"
       "padding:3px 8px;text-align:left;font-size:90%}th{background:#f3f3f3}"
       "img{max-width:100%;border:1px solid #eee;margin:0.5em 0}pre{background:#f8f8f8;"
       "padding:1em;overflow:auto}section.answer{background:#f4f8fc;border-left:4px solid #0072b2;"
       "padding:0.2em 1em;margin:1em 0}p.method,p.assumes{color:#555;font-size:90%}"
       "summary{cursor:pointer;font-weight:bold;margin:0.5em 0}</style></head><body>\n<h1>gbesim "
       "report</h1>\n";
  int charts_total = 0;
  side_by_side_section(all, h);
  for (const auto& r : all) {
    h << "<h2>" << html_escape(r.name) << "</h2>\n";
    if (!r.description.empty()) h << "<p>" << html_escape(r.description) << "</p>\n";
    provenance(r, h);
    auto charts = ui::standard_charts(r);
    const auto shown = answers_section(r, charts, h);
    for (auto& c : charts) {
      if (!shown.count(c.name)) figure(r, c, h);
      ++charts_total;  // chart_png's view owns (and deletes) each chart
    }
    comparison_table(r, h);
    key_table(r, h);
    parameters(r, h);
  }
  for (const auto& rows : validations) charts_total += validation_section(rows, h);
  h << "</body></html>\n";
  write_file_atomically(out, h.str());
  if (!o.quiet)
    fmt::print("report: {} ({} results, {} charts)\n", out.string(),
               all.size() + validations.size(), charts_total);
  return 0;
}

}  // namespace gbesim
