#pragma once
// The 1000BASE-T side-stream scrambler (IEEE 802.3 Clause 40.3.1.3.1, as docs/references.md,
// Standards C.1 gives it): a 33-bit linear feedback shift register advanced once per 4D symbol
// period (8 ns).
//   MASTER: g_M(x) = 1 + x^13 + x^33, Scr_n[0] = Scr_{n-1}[12] XOR Scr_{n-1}[32]
//   SLAVE:  g_S(x) = 1 + x^20 + x^33, Scr_n[0] = Scr_{n-1}[19] XOR Scr_{n-1}[32]
// and Scr_n[i] = Scr_{n-1}[i-1] otherwise. Both polynomials are primitive, so from any non-zero
// state the sequence repeats after 2^33 - 1 symbols (tests/unit/phy_scrambler_test.cpp proves
// it from the implementation's own transition matrix). From the state come the bits that scramble
// each 4D symbol: Sx[3:0], Sy[3:0], Sg[3:0] (C.1's "Derived bits" row).
// Pure logic; the PCS (models/phy/pcs) uses it.
// Exact; no approximation: bit-exact to the recurrences above and C.1's derived-bit list. Scope:
// the LFSR and Sx/Sy/Sg only; Sc[7:0], sign scrambling and the descrambler's lock are the PCS's.
// Caution: C.1's Sg[0] = Scr[11] ^ Scr[5] (as coded) does not fit Sg[1..3], which follow from
// Scr[1] ^ Scr[5] as public 1000BASE-T PCS models have it -- unverified against the standard.

#include <cstdint>

namespace gbesim::phy {

enum class PhyRole : std::uint8_t { master, slave };

struct ScramblerBits {
  std::uint8_t sx = 0;  // Sx[3:0]
  std::uint8_t sy = 0;  // Sy[3:0]
  std::uint8_t sg = 0;  // Sg[3:0]
};

class SideStreamScrambler {
 public:
  static constexpr int kBits = 33;
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;
  static constexpr std::uint64_t kPeriod = kMask;  // 2^33 - 1

  // seed: the initial Scr[32:0] (bit i = Scr[i]); an all-zero state would stay zero, so it is
  // replaced by 1.
  explicit SideStreamScrambler(PhyRole role, std::uint64_t seed = 1);

  std::uint64_t state() const { return state_; }
  void set_state(std::uint64_t state);
  // Advances one symbol period and returns the new Scr_n[0].
  int step();
  // The derived bits of the current state.
  ScramblerBits bits() const;

 private:
  int tap_;  // 12 (master) or 19 (slave)
  std::uint64_t state_;
};

}  // namespace gbesim::phy
