#include "models/phy/pcs.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gbesim::phy {

namespace {

using namespace pcs_symbols;

// Sign scrambling: pair i is negated when Sg[i] ^ Srev. Its own inverse.
Quartet flip_signs(Quartet q, int sg, bool srev) {
  for (int i = 0; i < 4; ++i)
    if (((sg >> i) & 1) ^ static_cast<int>(srev)) q[i] = static_cast<std::int8_t>(-q[i]);
  return q;
}

bool all_magnitude_two(const Quartet& q) {
  for (auto v : q)
    if (std::abs(v) != 2) return false;
  return true;
}

int energy(const Quartet& q) {
  int e = 0;
  for (auto v : q) e += v * v;
  return e;
}

std::uint8_t scrambler_octet(const ScramblerBits& b, bool tx_enable_2) {
  return static_cast<std::uint8_t>((tx_enable_2 ? b.sx << 4 : 0) | b.sy);
}

GmiiRx not_in_frame(std::uint8_t rxd) {
  return GmiiRx{false, rxd != 0, rxd};
}

void shift_in(std::array<bool, 5>& en, bool now) {
  for (int k = 4; k > 0; --k) en[k] = en[k - 1];
  en[0] = now;
}

std::string at_symbol(std::uint64_t n) {
  return " (GMII symbol " + std::to_string(n) + ")";
}

}  // namespace

Quartet data_error_point(int subset) {
  static const auto table = [] {
    std::array<Quartet, 8> t{};
    std::array<int, 8> best{};
    best.fill(1 << 30);
    for (int x = 0; x < 625; ++x) {
      Quartet q{};
      for (int i = 3, v = x; i >= 0; --i, v /= 5) q[i] = static_cast<std::int8_t>(v % 5 - 2);
      const int s = subset_of(q);
      if (unmap_quartet(q) >= 0 || all_magnitude_two(q) || energy(q) >= best[s]) continue;
      best[s] = energy(q);
      t[s] = q;
    }
    return t;
  }();
  return table[subset & 7];
}

PcsTransmitter::PcsTransmitter(PhyRole role, std::uint64_t seed) : scrambler_(role, seed) {}

PcsTransmitter::Ext PcsTransmitter::extension_of(const GmiiTx& in) {
  if (in.tx_en || !in.tx_er) return kNone;
  return in.txd == kGmiiCarrierExtend ? kExtend : kExtendError;
}

// en_ still holds tx_enable_{n-1-k} here.
void PcsTransmitter::check(const GmiiTx& in) const {
  if (in.tx_en && !en_[0]) {
    for (int k = 1; k < kMinGapSymbols; ++k)
      if (en_[k])
        throw std::invalid_argument(
            "PCS: TX_EN rose " + std::to_string(k + 1) + " symbols after it fell" +
            at_symbol(symbol_) + "; 1000BASE-T needs it low for at least " +
            std::to_string(kMinGapSymbols) + " symbols (2 CSReset + 2 ESD)");
  }
  if (!in.tx_en && en_[0] && frame_symbols_ < 3)
    throw std::invalid_argument("PCS: a frame of " + std::to_string(frame_symbols_) + " octets" +
                                at_symbol(symbol_) + "; at least 3 are needed (2 become the SSD)");
  if (in.tx_en && frame_symbols_ >= kMaxFrameSymbols)
    throw std::invalid_argument("PCS: TX_EN high for more than " +
                                std::to_string(kMaxFrameSymbols) + " symbols" + at_symbol(symbol_));
  const bool esd2 = !en_[1] && !en_[2] && en_[3];
  if (esd2 && prev_ext_ == kNone && extension_of(in) == kExtend)
    throw std::invalid_argument("PCS: carrier extension starting at the second ESD symbol" +
                                at_symbol(symbol_) +
                                "; it must follow TX_EN directly or start after the ESD");
}

