#pragma once
// The IEEE 802.3 speed modes gbesim models, as data: one row per line rate with the Clause 4 MAC
// constants that depend on it. Sources are in speed_modes.cpp, row by row.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/time.hpp"

namespace gbesim {

struct SpeedMode {
  std::int64_t rate_mbps;
  Picoseconds bit_time_ps;
  std::int64_t slot_time_bits;    // half duplex: backoff quantum and collision window
  std::int64_t burst_limit_bits;  // 0 where frame bursting is not defined
  bool half_duplex_defined;       // 10 Gb/s is full duplex only
  const char* source;
};

const std::vector<SpeedMode>& speed_modes();
std::optional<SpeedMode> find_speed_mode(std::int64_t rate_mbps);
// "10, 100, 1000, 10000", for error messages and docs.
std::string speed_mode_list();

// Clause 4 constants that are the same at every speed.
inline constexpr std::int64_t kPreambleSfdBytes = 8;
inline constexpr std::int64_t kInterFrameGapBits = 96;
inline constexpr std::int64_t kMinFrameBytes = 64;
inline constexpr std::int64_t kMaxBasicFrameBytes = 1518;
inline constexpr std::int64_t kQTagBytes = 4;
inline constexpr std::int64_t kMaxJumboFrameBytes = 16128;  // 8254x driver limit, see docs/mac.md
inline constexpr std::int64_t kPauseQuantumBits = 512;

// Half duplex (802.3 4.4.2; the Clause 4 Pascal model's constants, docs/references.md,
// Standards A.1-A.2).
inline constexpr std::int64_t kInterFrameGapPart1Bits = 64;  // carrier here restarts the gap
inline constexpr std::int64_t kAttemptLimit = 16;
inline constexpr std::int64_t kBackoffLimit = 10;
inline constexpr std::int64_t kJamBits = 32;
inline constexpr std::int64_t kPreambleSfdBits = 64;
inline constexpr std::int64_t kMinFrameBits = 512;
inline constexpr std::int64_t kBurstLimitBits = 65536;  // burstLimit, 1000 Mb/s only

}  // namespace gbesim
