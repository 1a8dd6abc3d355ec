// The 1000BASE-T link-level model: cable data against published limit tables, the solved
// receiver against its own Monte Carlo, the union-bound error rates against Monte Carlo, and the
// issue's link budget claims (100 m of Cat 5e works with margin, not without echo cancellation).

#include "models/phy/link_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "models/common/rng.hpp"
#include "models/phy/viterbi.hpp"

namespace gbesim::phy {
namespace {

PhyLinkParams cable(const char* name, double length_m) {
  PhyLinkParams p;
  p.cable = find_cable_category(name);
  p.length_m = length_m;
  return p;
}

TEST(PhyCable, LimitsMatchPublishedChannelTables) {
  const auto& cat5 = *find_cable_category("cat5");
  const auto& cat5e = *find_cable_category("CAT5E");
  const auto& cat6 = *find_cable_category("cat6");
  // Class D / Cat 5 channel attenuation (TSB-67 table): 24.0 dB at 100 MHz, 18.5 at 62.5, 9.2 at
  // 16; the formula is the 802.3 link-segment one, so within 0.3 dB.
  EXPECT_NEAR(insertion_loss_db(cat5, 100, 100), 24.0, 0.3);
  EXPECT_NEAR(insertion_loss_db(cat5, 62.5, 100), 18.5, 0.3);
  EXPECT_NEAR(insertion_loss_db(cat5, 16, 100), 9.2, 0.3);
  EXPECT_NEAR(insertion_loss_db(cat5, 100, 50), 12.0, 0.15);  // dB per metre
  EXPECT_NEAR(insertion_loss_db(cat5e, 100, 100), 24.0, 0.1);
  EXPECT_NEAR(insertion_loss_db(cat6, 100, 100), 21.6, 0.1);
  // Channel NEXT (TSB-67 table): 27.1 dB at 100 MHz, 40.6 at 16, 30.6 at 62.5.
  EXPECT_NEAR(next_loss_db(cat5, 100), 27.1, 0.05);
  EXPECT_NEAR(next_loss_db(cat5, 16), 40.6, 0.2);
  EXPECT_NEAR(next_loss_db(cat5, 62.5), 30.6, 0.1);
  // Return loss (LANTEK limit table, channel): Cat 5 8.0 / Cat 5e 10.0 at 100 MHz, Cat 6 14.1 at
  // 62.5 and 18.0 at 16; flat below the knee.
  EXPECT_NEAR(return_loss_db(cat5, 100), 8.0, 0.05);
  EXPECT_NEAR(return_loss_db(cat5, 10), 15.0, 1e-9);
  EXPECT_NEAR(return_loss_db(cat5e, 100), 10.0, 0.05);
  EXPECT_NEAR(return_loss_db(cat5e, 25), 16.0, 0.05);
  EXPECT_NEAR(return_loss_db(cat6, 62.5), 14.1, 0.1);
  EXPECT_NEAR(return_loss_db(cat6, 16), 18.0, 0.05);
  // ELFEXT (TSB-95): 17 dB at 100 MHz over 100 m, 20 dB per decade.
  EXPECT_NEAR(elfext_db(cat5, 100, 100), 17.0, 1e-9);
  EXPECT_NEAR(elfext_db(cat5, 10, 100), 37.0, 1e-9);
  EXPECT_EQ(find_cable_category("cat7"), nullptr);
}

TEST(PhyLink, SlicerErrorIsTheSumOfItsSources) {
  for (const double length : {0.0, 100.0, 200.0}) {
    const auto a = analyse_link(cable("cat5e", length));
    const auto& b = a.budget;
    const double sum = b.isi + b.echo + b.next + b.fext + b.noise + b.adc;
    EXPECT_NEAR(sum / (a.sigma * a.sigma), 1.0, 1e-6) << length << " m";
  }
}

TEST(PhyLink, MonteCarloMseMatchesTheSolvedReceiverWithinOnePercent) {
  // Symbol by symbol on all four pairs with sign-scrambled coded symbols, the same responses,
  // colored noise and a real quantiser: the measured slicer MSE against the closed-form one.
  for (const double length : {100.0, 200.0}) {
    const auto p = cable("cat5e", length);
    const auto a = analyse_link(p);
    const auto mc = simulate_link(p, a, 100'000, 11);
    EXPECT_NEAR(mc.measured_mse / (a.sigma * a.sigma), 1.0, 0.01) << length << " m";
  }
}

TEST(PhyLink, HundredMetresOfCat5eWorkWithMarginAndFailWithoutEchoCancellation) {
  const auto a = analyse_link(cable("cat5e", 100));
  EXPECT_GT(a.margin_db, 3.0);
  EXPECT_LT(a.ber_coded, 1e-10);
  auto p = cable("cat5e", 100);
  p.echo_cancellation = false;
  const auto off = analyse_link(p);
  EXPECT_LT(off.margin_db, -10.0);
  EXPECT_GT(off.octet_error_uncoded, 1e-2);
  // Without NEXT cancellation it still works at 100 m, with less margin.
  p = cable("cat5e", 100);
  p.next_cancellation = false;
  const auto no_next = analyse_link(p);
  EXPECT_LT(no_next.margin_db, a.margin_db - 1.0);
  EXPECT_GT(no_next.margin_db, 0.0);
}

TEST(PhyLink, MarginFallsWithLengthAndBetterCableReachesFurther) {
  double previous = 1e9;
  for (double length = 0; length <= 200; length += 20) {
    const double m = analyse_link(cable("cat5e", length)).margin_db;
    EXPECT_LT(m, previous) << length << " m";
    previous = m;
  }
  // At 180 m: Cat 6 > Cat 5e > Cat 5 (less loss, NEXT and FEXT).
  const double m5 = analyse_link(cable("cat5", 180)).margin_db;
  const double m5e = analyse_link(cable("cat5e", 180)).margin_db;
  const double m6 = analyse_link(cable("cat6", 180)).margin_db;
  EXPECT_LT(m5, m5e);
  EXPECT_LT(m5e, m6);
}

TEST(PhyLink, AnEchoCancellerSpanningTheRoundTripRemovesTheFarEndReflection) {
  // 50 m: the far hybrid's reflection returns after 2 x 50 x 5.7 ns = 71 symbols.
  auto p = cable("cat5e", 50);
  p.echo_canceller_taps = 40;
  const double short_span = analyse_link(p).budget.echo;
  p.echo_canceller_taps = 160;
  const double long_span = analyse_link(p).budget.echo;
  EXPECT_GT(short_span, 100 * long_span);
}

TEST(PhyLink, UnionBoundIsWithinAFactorOfTwoOfMonteCarlo) {
  // AWGN at sigma 0.22: Viterbi over 400,000 coded symbols (about 200 octet errors).
  const double sigma = 0.22;
  RngStream r(5, "union-bound");
  TrellisEncoder e;
  std::vector<std::uint8_t> bytes(400'000);
  std::vector<Sample> rx;
  for (auto& b : bytes) {
    b = static_cast<std::uint8_t>(r.uniform_below(256));
    const Quartet q = map_word(e.encode(b));
    Sample s{};
    for (int i = 0; i < 4; ++i) s[i] = q[i] + sigma * r.normal();
    rx.push_back(s);
  }
  const auto words = viterbi_decode(rx);
  int octets = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) octets += (words[i] & 0xFF) != bytes[i];
  const double measured = octets / 400'000.0;
  const double predicted = coded_error_rates(sigma).octet_error;
  EXPECT_GT(octets, 100);
  EXPECT_GT(predicted, measured / 2);
  EXPECT_LT(predicted, measured * 2);
  // On 260 m of Cat 5 through the whole receiver (the residual is not Gaussian).
  const auto p = cable("cat5", 260);
  const auto a = analyse_link(p);
  const auto mc = simulate_link(p, a, 300'000, 3);
  const double link_measured = static_cast<double>(mc.octet_errors) / 300'000.0;
  EXPECT_GT(mc.octet_errors, 100);
  EXPECT_GT(a.octet_error_coded, link_measured / 2);
  EXPECT_LT(a.octet_error_coded, link_measured * 2);
}

TEST(PhyLink, CodingGainGrowsTowardsSixDecibelsAsErrorsGetRarer) {
  // Same PAM-5 levels, coded (union bound) vs symbol-by-symbol: the noise each tolerates for one
  // octet error in 1e3 .. 1e12. The asymptote is 10 log10(4) = 6.02 dB (free distance 4 vs 1).
  double previous = 0;
  for (const double rate : {1e-3, 1e-6, 1e-9, 1e-12}) {
    const double gain = coding_gain_db(rate);
    EXPECT_GT(gain, previous + 0.05) << rate;
    EXPECT_LT(gain, 6.02) << rate;
    previous = gain;
  }
  EXPECT_NEAR(coding_gain_db(1e-3), 4.4, 0.3);  // the Monte Carlo test found about 4.2 dB
  EXPECT_GT(coding_gain_db(1e-12), 5.5);
}

TEST(PhyLink, EqualiserOpensTheEyeAHundredMetresOfCableClosed) {
  const auto a = analyse_link(cable("cat5e", 100));
  const auto eye = eye_diagram(a, 100, 1);
  ASSERT_EQ(eye.size(), 100u * 2 * kOversample);
  double worst_equalised = 0;
  double raw_min = 1e9, raw_max = -1e9;
  for (const auto& e : eye) {
    if (e.point != kOversample / 2) continue;  // the sampling instant
    worst_equalised = std::max(worst_equalised, std::abs(e.equalised - std::round(e.equalised)));
    raw_min = std::min(raw_min, e.raw);
    raw_max = std::max(raw_max, e.raw);
  }
  EXPECT_LT(worst_equalised, 0.1);  // signal alone: every trace within 0.1 of a level
  // Unequalised, five levels do not stand apart: the spread of the traces at the sampling
  // instant is more than 4 x the main cursor would give them room for.
  double cursor = 0;
  for (double v : a.through) cursor = std::max(cursor, std::abs(v));
  EXPECT_GT(raw_max - raw_min, 4 * cursor);
}

TEST(PhyLink, RejectsAMissingCable) {
  PhyLinkParams p;
  EXPECT_THROW(analyse_link(p), std::invalid_argument);
}

}  // namespace
}  // namespace gbesim::phy
