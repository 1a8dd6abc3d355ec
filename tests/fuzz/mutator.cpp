#include "tests/fuzz/mutator.hpp"

#include <limits>
#include <vector>

namespace gbesim::fuzz {
namespace {

// Every node of a document, with the container and key or index that hold it.
struct Place {
  Json* node;
  Json* parent;       // null for the root
  std::string key;    // in an object parent
  std::size_t index;  // in an array parent
};

void collect(Json& node, Json* parent, const std::string& key, std::size_t index,
             std::vector<Place>& out) {
  out.push_back({&node, parent, key, index});
  if (node.is_object()) {
    for (auto& item : node.items()) collect(item.value(), &node, item.key(), 0, out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect(node[i], &node, "", i, out);
  }
}

std::vector<std::string> keys_of(const Json& node, std::vector<std::string> out = {}) {
  if (node.is_object()) {
    for (const auto& item : node.items()) {
      out.push_back(item.key());
      out = keys_of(item.value(), std::move(out));
    }
  } else if (node.is_array()) {
    for (const auto& v : node) out = keys_of(v, std::move(out));
  }
  return out;
}

}  // namespace

Json Mutator::extreme_value() {
  switch (below(30)) {
    case 0:
      return 0;
    case 1:
      return -1;
    case 2:
      return 1;
    case 3:
      return 2;
    case 4:
      return 63;
    case 5:
      return 1519;
    case 6:
      return 65536;
    case 7:
      return std::int64_t{1} << 31;
    case 8:
      return (std::int64_t{1} << 53) + 1;
    case 9:
      return std::numeric_limits<std::uint64_t>::max();
    case 10:
      return std::numeric_limits<std::int64_t>::min();
    case 11:
      return 1e308;
    case 12:
      return -1e308;
    case 13:
      return 5e-324;
    case 14:
      return 0.5;
    case 15:
      return -0.0;
    case 16:
      return 1e-9;
    case 17:
      return "";
    case 18:
      return "x";
    case 19:
      return std::string(5000, 'z');
    case 20:
      return std::string("a\0b\x1b[2J\n", 8);
    case 21:
      return true;
    case 22:
      return false;
    case 23:
      return nullptr;
    case 24:
      return Json::array();
    case 25:
      return Json::object();
    case 26:
      return Json::parse("[1, 2, 3]");
    case 27:
      return Json::parse(R"({"a": 1})");
    case 28: {
      static const char* words[] = {"saturated",     "poisson",   "half", "full", "cat5e", "cat5",
                                    "1000base-t",    "broadcast", "a",    "b",    "s0",    "pcix",
                                    "intel-82540em", "receive",   "send", "bulk", "udp"};
      return words[below(std::size(words))];
    }
    default: {
      Json deep = 1;
      for (std::size_t i = 0, n = 1 + below(80); i < n; ++i) deep = Json::array({deep});
      return deep;
    }
  }
}

void Mutator::edit(Json& doc) {
  std::vector<Place> places;
  collect(doc, nullptr, "", 0, places);
  Place& p = places[below(places.size())];
  switch (below(9)) {
    case 0:
    case 1:  // an extreme or wrongly typed value
      *p.node = extreme_value();
      break;
    case 2:  // a number nudged, scaled or negated
      if (p.node->is_number()) {
        const double v = p.node->get<double>();
        const double options[] = {v + 1, v - 1, v * 2, v * 1000, -v, v / 3};
        *p.node = options[below(std::size(options))];
      } else {
        *p.node = extreme_value();
      }
      break;
    case 3:  // a key or element removed
      if (p.parent != nullptr && p.parent->is_object()) {
        p.parent->erase(p.key);
      } else if (p.parent != nullptr && p.parent->is_array()) {
        p.parent->erase(p.index);
      }
      break;
    case 4:  // a key renamed: to another key of the document, or a typo
      if (p.parent != nullptr && p.parent->is_object()) {
        const auto keys = keys_of(doc);
        std::string name = keys[below(keys.size())];
        if (below(2) == 0 && !p.key.empty()) {
          name = p.key;
          name[below(name.size())] = static_cast<char>('a' + below(26));
        }
        Json value = *p.node;
        Json* parent = p.parent;
        parent->erase(p.key);
        (*parent)[name] = std::move(value);
      }
      break;
    case 5:  // a node copied over another (references, blocks in the wrong place)
      *p.node = *places[below(places.size())].node;
      break;
    case 6:  // an array grown by copies of its elements
      if (p.node->is_array() && !p.node->empty()) {
        const Json first = (*p.node)[below(p.node->size())];
        for (std::size_t i = 0, n = 1 + below(40); i < n; ++i) p.node->push_back(first);
      } else {
        *p.node = Json::array({*p.node});
      }
      break;
    case 7:  // a new key with an extreme value, borrowed from elsewhere in the document
      if (p.node->is_object()) {
        const auto keys = keys_of(doc);
        (*p.node)[keys[below(keys.size())]] = extreme_value();
      }
      break;
    default:  // a value wrapped in objects and arrays
      for (std::size_t i = 0, n = 1 + below(6); i < n; ++i)
        *p.node = below(2) ? Json::array({*p.node}) : Json::object({{"x", *p.node}});
      break;
  }
}

std::string Mutator::edit_bytes(std::string text) {
  if (text.empty()) return text;
  static const char tokens[] = "{}[],:\"0123456789-+.eE \\tnul\x00\xff";
  switch (below(5)) {
    case 0:
      text[below(text.size())] ^= static_cast<char>(1u << below(8));
      break;
    case 1:
      text.insert(below(text.size() + 1), 1, tokens[below(sizeof tokens - 1)]);
      break;
    case 2: {
      const std::size_t at = below(text.size());
      text.erase(at, 1 + below(std::min<std::size_t>(64, text.size() - at)));
      break;
    }
    case 3: {
      const std::size_t at = below(text.size());
      const std::size_t n = 1 + below(std::min<std::size_t>(256, text.size() - at));
      text.insert(below(text.size() + 1), text.substr(at, n));
      break;
    }
    default:
      text.resize(below(text.size()));
      break;
  }
  return text;
}

Json Mutator::mutate_structure(const Json& doc) {
  Json out = doc;
  for (std::size_t i = 0, n = 1 + below(3); i < n; ++i) edit(out);
  return out;
}

std::string Mutator::mutate_once(const std::string& text) {
  if (below(10) < 7) {
    const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_discarded()) {
      Json out = doc;
      edit(out);
      return out.dump(below(2) ? -1 : 2, ' ', false, Json::error_handler_t::replace);
    }
  }
  return edit_bytes(text);
}

std::string Mutator::mutate(const std::string& text) {
  if (below(10) < 7) {
    const Json doc = Json::parse(text);
    return mutate_structure(doc).dump(below(2) ? -1 : 2, ' ', false,
                                      Json::error_handler_t::replace);
  }
  std::string out = text;
  for (std::size_t i = 0, n = 1 + below(3); i < n; ++i) out = edit_bytes(std::move(out));
  return out;
}

}  // namespace gbesim::fuzz
