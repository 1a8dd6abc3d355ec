// 1000BASE-X link check (models/phy/optical_pmd) against IEEE 802.3 Clause 38's worst-case link
// power budget tables (docs/references.md, Standards B.5) and the reach table of a 2002 article
// (Validation 8): insertion loss from attenuation and the connection allocation, the unallocated
// margin, and the reach with what limits it.

#include <gtest/gtest.h>

#include "models/phy/optical_pmd.hpp"

namespace gbesim::phy {
namespace {

PmdCheck check(const std::string& pmd, const std::string& fibre,
               const std::vector<double>& lengths = {},
               std::optional<double> tx_min_dbm = std::nullopt) {
  const Pmd* p = find_pmd(pmd);
  EXPECT_NE(p, nullptr) << pmd;
  const PmdOnFibre* f = find_fibre(*p, fibre);
  EXPECT_NE(f, nullptr) << fibre;
  PmdOnFibre on = *f;
  if (tx_min_dbm) on.tx_min_dbm = *tx_min_dbm;
  return check_pmd(*p, on, lengths.empty() ? std::vector<double>{on.operating_range_m} : lengths);
}

TEST(OpticalPmd, SxReproducesTheStandardsBudgetTablePerFibre) {
  // Table: operating range, channel insertion loss, unallocated margin (budget 7.5 dB =
  // -9.5 dBm launch - -17 dBm sensitivity; penalties 4.27 / 4.29 / 4.07 / 3.57 dB). The table
  // prints 3.375 and 3.5625 dB as 3.37 and 3.56 and the margins to 0.01 dB.
  struct Row {
    const char* fibre;
    double range_m, insertion_db, margin_db;
  };
  for (const Row& r : {Row{"mmf-62.5-160", 220, 2.38, 0.85}, Row{"mmf-62.5-200", 275, 2.60, 0.61},
                       Row{"mmf-50-400", 500, 3.37, 0.06}, Row{"mmf-50-500", 550, 3.56, 0.37}}) {
    SCOPED_TRACE(r.fibre);
    const PmdCheck c = check("1000base-sx", r.fibre);
    EXPECT_DOUBLE_EQ(c.power_budget_db, 7.5);
    ASSERT_EQ(c.points.size(), 1u);
    EXPECT_NEAR(c.points[0].insertion_loss_db, r.insertion_db, 0.0051);
    EXPECT_NEAR(c.unallocated_margin_db, r.margin_db, 0.0051);
    // Within the power budget at the operating range, so the reach is the modal-bandwidth range
    // (as the article's reach table says: 220, 275, 500 m; and 550 m on 50/500).
    EXPECT_TRUE(c.points[0].pass);
    EXPECT_DOUBLE_EQ(c.reach_m, r.range_m);
    EXPECT_EQ(c.limited_by, "modal bandwidth (the standard's operating range)");
    EXPECT_GT(*c.power_reach_m, r.range_m);
  }
  // 62.5/160: (7.5 - 1.5 - 4.27) dB / 4.0 dB/km = 432.5 m on power alone.
  EXPECT_NEAR(*check("1000base-sx", "mmf-62.5-160").power_reach_m, 432.5, 1e-9);
}

TEST(OpticalPmd, LxReachesFiveKilometresOfSingleModeAndFiveHundredFiftyMetresOfMultimode) {
  const PmdCheck smf = check("1000base-lx", "smf-9");
  EXPECT_DOUBLE_EQ(smf.power_budget_db, 8.0);  // -11 dBm - -19 dBm
  EXPECT_NEAR(smf.points[0].insertion_loss_db, 4.57, 1e-9);
  EXPECT_NEAR(smf.unallocated_margin_db, 0.16, 1e-9);
  EXPECT_DOUBLE_EQ(smf.reach_m, 5000);
  for (const char* fibre : {"mmf-62.5-160", "mmf-62.5-200", "mmf-50-400", "mmf-50-500"}) {
    const PmdCheck c = check("1000base-lx", fibre);
    EXPECT_DOUBLE_EQ(c.power_budget_db, 7.5) << fibre;  // -11.5 dBm on multimode
    EXPECT_DOUBLE_EQ(c.reach_m, 550) << fibre;
    EXPECT_GE(c.unallocated_margin_db, 0.07 - 1e-9) << fibre;
  }
  EXPECT_NEAR(check("1000base-lx", "mmf-50-400").unallocated_margin_db, 0.07, 1e-9);
  EXPECT_DOUBLE_EQ(check("1000base-cx", "stp-150").reach_m, 25);
  // The media table's identifiers name the same fibres.
  EXPECT_EQ(find_fibre(*find_pmd("1000base-sx"), "mmf_62_5_200"),
            find_fibre(*find_pmd("1000base-sx"), "mmf-62.5-200"));
  EXPECT_EQ(find_fibre(*find_pmd("1000base-lx"), "smf_9")->operating_range_m, 5000);
}

TEST(OpticalPmd, EachLengthIsJudgedByPowerAndByTheOperatingRange) {
  // 62.5/200 SX: 400 m still has power (7.5 - 3.1 - 4.29 = +0.11 dB) but is past the 275 m range.
  const PmdCheck c = check("1000base-sx", "mmf-62.5-200", {100, 275, 400, 450});
  EXPECT_TRUE(c.points[0].pass);
  EXPECT_NEAR(c.points[0].margin_db, 7.5 - (0.4 + 1.5) - 4.29, 1e-9);
  EXPECT_TRUE(c.points[1].pass);
  EXPECT_TRUE(c.points[2].within_power);
  EXPECT_FALSE(c.points[2].within_range);
  EXPECT_FALSE(c.points[2].pass);
  EXPECT_FALSE(c.points[3].within_power);  // 7.5 - 3.3 - 4.29 < 0
}

TEST(OpticalPmd, TheArticlesTransmitterFiguresAreWeakerThanTheStandardsAndDoNotReachItsRanges) {
  // The 2002 article gives SX launch -10 dBm and LX -13.5 dBm at the low end; the standard's
  // minima are -9.5 and -11.0 (single-mode). With the standard's penalties the article's SX
  // transmitter misses 500 m of 50/400 by 0.45 dB, and its LX transmitter is power-limited to
  // (5.5 - 1.5 - 3.27) / 0.614 dB/km = 1.19 km of single-mode fibre: its 5000 m assumes the
  // standard's launch power.
  const PmdCheck sx = check("1000base-sx", "mmf-50-400", {500}, -10.0);
  EXPECT_NEAR(sx.points[0].margin_db, 7.0 - 3.375 - 4.07, 1e-9);
  EXPECT_FALSE(sx.points[0].pass);
  const PmdCheck lx = check("1000base-lx", "smf-9", {}, -13.5);
  EXPECT_EQ(lx.limited_by, "power budget");
  EXPECT_NEAR(lx.reach_m, (5.5 - 1.5 - 3.27) / (3.07 / 5.0) * 1000, 1e-6);
  EXPECT_NEAR(lx.reach_m, 1189, 1);
}

}  // namespace
}  // namespace gbesim::phy
