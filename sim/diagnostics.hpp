#pragma once
// Errors for people: which file, which JSON path, what was expected, and a did-you-mean.
// A scenario with errors raises ScenarioError carrying all of them; the CLI prints them and exits
// with code 2.

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
  std::string format() const;
};

class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}
  void error(std::string path, std::string message);
  // An error in another file this one refers to (e.g. a NIC profile).
  void error_in(std::string file, std::string path, std::string message) {
    items_.push_back({std::move(file), std::move(path), std::move(message)});
  }
  bool empty() const { return items_.empty(); }
  // Throws ScenarioError if any error was recorded.
  void throw_if_any() const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<Diagnostic> items_;
};

// Optimal-string-alignment edit distance (insertions, deletions, substitutions, transpositions).
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);
// "; did you mean \"x\"?" or "" — for appending to a message.
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gbesim
