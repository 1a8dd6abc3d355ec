#include "ui/gui/parameter_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace gbesim::ui {

namespace {

QString text_of(const nlohmann::json& v) {
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return QString::number(v.get<long long>());
  if (v.is_number()) return QString::number(v.get<double>(), 'g', 12);
  return QString::fromStdString(v.dump());
}

QString str(const std::string& s) {
  return QString::fromStdString(s);
}

// Where a schema path (stations.*.mac.ifg_bits, links[*].cable_m) occurs in the scenario as
// written: wildcards expand over the elements there are, and a key is shown when the object
// holding it is written (the scenario-wide "mac" and "sink" blocks always are). `value` is null
// when the key is not written (its default applies).
struct Place {
  std::string path;
  std::string parent;
  const nlohmann::json* value;
};

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : path) {
    if (c == '.') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c == '[') {
      if (!cur.empty()) out.push_back(cur);
      cur = "[";
    } else if (c == ']') {
      out.push_back(cur + "]");
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

void places(const nlohmann::json& node, const std::vector<std::string>& segs, std::size_t i,
            const std::string& prefix, std::vector<Place>& out) {
  static const nlohmann::json empty = nlohmann::json::object();
  const std::string& seg = segs[i];
  auto join = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
  if (i + 1 == segs.size()) {
    if (!node.is_object() || seg == "*" || seg == "[*]") return;
    out.push_back({join(seg), prefix, node.contains(seg) ? &node[seg] : nullptr});
    return;
  }
  if (seg == "*") {
    if (node.is_object())
      for (const auto& item : node.items())
        places(item.value(), segs, i + 1, join(item.key()), out);
  } else if (seg == "[*]") {
    if (node.is_array())
      for (std::size_t k = 0; k < node.size(); ++k)
        places(node[k], segs, i + 1, prefix + "[" + std::to_string(k) + "]", out);
  } else if (node.is_object() && node.contains(seg)) {
    places(node[seg], segs, i + 1, join(seg), out);
  } else if (i == 0 && (seg == "mac" || seg == "sink")) {
    places(empty, segs, i + 1, join(seg), out);
  }
}

// The element a path belongs to, which names its group: "run" for the scenario's own keys,
// "stations.a", "links[0]", "hosts.h", the scenario-wide "mac".
std::string element_of(const std::string& path) {
  const auto segs = segments(path);
  if (segs.size() < 2) return "run";
  if (segs[1].front() == '[') return segs[0] + segs[1];
  static const std::set<std::string> maps = {"stations", "hosts", "switches", "media"};
  if (maps.count(segs[0]) && segs.size() > 2) return segs[0] + "." + segs[1];
  return segs[0];
}

// The names a reference may take in this scenario.
struct Names {
  QStringList stations;
  QStringList endpoints;  // stations and switch ports ("s1:3") for a link's ends
  QStringList media;      // built in, then the scenario's own
};

Names names_of(const nlohmann::json& tables, const nlohmann::json& scenario) {
  Names n;
  if (scenario.contains("stations") && scenario["stations"].is_object())
    for (const auto& s : scenario["stations"].items()) n.stations << str(s.key());
  n.endpoints = n.stations;
  // The switch ports the links use, and the next one of each switch.
  std::map<std::string, int> last_port;
  if (scenario.contains("switches") && scenario["switches"].is_object())
    for (const auto& s : scenario["switches"].items()) last_port[s.key()] = 0;
  if (scenario.contains("links") && scenario["links"].is_array())
    for (const auto& link : scenario["links"])
      for (const auto& end : link.value("between", nlohmann::json::array()))
        if (end.is_string()) {
          const std::string e = end.get<std::string>();
          const auto colon = e.find(':');
          if (colon != std::string::npos && last_port.count(e.substr(0, colon)))
            last_port[e.substr(0, colon)] =
                std::max(last_port[e.substr(0, colon)], std::atoi(e.c_str() + colon + 1));
        }
  for (const auto& [name, last] : last_port)
    for (int port = 1; port <= last + 1; ++port)
      n.endpoints << str(name) + ":" + QString::number(port);
  if (tables.contains("names"))
    for (const auto& m : tables["names"].value("medium", nlohmann::json::array()))
      n.media << str(m.get<std::string>());
  if (scenario.contains("media") && scenario["media"].is_object())
    for (const auto& m : scenario["media"].items()) n.media << str(m.key());
  return n;
}

// A parameter's legal values where they are a list: the schema's words, the built-in profiles
// (`open`: a profile file of one's own may be typed too), or names in the scenario.
struct Legal {
  QStringList values;
  bool open = false;
};

std::optional<Legal> legal_values(const nlohmann::json& p, const Names& names) {
  const std::string type = p.value("type", "");
  const QString range = str(p.value("range", ""));
  Legal legal;
  if (type == "choice") {
    if (p.contains("choices"))
      for (const auto& c : p["choices"]) legal.values << str(c.get<std::string>());
    else
      legal.values = range.split(range.contains(" | ") ? " | " : ", ");
    return legal;
  }
  if (type != "reference") return std::nullopt;
  if (range.contains(" | ")) {
    for (const auto& c : range.split(" | "))
      if (c.startsWith("<"))
        legal.open = true;
      else
        legal.values << c;
    return legal;
  }
  if (range == "station") legal.values = names.stations;
  if (range == "destination") legal.values = names.stations + QStringList{"broadcast"};
  if (range == "medium") legal.values = names.media;
  if (legal.values.isEmpty()) return std::nullopt;
  return legal;
}

QComboBox* drop_down(const QStringList& values, bool open, const QString& current) {
  auto* box = new QComboBox;
  box->addItems(values);
  // As wide as the room allows, not as the longest profile name asks.
  box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  box->setMinimumContentsLength(6);
  if (open) {
    box->setEditable(true);
    box->setCompleter(nullptr);  // what is typed stays as typed
  }
  // Nothing written and no default: none chosen, which the model reads as its own default.
  if (current.isEmpty()) {
    box->setPlaceholderText("(default)");
    if (open) box->lineEdit()->setPlaceholderText("(default)");
    box->setCurrentIndex(-1);
    return box;
  }
  if (box->findText(current) < 0) box->insertItem(0, current);
  box->setCurrentIndex(box->findText(current));
  return box;
}

// A link's two ends: two drop-downs of the stations and switch ports.
QWidget* pair_editor(const nlohmann::json& value, const QStringList& endpoints) {
  auto* pair = new QWidget;
  auto* row = new QHBoxLayout(pair);
  row->setContentsMargins(0, 0, 0, 0);
  for (std::size_t k = 0; k < 2; ++k) {
    const QString end = value.is_array() && value.size() == 2 ? text_of(value[k]) : QString();
    row->addWidget(drop_down(endpoints, false, end));
  }
  pair->setProperty("pair", true);
  return pair;
}

QWidget* editor_for(const nlohmann::json& p, const nlohmann::json& value, const Names& names,
                    const std::string& path) {
  const std::string type = p.value("type", "");
  const QString original = value.is_null() ? QString() : text_of(value);
  if (type == "boolean") {
    auto* box = new QCheckBox;
    box->setChecked(value.is_boolean() && value.get<bool>());
    return box;
  }
  if (type == "reference" && path.size() > 8 && path.substr(path.size() - 8) == ".between")
    return pair_editor(value, names.endpoints);
  if (const auto legal = legal_values(p, names))
    return drop_down(legal->values, legal->open, original);
  auto* line = new QLineEdit(original);
  line->setCursorPosition(0);  // a long text shows its beginning
  if ((type == "integer" || type == "number") && p.contains("min")) {
    auto* v = new QDoubleValidator(p["min"].get<double>(), p["max"].get<double>(),
                                   type == "integer" ? 0 : 12, line);
    v->setNotation(QDoubleValidator::StandardNotation);
    line->setValidator(v);
  }
  return line;
}

QString current_text(const QWidget* w) {
  if (auto* b = qobject_cast<const QCheckBox*>(w)) return b->isChecked() ? "true" : "false";
  if (auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
  if (auto* l = qobject_cast<const QLineEdit*>(w)) return l->text();
  if (w->property("pair").toBool()) {
    nlohmann::json ends = nlohmann::json::array();
    for (auto* c : w->findChildren<QComboBox*>()) ends.push_back(c->currentText().toStdString());
    return str(ends.dump());
  }
  return {};
}

// One row of the form, in its element's group.
struct Row {
  std::string group;
  std::string block;  // the path of the object holding it
  Place place;
  const nlohmann::json* param;
};

// Every row, grouped by element in the order the elements first appear, and within an element
// by block in the order the blocks first appear (the schema lists a key for every station
// before the next key).
std::vector<Row> rows_of(const nlohmann::json& tables, const nlohmann::json& scenario) {
  std::vector<Row> rows;
  std::map<std::string, std::size_t> first;
  if (!tables.contains("paths")) return rows;
  for (const auto& p : tables["paths"]) {  // rows point into `tables`
    const std::string type = p.value("type", "");
    if (type == "object" || type == "map" || type == "list" || type == "structured") continue;
    std::vector<Place> found;
    places(scenario, segments(p.value("path", "")), 0, "", found);
    for (auto& place : found) {
      Row row{element_of(place.path), place.parent, place, &p};
      first.emplace(row.group, first.size());
      first.emplace(row.group + "\n" + row.block, first.size());
      rows.push_back(std::move(row));
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    const auto ga = first[a.group], gb = first[b.group];
    if (ga != gb) return ga < gb;
    return first[a.group + "\n" + a.block] < first[b.group + "\n" + b.block];
  });
  return rows;
}

QString tooltip(const nlohmann::json& p) {
  QString tip = str(p.value("doc", ""));
  if (!p.value("unit", "").empty()) tip += "\nunit: " + str(p["unit"]);
  if (!p.value("range", "").empty()) tip += "\nrange: " + str(p["range"]);
  if (!p.value("rule", "").empty()) tip += "\nrule: " + str(p["rule"]);
  return tip;
}

// What a row is found by: its path, its label (key and unit) and its tooltip, in lower case.
QString label_of(const Row& row) {
  const std::string key = row.place.path.substr(row.block.empty() ? 0 : row.block.size() + 1);
  const QString unit = str(row.param->value("unit", ""));
  return str(key) + (unit.isEmpty() ? "" : " (" + unit + ")");
}

}  // namespace

// The form's rows, pointing into its own copies of the schema and the scenario.
struct FormData {
  nlohmann::json tables;
  nlohmann::json scenario;
  Names names;
  std::vector<Row> rows;
  std::vector<QString> searches;  // per row
};

ParameterForm::ParameterForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  search_ = new QLineEdit;
  search_->setObjectName("filter");
  search_->setPlaceholderText("Find a parameter: path, name or words of its doc");
  search_->setClearButtonEnabled(true);
  layout->addWidget(search_);
  auto* scroll = new QScrollArea;
  groups_widget_ = new QWidget;
  groups_layout_ = new QVBoxLayout(groups_widget_);
  groups_layout_->setSpacing(2);
  groups_layout_->addStretch(1);
  scroll->setWidget(groups_widget_);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(scroll, 1);
  connect(search_, &QLineEdit::textChanged, this, &ParameterForm::filter);
}

