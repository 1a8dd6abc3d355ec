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

#include <vector>

#include <nlohmann/json.hpp>

class QLineEdit;
class QToolButton;
class QVBoxLayout;

namespace gbesim::ui {

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

 private:
  struct Group {
    QToolButton* header = nullptr;
    QWidget* body = nullptr;
    std::vector<QWidget*> rows;
  };
  void clear();
  Group& group(const QString& title, bool open);

  QLineEdit* search_;
  QWidget* groups_widget_;
  QVBoxLayout* groups_layout_;
  std::vector<Group> groups_;
};

}  // namespace gbesim::ui
