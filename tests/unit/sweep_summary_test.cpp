// points.csv and summary.csv from run records, on a hand-made sweep whose every cell is known.

#include "analysis/sweep_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gbesim {
namespace {

RunScalar scalar(const std::string& component, const std::string& name, const std::string& text) {
  const double value = text.empty() ? std::nan("") : std::stod(text);
  return {component, name, "frames", value, text};
}

// Point 0 has both replications, point 1 one of two. Run 1 lists its scalars in another order,
// has no value for a.rx.latency and a scalar no other run has; run 3 is missing.
std::vector<RunRecord> records() {
  std::vector<RunRecord> runs(4);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    runs[k].run = k;
    runs[k].point = k / 2;
    runs[k].replication = static_cast<std::int64_t>(k % 2);
    runs[k].seed = static_cast<std::int64_t>(k % 2 + 1);
    runs[k].swept_values = {k < 2 ? "64" : "1518", "a,b"};
  }
  runs[0].scalars = {scalar("a.tx", "sent", "10"), scalar("a.rx", "latency", "2.5")};
  runs[1].scalars = {scalar("a.rx", "latency", ""), scalar("a.tx", "sent", "14"),
                     scalar("b", "extra", "1")};
  runs[2].scalars = {scalar("a.tx", "sent", "7"), scalar("a.rx", "latency", "4")};
  runs[3].status = "missing";
  return runs;
}

TEST(SweepSummary, PointsHaveOneColumnPerScalarInOrderOfFirstAppearance) {
  EXPECT_EQ(points_csv({"frame_bytes", "pair"}, records()),
            "run,point,replication,seed,status,frame_bytes,pair,a.tx.sent,a.rx.latency,b.extra\n"
            "0,0,0,1,complete,64,\"a,b\",10,2.5,\n"
            "1,0,1,2,complete,64,\"a,b\",14,,1\n"
            "2,1,0,1,complete,1518,\"a,b\",7,4,\n"
            "3,1,1,2,missing,1518,\"a,b\",,,\n");
}

TEST(SweepSummary, EachPointsStatisticsOverItsCompleteRunsWithoutMissingValues) {
  const auto runs = records();
  const auto rows = summary_rows(runs, 2);
  ASSERT_EQ(rows.size(), 5u);
  // Point 0, a.tx.sent: 10 and 14, mean 12, s = 2.828...,
  // t(0.975, 1) = 12.7062047: half-width t x s / sqrt(2) = 2 t = 25.4124094.
  EXPECT_EQ(rows[0].name, "sent");
  EXPECT_EQ(rows[0].summary.n, 2u);
  EXPECT_DOUBLE_EQ(rows[0].summary.mean, 12.0);
  EXPECT_NEAR(rows[0].summary.ci95_half_width, 25.4124094, 1e-6);
  // a.rx.latency: run 1 has no value, so one sample.
  EXPECT_EQ(rows[1].name, "latency");
  EXPECT_EQ(rows[1].summary.n, 1u);
  EXPECT_DOUBLE_EQ(rows[1].summary.mean, 2.5);
  EXPECT_EQ(rows[2].name, "extra");
  EXPECT_TRUE(rows[2].complete);
  // Point 1 has one of its two runs: partial.
  EXPECT_EQ(rows[3].point, 1u);
  EXPECT_FALSE(rows[3].complete);
  EXPECT_EQ(summary_csv({"frame_bytes", "pair"}, rows),
            "point,frame_bytes,pair,component,name,unit,n,mean,ci95_half_width,status\n"
            "0,64,\"a,b\",a.tx,sent,frames,2,12,25.41240947234939,complete\n"
            "0,64,\"a,b\",a.rx,latency,frames,1,2.5,,complete\n"
            "0,64,\"a,b\",b,extra,frames,1,1,,complete\n"
            "1,1518,\"a,b\",a.tx,sent,frames,1,7,,partial\n"
            "1,1518,\"a,b\",a.rx,latency,frames,1,4,,partial\n");
  EXPECT_EQ(summary_csv({"frame_bytes", "pair"}, runs, 2),
            summary_csv({"frame_bytes", "pair"}, rows));
}

}  // namespace
}  // namespace gbesim
