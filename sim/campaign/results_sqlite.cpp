#include "sim/campaign/results_sqlite.hpp"

#include "sim/support/atomic_file.hpp"

#include <sqlite3.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "analysis/results.hpp"

namespace gbesim {
namespace {

// One open database; every statement checked, the message naming the file.
class Database {
 public:
  explicit Database(const std::filesystem::path& file) : file_(file) {
    if (sqlite3_open(file.c_str(), &db_) != SQLITE_OK) fail("cannot be created");
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
      const std::string text = message ? message : "?";
      sqlite3_free(message);
      throw std::runtime_error(file_.string() + ": " + text);
    }
  }

  // A prepared INSERT, bound and stepped per row.
  class Insert {
   public:
    Insert(Database& db, const char* sql) : db_(db) {
      if (sqlite3_prepare_v2(db.db_, sql, -1, &stmt_, nullptr) != SQLITE_OK)
        db.fail("cannot prepare");
    }
    ~Insert() { sqlite3_finalize(stmt_); }
    Insert(const Insert&) = delete;
    Insert& operator=(const Insert&) = delete;
    Insert& integer(std::int64_t v) {
      sqlite3_bind_int64(stmt_, ++column_, v);
      return *this;
    }
    Insert& text(const std::string& v) {
      sqlite3_bind_text(stmt_, ++column_, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
      return *this;
    }
    Insert& real(std::optional<double> v) {
      if (v && std::isfinite(*v))
        sqlite3_bind_double(stmt_, ++column_, *v);
      else
        sqlite3_bind_null(stmt_, ++column_);
      return *this;
    }
    Insert& null() {
      sqlite3_bind_null(stmt_, ++column_);
      return *this;
    }
    void row() {
      if (sqlite3_step(stmt_) != SQLITE_DONE) db_.fail("cannot insert");
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
      column_ = 0;
    }

   private:
    Database& db_;
    sqlite3_stmt* stmt_ = nullptr;
    int column_ = 0;
  };

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error(file_.string() + ": " + what + " (" + sqlite3_errmsg(db_) + ")");
  }
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
};

// A table's columns looked up by name once, not per row; an absent column or a short row reads
// as "".
class Columns {
 public:
  Columns(const CsvTable& csv, std::initializer_list<const char*> names) {
    for (const char* name : names) index_.push_back(csv.column(name));
  }
  const std::string& at(const std::vector<std::string>& row, std::size_t which) const {
    static const std::string none;
    const int c = index_[which];
    return c < 0 || static_cast<std::size_t>(c) >= row.size() ? none
                                                              : row[static_cast<std::size_t>(c)];
  }