Quartet PcsTransmitter::step(const GmiiTx& in) {
  check(in);
  shift_in(en_, in.tx_en);
  scrambler_.step();
  const ScramblerBits b = scrambler_.bits();
  const bool srev = en_[2] ^ en_[4];
  const std::uint8_t sc = scrambler_octet(b, en_[2]);
  const Ext ext = extension_of(in);
  frame_symbols_ = in.tx_en ? frame_symbols_ + 1 : 0;
  ++symbol_;

  Quartet out{};
  if (en_[0] && !en_[2]) {  // SSD: the first two preamble octets
    pending_error_ = (en_[1] && pending_error_) || in.tx_er;
    out = en_[1] ? kSsd2 : kSsd1;
  } else if (en_[0]) {  // data
    if (in.tx_er || pending_error_) {
      pending_error_ = false;
      const int subset = TrellisEncoder::parity_bit(encoder_.state());  // Sd[7:6] = 0
      encoder_.encode(0);
      out = data_error_point(subset);
    } else {
      out = map_word(encoder_.encode(static_cast<std::uint8_t>(sc ^ in.txd)));
    }
    out = flip_signs(out, b.sg, srev);
  } else if (en_[2]) {  // CSReset: Sd[7:6] = cs[1:0] empties the encoder in two symbols
    const int code = ext == kNone     ? 0
                     : ext == kExtend ? kGmiiCarrierExtend
                                      : kGmiiCarrierExtendError;
    const int sd = (encoder_.state() & 3) << 6 | ((sc ^ code) & 0x3F);
    out = flip_signs(map_word(encoder_.encode(static_cast<std::uint8_t>(sd))), b.sg, srev);
  } else if (en_[4]) {  // ESD
    if (en_[3]) {
      out = kEsd1;
    } else if (prev_ext_ == kExtendError || ext == kExtendError) {
      out = kEsdExtErr;
    } else if (prev_ext_ == kExtend) {
      out = ext == kExtend ? kEsd2Ext2 : kEsd2Ext1;
    } else {
      out = kEsd2Ext0;
    }
  } else {  // idle, perhaps extended
    const int sd = b.sy ^ (ext == kExtend ? 1 : 0) ^ (ext == kExtendError ? 2 : 0) ^
                   (loc_rcvr_status_ok_ ? 4 : 0);
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::int8_t>((sd >> i) & 1);
    out = flip_signs(out, b.sg, srev);
  }
  prev_ext_ = ext;
  return out;
}

PcsReceiver::PcsReceiver(PhyRole remote_role) : scrambler_(remote_role) {}

GmiiRx PcsReceiver::step(const Quartet& q) {
  Received r;
  r.q = q;
  if (locked_) {
    scrambler_.step();
    r.bits = scrambler_.bits();
    r.locked = true;
  } else {
    acquire(q);
  }
  for (int k = 0; k < kLatency; ++k) pipe_[k] = pipe_[k + 1];
  pipe_[kLatency] = r;
  if (!pipe_[0].locked) return GmiiRx{};
  return decode(pipe_[0], pipe_[1], pipe_[2]);
}

// In idle Sd[0] = Scr[0] of the remote: the last 33 of them are its whole state.
void PcsReceiver::acquire(const Quartet& q) {
  for (auto v : q)
    if (std::abs(v) > 1) {
      history_count_ = 0;
      verified_ = 0;
      return;
    }
  const int sd0 = q[0] != 0;
  const int sd3 = q[3] != 0;
  history_ = ((history_ << 1) | static_cast<std::uint64_t>(sd0)) & SideStreamScrambler::kMask;
  if (history_count_ < SideStreamScrambler::kBits) {
    if (++history_count_ == SideStreamScrambler::kBits) {
      scrambler_.set_state(history_);
      verified_ = 0;
    }
    return;
  }
  scrambler_.step();
  const ScramblerBits b = scrambler_.bits();
  if ((b.sy & 1) == sd0 && ((b.sy >> 3) & 1) == sd3) {
    if (++verified_ == kVerifySymbols) {
      locked_ = true;
      mismatches_ = 0;
      good_run_ = 0;
      set_state(State::idle);
    }
  } else {
    scrambler_.set_state(history_);
    verified_ = 0;
  }
}

GmiiRx PcsReceiver::decode(const Received& m, const Received& m1, const Received& m2) {
  shift_in(en_, false);
  const bool srev = en_[2] ^ en_[4];
  switch (state_) {
    case State::unlocked:
    case State::idle:
    case State::false_carrier: {
      const GmiiRx idle = decode_idle(m, srev);
      if (!idle.rx_dv) {
        note_mismatch(false);
        set_state(State::idle);
        return idle;
      }
      if (m.q == kSsd1 && m1.q == kSsd2) {
        en_[0] = true;
        ++frames_;
        frame_symbols_ = 1;
        set_state(State::ssd2);
        return GmiiRx{true, false, kGmiiPreamble};
      }
      if (state_ != State::false_carrier) ++false_carriers_;
      set_state(State::false_carrier);
      note_mismatch(true);
      return not_in_frame(kGmiiFalseCarrier);
    }
    case State::ssd2:
      en_[0] = true;
      trellis_states_ = 1;
      ++frame_symbols_;
      set_state(State::data);
      return GmiiRx{true, false, kGmiiPreamble};
    case State::data:
      if (m2.q == kEsd1) {
        set_state(State::csreset2);
        return not_in_frame(decode_csreset(m, srev));
      }
      if (++frame_symbols_ > kMaxFrameSymbols || all_magnitude_two(m.q)) {
        ++runaway_frames_;
        set_state(State::idle);
        return GmiiRx{true, true, kGmiiDataErrorRxd};
      }
      en_[0] = true;
      return decode_data(m, srev);
    case State::csreset2:
      set_state(State::esd1);
      return not_in_frame(decode_csreset(m, srev));
    case State::esd1: {
      // ESD2 says what both ESD symbol times carried; anything unknown is an extend error.
      const Quartet& esd2 = m1.q;
      const std::uint8_t ext = kGmiiCarrierExtend;
      const std::uint8_t err = kGmiiCarrierExtendError;
      esd_rxd_[0] = esd2 == kEsd2Ext0 ? 0 : esd2 == kEsd2Ext1 || esd2 == kEsd2Ext2 ? ext : err;
      esd_rxd_[1] = esd2 == kEsd2Ext0 || esd2 == kEsd2Ext1 ? 0 : esd2 == kEsd2Ext2 ? ext : err;
      set_state(State::esd2);
      return not_in_frame(esd_rxd_[0]);
    }
    case State::esd2:
      set_state(State::idle);
      return not_in_frame(esd_rxd_[1]);
  }
  return GmiiRx{};
}

