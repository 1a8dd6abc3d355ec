#include "sim/input/json_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <unordered_set>
#include <vector>

namespace gbesim {

std::string dump_json(const Json& v, int indent) {
  return v.dump(indent, ' ', false, Json::error_handler_t::replace);
}

std::string describe_value(const Json& v) {
  std::string text = dump_json(v);
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

namespace {

// A character iterator that records how far the parser has read, so that events (a duplicate
// key) can be placed at a line and column.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    ++p_;
    if (p_ > *furthest_) *furthest_ = p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** furthest_;
};

// Line and column of byte offsets, counted incrementally: errors are reported in text order, so
// each is found from the previous one (rescanning from the start for each of many duplicate keys
// would be quadratic).
class Positions {
 public:
  explicit Positions(const std::string& text) : text_(text) {}
  std::string at(std::size_t offset) {
    offset = std::min(offset, text_.size());
    if (offset < offset_) offset_ = 0, line_ = 1, column_ = 1;  // back to the start
    for (; offset_ < offset; ++offset_) {
      if (text_[offset_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
    }
    return "line " + std::to_string(line_) + ", column " + std::to_string(column_);
  }

 private:
  const std::string& text_;
  std::size_t offset_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 1;
};

// Builds the document from parser events. Objects are appended to without the ordered map's
// linear duplicate search (duplicates are found here, with a hash set per open object), so a
// document parses in time linear in its size; nesting is limited to kMaxJsonDepth; errors beyond
// the first kMaxShownErrors are only counted.
class Builder {
 public:
  Builder(const std::string& text, const char** furthest)
      : text_(text), furthest_(furthest), positions_(text) {}

  bool null() { return put(Json()); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(Json(v)); }
  bool string(std::string& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& f = stack_.back();
    if (!f.keys.insert(k).second) {
      if (errors_.size() < kMaxShownErrors) {
        error(child_path(f.path, k), "duplicate key \"" + k + "\" (" + key_start() +
                                         "): JSON keeps only one; remove or rename the other");
      } else {
        ++more_;
      }
    }
    f.key = std::move(k);
    mark();
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    if (e.id == 406) {
      // A number beyond a double: the path of the value being read. The parser has read the
      // number and one character beyond it.
      const std::size_t start = position > token.size() ? position - token.size() : 0;
      error(pending_path(), "a number does not fit in a 64-bit float: " + token + " (" +
                                positions_.at(start) + ")");
      return false;
    }
    syntax_error_ = true;
    std::string what = e.what();
    const auto colon = what.find(": ", what.find("column"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    error("", "malformed JSON at " + positions_.at(position > 0 ? position - 1 : 0) + ": " + what);
    return false;
  }

  JsonParse result() {
    JsonParse out;
    out.ok = errors_.empty();
    out.too_deep = too_deep_;
    out.syntax_error = syntax_error_;
    out.errors = std::move(errors_);
    out.more_errors = more_;
    if (out.ok) out.value = std::move(root_);
    return out;
  }

 private:
  struct Frame {
    Json value;
    std::string path;
    std::string key;  // objects: the key of the value being read
    std::unordered_set<std::string> keys;
  };

  std::size_t offset() const { return static_cast<std::size_t>(*furthest_ - text_.data()); }
  // Where the parser was at the end of the last event: a key starts at the first quote after it
  // (only whitespace and a comma lie between).
  void mark() { last_event_ = offset(); }
  std::string key_start() {
    const std::size_t quote = text_.find('"', last_event_);
    return positions_.at(quote == std::string::npos ? offset() : quote);
  }

  // The path of the value about to be read.
  std::string pending_path() const {
    if (stack_.empty()) return "";
    const Frame& f = stack_.back();
    return f.value.is_object() ? child_path(f.path, f.key) : index_path(f.path, f.value.size());
  }

  bool open(Json container) {
    if (stack_.size() >= kMaxJsonDepth) {
      too_deep_ = true;
      error(pending_path(), "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep (" +
                                positions_.at(offset()) + "); no scenario needs that many");
      return false;
    }
    Frame f;
    f.path = pending_path();
    f.value = std::move(container);
    stack_.push_back(std::move(f));
    mark();
    return true;
  }

  bool close() {
    Json v = std::move(stack_.back().value);
    stack_.pop_back();
    return put(std::move(v));
  }

  bool put(Json v) {
    mark();
    if (stack_.empty()) {
      root_ = std::move(v);
      return true;
    }
    Frame& f = stack_.back();
    if (f.value.is_object())
      f.value.get_ref<Json::object_t&>().emplace_back(std::move(f.key), std::move(v));
    else
      f.value.get_ref<Json::array_t&>().push_back(std::move(v));
    return true;
  }

  void error(const std::string& path, const std::string& message) {
    errors_.push_back({"", path, message});
  }

  const std::string& text_;
  const char** furthest_;
  Positions positions_;
  std::vector<Frame> stack_;
  Json root_;
  std::vector<Diagnostic> errors_;
  std::size_t more_ = 0;
  std::size_t last_event_ = 0;
  bool too_deep_ = false;
  bool syntax_error_ = false;
};

}  // namespace

JsonParse parse_json_text(const std::string& text) {
  // The parser takes a NUL byte for the end of the text, so a document followed by one and
  // anything at all would read as the document alone. JSON has no raw NUL anywhere (in a string
  // it is \u0000): the text is refused at the first one.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    JsonParse refused;
    refused.syntax_error = true;
    refused.errors.push_back({"", "",
                              "a NUL byte at " + Positions(text).at(nul) +
                                  ": not JSON text (a document ends at its closing brace, with "
                                  "only whitespace after it)"});
    return refused;
  }
  const char* furthest = text.data();
  Builder builder(text, &furthest);
  CountingIterator first(text.data(), &furthest);
  CountingIterator last(text.data() + text.size(), &furthest);
  Json::sax_parse(first, last, &builder);
  return builder.result();
}

Json parse_document(const std::string& text, Diagnostics& d) {
  JsonParse p = parse_json_text(text);
  for (auto& e : p.errors) d.error(std::move(e.path), std::move(e.message));
  d.count_more(p.more_errors);
  return std::move(p.value);
}

std::optional<std::string> json_file_beside(const std::string& file) {
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
  return did_you_mean(p.filename().string(), names);
}

std::string read_json_file(const std::string& file) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& message) {
    Diagnostics d(file);
    d.error("", message);
    d.throw_if_any();
  };
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR)
      fail(std::string("cannot read: ") + std::strerror(errno));
    const fs::path p(file);
    std::string hint;
    if (const auto s = json_file_beside(file))
      hint = "; did you mean " + (p.has_parent_path() ? (p.parent_path() / *s).string() : *s) + "?";
    fail("no such file" + hint);
  }
  // A FIFO would block for ever and a device may never end: only regular files are read. The
  // checks are made on the descriptor that is read (opened without blocking, so that a FIFO put
  // in the file's place after the stat above cannot block either).
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(std::string("cannot read the file: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) fail(std::string("cannot read the file: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail("is a directory; expected a JSON file");
  if (!S_ISREG(st.st_mode))
    fail("is not a regular file (a pipe, socket or device); expected a JSON file");
  const std::string limit = "input files are limited to " + std::to_string(kMaxInputBytes >> 20) +
                            " MiB (" + std::to_string(kMaxInputBytes) + " bytes)";
  if (static_cast<std::size_t>(st.st_size) > kMaxInputBytes)
    fail("has " + std::to_string(st.st_size) + " bytes; " + limit);
  // At most one byte beyond the limit, in case the file grew since fstat.
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (text.size() <= kMaxInputBytes) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::string("cannot read the file: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(n));
  }
  if (text.size() > kMaxInputBytes) fail("has grown beyond the limit while being read; " + limit);
  return text;
}

std::optional<Json> read_json_record(const std::filesystem::path& file,
                                     const std::vector<std::string>& only) {
  try {
    if (only.empty()) {
      const JsonParse parsed = parse_json_text(read_json_file(file.string()));
      if (parsed.ok) return parsed.value;
      return std::nullopt;
    }
    const auto keep = [&only](int depth, Json::parse_event_t event, Json& parsed) {
      if (depth != 1 || event != Json::parse_event_t::key) return true;
      return std::find(only.begin(), only.end(), parsed.get<std::string>()) != only.end();
    };
    Json value = Json::parse(read_json_file(file.string()), keep, /*allow_exceptions=*/false);
    if (!value.is_discarded()) return value;
  } catch (const ScenarioError&) {
  }
  return std::nullopt;
}

}  // namespace gbesim
