// A sweep through a real Slurm: a single-node cluster on localhost brought up by the test in a
// directory of its own (tests/cluster/slurm-local: its own munge key, ports, spool and daemons,
// stopped by PID at the end whatever happens), `gbesim sweep --slurm --submit`, and the
// aggregate compared byte for byte with a local sweep of the same scenario. Skipped, saying why,
// where the daemons cannot run (not root, Slurm not installed).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "sim/input/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

// 2 x 3 points x 2 replications = 12 runs of Poisson traffic.
const char* kSweep = R"({
  "name": "cluster-sweep", "description": "a sweep through Slurm", "duration_ns": 200000,
  "stations": {
    "a": {"traffic": [{"pattern": "poisson", "to": "b", "load_bps": 5e6, "frame_bytes": 64}]},
    "b": {}
  },
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"rate_mbps": [100, 1000], "stations.a.traffic[0].frame_bytes": [64, 512, 1518]},
  "replications": 2
})";

std::string script() {
  return (source_dir() / "tests/cluster/slurm-local").string();
}

// The cluster in `dir`, taken down when the test ends, however it ends.
class LocalSlurm {
 public:
  explicit LocalSlurm(std::filesystem::path dir) : dir_(std::move(dir)) {}
  ~LocalSlurm() {
    run_command(script() + " down '" + dir_.string() + "'");
    if (had_conf_)
      ::setenv("SLURM_CONF", old_conf_.c_str(), 1);
    else
      ::unsetenv("SLURM_CONF");
  }
  LocalSlurm(const LocalSlurm&) = delete;
  LocalSlurm& operator=(const LocalSlurm&) = delete;
  // Starts it and points this process (and so every child) at it; the script's output if not.
  std::string up() {
    const auto r = run_command(script() + " up '" + dir_.string() + "'");
    if (r.exit_code != 0) return r.output;
    std::istringstream lines(r.output);
    std::string line;
    const std::string prefix = "export SLURM_CONF=";
    while (std::getline(lines, line))
      if (line.rfind(prefix, 0) == 0) {
        if (const char* old = std::getenv("SLURM_CONF")) had_conf_ = true, old_conf_ = old;
        ::setenv("SLURM_CONF", line.substr(prefix.size()).c_str(), 1);
        return "";
      }
    return "no SLURM_CONF line in: " + r.output;
  }

 private:
  std::filesystem::path dir_;
  bool had_conf_ = false;
  std::string old_conf_;
};

TEST(Cluster, ASweepThroughSlurmAggregatesToTheLocalSweepsFiles) {
  const auto check = run_command(script() + " check");
  if (check.exit_code == 77) GTEST_SKIP() << "no local Slurm cluster here: " << check.output;
  ASSERT_EQ(check.exit_code, 0) << check.output;

  const auto dir = fresh_directory("cluster");
  write_text(dir / "s.json", kSweep);
  const auto local = run_gbesim({"sweep", "s.json", "--out", "local", "-j", "2", "--quiet"}, dir);
  ASSERT_EQ(local.exit_code, 0) << local.output;

  std::filesystem::create_directories(dir / "slurm-cluster");
  LocalSlurm cluster(dir / "slurm-cluster");
  const auto start = std::chrono::steady_clock::now();
  const std::string problem = cluster.up();
  ASSERT_EQ(problem, "") << "bringing the cluster up failed";
  const double up_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto submitted = run_gbesim(
      {"sweep", "s.json", "--out", "viaslurm", "--slurm", "--tasks", "4", "--submit"}, dir);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.output;
  EXPECT_NE(submitted.output.find("array of 4 shard tasks"), std::string::npos) << submitted.output;
  const Json jobs = Json::parse(read_text(dir / "viaslurm/slurm/jobs.json"));
  const std::string ids =
      jobs["array_job"].get<std::string>() + "," + jobs["aggregate_job"].get<std::string>();

  // Until neither job is queued, running or completing; bounded (the jobs take seconds).
  const auto queued = [&] {
    const auto q = run_command("squeue -h -t PD,R,CG -j " + ids);
    return q.exit_code == 0 && q.output.find_first_not_of(" \n") != std::string::npos;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  const bool finished = wait_until([&] { return !queued(); },
                                   [&] { return std::chrono::steady_clock::now() > deadline; });
  const double sweep_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - up_s;
  ASSERT_TRUE(finished) << "the jobs did not end within 10 minutes:\n"
                        << run_command("squeue -t all; scontrol show job " + ids).output;
  ASSERT_TRUE(std::filesystem::exists(dir / "viaslurm/points.csv"))
      << run_command("cat '" + (dir / "viaslurm/slurm").string() + "'/*.out").output;
  EXPECT_NE(read_text(dir / "viaslurm/slurm/aggregate.out").find("aggregated 12 of 12 runs"),
            std::string::npos)
      << read_text(dir / "viaslurm/slurm/aggregate.out");
  for (const char* file :
       {"points.csv", "summary.csv", "runs/0/scalars.csv", "runs/11/scalars.csv"})
    EXPECT_EQ(read_text(dir / "viaslurm" / file), read_text(dir / "local" / file)) << file;
  EXPECT_EQ(Json::parse(read_text(dir / "viaslurm/sweep.json"))["status"], "complete");
  // For the record (not a pass condition): how long the scheduler took here.
  RecordProperty("cluster_up_seconds", std::to_string(up_s));
  RecordProperty("slurm_sweep_seconds", std::to_string(sweep_s));
  std::printf("local Slurm: up in %.1f s, 12 runs in 4 tasks + aggregation in %.1f s\n", up_s,
              sweep_s);
}

}  // namespace
}  // namespace gbesim
