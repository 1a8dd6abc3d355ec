#pragma once
// The 1000BASE-T PCS framing layer (IEEE 802.3 Clause 40.3, as far as docs/references.md,
// Standards C.1 gives it): GMII octets in, one 4D-PAM5 quartet per 8 ns symbol out, and back.
// Modelled: side-stream scrambling (Sc[7:0] from Sx/Sy, sign scrambling with Sg and Srev), the
// trellis-coded data symbols, the stream delimiters SSD/ESD, the two CSReset symbols that return
// the encoder to state 0, carrier extension and its errors in every position, transmit error
// propagation, idle with loc_rcvr_status, the receiver's descrambler lock and false-carrier
// detection.
//
// Symbols of our own (Tables 40-1/40-2 are not available; docs/phy.md says so):
//   SSD1 = ESD1 = (+2,+2,+2,+2), SSD2 = ESD2_Ext_0 = (+2,+2,+2,-2), ESD2_Ext_1 = (+2,+2,-2,+2),
//   ESD2_Ext_2 = (+2,-2,+2,+2), ESD_Ext_Err = (-2,+2,+2,+2); none is sign-scrambled. All-+-2
//   quartets are non-data points of D0, and no data or error symbol is all +-2.
//   Idle: pair i sends +1 if Sd[i] else 0, then the sign scrambling, so idle levels lie in
//   {-1, 0, +1} and the receiver reads Sd[i] = (level != 0) without knowing the sign.
//   Data error (TX_EN = TX_ER = 1): the least-energy non-data point, with a level of magnitude
//   < 2, of the subset Sd[8] = parity, Sd[7:6] = 0; the encoder advances as for Sd[7:6] = 0.
//   CSReset: Sd[7:6] = cs[1:0] and Sd[5:0] = Sc[5:0] ^ code, code 0x00 (none), 0x0F
//   (CSExtend) or 0x1F (CSExtend_Err), so each of the two symbol times is reproduced exactly.
//
// Timing: a frame whose TX_EN is high at n0..n1 sends SSD at n0, n0+1 (the first two preamble
// octets, restored as 0x55), data at n0+2..n1, CSReset at n1+1, n1+2, ESD at n1+3, n1+4. So TX_EN
// must stay low >= 4 symbols between frames (bursts included) and a frame must be >= 3 octets.
//
// Not modelled / limits: noise (hard decisions on exact levels; the Viterbi decoder is in
// models/phy/viterbi); the PMA, link start-up and the training idle; the standard's exact
// symbols. Carrier extension after a frame must not start at the second ESD symbol time (there
// is no ESD2 for it; the transmitter throws). ESD_Ext_Err does not say which ESD symbol time
// carried the error: the receiver reports extend error at both. TX_ER during the two SSD symbol
// times is carried by the frame's first data symbol instead.

#include <array>
#include <cstdint>

#include "models/common/hook.hpp"
#include "models/phy/pam5_code.hpp"
#include "models/phy/scrambler.hpp"

namespace gbesim::phy {

struct GmiiTx {
  bool tx_en = false;
  bool tx_er = false;
  std::uint8_t txd = 0;
  bool operator==(const GmiiTx& o) const {
    return tx_en == o.tx_en && tx_er == o.tx_er && txd == o.txd;
  }
  bool operator!=(const GmiiTx& o) const { return !(*this == o); }
};

struct GmiiRx {
  bool rx_dv = false;
  bool rx_er = false;
  std::uint8_t rxd = 0;
  bool operator==(const GmiiRx& o) const {
    return rx_dv == o.rx_dv && rx_er == o.rx_er && rxd == o.rxd;
  }
  bool operator!=(const GmiiRx& o) const { return !(*this == o); }
};

// GMII code points (IEEE 802.3 Clause 35, Tables 35-1/35-2).
inline constexpr std::uint8_t kGmiiCarrierExtend = 0x0F;
inline constexpr std::uint8_t kGmiiCarrierExtendError = 0x1F;
inline constexpr std::uint8_t kGmiiFalseCarrier = 0x0E;
inline constexpr std::uint8_t kGmiiPreamble = 0x55;
// RXD reported with RX_DV = RX_ER = 1 (a data error): the octet is lost, its value don't-care.
inline constexpr std::uint8_t kGmiiDataErrorRxd = 0x00;

namespace pcs_symbols {
inline constexpr Quartet kSsd1{2, 2, 2, 2};
inline constexpr Quartet kSsd2{2, 2, 2, -2};
inline constexpr Quartet kEsd1{2, 2, 2, 2};
inline constexpr Quartet kEsd2Ext0{2, 2, 2, -2};
inline constexpr Quartet kEsd2Ext1{2, 2, -2, 2};
inline constexpr Quartet kEsd2Ext2{2, -2, 2, 2};
inline constexpr Quartet kEsdExtErr{-2, 2, 2, 2};
}  // namespace pcs_symbols

// TX_EN longer than this (in symbols, preamble included) is refused by the transmitter and ends
// a frame with RX_ER at the receiver: 16,384 symbols hold a 9,000-octet jumbo frame twice over.
inline constexpr int kMaxFrameSymbols = 16'384;
// The least number of symbols TX_EN stays low between frames: two CSReset and two ESD.
inline constexpr int kMinGapSymbols = 4;

// The error symbol of a subset: its least-energy non-data point with a level of magnitude < 2.
Quartet data_error_point(int subset);

class PcsTransmitter {
 public:
  explicit PcsTransmitter(PhyRole role, std::uint64_t seed = 1);

