#pragma once
// Errors for people: which file, which JSON path, what was expected, and a did-you-mean.
// A scenario with errors raises ScenarioError carrying all of them; the CLI prints them and exits
// with code 2.

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gbesim {

struct Diagnostic {
  std::string file;
  std::string path;  // JSON path, e.g. stations.a.traffic[0].frame_bytes; empty for the file
  std::string message;
  // "error: FILE: PATH: MESSAGE" on one line, with control characters and bytes that are not
  // UTF-8 escaped: a key may hold a NUL, a newline or a terminal escape sequence.
  std::string format() const;
};

// At most this many errors are printed; the rest are counted.
inline constexpr std::size_t kMaxShownErrors = 50;

class ScenarioError : public std::runtime_error {
 public:
  // `more`: errors found beyond those listed (not kept).
  explicit ScenarioError(std::vector<Diagnostic> diagnostics, std::size_t more = 0);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::size_t more() const { return more_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::size_t more_ = 0;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}
  void error(std::string path, std::string message);
  // An error in another file this one refers to (e.g. a NIC profile).
  void error_in(std::string file, std::string path, std::string message);
  bool empty() const { return items_.empty(); }
  // Errors so far, listed or only counted.
  std::size_t count() const { return items_.size() + more_; }
  // Errors found elsewhere and only counted there.
  void count_more(std::size_t n) { more_ += n; }
  // True once enough errors are kept that later ones are only counted: a caller may skip
  // composing their messages.
  bool full() const { return items_.size() >= kMaxShownErrors; }
  // Throws ScenarioError if any error was recorded.
  void throw_if_any() const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<Diagnostic> items_;
  std::size_t more_ = 0;
};

// `text` with control characters, C1 controls and bytes that are not UTF-8 escaped (\n, \t,
// \x1b, \u0085, \xff), safe to print to a terminal.
std::string printable(std::string_view text);

// Prints an exception that escaped a command and gives its exit code: 2 for bad input (a
// ScenarioError, already formatted), 1 for anything else.
int report_failure(const std::exception_ptr& failure);

// Optimal-string-alignment edit distance (insertions, deletions, substitutions, transpositions).
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);
// "; did you mean \"x\"?" or "" — for appending to a message.
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gbesim
