#pragma once
// The desktop app's parameter form: one editor per scalar a scenario has (or could have, in a
// block it writes), generated from the scenario schema (`gbesim params --json`), in one
// collapsible group per element -- the run, each station, link, host, switch, medium -- with the
// element's fields together under their block ("traffic[0]", "mac", "nic"). A search box keeps
// the rows whose path, name or doc holds every word typed. Every choice is a drop-down of its
// legal values: the schema's words, the built-in profiles and media, the stations and switch
// ports the scenario names; nothing completes what was typed into something else. Editors are
// named "param:<path>"; overrides() gives the changed ones as `--set` values.

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

class QLineEdit;
class QToolButton;
class QVBoxLayout;

namespace gbesim::ui {

struct FormData;  // every row of the form, made into widgets or not yet (parameter_form.cpp)

class ParameterForm : public QWidget {
  Q_OBJECT

 public:
  explicit ParameterForm(QWidget* parent = nullptr);

  // tables: `gbesim params --json`; scenario: the file as written.
  void load(const nlohmann::json& tables, const nlohmann::json& scenario);
  // `path=value` for every editor whose value differs from the file's (or the default).
  QStringList overrides() const;
  // Keeps the rows whose path, name or doc holds every word of `text` (any case); groups with
  // none are hidden, groups with some are opened. Empty: every row, groups as they were.
  void filter(const QString& text);
  // Types `text` into the search box (which filters).
  void set_search(const QString& text);
  // The paths of the rows the filter keeps, in the form's order.
  QStringList shown_paths() const;
  // A scenario of more rows than this (thousands of stations) gets each group's widgets when
  // the group is first opened or found; fewer, all at once.
  static constexpr std::size_t kBuiltAtOnce = 3000;

 private:
  struct Group {
    QToolButton* header = nullptr;
    QWidget* body = nullptr;
    std::size_t first = 0, last = 0;  // its rows in FormData
    bool built = false;
    std::vector<QWidget*> rows;  // headings and rows, once built
  };
  void clear();
  void add_group(const QString& title, std::size_t first, std::size_t last, bool open);
  void build(Group& g);

  QLineEdit* search_;
  QWidget* groups_widget_;
  QVBoxLayout* groups_layout_;
  std::vector<Group> groups_;
  std::shared_ptr<FormData> data_;
};

}  // namespace gbesim::ui
