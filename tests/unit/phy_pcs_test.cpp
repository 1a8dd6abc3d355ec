// The 1000BASE-T PCS framing layer: GMII through transmitter and receiver comes back bit-exact
// kLatency symbols later; the delimiters sit where Clause 40.3 puts them; CSReset empties the
// trellis encoder; the receiver locks after exactly 33 + 32 idle symbols and never on the wrong
// polynomial; false carrier, corrupted symbols and bad GMII input are caught.

#include "models/phy/pcs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ostream>
#include <vector>

#include "models/common/rng.hpp"

namespace gbesim::phy {

void PrintTo(const GmiiRx& r, std::ostream* os) {
  *os << "{dv " << r.rx_dv << " er " << r.rx_er << " rxd 0x" << std::hex << int{r.rxd} << "}";
}

namespace {

using namespace pcs_symbols;

constexpr std::uint64_t kSeed = 0x1'2345'6789;
constexpr int kLat = PcsReceiver::kLatency;

const GmiiTx kIdle{false, false, 0x00};
const GmiiTx kExt{false, true, kGmiiCarrierExtend};
const GmiiTx kExtErr{false, true, kGmiiCarrierExtendError};

GmiiTx data(std::uint8_t octet) {
  return GmiiTx{true, false, octet};
}

// What the receiver must deliver for a GMII input: the same, with RXD don't-care (0x00) for a
// data error.
GmiiRx expected(const GmiiTx& in) {
  return GmiiRx{in.tx_en, in.tx_er, in.tx_en && in.tx_er ? kGmiiDataErrorRxd : in.txd};
}

std::vector<Quartet> transmit(const std::vector<GmiiTx>& in, PhyRole role = PhyRole::master,
                              std::uint64_t seed = kSeed) {
  PcsTransmitter tx(role, seed);
  std::vector<Quartet> out;
  for (const auto& g : in) out.push_back(tx.step(g));
  return out;
}

std::vector<GmiiRx> receive(PcsReceiver& rx, const std::vector<Quartet>& in) {
  std::vector<GmiiRx> out;
  for (const auto& q : in) out.push_back(rx.step(q));
  return out;
}

// Asserts out[n + kLatency] == expected(in[n]) for every n.
void expect_round_trip(const std::vector<GmiiTx>& in, const std::vector<GmiiRx>& out) {
  ASSERT_EQ(in.size(), out.size());
  for (std::size_t n = 0; n + kLat < in.size(); ++n)
    ASSERT_EQ(out[n + kLat], expected(in[n])) << "GMII symbol " << n;
}

// Preamble/SFD (the first 8 octets) and then `payload` random octets.
void append_frame(std::vector<GmiiTx>& s, int payload, RngStream& r) {
  for (int i = 0; i < 7; ++i) s.push_back(data(kGmiiPreamble));
  s.push_back(data(0xD5));
  for (int i = 0; i < payload; ++i)
    s.push_back(data(static_cast<std::uint8_t>(r.uniform_below(256))));
}

bool idle_levels(const Quartet& q) {
  for (auto v : q)
    if (std::abs(v) > 1) return false;
  return true;
}

bool all_magnitude_two(const Quartet& q) {
  for (auto v : q)
    if (std::abs(v) != 2) return false;
  return true;
}

// 100 idle symbols, then frames of 64..1518 octets with 12..40 symbols between them. A third of
// the gaps are short carrier extensions (1..6, to reach every ESD2), a third are bursts (all
// extension, next TX_EN directly after); extension symbols are errors (0x1F) one time in eight,
// a quarter of the frames carry 1..3 data errors. The ESD pair cannot say which of its two
// symbol times had an extend error, so an error in either is made an error in both.
struct RandomStream {
  std::vector<GmiiTx> gmii;
  int frames = 0;
  int data_errors = 0;
};

RandomStream random_stream(std::uint64_t seed, int frames) {
  RngStream r(seed, "pcs-stream");
  RandomStream s;
  s.gmii.assign(100, kIdle);
  for (int f = 0; f < frames; ++f) {
    const std::size_t start = s.gmii.size();
    append_frame(s.gmii, static_cast<int>(r.uniform_range(64, 1518)), r);
    if (r.uniform_below(4) == 0) {
      const int errors = static_cast<int>(r.uniform_range(1, 3));
      for (int e = 0; e < errors; ++e) {
        const std::size_t at = r.uniform_range(static_cast<std::int64_t>(start) + 2,
                                               static_cast<std::int64_t>(s.gmii.size()) - 1);
        if (!s.gmii[at].tx_er) ++s.data_errors;
        s.gmii[at].tx_er = true;
      }
    }
    const int gap = static_cast<int>(r.uniform_range(12, 40));
    const int kind = static_cast<int>(r.uniform_below(3));
    const int ext = kind == 0 ? 0 : kind == 1 ? static_cast<int>(r.uniform_range(1, 6)) : gap;
    const std::size_t end = s.gmii.size();  // n1 + 1
    for (int i = 0; i < gap; ++i)
      s.gmii.push_back(i >= ext ? kIdle : r.uniform_below(8) == 0 ? kExtErr : kExt);
    if (s.gmii[end + 2] == kExtErr || s.gmii[end + 3] == kExtErr)
      s.gmii[end + 2] = s.gmii[end + 3] = kExtErr;
    ++s.frames;
  }
  s.gmii.insert(s.gmii.end(), 20, kIdle);
  return s;
}

TEST(Pcs, RandomFramesExtensionsBurstsAndErrorsRoundTripBitExactForBothRoles) {
  const RandomStream s = random_stream(11, 60);
  int bursts = 0, ext_errors = 0;
  for (std::size_t n = 1; n < s.gmii.size(); ++n) {
    bursts += s.gmii[n].tx_en && s.gmii[n - 1] == kExt;
    ext_errors += s.gmii[n] == kExtErr;
  }
  ASSERT_GT(bursts, 5);  // the stream exercises what it claims to
  ASSERT_GT(ext_errors, 10);
  ASSERT_GT(s.data_errors, 5);
  for (PhyRole role : {PhyRole::master, PhyRole::slave}) {
    PcsReceiver rx(role);
    const auto out = receive(rx, transmit(s.gmii, role));
    expect_round_trip(s.gmii, out);
    EXPECT_EQ(rx.frames(), static_cast<std::uint64_t>(s.frames));
    EXPECT_EQ(rx.data_errors(), static_cast<std::uint64_t>(s.data_errors));
    EXPECT_EQ(rx.false_carriers(), 0U);
    EXPECT_EQ(rx.lock_losses(), 0U);
  }
}

// 20 idle symbols, TX_EN at 20..31 (preamble, SFD, 4 octets): SSD at 20, 21; the first data
// symbol (the third 0x55) at 22; CSReset at 32, 33; ESD at 34, 35; idle from 36.
TEST(Pcs, DelimitersReplaceTheFirstTwoPreambleOctetsAndFollowTwoCsResetSymbols) {
  std::vector<GmiiTx> in(20, kIdle);
  for (int i = 0; i < 7; ++i) in.push_back(data(kGmiiPreamble));
  for (std::uint8_t o : {0xD5, 0x01, 0x02, 0x03, 0x04}) in.push_back(data(o));
  in.insert(in.end(), 30, kIdle);
  const auto q = transmit(in);
  EXPECT_EQ(q[20], (Quartet{2, 2, 2, 2}));
  EXPECT_EQ(q[21], (Quartet{2, 2, 2, -2}));
  // Data symbols 22..31 by hand: Sd[7:0] = (Sx << 4 | Sy) ^ TXD, Sd[8] from an encoder starting
  // in state 0, pair i negated where Sg[i] ^ Srev; Srev = tx_enable_{n-2} ^ tx_enable_{n-4} is 1
  // at 22 and 23 (TX_EN rose at 20), 0 from 24.
  SideStreamScrambler ref(PhyRole::master, kSeed);
  TrellisEncoder enc;
  for (int n = 0; n <= 31; ++n) {
    ref.step();
    if (n < 22) continue;
    const ScramblerBits b = ref.bits();
    Quartet want = map_word(enc.encode(static_cast<std::uint8_t>((b.sx << 4 | b.sy) ^ in[n].txd)));
    for (int i = 0; i < 4; ++i)
      if (((b.sg >> i) & 1) ^ (n < 24)) want[i] = static_cast<std::int8_t>(-want[i]);
    EXPECT_EQ(q[n], want) << n;
  }
  for (int n = 22; n <= 33; ++n) EXPECT_FALSE(all_magnitude_two(q[n])) << n;
  EXPECT_EQ(q[34], (Quartet{2, 2, 2, 2}));
  EXPECT_EQ(q[35], (Quartet{2, 2, 2, -2}));
  for (std::size_t n = 0; n < q.size(); ++n)
    EXPECT_TRUE(idle_levels(q[n]) || (n >= 20 && n < 36)) << n;
  // Too short to lock a receiver, so decoding is checked in the tests below.
}

// A frame (TX_EN at 100..111) followed by k extension symbols: ESD2 at 115 says whether ESD1
// (114) and ESD2 were extended. CSReset at 112, 113 carries its own extension.
TEST(Pcs, Esd2SaysWhetherEachEsdSymbolTimeWasExtended) {
  const Quartet kWant[] = {kEsd2Ext0, kEsd2Ext0, kEsd2Ext0, kEsd2Ext1,
                           kEsd2Ext2, kEsd2Ext2, kEsd2Ext2};
  const int kLengths[] = {0, 1, 2, 3, 4, 5, 9};
  RngStream r(5, "esd");
  for (int i = 0; i < 7; ++i) {
    std::vector<GmiiTx> in(100, kIdle);
    append_frame(in, 4, r);
    in.insert(in.end(), kLengths[i], kExt);
    in.insert(in.end(), 30, kIdle);
    const auto q = transmit(in);
    EXPECT_EQ(q[114], kEsd1) << kLengths[i];
    EXPECT_EQ(q[115], kWant[i]) << kLengths[i];
    PcsReceiver rx(PhyRole::master);
    expect_round_trip(in, receive(rx, q));
  }
}

TEST(Pcs, ExtendErrorsAreExactInCsResetAndWidenedOverTheEsdPair) {
  RngStream r(6, "esd-err");
  std::vector<GmiiTx> in(100, kIdle);
  append_frame(in, 4, r);
  in.insert(in.end(), {kExtErr, kExt, kExt, kExt, kExtErr, kExt, kIdle});
  in.insert(in.end(), 30, kIdle);
  auto q = transmit(in);
  EXPECT_EQ(q[115], kEsd2Ext2);  // the error at 112 is in CSReset, not the ESD
  PcsReceiver rx(PhyRole::master);
  expect_round_trip(in, receive(rx, q));

  in[114] = kExtErr;  // ESD1's time an error, ESD2's plain extension
  in[115] = kIdle;
  q = transmit(in);
  EXPECT_EQ(q[115], kEsdExtErr);
  PcsReceiver rx2(PhyRole::master);
  const auto out = receive(rx2, q);
  EXPECT_EQ(out[114 + kLat], expected(kExtErr));
  EXPECT_EQ(out[115 + kLat], expected(kExtErr));  // widened: it was idle
  EXPECT_EQ(out[113 + kLat], expected(kExt));
  EXPECT_EQ(out[116 + kLat], expected(kExtErr));
}

// 500 frames of 3..40 octets, 4..10 symbols apart (4 is the least): after the second CSReset
// symbol the encoder is in state 0, though before the first it was not in about 7 of 8 frames.
// The receiver decodes the dense stream exactly.
TEST(Pcs, CsResetReturnsTheTrellisEncoderToStateZero) {
  RngStream r(9, "csreset");
  std::vector<GmiiTx> in(100, kIdle);
  std::vector<std::size_t> ends;  // n1 of each frame
  for (int f = 0; f < 500; ++f) {
    const int octets = static_cast<int>(r.uniform_range(3, 40));
    in.push_back(data(kGmiiPreamble));
    in.push_back(data(kGmiiPreamble));
    for (int i = 2; i < octets; ++i)
      in.push_back(data(static_cast<std::uint8_t>(r.uniform_below(256))));
    ends.push_back(in.size() - 1);
    in.insert(in.end(), static_cast<std::size_t>(r.uniform_range(4, 10)), kIdle);
  }
  in.insert(in.end(), 20, kIdle);
  PcsTransmitter tx(PhyRole::slave, kSeed);
  std::vector<Quartet> q;
  std::size_t next = 0;
  int busy_before_csreset = 0;
  for (std::size_t n = 0; n < in.size(); ++n) {
    q.push_back(tx.step(in[n]));
    if (next < ends.size() && n == ends[next]) busy_before_csreset += tx.encoder_state() != 0;
    if (next < ends.size() && n == ends[next] + 2) {
      ASSERT_EQ(tx.encoder_state(), 0) << "frame " << next;
      ++next;
    }
  }
  EXPECT_EQ(next, ends.size());
  EXPECT_GT(busy_before_csreset, 400);
  PcsReceiver rx(PhyRole::slave);
  expect_round_trip(in, receive(rx, q));
  EXPECT_EQ(rx.frames(), 500U);
}

// Idle levels are +1 for Sd[i] = 1 else 0, sign-scrambled: over 10,000 symbols -1, 0, +1 come
// a quarter, a half and a quarter of the time.
TEST(Pcs, IdleUsesOnlyLevelsMinusOneZeroAndPlusOne) {
  const auto q = transmit(std::vector<GmiiTx>(10'000, kIdle));
  int count[3] = {0, 0, 0};
  for (const auto& s : q) {
    ASSERT_TRUE(idle_levels(s));
    for (auto v : s) ++count[v + 1];
  }
  EXPECT_NEAR(count[0] / 40'000.0, 0.25, 0.01);
  EXPECT_NEAR(count[1] / 40'000.0, 0.50, 0.01);
  EXPECT_NEAR(count[2] / 40'000.0, 0.25, 0.01);
}

TEST(Pcs, ReceiverLocksAfterExactlySixtyFiveIdleSymbols) {
  EXPECT_EQ(PcsReceiver::kLockSymbols, 65);
  for (PhyRole role : {PhyRole::master, PhyRole::slave}) {
    PcsTransmitter tx(role, kSeed);
    PcsReceiver rx(role);
    for (int n = 1; n <= 64; ++n) {
      EXPECT_EQ(rx.step(tx.step(kIdle)), GmiiRx{});
      ASSERT_FALSE(rx.locked()) << n;
    }
    rx.step(tx.step(kIdle));
    EXPECT_TRUE(rx.locked());
    // The first symbol decoded after lock carries the remote's loc_rcvr_status.
    EXPECT_FALSE(rx.remote_rcvr_status_ok());
    for (int n = 0; n <= kLat; ++n) rx.step(tx.step(kIdle));
    EXPECT_TRUE(rx.remote_rcvr_status_ok());
    tx.set_loc_rcvr_status_ok(false);
    for (int n = 0; n <= kLat; ++n) EXPECT_EQ(rx.step(tx.step(kIdle)), GmiiRx{});
    EXPECT_FALSE(rx.remote_rcvr_status_ok());
  }
}

TEST(Pcs, ReceiverForTheWrongRoleNeverLocksInTenThousandSymbols) {
  PcsReceiver rx(PhyRole::slave);
  for (const auto& q : transmit(std::vector<GmiiTx>(10'000, kIdle), PhyRole::master)) {
    EXPECT_EQ(rx.step(q), GmiiRx{});
    ASSERT_FALSE(rx.locked());
  }
}

// After 200 symbols the remote restarts with another seed: the receiver sees invalid idle (false
// carrier), drops lock after 8 of them, and relocks exactly 65 symbols later.
TEST(Pcs, ReceiverLosesLockWhenTheRemoteRestartsAndRelocksSixtyFiveSymbolsLater) {
  PcsTransmitter a(PhyRole::master, kSeed), b(PhyRole::master, 777);
  PcsReceiver rx(PhyRole::master);
  for (int n = 0; n < 200; ++n) rx.step(a.step(kIdle));
  ASSERT_TRUE(rx.locked());
  int lost_at = -1;
  for (int n = 200; n < 600; ++n) {
    rx.step(b.step(kIdle));
    if (lost_at < 0 && !rx.locked()) lost_at = n;
    EXPECT_TRUE(lost_at < 0 || rx.locked() == (n >= lost_at + 65)) << n;
  }
  ASSERT_GE(lost_at, 200 + PcsReceiver::kLossMismatches - 1 + kLat);
  EXPECT_LT(lost_at, 260);
  EXPECT_EQ(rx.lock_losses(), 1U);
}

TEST(Pcs, NonIdleSymbolInIdleIsReportedAsFalseCarrierAtItsOwnTime) {
  auto q = transmit(std::vector<GmiiTx>(200, kIdle));
  q[150] = {2, 0, 0, 0};
  // An idle symbol with pair D's level moved between 0 and 1: Sd[3] no longer equals Sy[3].
  q[170][3] = static_cast<std::int8_t>(q[170][3] == 0 ? 1 : 0);
  PcsReceiver rx(PhyRole::master);
  const auto out = receive(rx, q);
  for (int n = 100; n < 198; ++n) {
    const GmiiRx want = n == 150 || n == 170 ? GmiiRx{false, true, kGmiiFalseCarrier} : GmiiRx{};
    EXPECT_EQ(out[n + kLat], want) << n;
  }
  EXPECT_EQ(rx.false_carriers(), 2U);
  EXPECT_TRUE(rx.locked());
}

// One level of data symbol 120 moved by one step (a slicer error): its subset leaves the family
// the trellis allows, so that octet -- and only it -- comes out with RX_DV = RX_ER = 1.
TEST(Pcs, CorruptedDataSymbolIsReportedAsADataErrorAndOnlyThatOne) {
  RngStream r(4, "corrupt");
  std::vector<GmiiTx> in(100, kIdle);
  append_frame(in, 200, r);
  in.insert(in.end(), 30, kIdle);
  auto q = transmit(in);
  for (auto& v : q[120])
    if (std::abs(v) <= 1) {
      v = static_cast<std::int8_t>(v == 0 ? 1 : 0);
      break;
    }
  PcsReceiver rx(PhyRole::master);
  const auto out = receive(rx, q);
  for (std::size_t n = 0; n + kLat < in.size(); ++n) {
    const GmiiRx want = n == 120 ? GmiiRx{true, true, kGmiiDataErrorRxd} : expected(in[n]);
    ASSERT_EQ(out[n + kLat], want) << n;
  }
  EXPECT_EQ(rx.data_errors(), 1U);
}

// A frame whose ESD is lost ends, at the first symbol that can be no data, with RX_ER.
TEST(Pcs, FrameWithoutEsdEndsWithAnError) {
  RngStream r(8, "no-esd");
  std::vector<GmiiTx> in(100, kIdle);
  append_frame(in, 20, r);  // TX_EN at 100..127, ESD at 130, 131
  in.insert(in.end(), 30, kIdle);
  auto q = transmit(in);
  q[130] = {2, 2, -2, -2};
  PcsReceiver rx(PhyRole::master);
  const auto out = receive(rx, q);
  EXPECT_EQ(out[127 + kLat], expected(in[127]));
  EXPECT_TRUE(out[128 + kLat].rx_dv);  // the CSReset symbols now look like data
  EXPECT_EQ(out[130 + kLat], (GmiiRx{true, true, kGmiiDataErrorRxd}));
  EXPECT_FALSE(out[132 + kLat].rx_dv);
  EXPECT_EQ(rx.runaway_frames(), 1U);
}

TEST(Pcs, TransmitterRejectsFramesCloserThanFourSymbolsOrShorterThanThreeOctets) {
  auto run = [](const std::vector<GmiiTx>& in) { transmit(in); };
  std::vector<GmiiTx> in(10, kIdle);
  in.insert(in.end(), 5, data(kGmiiPreamble));
  in.insert(in.end(), 4, kIdle);
  in.insert(in.end(), 5, data(kGmiiPreamble));
  EXPECT_NO_THROW(run(in));
  in.erase(in.begin() + 15);  // gap of 3
  EXPECT_THROW(run(in), std::invalid_argument);

  std::vector<GmiiTx> short_frame(10, kIdle);
  short_frame.insert(short_frame.end(), 3, data(kGmiiPreamble));
  short_frame.insert(short_frame.end(), 5, kIdle);
  EXPECT_NO_THROW(run(short_frame));
  short_frame.erase(short_frame.begin() + 10);
  EXPECT_THROW(run(short_frame), std::invalid_argument);

  std::vector<GmiiTx> late_ext(10, kIdle);
  late_ext.insert(late_ext.end(), 5, data(kGmiiPreamble));
  late_ext.insert(late_ext.end(), {kIdle, kIdle, kIdle, kExt, kIdle});  // extension at ESD2
  EXPECT_THROW(run(late_ext), std::invalid_argument);

  std::vector<GmiiTx> endless(kMaxFrameSymbols + 1, data(0));
  EXPECT_THROW(run(endless), std::invalid_argument);
  endless.pop_back();
  endless.push_back(kIdle);
  EXPECT_NO_THROW(run(endless));
}

}  // namespace
}  // namespace gbesim::phy
