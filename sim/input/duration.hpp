#pragma once
// Durations as a person types them on the command line.

#include <cstdint>
#include <optional>
#include <string>

namespace gbesim {

// "1s", "100ms", "250us", "500ns" or a whole number of ns (at least 1 ns, at most 2^50 ns), as
// ns; nullopt when the text is not such a duration.
std::optional<std::int64_t> parse_interval_ns(const std::string& text);

}  // namespace gbesim
