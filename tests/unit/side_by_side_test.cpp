// Two results side by side (analysis/side_by_side): points match by their values axis by axis,
// whatever the axes are called; each host's totals and CPU come out a beside b.

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/side_by_side.hpp"

namespace gbesim {
namespace {

Results sweep(const std::string& name, const std::string& axis,
              const std::vector<std::pair<std::string, double>>& points) {
  Results r;
  r.kind = ResultsKind::sweep;
  r.name = name;
  r.axes = {"nic", axis};
  for (std::size_t p = 0; p < points.size(); ++p) {
    r.points.push_back({"A", points[p].first});
    r.set(p, "pc.driver", "app_receive_throughput", {points[p].second, 0, 1, "bit/s"});
    r.set(p, "pc.driver", "cpu_utilisation", {0.5, 0, 1, "fraction"});
  }
  return r;
}

TEST(SideBySide, PointsMatchByValueAndDifferencesAreRelativeToTheFirst) {
  const Results ideal =
      sweep("ideal", "hosts.pc.app.request_bytes", {{"1024", 800e6}, {"65536", 900e6}});
  // Listed in the other order, one size the first does not have, axis named differently.
  const Results sw = sweep("switched", "hosts.pc.apps[*].request_bytes",
                           {{"65536", 675e6}, {"1024", 880e6}, {"4096", 1e6}});
  const auto rows = side_by_side(ideal, sw);
  ASSERT_EQ(rows.size(), 4u);  // two matching points x (throughput, CPU)
  EXPECT_EQ(rows[0].point_a, 0u);
  EXPECT_EQ(rows[0].point_b, 1u);
  EXPECT_EQ(rows[0].quantity, "app_receive_throughput");
  EXPECT_DOUBLE_EQ(rows[0].relative(), 0.1);
  EXPECT_EQ(rows[2].point_a, 1u);
  EXPECT_EQ(rows[2].point_b, 0u);
  EXPECT_DOUBLE_EQ(rows[2].relative(), -0.25);
  EXPECT_DOUBLE_EQ(rows[1].relative(), 0.0);
  const auto lines = side_by_side_summary(rows, "ideal", "switched");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "pc.driver app_receive_throughput: switched gives -7.5 % on average against ideal "
            "(-25.0 % .. +10.0 % over 2 points)");
}

TEST(SideBySide, DifferentAxisCountsDoNotMatch) {
  const Results a = sweep("a", "x", {{"1", 1}});
  Results b = a;
  b.axes.push_back("y");
  b.points[0].push_back("2");
  EXPECT_TRUE(side_by_side(a, b).empty());
}

}  // namespace
}  // namespace gbesim
