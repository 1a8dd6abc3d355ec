#include "sim/input/json_path.hpp"

#include <stdexcept>

#include "sim/input/json_input.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {

static constexpr std::size_t kEveryIndexToken = static_cast<std::size_t>(-1);

std::vector<PathToken> parse_json_path(const std::string& path) {
  std::vector<PathToken> tokens;
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("bad path \"" + path + "\": " + why);
  };
  // Past a key or an index: the next one starts after a '.' (which must not end the path) or at
  // a '['.
  auto skip_dot = [&] {
    if (i < path.size() && path[i] == '.') {
      ++i;
      if (i == path.size()) fail("ends with '.'");
    }
  };
  // Past an index's ']': only '.' or '[' may follow.
  auto after_index = [&](std::size_t close) {
    i = close + 1;
    if (i < path.size() && path[i] != '.' && path[i] != '[')
      fail("expected '.' or '[' after ']' at position " + std::to_string(i));
    skip_dot();
  };
  if (path.empty()) fail("empty");
  while (i < path.size()) {
    if (tokens.size() >= kMaxJsonDepth)
      fail("more than " + std::to_string(kMaxJsonDepth) + " levels; no scenario is that deep");
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos) fail("'[' without ']'");
      const std::string digits = path.substr(i + 1, close - i - 1);
      if (digits == "*") {
        tokens.emplace_back(kEveryIndexToken);
        after_index(close);
        continue;
      }
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        fail("array index must be a non-negative integer, got [" + digits + "]");
      if (digits.size() > 9) fail("array index [" + digits + "] is too large");
      tokens.emplace_back(static_cast<std::size_t>(std::stoull(digits)));
      after_index(close);
      continue;
    }
    std::size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    if (end == i) fail("empty key at position " + std::to_string(i));
    tokens.emplace_back(path.substr(i, end - i));
    i = end;
    skip_dot();
  }
  return tokens;
}

std::string format_json_path(const std::vector<PathToken>& tokens) {
  std::string out;
  for (const auto& t : tokens) {
    if (std::holds_alternative<std::size_t>(t)) {
      const std::size_t i = std::get<std::size_t>(t);
      out += i == kEveryIndexToken ? std::string("[*]") : "[" + std::to_string(i) + "]";
    } else {
      if (!out.empty()) out += ".";
      out += std::get<std::string>(t);
    }
  }
  return out;
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

namespace {

constexpr std::size_t kEveryIndex = static_cast<std::size_t>(-1);

bool is_wildcard(const PathToken& t) {
  return std::holds_alternative<std::size_t>(t) ? std::get<std::size_t>(t) == kEveryIndex
                                                : std::get<std::string>(t) == "*";
}

bool tokens_match(const PathToken& a, const PathToken& b) {
  return is_wildcard(a) || is_wildcard(b) || a == b;
}

// Sets the value at tokens[k..] below `node`. Missing objects on the way and the last key are
// created; arrays and their elements are not: below a wildcard an element without them is
// skipped, elsewhere it is an error. Returns how many were set.
std::size_t set_below(Json& node, const std::vector<PathToken>& tokens, std::size_t k,
                      const Json& value, bool under_wildcard, const std::string& path,
                      std::vector<PathToken>& walked) {
  if (k == tokens.size()) {
    node = value;
    return 1;
  }
  const bool last = k + 1 == tokens.size();
  const auto& t = tokens[k];
  const std::string here = walked.empty() ? "the top level" : format_json_path(walked);
  auto descend = [&](Json& child, const PathToken& step) {
    walked.push_back(step);
    const std::size_t n =
        set_below(child, tokens, k + 1, value, under_wildcard || is_wildcard(t), path, walked);
    walked.pop_back();
    return n;
  };
  if (is_wildcard(t)) {
    std::size_t n = 0;
    if (node.is_object()) {
      for (auto& item : node.items()) n += descend(item.value(), PathToken(item.key()));
    } else if (node.is_array()) {
      for (std::size_t i = 0; i < node.size(); ++i) n += descend(node[i], PathToken(i));
    } else if (!under_wildcard) {
      throw std::invalid_argument(path + ": " + here + " is neither an object nor an array");
    }
    if (n == 0 && !under_wildcard)
      throw std::invalid_argument(path + ": nothing under " + here +
                                  " matches the rest of the path");
    return n;
  }
  if (std::holds_alternative<std::size_t>(t)) {
    const std::size_t i = std::get<std::size_t>(t);
    if (!node.is_array() || i >= node.size()) {
      if (under_wildcard) return 0;
      if (!node.is_array()) throw std::invalid_argument(path + ": " + here + " is not an array");
      throw std::invalid_argument(path + ": " + here + " has " + std::to_string(node.size()) +
                                  " elements, no [" + std::to_string(i) + "]");
    }
    return descend(node[i], t);
  }
  const std::string& key = std::get<std::string>(t);
  if (!node.is_object()) {
    if (under_wildcard) return 0;
    throw std::invalid_argument(path + ": " + here + " is not an object");
  }
  if (!node.contains(key) && !last) {
    if (std::holds_alternative<std::size_t>(tokens[k + 1])) {
      if (under_wildcard) return 0;  // an array is not made up: that element is skipped
      throw std::invalid_argument(path + ": " + here + " has no array \"" + key + "\"");
    }
    // A missing object on the way is created, below a wildcard too (stations.*.mac.x gives
    // every station a mac); a misspelt key then meets the schema's unknown-key error.
    node[key] = Json::object();
  }
  return descend(node[key], t);
}

}  // namespace

void set_json_path(Json& document, const std::string& path, const Json& value) {
  const auto tokens = parse_json_path(path);
  std::vector<PathToken> walked;
  set_below(document, tokens, 0, value, false, path, walked);
}

Json parse_override_value(const std::string& text) {
  JsonParse parsed = parse_json_text(text);
  if (parsed.ok) return std::move(parsed.value);
  // JSON with a duplicate key, a number beyond a double or too deep is a mistake in JSON; only
  // text that is not JSON at all is taken as a string.
  if (!parsed.syntax_error && !parsed.errors.empty()) {
    const Diagnostic& e = parsed.errors.front();
    throw std::invalid_argument("the value " +
                                (e.path.empty() ? std::string() : "at " + e.path + " ") +
                                "is not usable JSON: " + e.message);
  }
  return Json(text);  // not JSON (or a number JSON cannot hold): the loader judges the string
}

bool path_within(const std::string& path, const std::string& outer) {
  std::vector<PathToken> inner_tokens, outer_tokens;
  try {
    inner_tokens = parse_json_path(path);
    outer_tokens = parse_json_path(outer);
  } catch (const std::invalid_argument&) {
    return false;
  }
  if (outer_tokens.size() > inner_tokens.size()) return false;
  for (std::size_t i = 0; i < outer_tokens.size(); ++i)
    if (!tokens_match(inner_tokens[i], outer_tokens[i])) return false;
  return true;
}

}  // namespace gbesim
