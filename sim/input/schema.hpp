#pragma once
// The building blocks the scenario document is declared with (sim/scenario_schema.cpp): objects
// with fields, maps of named elements, lists, model parameter tables, scalars and references to
// other names. One declaration does three things:
//  - read: strict reading into the configuration structs (unknown keys with a did-you-mean,
//    types, ranges, row constraints, required keys; every error of a file, with its JSON path);
//  - write: the resolved document, itself a valid scenario;
//  - describe: every path with its type, unit, range, default and doc, for `gbesim params`, the
//    GUI's form and docs/scenarios.md. Paths use the --set wildcard syntax: stations.*.mac,
//    links[*].cable_m.
// References (a station, a medium) are collected while reading and checked once every name is
// known, with a did-you-mean.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/param_table.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/json_path.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim::schema {

// One documented place in a scenario.
struct Entry {
  std::string path;  // stations.*.mac.ifg_bits, links[*].between, hosts.*.nic.profile
  // object | map | list | integer | number | boolean | string | choice | reference | structured
  std::string type;
  std::string unit;
  std::string range;  // "0 .. 100000", "full | half", "station", a grammar
  std::string rule;   // a constraint in words, or ""
  std::string doc;
  Json default_value;  // null: none
  std::vector<std::string> choices;
  std::optional<double> min, max;
};

struct Reference {
  std::string kind;  // "station", "medium", ...
  std::string name;
  std::string path;
};

// What reading needs besides the value: where errors go, and the references seen.
class Reader {
 public:
  explicit Reader(Diagnostics& diagnostics) : d(diagnostics) {}
  Diagnostics& d;
  std::vector<Reference> references;
  void refer(std::string kind, std::string name, std::string path) {
    references.push_back({std::move(kind), std::move(name), std::move(path)});
  }
};

template <class T>
struct Node {
  std::function<void(const Json&, const std::string& path, T&, Reader&)> read;
  std::function<Json(const T&)> write;
  std::function<void(const std::string& path, std::vector<Entry>&)> describe;
};

// ---------------------------------------------------------------------------------------------
// Values

Json to_json(const ParamValue& v);
std::string key_list(const std::vector<std::string>& keys);
// A value of a table row from JSON, or nullopt with an error at `path`.
std::optional<ParamValue> convert(const Json& v, const ParamInfo& info, const std::string& path,
                                  Diagnostics& d);
Entry entry_of(const ParamInfo& info, const std::string& path);
// A checked integer or number, or nullopt with an error at `path`.
std::optional<std::int64_t> read_integer(const Json& v, const std::string& path, std::int64_t min,
                                         std::int64_t max, const std::string& unit, Diagnostics& d);
std::optional<double> read_number(const Json& v, const std::string& path, double min, double max,
                                  const std::string& unit, Diagnostics& d);

Node<std::int64_t> integer(std::int64_t min, std::int64_t max, std::string unit, std::string doc);
Node<double> number(double min, double max, std::string unit, std::string doc);
Node<std::string> text(std::string doc);
// A name of `kind`, checked once every name is known.
Node<std::string> reference(std::string kind, std::string doc);
// `grammar` describes the form in docs and `gbesim params`.
template <class T>
Node<T> structured(std::string grammar, std::string doc,
                   std::function<void(const Json&, const std::string&, T&, Reader&)> read,
                   std::function<Json(const T&)> write) {
  Node<T> n;
  n.read = std::move(read);
  n.write = std::move(write);
  n.describe = [grammar = std::move(grammar), doc = std::move(doc)](const std::string& path,
                                                                    std::vector<Entry>& out) {
    Entry e;
    e.path = path;
    e.type = "structured";
    e.range = grammar;
    e.doc = doc;
    out.push_back(std::move(e));
  };
  return n;
}

// The rows of a table present in `obj` into `out` (unknown keys are the caller's to report);
// references are recorded, constraints checked.
template <class P>
void read_rows(const Json& obj, const std::string& path, const ParamTable<P>& table, P& out,
               Reader& r) {
  for (const auto& item : obj.items()) {
    const auto* entry = table.find(item.key());
    if (entry == nullptr || entry->info.type == ParamType::structured) continue;
    const std::string at = child_path(path, item.key());
    auto v = convert(item.value(), entry->info, at, r.d);
    if (!v) continue;
    if (const auto* x = std::get_if<std::int64_t>(&*v)) {
      if (auto problem = entry->info.constraint_problem(*x)) {
        r.d.error(at, *problem);
        continue;
      }
    }
    if (!entry->info.refers_to.empty() && std::holds_alternative<std::string>(*v))
      r.refer(entry->info.refers_to, std::get<std::string>(*v), at);
    entry->set(out, *v);
  }
}