 private:
  std::vector<int> index_;
};

void create_tables(Database& db) {
  db.exec(
      "CREATE TABLE axes (position INTEGER, name TEXT);"
      "CREATE TABLE points (point INTEGER, axis TEXT, label TEXT, value REAL);"
      "CREATE TABLE parameters (point INTEGER, path TEXT, value REAL, text TEXT);"
      "CREATE TABLE runs (run INTEGER PRIMARY KEY, point INTEGER, replication INTEGER, "
      "seed INTEGER, status TEXT);"
      "CREATE TABLE scalars (run INTEGER, component TEXT, name TEXT, unit TEXT, value REAL);"
      "CREATE TABLE summary (point INTEGER, component TEXT, name TEXT, unit TEXT, n INTEGER, "
      "mean REAL, ci95_half_width REAL);"
      "CREATE TABLE series (run INTEGER, time_s REAL, component TEXT, name TEXT, unit TEXT, "
      "value REAL);");
}

void insert_axes(Database& db, const SweepTables& t) {
  Database::Insert axes(db, "INSERT INTO axes VALUES (?, ?)");
  for (std::size_t a = 0; a < t.axes.size(); ++a)
    axes.integer(static_cast<std::int64_t>(a)).text(t.axes[a]).row();
}

void insert_points(Database& db, const SweepTables& t) {
  Database::Insert points(db, "INSERT INTO points VALUES (?, ?, ?, ?)");
  for (std::size_t p = 0; p < t.point_labels.size(); ++p)
    for (std::size_t a = 0; a < t.axes.size() && a < t.point_labels[p].size(); ++a)
      points.integer(static_cast<std::int64_t>(p))
          .text(t.axes[a])
          .text(t.point_labels[p][a])
          .real(parse_number(t.point_labels[p][a]))
          .row();
}

void insert_parameters(Database& db, const SweepTables& t) {
  Database::Insert parameters(db, "INSERT INTO parameters VALUES (?, ?, ?, ?)");
  for (std::size_t p = 0; p < t.point_sets.size(); ++p)
    for (const auto& [path, v] : t.point_sets[p]) {
      parameters.integer(static_cast<std::int64_t>(p)).text(path);
      if (v.is_number())
        parameters.real(v.get<double>()).null();
      else if (v.is_boolean())
        parameters.real(v.get<bool>() ? 1.0 : 0.0).text(v.get<bool>() ? "true" : "false");
      else if (v.is_string())
        parameters.null().text(v.get<std::string>());
      else
        parameters.null().text(v.dump());
      parameters.row();
    }
}

// A complete run's series.csv, when it wrote one.
void insert_series(Database::Insert& series, const std::filesystem::path& dir, const RunRecord& r) {
  const auto file = dir / "runs" / std::to_string(r.run) / "series.csv";
  if (r.status != "complete" || !std::filesystem::exists(file)) return;
  const auto run = static_cast<std::int64_t>(r.run);
  const CsvTable csv = read_csv_file(file.string());
  const Columns c(csv, {"time_s", "component", "name", "unit", "value"});
  for (const auto& row : csv.rows)
    series.integer(run)
        .real(parse_number(c.at(row, 0)))
        .text(c.at(row, 1))
        .text(c.at(row, 2))
        .text(c.at(row, 3))
        .real(parse_number(c.at(row, 4)))
        .row();
}

// Each run, its scalars and its series, one run after another.
void insert_runs(Database& db, const std::filesystem::path& dir, const SweepTables& t) {
  Database::Insert runs(db, "INSERT INTO runs VALUES (?, ?, ?, ?, ?)");
  Database::Insert scalars(db, "INSERT INTO scalars VALUES (?, ?, ?, ?, ?)");
  Database::Insert series(db, "INSERT INTO series VALUES (?, ?, ?, ?, ?, ?)");
  for (const RunRecord& r : t.runs) {
    const auto run = static_cast<std::int64_t>(r.run);
    runs.integer(run)
        .integer(static_cast<std::int64_t>(r.point))
        .integer(r.replication)
        .integer(r.seed)
        .text(r.status)
        .row();
    for (const RunScalar& s : r.scalars)
      scalars.integer(run)
          .text(s.component)
          .text(s.name)
          .text(s.unit)
          .real(parse_number(s.text))
          .row();
    insert_series(series, dir, r);
  }
}

void insert_summary(Database& db, const SweepTables& t) {
  Database::Insert summary(db, "INSERT INTO summary VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const SummaryRow& row : t.summary)
    summary.integer(static_cast<std::int64_t>(row.point))
        .text(row.component)
        .text(row.name)
        .text(row.unit)
        .integer(static_cast<std::int64_t>(row.summary.n))
        .real(row.summary.mean)
        .real(row.summary.ci95_half_width)
        .row();
}

// SQL quoting: a string literal ('it''s') and an identifier ("a ""b""").
std::string sql_text(const std::string& s, char quote) {
  std::string out(1, quote);
  for (char c : s) {
    out += c;
    if (c == quote) out += quote;
  }
  return out + quote;
}

// The sweep wide: `point_axes`, a row per point with a column per axis (its label, named by the
// axis's path), and `summary_wide`, every summary row with its point's axes beside it -- what a
// spreadsheet or pandas wants without a join per axis.
void create_wide_views(Database& db, const SweepTables& t) {
  std::string columns;
  for (const auto& axis : t.axes)
    columns += ", (SELECT label FROM points q WHERE q.point = p.point AND q.axis = " +
               sql_text(axis, '\'') + ") AS " + sql_text(axis, '"');
  const std::string sql = "CREATE VIEW point_axes AS SELECT p.point" + columns +
                          " FROM (SELECT DISTINCT point FROM summary) p;"
                          "CREATE VIEW summary_wide AS SELECT a.*, s.component, s.name, s.unit, "
                          "s.n, s.mean, s.ci95_half_width FROM summary s JOIN point_axes a "
                          "USING (point);";
  db.exec(sql.c_str());
}

void fill(Database& db, const std::filesystem::path& dir, const SweepTables& t) {
  create_tables(db);
  insert_axes(db, t);
  insert_points(db, t);
  insert_parameters(db, t);
  insert_runs(db, dir, t);
  insert_summary(db, t);
  create_wide_views(db, t);
}

}  // namespace

void write_results_sqlite(const std::filesystem::path& dir, const SweepTables& tables) {
  const auto file = dir / "results.sqlite";
  refuse_unless_replaceable(file);
  // Named and registered as every temporary is: a process stopped at once removes it, and one
  // killed leaves a name the next gbesim here recognises and removes.
  const auto temporary = temporary_name(file);
  std::filesystem::remove(temporary);
  const int slot = register_temporary(temporary.string());
  try {
    {
      Database db(temporary);
      db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;");
      fill(db, dir, tables);
      db.exec("COMMIT;");
    }
    refuse_unless_replaceable(file);
    std::filesystem::rename(temporary, file);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    unregister_temporary(slot);
    throw;
  }
  unregister_temporary(slot);
}

}  // namespace gbesim