// Valid idle: each level 0 or +1 with the expected sign, Sd[3] = Sy[3], and not both extension
// bits. Returns RX_DV = 1 (impossible for idle) to say "not idle".
GmiiRx PcsReceiver::decode_idle(const Received& m, bool srev) {
  const Quartet u = flip_signs(m.q, m.bits.sg, srev);
  int sd = 0;
  for (int i = 0; i < 4; ++i) {
    if (u[i] != 0 && u[i] != 1) return GmiiRx{true, true, 0};
    sd |= u[i] << i;
  }
  const int x = sd ^ m.bits.sy;
  if ((x & 8) || (x & 3) == 3) return GmiiRx{true, true, 0};
  remote_ok_ = (x & 4) != 0;
  if (x & 1) return not_in_frame(kGmiiCarrierExtend);
  if (x & 2) return not_in_frame(kGmiiCarrierExtendError);
  return GmiiRx{};
}

// The receiver follows the set of encoder states consistent with the symbols so far: a symbol of
// the wrong family for all of them is an error, after which any state is possible again.
GmiiRx PcsReceiver::decode_data(const Received& m, bool srev) {
  const Quartet u = flip_signs(m.q, m.bits.sg, srev);
  const int subset = subset_of(u);
  std::uint8_t consistent = 0;
  for (int s = 0; s < 8; ++s)
    if ((trellis_states_ >> s & 1) && TrellisEncoder::parity_bit(s) == (subset & 1))
      consistent = static_cast<std::uint8_t>(consistent | 1 << s);
  const std::uint8_t from = consistent ? consistent : 0xFF;
  trellis_states_ = 0;
  for (int s = 0; s < 8; ++s)
    if (from >> s & 1)
      trellis_states_ = static_cast<std::uint8_t>(trellis_states_ |
                                                  1 << TrellisEncoder::next_state(s, subset >> 1));
  const int word = unmap_quartet(u);
  if (word < 0 || consistent == 0) {
    ++data_errors_;
    return GmiiRx{true, true, kGmiiDataErrorRxd};
  }
  return GmiiRx{true, false, static_cast<std::uint8_t>(word ^ scrambler_octet(m.bits, en_[2]))};
}

std::uint8_t PcsReceiver::decode_csreset(const Received& m, bool srev) {
  const int word = unmap_quartet(flip_signs(m.q, m.bits.sg, srev));
  if (word < 0) return kGmiiCarrierExtendError;
  const int code = (word ^ scrambler_octet(m.bits, en_[2])) & 0x3F;
  if (code == 0 || code == kGmiiCarrierExtend) return static_cast<std::uint8_t>(code);
  return kGmiiCarrierExtendError;
}

void PcsReceiver::note_mismatch(bool bad) {
  if (!bad) {
    if (++good_run_ >= kGoodRunSymbols) mismatches_ = 0;
    return;
  }
  good_run_ = 0;
  if (++mismatches_ >= kLossMismatches) lose_lock();
}

void PcsReceiver::lose_lock() {
  locked_ = false;
  ++lock_losses_;
  history_count_ = 0;
  verified_ = 0;
  mismatches_ = 0;
  good_run_ = 0;
  en_.fill(false);
  for (auto& r : pipe_) r.locked = false;
  set_state(State::unlocked);
}

void PcsReceiver::set_state(State s) {
  if (s == state_) return;
  state_ = s;
  state_changed(s);
}

}  // namespace gbesim::phy
