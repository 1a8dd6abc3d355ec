#pragma once
// A cell of a Markdown table, as the generated parts of the docs pages write them: a `|` in the
// text is escaped so that it does not end the cell.

#include <string>

namespace gbesim {

inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace gbesim
