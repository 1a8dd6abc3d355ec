#include "models/phy/scrambler.hpp"

#include <initializer_list>

namespace gbesim::phy {

namespace {

int bit(std::uint64_t s, int i) {
  return static_cast<int>((s >> i) & 1U);
}

}  // namespace

SideStreamScrambler::SideStreamScrambler(PhyRole role, std::uint64_t seed)
    : tap_(role == PhyRole::master ? 12 : 19), state_(1) {
  set_state(seed);
}

void SideStreamScrambler::set_state(std::uint64_t state) {
  state_ = state & kMask;
  if (state_ == 0) state_ = 1;
}

int SideStreamScrambler::step() {
  const int in = bit(state_, tap_) ^ bit(state_, 32);
  state_ = ((state_ << 1) | static_cast<std::uint64_t>(in)) & kMask;
  return in;
}

ScramblerBits SideStreamScrambler::bits() const {
  const std::uint64_t s = state_;
  auto x = [s](std::initializer_list<int> taps) {
    int v = 0;
    for (int t : taps) v ^= bit(s, t);
    return v;
  };
  ScramblerBits b;
  const int sy[4] = {x({0}), x({3, 8}), x({6, 16}), x({9, 14, 19, 24})};
  const int sx[4] = {x({4, 6}), x({7, 9, 12, 14}), x({10, 12, 20, 22}),
                     x({13, 15, 18, 20, 23, 25, 28, 30})};
  const int sg[4] = {x({11, 5}), x({4, 8, 9, 13}), x({7, 11, 17, 21}),
                     x({10, 14, 15, 19, 20, 24, 25, 29})};
  for (int i = 0; i < 4; ++i) {
    b.sy = static_cast<std::uint8_t>(b.sy | sy[i] << i);
    b.sx = static_cast<std::uint8_t>(b.sx | sx[i] << i);
    b.sg = static_cast<std::uint8_t>(b.sg | sg[i] << i);
  }
  return b;
}

}  // namespace gbesim::phy
