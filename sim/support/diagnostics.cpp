#include "sim/support/diagnostics.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>

namespace gbesim {

std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto byte_escape = [&](unsigned char c) {
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else {
        byte_escape(c);
      }
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, then continuation bytes, no overlong
    // forms or surrogates; anything else is escaped byte by byte.
    const std::size_t n = c >= 0xf0 && c <= 0xf4  ? 4
                          : c >= 0xe0             ? 3
                          : c >= 0xc2 && c < 0xe0 ? 2
                                                  : 0;
    bool ok = n > 0 && c < 0xf5 && i + n <= text.size();
    std::uint32_t cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      ok = (cc & 0xc0) == 0x80;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (ok)
      ok = !(n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) &&
           !(n == 4 && (cp < 0x10000 || cp > 0x10ffff));
    if (!ok) {
      byte_escape(c);
      ++i;
      continue;
    }
    if (cp >= 0x80 && cp <= 0x9f) {  // C1 controls: some terminals act on them
      out += "\\u00";
      out += hex[cp >> 4];
      out += hex[cp & 15];
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

namespace {

// Very long paths and values (a 60,000-level --set path) are shortened in the middle.
std::string shortened(std::string_view text) {
  constexpr std::size_t kKeep = 400;
  if (text.size() <= kKeep) return std::string(text);
  auto boundary = [&](std::size_t i) {  // back to the start of a UTF-8 character
    while (i > 0 && (static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) --i;
    return i;
  };
  const std::size_t head = boundary(kKeep / 2);
  const std::size_t tail = boundary(text.size() - kKeep / 4);
  return std::string(text.substr(0, head)) + " ... (" + std::to_string(tail - head) +
         " bytes left out) ... " + std::string(text.substr(tail));
}

}  // namespace

std::string Diagnostic::format() const {
  std::string out = "error: " + printable(shortened(file));
  if (!path.empty()) out += ": " + printable(shortened(path));
  return out + ": " + printable(shortened(message));
}

static std::string join_messages(const std::vector<Diagnostic>& items, std::size_t more) {
  std::string out;
  std::size_t shown = 0;
  for (const auto& d : items) {
    if (shown == kMaxShownErrors) break;
    if (!out.empty()) out += "\n";
    out += d.format();
    ++shown;
  }
  const std::size_t rest = items.size() - shown + more;
  if (rest > 0 && !items.empty())
    out += "\nerror: " + printable(items.front().file) + ": " + std::to_string(rest) +
           " more error" + (rest == 1 ? "" : "s") + " not shown (the first " +
           std::to_string(shown) + " are above)";
  return out;
}

ScenarioError::ScenarioError(std::vector<Diagnostic> diagnostics, std::size_t more)
    : std::runtime_error(join_messages(diagnostics, more)),
      diagnostics_(std::move(diagnostics)),
      more_(more) {}

void Diagnostics::error(std::string path, std::string message) {
  error_in(file_, std::move(path), std::move(message));
}

void Diagnostics::error_in(std::string file, std::string path, std::string message) {
  if (full()) {
    ++more_;
    return;
  }
  items_.push_back({std::move(file), std::move(path), std::move(message)});
}

void Diagnostics::throw_if_any() const {
  if (!items_.empty()) throw ScenarioError(items_, more_);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the table: the transposition looks two rows back.
  const std::size_t m = b.size();
  std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  // Nobody mistypes a 200-character key: absurd words (and candidates) get no suggestion, which
  // keeps the work per word bounded whatever the input.
  constexpr std::size_t kLongest = 128;
  if (word.size() > kLongest) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  auto length_gap = [&](const std::string& c) {
    return c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
  };
  auto is_affix = [&](const std::string& c) {
    const std::string_view shorter = c.size() < word.size() ? std::string_view(c) : word;
    const std::string_view longer = c.size() < word.size() ? word : std::string_view(c);
    return longer.substr(0, shorter.size()) == shorter;
  };
  for (const auto& c : candidates) {
    // More than three characters longer or shorter is too far for a typo, unless it is a prefix.
    if (c.size() > kLongest || (length_gap(c) > 3 && !is_affix(c))) continue;
    const std::size_t dist = edit_distance(word, c);
    // Ties go to the candidate closest in length: "cat5f" is more likely "cat5e" than "cat5".
    if (!best || dist < best_distance ||
        (dist == best_distance && length_gap(c) < length_gap(*best))) {
      best = c;
      best_distance = dist;
    }
  }
  if (best) {
    // Plausible typo: up to a third of the word's length wrong, at least 1 and at most 3 edits.
    const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
    // A prefix or suffix match ("cable" for "cable_m") counts too.
    const bool affix =
        best->rfind(std::string(word), 0) == 0 || std::string(word).rfind(*best, 0) == 0;
    if (best_distance <= allowed || (affix && word.size() >= 3)) return best;
  }
  // A profile named without its vendor ("pentium3-500" for "intel-pentium3-500"): the one
  // candidate ending in "-" or "_" and the word.
  if (word.size() < 4) return std::nullopt;
  std::optional<std::string> ending;
  for (const auto& c : candidates) {
    if (c.size() <= word.size() || c.size() > kLongest) continue;
    const std::size_t at = c.size() - word.size();
    if (c.compare(at, word.size(), word) != 0 || (c[at - 1] != '-' && c[at - 1] != '_')) continue;
    if (ending) return std::nullopt;  // more than one: no guess
    ending = c;
  }
  return ending;
}

std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const auto s = did_you_mean(word, candidates);
  return s ? "; did you mean \"" + *s + "\"?" : "";
}

int report_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ScenarioError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << "\n";
    return 1;
  }
}

}  // namespace gbesim