void ParameterForm::clear() {
  for (auto& g : groups_) {
    delete g.header;
    delete g.body;
  }
  groups_.clear();
}

// A group: a header button that opens and closes it (making its rows the first time), and its
// rows below.
void ParameterForm::add_group(const QString& title, std::size_t first, std::size_t last,
                              bool open) {
  Group g;
  g.first = first;
  g.last = last;
  g.header = new QToolButton;
  g.header->setText(title);
  g.header->setObjectName("group:" + title);
  g.header->setCheckable(true);
  g.header->setChecked(open);
  g.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  g.header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
  g.header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  g.header->setStyleSheet("QToolButton{font-weight:bold;text-align:left;border:none}");
  g.body = new QWidget;
  auto* body_layout = new QVBoxLayout(g.body);
  body_layout->setContentsMargins(14, 0, 0, 6);
  body_layout->setSpacing(2);
  g.body->setVisible(open);
  const std::size_t index = groups_.size();
  connect(g.header, &QToolButton::toggled, this, [this, index](bool on) {
    Group& group = groups_[index];
    if (on) build(group);
    group.header->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    group.body->setVisible(on);
  });
  const int at = groups_layout_->count() - 1;  // before the stretch
  groups_layout_->insertWidget(at, g.header);
  groups_layout_->insertWidget(at + 1, g.body);
  groups_.push_back(g);
}

