// Sweeps: one process per run, resumable, aggregated into points.csv and summary.csv.

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sstream>

#include "sim/input/json_path.hpp"
#include "sim/input/sweep_plan.hpp"
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

  // Aggregating in the background while runs go on (a child process, as often as it may) ends
  // with the same files: the last aggregation is the sweep's own, after any in the background.
  const auto busy =
      run_gbesim({"sweep", "s.json", "-j", "2", "--out", "busy", "--aggregate-every-ms", "0"}, dir);
  ASSERT_EQ(busy.exit_code, 0) << busy.output;
  EXPECT_EQ(read_text(dir / "busy/points.csv"), points);
  EXPECT_EQ(read_text(dir / "busy/summary.csv"), summary);
  EXPECT_EQ(busy.output.find("warning"), std::string::npos) << busy.output;
}

TEST(Sweep, ARunIsWhatGbesimRunOfItsPointWritesWithTheSweepsSets) {
  // The sweep forks its runs instead of starting the program again: each must still be exactly
  // `gbesim run --point K` with the sweep's --set, its output in its log.
  const auto dir = fresh_directory("sweep-same");
  write_text(dir / "s.json", kSweep);
  const auto r = run_gbesim(
      {"sweep", "s.json", "-j", "2", "--out", "out", "--set", "duration_ns=300000"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* k : {"0", "7"}) {
    const std::string alone = std::string("alone-") + k;
    const auto one = run_gbesim(
        {"run", "s.json", "--point", k, "--set", "duration_ns=300000", "--out", alone}, dir);
    ASSERT_EQ(one.exit_code, 0) << one.output;
    const auto run = dir / "out/runs" / k;
    for (const char* file : {"scalars.csv", "flows.csv"})
      EXPECT_EQ(read_text(run / file), read_text(dir / alone / file)) << k << " " << file;
    EXPECT_EQ(Json::parse(read_text(run / "run.json"))["config"]["duration_ns"], 300000);
    const std::string log = read_text(run / "log.txt");
    EXPECT_NE(log.find("results: out/runs/" + std::string(k) + "/ (run.json, scalars.csv"),
              std::string::npos)
        << log;
  }
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

// Every error once: the base scenario's mistake is not repeated for each point, and a mistake
// several points share is said at the first with how many more have it.
TEST(Sweep, EachErrorIsSaidOnce) {
  const auto dir = fresh_directory("sweep-once");
  Json doc = Json::parse(kSweep);
  doc.erase("description");
  write_text(dir / "s.json", doc.dump());
  auto r = run_gbesim({"sweep", "s.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  std::size_t count = 0;
  for (auto at = r.output.find("missing \"description\""); at != std::string::npos;
       at = r.output.find("missing \"description\"", at + 1))
    ++count;
  EXPECT_EQ(count, 1u) << r.output;
  doc = Json::parse(kSweep);
  doc["sweep"]["stations.a.traffic[0].frame_bytes"] = {2000, 64};
  write_text(dir / "s.json", doc.dump());
  r = run_gbesim({"sweep", "s.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  const auto first = r.output.find("frame_bytes=2000");
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("frame_bytes=2000", first + 1), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(the same at 1 more point)"), std::string::npos) << r.output;
}

// --shard I/N: for every run count here and every N from 1 to it, the N blocks are consecutive,
// cover every run exactly once, are never empty and differ in size by at most one.
TEST(Sweep, ShardBlocksCoverEveryRunExactlyOnce) {
  for (const std::size_t runs : {1u, 2u, 7u, 8u, 192u, 1000u})
    for (std::size_t n = 1; n <= runs; ++n) {
      std::size_t next = 0, smallest = runs, largest = 0;
      for (std::size_t i = 1; i <= n; ++i) {
        const RunBlock b = shard_block(runs, i, n);
        ASSERT_EQ(b.first, next) << runs << " runs, shard " << i << "/" << n;
        ASSERT_GT(b.last, b.first) << runs << " runs, shard " << i << "/" << n;
        smallest = std::min(smallest, b.last - b.first);
        largest = std::max(largest, b.last - b.first);
        next = b.last;
      }
      ASSERT_EQ(next, runs) << runs << " runs, " << n << " shards";
      ASSERT_LE(largest - smallest, 1u) << runs << " runs, " << n << " shards";
    }
}

// A sweep run as three shards, then aggregated, gives the whole sweep's files byte for byte;
// --status and --aggregate say what is missing on the way, a failed run is named with its error
// line and run again with that reason, a changed configuration makes every run stale.
TEST(Sweep, ShardsThenAggregateGiveTheWholeSweepsFiles) {
  const auto dir = fresh_directory("sweep-shards");
  write_text(dir / "s.json", kSweep);
  ASSERT_EQ(run_gbesim({"sweep", "s.json", "-j", "2", "--out", "whole", "--quiet"}, dir).exit_code,
            0);

  const auto first = run_gbesim({"sweep", "s.json", "--out", "parts", "--shard", "1/3"}, dir);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("shard 1/3 (runs 0-1): 2 of 2 runs complete"), std::string::npos)
      << first.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "parts/points.csv"));  // --aggregate's job
  ASSERT_EQ(
      run_gbesim({"sweep", "s.json", "--out", "parts", "--shard", "3/3", "-j", "2"}, dir).exit_code,
      0);
  const Json shard = Json::parse(read_text(dir / "parts/shards/3-of-3/shard.json"));
  EXPECT_EQ(shard["first_run"], 5);
  EXPECT_EQ(shard["last_run"], 7);
  EXPECT_EQ(shard["status"], "complete");

  const auto status = run_gbesim({"sweep", "s.json", "--out", "parts", "--status"}, dir);
  EXPECT_EQ(status.exit_code, 1) << status.output;
  EXPECT_NE(status.output.find("never run: runs 2-4"), std::string::npos) << status.output;
  const auto partial = run_gbesim({"sweep", "s.json", "--out", "parts", "--aggregate"}, dir);
  EXPECT_EQ(partial.exit_code, 1) << partial.output;
  EXPECT_NE(partial.output.find("3 of 8 runs are not complete: runs 2-4"), std::string::npos)
      << partial.output;
  EXPECT_NE(read_text(dir / "parts/points.csv").find("\n3,1,1,2,missing,"), std::string::npos);

  ASSERT_EQ(run_gbesim({"sweep", "s.json", "--out", "parts", "--shard", "2/3"}, dir).exit_code, 0);
  const auto all = run_gbesim({"sweep", "s.json", "--out", "parts", "--aggregate"}, dir);
  ASSERT_EQ(all.exit_code, 0) << all.output;
  for (const char* file : {"points.csv", "summary.csv", "runs/4/scalars.csv"})
    EXPECT_EQ(read_text(dir / "parts" / file), read_text(dir / "whole" / file)) << file;
  EXPECT_EQ(Json::parse(read_text(dir / "parts/sweep.json"))["status"], "complete");

  // A run that left a log and no record failed: --status quotes its error line, and the next
  // sweep says why it runs it again.
  std::filesystem::remove(dir / "parts/runs/6/run.json");
  write_text(dir / "parts/runs/6/log.txt", "progress\nerror: the disk is full\nmore\n");
  const auto failed = run_gbesim({"sweep", "s.json", "--out", "parts", "--status", "--json"}, dir);
  EXPECT_EQ(failed.exit_code, 1);
  const Json j = Json::parse(failed.output);
  EXPECT_EQ(j["counts"]["failed"], 1);
  EXPECT_EQ(j["counts"]["complete"], 7);
  EXPECT_EQ(j["not_complete"][0]["run"], 6);
  EXPECT_EQ(j["not_complete"][0]["why"], "error: the disk is full");
  const auto again = run_gbesim({"sweep", "s.json", "--out", "parts"}, dir);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("run 6: running it again: failed (error: the disk is full)"),
            std::string::npos)
      << again.output;
  EXPECT_EQ(read_text(dir / "parts/points.csv"), read_text(dir / "whole/points.csv"));

  const auto changed = run_gbesim(
      {"sweep", "s.json", "--out", "parts", "--status", "--set", "duration_ns=100000"}, dir);
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.output.find("stale             8"), std::string::npos) << changed.output;
  EXPECT_NE(changed.output.find("the configuration changed"), std::string::npos);

  for (const char* bad : {"0/3", "4/3", "1/9", "x", "1/", "2/3/4"}) {
    const auto r = run_gbesim({"sweep", "s.json", "--out", "parts", "--shard", bad}, dir);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--shard"), std::string::npos) << bad << ": " << r.output;
  }
}

// --status sees a run that is being written (its lock, read without taking it: the run is not
// disturbed), and after a Ctrl-C the run's interrupted record.
TEST(Sweep, StatusSeesARunningAndAnInterruptedRun) {
  const auto dir = fresh_directory("sweep-running");
  write_text(dir / "s.json", kSweep);
  BackgroundGbesim run({"run", "s.json", "--point", "0", "--set", "duration_ns=1125899906842624"},
                       dir);
  ASSERT_TRUE(run.wait_for_output("simulated (")) << run.output();
  const auto busy = run_gbesim({"sweep", "s.json", "--status", "--json"}, dir);
  EXPECT_EQ(busy.exit_code, 1);
  const Json j = Json::parse(busy.output);
  EXPECT_EQ(j["runs_by_status"]["running"], Json::array({0})) << busy.output;
  EXPECT_EQ(j["counts"]["missing"], 7);
  run.signal(SIGINT);
  EXPECT_EQ(run.wait(), 130);
  const auto after = run_gbesim({"sweep", "s.json", "--status"}, dir);
  EXPECT_NE(after.output.find("     0      0    0  interrupted  it was stopped before its end"),
            std::string::npos)
      << after.output;
  EXPECT_NE(after.output.find("never run: runs 1-7"), std::string::npos) << after.output;
}

}  // namespace
}  // namespace gbesim