  // One symbol period: the quartet sent for this GMII input. Throws std::invalid_argument when
  // frames are closer than kMinGapSymbols, shorter than 3 octets or longer than kMaxFrameSymbols,
  // or when carrier extension starts at the second ESD symbol time.
  Quartet step(const GmiiTx& in);

  void set_loc_rcvr_status_ok(bool ok) { loc_rcvr_status_ok_ = ok; }
  int encoder_state() const { return encoder_.state(); }
  std::uint64_t symbols() const { return symbol_; }

 private:
  enum Ext : std::uint8_t { kNone, kExtend, kExtendError };
  static Ext extension_of(const GmiiTx& in);
  void check(const GmiiTx& in) const;
  Quartet signed_levels(Quartet q, int sg, bool srev) const;

  SideStreamScrambler scrambler_;
  TrellisEncoder encoder_;
  std::array<bool, 5> en_{};  // en_[k] = tx_enable_{n-k}
  Ext prev_ext_ = kNone;
  int frame_symbols_ = 0;  // TX_EN high so far in this frame
  bool pending_error_ = false;
  bool loc_rcvr_status_ok_ = true;
  std::uint64_t symbol_ = 0;
};

class PcsReceiver {
 public:
  // The GmiiRx returned by step() at symbol n describes symbol n - kLatency: two symbols of look-
  // ahead tell CSReset (ESD1 two symbols later) from data.
  static constexpr int kLatency = 2;
  // Lock: 33 idle symbols load the remote's Scr[32:0] from Sd[0], then kVerifySymbols more must
  // match the prediction of Sd[0] and Sd[3].
  static constexpr int kVerifySymbols = 32;
  static constexpr int kLockSymbols = SideStreamScrambler::kBits + kVerifySymbols;  // 65
  // Unlock: kLossMismatches bad symbols out of frame (invalid idle, false carrier) with no run of
  // kGoodRunSymbols valid idle symbols between them.
  static constexpr int kLossMismatches = 8;
  static constexpr int kGoodRunSymbols = 32;

  enum class State : std::uint8_t {
    unlocked,
    idle,
    false_carrier,
    ssd2,
    data,
    csreset2,
    esd1,
    esd2
  };

  // Hard decisions on exact levels. Before lock it outputs idle. Out of frame: valid idle (each
  // level 0 or +1 with the expected sign, Sd[3] = Sy[3]), SSD1+SSD2, or false carrier (RXD 0x0E)
  // per symbol until idle returns. In a frame: a symbol off the trellis (it tracks the set of
  // consistent encoder states) or a non-data point is a data error (RX_DV = RX_ER = 1, RXD 0x00);
  // a frame without ESD ends with that error at its first all-+-2 symbol or after
  // kMaxFrameSymbols (runaway_frames).
  explicit PcsReceiver(PhyRole remote_role);

  GmiiRx step(const Quartet& q);

  bool locked() const { return locked_; }
  State state() const { return state_; }
  bool remote_rcvr_status_ok() const { return remote_ok_; }
  std::uint64_t frames() const { return frames_; }
  std::uint64_t false_carriers() const { return false_carriers_; }
  std::uint64_t data_errors() const { return data_errors_; }
  std::uint64_t runaway_frames() const { return runaway_frames_; }
  std::uint64_t lock_losses() const { return lock_losses_; }

  Hook<State> state_changed;

 private:
  struct Received {
    Quartet q{};
    ScramblerBits bits;
    bool locked = false;
  };

  void acquire(const Quartet& q);
  GmiiRx decode(const Received& m, const Received& m1, const Received& m2);
  GmiiRx decode_idle(const Received& m, bool srev);
  GmiiRx decode_data(const Received& m, bool srev);
  std::uint8_t decode_csreset(const Received& m, bool srev);
  void note_mismatch(bool bad);
  void set_state(State s);
  void lose_lock();

  SideStreamScrambler scrambler_;
  std::array<Received, kLatency + 1> pipe_{};  // pipe_[0] = the symbol being decoded
  std::array<bool, 5> en_{};                   // recovered tx_enable, en_[k] for m - k
  bool locked_ = false;
  std::uint64_t history_ = 0;  // Sd[0] of recent idle-looking symbols, newest in bit 0
  int history_count_ = 0;
  int verified_ = 0;
  int mismatches_ = 0;
  int good_run_ = 0;
  std::uint8_t trellis_states_ = 1;  // bit s set: encoder state s is consistent
  int frame_symbols_ = 0;
  std::uint8_t esd_rxd_[2] = {0, 0};  // RXD of the two ESD symbol times (0 for plain idle)
  bool remote_ok_ = false;
  State state_ = State::unlocked;
  std::uint64_t frames_ = 0;
  std::uint64_t false_carriers_ = 0;
  std::uint64_t data_errors_ = 0;
  std::uint64_t runaway_frames_ = 0;
  std::uint64_t lock_losses_ = 0;
};

}  // namespace gbesim::phy