// The group's widgets: a heading per block, an editor per row.
void ParameterForm::build(Group& g) {
  if (g.built) return;
  g.built = true;
  std::string block_of = data_->rows[g.first].group;
  for (std::size_t i = g.first; i < g.last; ++i) {
    const Row& row = data_->rows[i];
    if (row.block != block_of && row.block.size() > row.group.size()) {
      block_of = row.block;
      auto* heading = new QLabel("<i>" + str(row.block.substr(row.group.size() + 1)) + "</i>");
      g.body->layout()->addWidget(heading);
      g.rows.push_back(heading);
    }
    const nlohmann::json& p = *row.param;
    const nlohmann::json value =
        row.place.value != nullptr ? *row.place.value : p.value("default", nlohmann::json());
    QWidget* editor = editor_for(p, value, data_->names, row.place.path);
    editor->setObjectName("param:" + str(row.place.path));
    editor->setProperty("original", current_text(editor));
    const QString tip = tooltip(p);
    editor->setToolTip(tip);
    auto* label = new QLabel(label_of(row));
    label->setToolTip(tip);
    label->setMinimumWidth(150);
    auto* line = new QWidget;
    auto* line_layout = new QHBoxLayout(line);
    line_layout->setContentsMargins(0, 0, 0, 0);
    line_layout->addWidget(label);
    line_layout->addWidget(editor, 1);
    line->setProperty("path", str(row.place.path));
    line->setProperty("search", data_->searches[i]);
    g.body->layout()->addWidget(line);
    g.rows.push_back(line);
  }
}