template <class P>
Json write_rows(const ParamTable<P>& table, const P& params, Json out = Json::object()) {
  for (const auto& e : table.entries()) {
    if (e.info.type == ParamType::structured) continue;
    out[e.info.key] = to_json(e.get(params));
  }
  return out;
}

template <class P>
void describe_rows(const ParamTable<P>& table, const std::string& path, std::vector<Entry>& out) {
  for (const auto& e : table.entries())
    if (e.info.type != ParamType::structured)
      out.push_back(entry_of(e.info, child_path(path, e.info.key)));
}

// ---------------------------------------------------------------------------------------------
// Objects

// Reports every key of `obj` not in `known`; false if `obj` is not an object.
bool check_keys(const Json& obj, const std::string& path, const std::vector<std::string>& known,
                Diagnostics& d);

template <class T>
class Object {
 public:
  // A key (or, with an empty key, a table's rows at this level) with how it is read, written
  // and described. Parts are read, written and described in declaration order.
  struct Field {
    std::string key;
    std::function<void(const Json&, const std::string&, T&, Reader&)> read;
    std::function<std::optional<Json>(const T&)> write;  // nullopt: not written
    std::function<void(const std::string&, std::vector<Entry>&)> describe;
  };

  explicit Object(std::string doc) : doc_(std::move(doc)) {}

  // Every row of `table` is a key of this object, stored in `member` (or in T itself).
  template <class P>
  Object& rows(const ParamTable<P>& table, P T::*member) {
    return add_rows(
        table, [member](T& v) -> P& { return v.*member; },
        [member](const T& v) -> const P& { return v.*member; });
  }
  Object& rows(const ParamTable<T>& table) {
    return add_rows(
        table, [](T& v) -> T& { return v; }, [](const T& v) -> const T& { return v; });
  }

  // A key whose value `node` reads into `member`.
  template <class F>
  Object& field(std::string key, F T::*member, Node<F> node) {
    Field f;
    f.key = std::move(key);
    f.read = [member, read = node.read](const Json& v, const std::string& path, T& out, Reader& r) {
      read(v, path, out.*member, r);
    };
    f.write = [member, write = node.write](const T& v) -> std::optional<Json> {
      return write(v.*member);
    };
    f.describe = node.describe;
    return add(std::move(f));
  }
  // A key whose value `node` reads into the whole of T (a block grouping some of its members).
  Object& block(std::string key, Node<T> node) {
    Field f;
    f.key = std::move(key);
    f.read = node.read;
    f.write = [write = node.write](const T& v) -> std::optional<Json> { return write(v); };
    f.describe = node.describe;
    return add(std::move(f));
  }
  // A key read and written by hand.
  Object& custom(Field f) { return add(std::move(f)); }

  // The last part is written only when `when` holds.
  Object& written_if(std::function<bool(const T&)> when) {
    auto write = parts_.back().write;
    parts_.back().write = [write, when](const T& v) -> std::optional<Json> {
      if (!when(v)) return std::nullopt;
      return write(v);
    };
    return *this;
  }
  // Reading the last part first calls `mark` (e.g. has_nic = true).
  Object& on_read(std::function<void(T&)> mark) {
    auto read = parts_.back().read;
    parts_.back().read = [read, mark](const Json& v, const std::string& path, T& out, Reader& r) {
      mark(out);
      read(v, path, out, r);
    };
    return *this;
  }
  // `key` (a field or a table row) must be present; otherwise `message` at this object's path.
  Object& require(std::string key, std::string message) {
    required_.emplace_back(std::move(key), std::move(message));
    return *this;
  }
  // `key` may only be given when `other` is too.
  Object& needs(std::string key, std::string other, std::string message) {
    needs_.push_back({std::move(key), std::move(other), std::move(message)});
    return *this;
  }
  // A check of the object as written and as read, after its parts.
  Object& check(std::function<void(const Json&, const std::string&, T&, Reader&)> fn) {
    checks_.push_back(std::move(fn));
    return *this;
  }
  // Replaces how the whole object is written (e.g. only the keys its kind uses).
  Object& writer(std::function<Json(const Object&, const T&)> fn) {
    writer_ = std::move(fn);
    return *this;
  }

  const std::vector<std::string>& keys() const { return keys_; }
  const std::string& doc() const { return doc_; }

