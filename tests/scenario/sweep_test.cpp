// Sweeps: one process per run, resumable, aggregated into points.csv and summary.csv.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

// 2 rates x 2 frame sizes x 2 replications = 8 runs of Poisson traffic (so replications differ).
const char* kSweep = R"({
  "name": "small-sweep", "description": "sweep test", "duration_ns": 200000,
  "stations": {
    "a": {"traffic": [{"pattern": "poisson", "to": "b", "load_bps": 5e6, "frame_bytes": 64}]},
    "b": {}
  },
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"rate_mbps": [100, 1000], "stations.a.traffic[0].frame_bytes": [64, 1518]},
  "replications": 2
})";

std::size_t line_count(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(Sweep, ListShowsEveryRunWithItsValuesAndSeed) {
  const auto dir = fresh_directory("sweep-list");
  write_text(dir / "s.json", kSweep);
  const auto r = run_gbesim({"sweep", "s.json", "--list"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4 points x 2 replications = 8 runs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rate_mbps=1000  stations.a.traffic[0].frame_bytes=1518"),
            std::string::npos)
      << r.output;
}

TEST(Sweep, RunsEveryPointInItsOwnProcessAndAggregates) {
  const auto dir = fresh_directory("sweep");
  write_text(dir / "s.json", kSweep);
  const auto r = run_gbesim({"sweep", "s.json", "-j", "2", "--out", "out"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("8 of 8 runs complete"), std::string::npos) << r.output;

  const std::string points = read_text(dir / "out/points.csv");
  EXPECT_EQ(line_count(points), 9u);  // header + 8 runs
  EXPECT_EQ(
      points.rfind("run,point,replication,seed,status,rate_mbps,stations.a.traffic[0].frame_bytes,",
                   0),
      0u)
      << points.substr(0, 200);
  // Run 7 is point 3 (1000 Mb/s, 1518 bytes), replication 1, seed 2.
  EXPECT_NE(points.find("\n7,3,1,2,complete,1000,1518,"), std::string::npos);

  const std::string summary = read_text(dir / "out/summary.csv");
  EXPECT_EQ(summary.rfind("point,rate_mbps,stations.a.traffic[0].frame_bytes,component,name,unit,"
                          "n,mean,ci95_half_width,status\n",
                          0),
            0u);
  EXPECT_NE(summary.find("\n3,1000,1518,a.mac,frames_transmitted_ok,frames,2,"), std::string::npos);
  EXPECT_EQ(summary.find(",partial\n"), std::string::npos);
  EXPECT_EQ(Json::parse(read_text(dir / "out/sweep.json"))["status"], "complete");

  // Each run ran as its own scenario point.
  const Json run7 = Json::parse(read_text(dir / "out/runs/7/run.json"));
  EXPECT_EQ(run7["status"], "complete");
  EXPECT_EQ(run7["config"]["rate_mbps"], 1000);
  EXPECT_EQ(run7["seed"], 2);

  // Resuming does nothing new; removing one run reruns just that one.
  const auto before = std::filesystem::last_write_time(dir / "out/runs/2/run.json");
  const auto again = run_gbesim({"sweep", "s.json", "--out", "out"}, dir);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("8 already complete"), std::string::npos) << again.output;
  EXPECT_EQ(std::filesystem::last_write_time(dir / "out/runs/2/run.json"), before);
  std::filesystem::remove(dir / "out/runs/5/run.json");
  const auto resumed = run_gbesim({"sweep", "s.json", "--out", "out"}, dir);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("7 already complete"), std::string::npos) << resumed.output;
  EXPECT_EQ(read_text(dir / "out/points.csv"), points);  // deterministic: same results
}

TEST(Sweep, OneRunOfASweepCanBeRunAloneAsAClusterArrayTaskWould) {
  const auto dir = fresh_directory("sweep-point");
  write_text(dir / "s.json", kSweep);
  const auto r = run_gbesim({"run", "s.json", "--point", "5", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json run = Json::parse(read_text(dir / "results/small-sweep/runs/5/run.json"));
  EXPECT_EQ(run["point"], 2);
  EXPECT_EQ(run["replication"], 1);
  EXPECT_EQ(run["point_values"]["rate_mbps"], 1000);
  EXPECT_EQ(run["point_values"]["stations.a.traffic[0].frame_bytes"], 64);
  // A later sweep in the same directory counts it as done.
  const auto sweep = run_gbesim({"sweep", "s.json"}, dir);
  EXPECT_NE(sweep.output.find("1 already complete"), std::string::npos) << sweep.output;

  const auto out_of_range = run_gbesim({"run", "s.json", "--point", "8"}, dir);
  EXPECT_EQ(out_of_range.exit_code, 2);
  EXPECT_NE(out_of_range.output.find("--point 8 is out of range: the sweep has 8 runs"),
            std::string::npos)
      << out_of_range.output;
}

TEST(Sweep, AnInvalidPointIsReportedBeforeAnythingRuns) {
  const auto dir = fresh_directory("sweep-bad");
  Json doc = Json::parse(kSweep);
  doc["sweep"]["stations.a.traffic[0].frame_bytes"] = {64, 2000};
  write_text(dir / "s.json", doc.dump());
  const auto r = run_gbesim({"sweep", "s.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("sweep point 1 (rate_mbps=100, stations.a.traffic[0].frame_bytes=2000)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "results"));
}

}  // namespace
}  // namespace gbesim
