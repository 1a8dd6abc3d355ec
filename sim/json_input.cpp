#include "sim/json_input.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace gbesim {

std::string describe_value(const Json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  const char* kind = v.is_string()           ? "a string"
                     : v.is_boolean()        ? "a boolean"
                     : v.is_number_integer() ? "an integer"
                     : v.is_number()         ? "a number"
                     : v.is_array()          ? "an array"
                     : v.is_object()         ? "an object"
                                             : "null";
  return text + " (" + kind + ")";
}

// Parses JSON, reporting duplicate keys (which JSON parsers otherwise resolve silently).
Json parse_document(const std::string& text, Diagnostics& d) {
  std::vector<std::set<std::string>> seen;
  std::vector<std::string> dup_keys;
  auto callback = [&](int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        seen.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        seen.pop_back();
        break;
      case Json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!seen.empty() && !seen.back().insert(key).second) dup_keys.push_back(key);
        break;
      }
      default:
        break;
    }
    return true;
  };
  try {
    Json doc = Json::parse(text, callback);
    for (const auto& k : dup_keys) d.error("", "duplicate key \"" + k + "\" (JSON keeps only one)");
    return doc;
  } catch (const Json::out_of_range& e) {
    d.error("", std::string("a number does not fit: ") + e.what());
    return Json();
  } catch (const Json::parse_error& e) {
    // Line and column of the byte where parsing failed.
    std::size_t line = 1;
    std::size_t column = 1;
    const std::size_t stop = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < stop; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    const auto colon = what.find(": ", what.find("column"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    d.error("", "malformed JSON at line " + std::to_string(line) + ", column " +
                    std::to_string(column) + ": " + what);
    return Json();
  }
}

std::string read_json_file(const std::string& file) {
  std::error_code dir_ec;
  if (std::filesystem::is_directory(file, dir_ec)) {
    Diagnostics d(file);
    d.error("", "is a directory; expected a JSON file");
    d.throw_if_any();
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    Diagnostics d(file);
    std::string hint;
    namespace fs = std::filesystem;
    const fs::path p(file);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    std::vector<std::string> names;
    if (fs::is_directory(dir, ec)) {
      for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".json") names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    if (auto s = did_you_mean(p.filename().string(), names))
      hint = "; did you mean " + (p.has_parent_path() ? (dir / *s).string() : *s) + "?";
    d.error("", std::string(fs::exists(p, ec) ? "cannot read the file" : "no such file") + hint);
    d.throw_if_any();
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace gbesim