  void read(const Json& obj, const std::string& path, T& out, Reader& r) const {
    if (!check_keys(obj, path, keys_, r.d)) return;
    for (const auto& f : parts_) {
      if (f.key.empty()) {
        f.read(obj, path, out, r);
      } else if (obj.contains(f.key)) {
        f.read(obj[f.key], child_path(path, f.key), out, r);
      }
    }
    for (const auto& [key, message] : required_)
      if (!obj.contains(key)) r.d.error(path, message);
    for (const auto& n : needs_)
      if (obj.contains(n.key) && !obj.contains(n.other))
        r.d.error(child_path(path, n.key), n.message);
    for (const auto& c : checks_) c(obj, path, out, r);
  }
  // Every part, in declaration order.
  Json write_parts(const T& v) const {
    Json out = Json::object();
    for (const auto& f : parts_) {
      auto j = f.write(v);
      if (!j) continue;
      if (f.key.empty()) {
        for (auto& item : j->items()) append(out, item.key(), std::move(item.value()));
      } else {
        append(out, f.key, std::move(*j));
      }
    }
    return out;
  }
  Json write(const T& v) const { return writer_ ? writer_(*this, v) : write_parts(v); }
  void describe(const std::string& path, std::vector<Entry>& out) const {
    if (!path.empty()) {
      Entry e;
      e.path = path;
      e.type = "object";
      e.doc = doc_;
      out.push_back(std::move(e));
    }
    for (const auto& f : parts_) f.describe(f.key.empty() ? path : child_path(path, f.key), out);
  }
  Node<T> node() const {
    Node<T> n;
    n.read = [this](const Json& v, const std::string& path, T& out, Reader& r) {
      read(v, path, out, r);
    };
    n.write = [this](const T& v) { return write(v); };
    n.describe = [this](const std::string& path, std::vector<Entry>& out) { describe(path, out); };
    return n;
  }

 private:
  struct Needs {
    std::string key, other, message;
  };
  template <class P, class Get, class ConstGet>
  Object& add_rows(const ParamTable<P>& table, Get get, ConstGet cget) {
    for (const auto& e : table.entries())
      if (e.info.type != ParamType::structured) keys_.push_back(e.info.key);
    Field f;
    f.read = [&table, get](const Json& obj, const std::string& path, T& out, Reader& r) {
      read_rows(obj, path, table, get(out), r);
    };
    f.write = [&table, cget](const T& v) -> std::optional<Json> {
      return write_rows(table, cget(v));
    };
    f.describe = [&table](const std::string& path, std::vector<Entry>& out) {
      describe_rows(table, path, out);
    };
    parts_.push_back(std::move(f));
    return *this;
  }
  Object& add(Field f) {
    keys_.push_back(f.key);
    parts_.push_back(std::move(f));
    return *this;
  }
  // Keys of an object's rows and fields are unique.
  static void append(Json& object, const std::string& key, Json value) {
    object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
  }

  std::string doc_;
  std::vector<std::string> keys_;
  std::vector<Field> parts_;
  std::vector<std::pair<std::string, std::string>> required_;
  std::vector<Needs> needs_;
  std::vector<std::function<void(const Json&, const std::string&, T&, Reader&)>> checks_;
  std::function<Json(const Object&, const T&)> writer_;
};

// A table alone as an object.
template <class P>
Node<P> table(const ParamTable<P>& t) {
  Node<P> n;
  n.read = [&t](const Json& obj, const std::string& path, P& out, Reader& r) {
    if (check_keys(obj, path, t.keys(), r.d)) read_rows(obj, path, t, out, r);
  };
  n.write = [&t](const P& v) { return write_rows(t, v); };
  n.describe = [&t](const std::string& path, std::vector<Entry>& out) {
    Entry e;
    e.path = path;
    e.type = "object";
    e.doc = t.doc();
    out.push_back(std::move(e));
    describe_rows(t, path, out);
  };
  return n;
}

// A key read and written by hand, described as one entry.
template <class T>
typename Object<T>::Field by_hand(
    std::string key, std::string type, std::string range, std::string unit, std::string doc,
    std::function<void(const Json&, const std::string&, T&, Reader&)> read,
    std::function<std::optional<Json>(const T&)> write) {
  typename Object<T>::Field f;
  f.key = std::move(key);
  f.read = std::move(read);
  f.write = std::move(write);
  f.describe = [type = std::move(type), range = std::move(range), unit = std::move(unit),
                doc = std::move(doc)](const std::string& path, std::vector<Entry>& out) {
    Entry e;
    e.path = path;
    e.type = type;
    e.range = range;
    e.unit = unit;
    e.doc = doc;
    out.push_back(std::move(e));
  };
  return f;
}