void ParameterForm::load(const nlohmann::json& tables, const nlohmann::json& scenario) {
  clear();
  data_ = std::make_shared<FormData>();
  data_->tables = tables;
  data_->scenario = scenario;
  data_->names = names_of(data_->tables, data_->scenario);
  data_->rows = rows_of(data_->tables, data_->scenario);
  for (const Row& row : data_->rows)
    data_->searches.push_back(
        (str(row.place.path) + " " + label_of(row) + " " + tooltip(*row.param)).toLower());
  const bool at_once = data_->rows.size() <= kBuiltAtOnce;
  for (std::size_t first = 0; first < data_->rows.size();) {
    std::size_t last = first;
    while (last < data_->rows.size() && data_->rows[last].group == data_->rows[first].group) ++last;
    const bool open = data_->rows[first].group == "run";
    add_group(str(data_->rows[first].group), first, last, open);
    if (open || at_once) build(groups_.back());
    first = last;
  }
  filter(search_->text());
}

QStringList ParameterForm::overrides() const {
  QStringList sets;
  for (auto* w : groups_widget_->findChildren<QWidget*>()) {
    if (!w->objectName().startsWith("param:")) continue;
    const QString now = current_text(w);
    if (now != w->property("original").toString()) sets << w->objectName().mid(6) + "=" + now;
  }
  return sets;
}

void ParameterForm::filter(const QString& text) {
  const QStringList words = text.toLower().split(' ', Qt::SkipEmptyParts);
  auto matches = [&](const QString& haystack) {
    return std::all_of(words.begin(), words.end(),
                       [&](const QString& w) { return haystack.contains(w); });
  };
  for (auto& g : groups_) {
    int kept = 0;
    for (std::size_t i = g.first; i < g.last; ++i) kept += matches(data_->searches[i]);
    if (!words.isEmpty() && kept > 0) build(g);
    QWidget* heading = nullptr;  // a block's heading stays while a row of its block does
    bool heading_kept = false;
    auto close_block = [&] {
      if (heading != nullptr) heading->setHidden(!heading_kept);
    };
    for (QWidget* row : g.rows) {
      if (row->property("path").isNull()) {
        close_block();
        heading = row;
        heading_kept = words.isEmpty();
        continue;
      }
      const bool keep = matches(row->property("search").toString());
      row->setHidden(!keep);
      heading_kept = heading_kept || keep;
    }
    close_block();
    g.header->setHidden(kept == 0);
    const bool open = words.isEmpty() ? g.header->isChecked() : kept > 0;
    g.body->setVisible(open);
    g.header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
  }
}

void ParameterForm::set_search(const QString& text) {
  search_->setText(text);
}

QStringList ParameterForm::shown_paths() const {
  QStringList out;
  const bool everything = search_->text().trimmed().isEmpty();
  for (const auto& g : groups_) {
    if (g.header->isHidden()) continue;
    if (!g.built) {  // found by nothing typed: every row of it is there to be opened
      if (everything)
        for (std::size_t i = g.first; i < g.last; ++i) out << str(data_->rows[i].place.path);
      continue;
    }
    for (QWidget* row : g.rows)
      if (!row->isHidden() && !row->property("path").isNull())
        out << row->property("path").toString();
  }
  return out;
}

}  // namespace gbesim::ui
