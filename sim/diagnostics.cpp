#include "sim/diagnostics.hpp"

#include <algorithm>

namespace gbesim {

std::string Diagnostic::format() const {
  std::string out = "error: " + file;
  if (!path.empty()) out += ": " + path;
  return out + ": " + message;
}

static std::string join_messages(const std::vector<Diagnostic>& items) {
  std::string out;
  for (const auto& d : items) {
    if (!out.empty()) out += "\n";
    out += d.format();
  }
  return out;
}

ScenarioError::ScenarioError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_messages(diagnostics)), diagnostics_(std::move(diagnostics)) {}

void Diagnostics::error(std::string path, std::string message) {
  items_.push_back({file_, std::move(path), std::move(message)});
}

void Diagnostics::throw_if_any() const {
  if (!items_.empty()) throw ScenarioError(items_);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  auto length_gap = [&](const std::string& c) {
    return c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
  };
  for (const auto& c : candidates) {
    const std::size_t dist = edit_distance(word, c);
    // Ties go to the candidate closest in length: "cat5f" is more likely "cat5e" than "cat5".
    if (!best || dist < best_distance ||
        (dist == best_distance && length_gap(c) < length_gap(*best))) {
      best = c;
      best_distance = dist;
    }
  }
  if (!best) return std::nullopt;
  // Plausible typo: up to a third of the word's length wrong, at least 1 and at most 3 edits.
  const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  // A prefix or suffix match ("cable" for "cable_m") counts too.
  const bool affix =
      best->rfind(std::string(word), 0) == 0 || std::string(word).rfind(*best, 0) == 0;
  if (best_distance <= allowed || (affix && word.size() >= 3)) return best;
  return std::nullopt;
}

std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const auto s = did_you_mean(word, candidates);
  return s ? "; did you mean \"" + *s + "\"?" : "";
}

}  // namespace gbesim