// "expected <what>, got <the value described>" at `path`.
void error_expected(Reader& r, const std::string& path, const std::string& what, const Json& v);

// ---------------------------------------------------------------------------------------------
// Collections

// The node of a map or a list (C: MapOf or ListOf, kept alive by the caller): its elements are
// described at <path>.* or <path>[*].
template <class C>
Node<std::vector<typename C::Element>> collection_node(const C& c, const char* type) {
  using V = std::vector<typename C::Element>;
  Node<V> n;
  n.read = [&c](const Json& v, const std::string& p, V& out, Reader& r) { c.read(v, p, out, r); };
  n.write = [&c](const V& v) { return c.write(v); };
  n.describe = [&c, type](const std::string& path, std::vector<Entry>& out) {
    Entry e;
    e.path = path;
    e.type = type;
    e.doc = c.doc;
    out.push_back(std::move(e));
    c.element.describe(std::string(type) == "map" ? child_path(path, "*") : path + "[*]", out);
  };
  return n;
}

// An identifier: letters, digits and _, not starting with a digit.
bool is_identifier(const std::string& s);

// {"<name>": element, ...}: elements in document order, each named by its key.
template <class E>
struct MapOf {
  using Element = E;
  Node<E> element;
  std::string E::*name = nullptr;
  std::string expected;  // "an object {\"<host name>\": {...}}"
  std::string naming;    // the error when a key is not an identifier, or "" to allow any
  std::string doc;
  // Prepares element i (0-based) before it is read: defaults from elsewhere in the document.
  std::function<void(E&, std::size_t)> seed;

  void read(const Json& v, const std::string& path, std::vector<E>& out, Reader& r) const {
    if (!v.is_object()) {
      r.d.error(path, "expected " + expected + ", got " + describe_value(v));
      return;
    }
    out.reserve(v.size());
    std::size_t i = 0;
    for (const auto& item : v.items()) {
      const std::string at = child_path(path, item.key());
      E e;
      e.*name = item.key();
      if (seed) seed(e, i);
      ++i;
      if (!naming.empty() && !is_identifier(item.key())) r.d.error(at, naming);
      element.read(item.value(), at, e, r);
      out.push_back(std::move(e));
    }
  }
  Json write(const std::vector<E>& v) const {
    Json out = Json::object();
    // Names are unique: append without the ordered map's linear search.
    for (const auto& e : v)
      out.template get_ref<Json::object_t&>().emplace_back(e.*name, element.write(e));
    return out;
  }
  Node<std::vector<E>> node() const { return collection_node(*this, "map"); }
};

// [element, ...] with at most `max_size` elements.
template <class E>
struct ListOf {
  using Element = E;
  ListOf(Node<E> element_, std::string expected_, std::string doc_, std::size_t min_size_ = 0,
         std::size_t max_size_ = 1'000'000, std::string too_many_ = "elements",
         std::string owner_ = "a list")
      : element(std::move(element_)),
        expected(std::move(expected_)),
        doc(std::move(doc_)),
        min_size(min_size_),
        max_size(max_size_),
        too_many(std::move(too_many_)),
        owner(std::move(owner_)) {}
  Node<E> element;
  std::string expected;  // "an array of links"
  std::string doc;
  std::size_t min_size = 0;
  std::size_t max_size = 1'000'000;
  std::string too_many;  // the noun in "has N <too_many>; ... at most M"
  std::string owner;     // "a station" in "... a station takes at most M"

  void read(const Json& v, const std::string& path, std::vector<E>& out, Reader& r) const {
    if (!v.is_array() || v.size() < min_size) {
      r.d.error(path, "expected " + expected + ", got " + describe_value(v));
      return;
    }
    if (v.size() > max_size) {
      r.d.error(path, "has " + std::to_string(v.size()) + " " + too_many + "; " + owner +
                          " takes at most " + std::to_string(max_size));
      return;
    }
    out.clear();
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      E e;
      element.read(v[i], index_path(path, i), e, r);
      out.push_back(std::move(e));
    }
  }
  Json write(const std::vector<E>& v) const {
    Json out = Json::array();
    for (const auto& e : v) out.push_back(element.write(e));
    return out;
  }
  Node<std::vector<E>> node() const { return collection_node(*this, "list"); }
};

}  // namespace gbesim::schema
