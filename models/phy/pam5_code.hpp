#pragma once
// 1000BASE-T's 4D-PAM5 trellis-coded modulation (IEEE 802.3 40.3.1.3 as docs/references.md,
// Standards C.1 gives it): each 8 ns a 9-bit word Sd[8:0] -- eight data bits and one bit from an
// 8-state convolutional encoder -- becomes a quartet (A, B, C, D) of PAM-5 symbols
// {-2, -1, 0, +1, +2}.
//
// The subset partition is the standard's: the 1D subsets X = {-1, +1} and Y = {-2, 0, +2}; a 4D
// subset is a pattern of X/Y per pair together with its complement (XXXX and YYYY, ...), eight
// of them, D0..D7, the even ones (an even number of Y) and the odd ones. Within a subset points
// are at squared distance >= 4; two even (or two odd) subsets are >= 2 apart, an even and an odd
// one >= 1 (uncoded PAM-5's minimum). The encoder's state picks the family (Sd[8]), Sd[7:6]
// the subset within it, Sd[5:0] the point.
//
// NOT the standard's Tables 40-1/40-2 (not available here): which 64 points of a subset carry
// which Sd[5:0] is our own choice (the 64 of least energy, in a fixed order), so the symbols on
// the wire differ from a real PHY's while the code's distances -- and hence its coding gain --
// are the same. docs/phy.md says so.
//
// Exact (integer levels; distances found by exhaustive search); no approximation. Scope: the data
// quartets and the convolutional encoder only -- control symbols, idle, error symbols and sign
// scrambling are the PCS's (models/phy/pcs); voltages and noise are the link model's.

#include <array>
#include <cstdint>

namespace gbesim::phy {

using Quartet = std::array<std::int8_t, 4>;

// The 4D subset (0..7) a quartet belongs to: even indices for an even number of Y coordinates.
int subset_of(const Quartet& q);
// Squared Euclidean distance.
int distance2(const Quartet& a, const Quartet& b);
// The least squared distance between any point of subset a and any of subset b (a != b), or
// between two distinct points of one subset (a == b).
int subset_distance2(int a, int b);

// The quartet of a 9-bit word, and back (nullopt-free: every quartet the map produces has a word;
// others give -1).
Quartet map_word(std::uint16_t sd);
int unmap_quartet(const Quartet& q);

// The 8-state encoder: cs_n[1] = Sd_n[6] ^ cs_{n-1}[0], cs_n[2] = Sd_n[7] ^ cs_{n-1}[1],
// cs_n[0] = cs_{n-1}[2], Sd_n[8] = cs_n[0].
class TrellisEncoder {
 public:
  int state() const { return state_; }
  void reset(int state = 0) { state_ = state & 7; }
  // The 9-bit word for eight bits (Sd[7:0]), advancing the state.
  std::uint16_t encode(std::uint8_t bits);
  static int next_state(int state, int sd76);
  static int parity_bit(int state) { return (state >> 2) & 1; }  // Sd[8] leaving `state`

 private:
  int state_ = 0;
};

}  // namespace gbesim::phy
