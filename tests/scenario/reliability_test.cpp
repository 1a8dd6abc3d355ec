// Reliability through the gbesim binary: signals at any moment, killed processes, busy and
// unwritable directories, stale files, sweeps stopped every way a user stops them. Every test
// waits for a condition (a progress line, a lock file), never for a time, so that it holds on a
// fast and a slow machine alike.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/input/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

// The longest duration a scenario may ask for: no machine finishes it.
const std::string kForever = "duration_ns=1125899906842624";

const char* kTwoStations = R"({"name": "two", "description": "",
  "duration_ns": 20000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}]})";

std::vector<std::string> temporaries_in(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp-") != std::string::npos) out.push_back(name);
  }
  return out;
}

Json read_json(const std::filesystem::path& file) {
  return Json::parse(read_text(file));
}

// The pid a lock file names ("gbesim run s.json (pid 123)").
pid_t pid_in_lock(const std::filesystem::path& lock) {
  const std::string text = read_text(lock);
  const auto at = text.find("(pid ");
  if (at == std::string::npos) return -1;
  const auto end = text.find(')', at);
  if (end == std::string::npos) return -1;
  return static_cast<pid_t>(std::stol(text.substr(at + 5, end - at - 5)));
}

TEST(Reliability, ASignalWhileLoadingOrSimulatingEndsTheRunWithNothingHalfWritten) {
  // Whenever SIGTERM lands (loading, elaborating or simulating), the run ends with 130, leaves no
  // temporary file, and a run.json, if any, says interrupted.
  const auto dir = fresh_directory("term-early");
  write_text(dir / "s.json", kTwoStations);
  BackgroundGbesim run({"run", "s.json", "--set", kForever, "--out", "out", "--trace", "events"},
                       dir);
  run.signal(SIGTERM);
  // 130 from gbesim's handler; 143 if the signal came before the program had started at all.
  const int code = run.wait();
  EXPECT_TRUE(code == 130 || code == 128 + SIGTERM) << code << run.output();
  EXPECT_EQ(temporaries_in(dir / "out"), std::vector<std::string>{});
  if (std::filesystem::exists(dir / "out/run.json")) {
    EXPECT_EQ(read_json(dir / "out/run.json")["status"], "interrupted");
  }
}

TEST(Reliability, ASecondSignalStopsAtOnceAndLeavesNoTemporaryFiles) {
  const auto dir = fresh_directory("double-int");
  write_text(dir / "s.json", kTwoStations);
  BackgroundGbesim run({"run", "s.json", "--set", kForever, "--out", "out", "--trace", "events"},
                       dir);
  ASSERT_TRUE(run.wait_for_output("simulated (")) << run.output();
  run.signal(SIGINT);
  run.signal(SIGINT);
  EXPECT_EQ(run.wait(), 130) << run.output();
  EXPECT_EQ(temporaries_in(dir / "out"), std::vector<std::string>{});
  // The events trace it kept runs to hundreds of megabytes: not left behind in the temporary
  // directory, run after run.
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(Reliability, TemporariesOfAKilledRunAreRemovedByTheNextRun) {
  const auto dir = fresh_directory("kill9");
  write_text(dir / "s.json", kTwoStations);
  {
    BackgroundGbesim run({"run", "s.json", "--set", kForever, "--out", "out", "--trace", "events"},
                         dir);
    ASSERT_TRUE(run.wait_for_output("simulated (")) << run.output();
    run.signal(SIGKILL);
    EXPECT_EQ(run.wait(), 128 + SIGKILL);
  }
  ASSERT_EQ(temporaries_in(dir / "out").size(), 1u);  // .events.csv.tmp-PID, left by kill -9
  const auto again = run_gbesim({"run", "s.json", "--out", "out", "--quiet"}, dir);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(temporaries_in(dir / "out"), std::vector<std::string>{});
  EXPECT_EQ(read_json(dir / "out/run.json")["status"], "complete");
}

TEST(Reliability, ADirectoryInUseIsRefusedNamingItsHolder) {
  const auto dir = fresh_directory("busy");
  write_text(dir / "s.json", kTwoStations);
  BackgroundGbesim first({"run", "s.json", "--set", kForever, "--out", "out"}, dir);
  ASSERT_TRUE(first.wait_for_output("simulated (")) << first.output();
  const auto second = run_gbesim({"run", "s.json", "--out", "out"}, dir);
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_NE(second.output.find("error: out: in use by gbesim run s.json (pid " +
                               std::to_string(first.pid()) + ")"),
            std::string::npos)
      << second.output;
  first.signal(SIGINT);
  EXPECT_EQ(first.wait(), 130);
  EXPECT_EQ(read_json(dir / "out/run.json")["status"], "interrupted");  // the first one's
}

TEST(Reliability, AnUnwritableDirectoryFailsBeforeSimulatingAndKeepsTheOldRecord) {
  const auto dir = fresh_directory("unwritable");
  write_text(dir / "s.json", kTwoStations);
  ASSERT_EQ(run_gbesim({"run", "s.json", "--out", "out", "--quiet"}, dir).exit_code, 0);
  const std::string old_record = read_text(dir / "out/run.json");
  std::filesystem::permissions(
      dir / "out", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                       std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                       std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  // Root writes anywhere: the run then goes as an unprivileged user.
  std::string as_user;
  if (::geteuid() == 0) {
    if (run_command("command -v setpriv").exit_code != 0)
      GTEST_SKIP() << "running as root without setpriv: cannot make a directory unwritable";
    as_user = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
    std::filesystem::permissions(dir, std::filesystem::perms::all);
    if (run_command(as_user + GBESIM_BINARY + " --version").exit_code != 0)
      GTEST_SKIP() << "user nobody cannot run " << GBESIM_BINARY
                   << " (the build tree is not readable to others): cannot test as non-root";
  }
  const auto r = run_command("cd " + dir.string() + " && " + as_user + GBESIM_BINARY +
                             " run s.json --out out --seed 7");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: out: cannot write here"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("simulated"), std::string::npos) << r.output;  // nothing simulated
  EXPECT_EQ(read_text(dir / "out/run.json"), old_record);
  std::filesystem::permissions(dir / "out", std::filesystem::perms::all);
}

// The lock file goes when its holder ends; the mark, .gbesim, stays and says what it is. A lock
// file a killed gbesim left (or an older gbesim kept as its mark) marks the directory too, and
// the next run there removes it when it ends.
TEST(Reliability, AFinishedRunLeavesItsMarkAndNoLockFile) {
  const auto dir = fresh_directory("no-lock-left");
  write_text(dir / "s.json", kTwoStations);
  ASSERT_EQ(run_gbesim({"run", "s.json", "--out", "out", "--quiet"}, dir).exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "out/.gbesim.lock"));
  EXPECT_EQ(
      read_text(dir / "out/.gbesim").rfind("This directory holds results written by gbesim.", 0),
      0u);
  ASSERT_EQ(run_gbesim({"run", "s.json", "--out", "out", "--seed", "2", "--quiet"}, dir).exit_code,
            0);  // its own directory: replaced
  ASSERT_EQ(
      run_gbesim(
          {"sweep", "s.json", "--out", "sw", "--set", "replications=2", "-j", "2", "--quiet"}, dir)
          .exit_code,
      0);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "sw"))
    EXPECT_NE(entry.path().filename(), ".gbesim.lock") << entry.path();
  EXPECT_TRUE(std::filesystem::exists(dir / "sw/.gbesim"));
  EXPECT_TRUE(std::filesystem::exists(dir / "sw/runs/1/.gbesim"));
  // A lock file left behind, without the mark: the directory is gbesim's; the run takes the
  // lock, writes, and removes the file as it ends.
  std::filesystem::remove(dir / "out/.gbesim");
  write_text(dir / "out/.gbesim.lock", "gbesim run s.json (pid 4242)\n");
  const auto r = run_gbesim({"run", "s.json", "--out", "out", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out/.gbesim.lock"));
  EXPECT_TRUE(std::filesystem::exists(dir / "out/.gbesim"));
}

TEST(Reliability, AnOldRecordThatCannotBeReplacedIsAnErrorBeforeSimulating) {
  const auto dir = fresh_directory("stuck-record");
  write_text(dir / "s.json", kTwoStations);
  // A directory gbesim used (its mark) whose record is a directory: not removable by remove().
  std::filesystem::create_directories(dir / "out/run.json/x");
  write_text(dir / "out/.gbesim.lock", "");
  const auto r = run_gbesim({"run", "s.json", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: out/run.json: is a directory; gbesim replaces only regular "
                          "files"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("simulated"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "out/run.json/x"));
}

TEST(Reliability, APreviousScenariosPcapsDoNotStayBesideANewRun) {
  const auto dir = fresh_directory("stale-pcap");
  write_text(dir / "ab.json", kTwoStations);
  std::string cd = kTwoStations;
  for (auto [from, to] : {std::pair{"\"a\"", "\"c\""}, {"\"b\"", "\"d\""}}) {
    for (auto at = cd.find(from); at != std::string::npos; at = cd.find(from))
      cd.replace(at, 3, to);
  }
  write_text(dir / "cd.json", cd);
  ASSERT_EQ(
      run_gbesim({"run", "ab.json", "--out", "out", "--trace", "pcap", "--quiet"}, dir).exit_code,
      0);
  ASSERT_TRUE(std::filesystem::exists(dir / "out/a.pcap"));
  const auto r = run_gbesim({"run", "cd.json", "--out", "out", "--trace", "pcap", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "out/c.pcap"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out/a.pcap"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out/b.pcap"));
  EXPECT_EQ(read_json(dir / "out/run.json")["outputs"],
            Json::parse(R"(["scalars.csv", "flows.csv", "c.pcap", "d.pcap"])"));
}

TEST(Reliability, BadOptionsAreErrorsNotDefaults) {
  const auto dir = fresh_directory("options");
  write_text(dir / "s.json", kTwoStations);
  const auto empty_out = run_gbesim({"run", "s.json", "--out", ""}, dir);
  EXPECT_EQ(empty_out.exit_code, 2);
  EXPECT_NE(empty_out.output.find("--out: expected a directory, got an empty path"),
            std::string::npos)
      << empty_out.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "results"));
  const auto hex = run_gbesim({"run", "s.json", "--seed", "0x10"}, dir);
  EXPECT_EQ(hex.exit_code, 2);
  EXPECT_NE(hex.output.find("expected a non-negative decimal integer, got 0x10"), std::string::npos)
      << hex.output;
  // topology: exit code 1 means "the plant fails"; a directory it cannot write is 2.
  write_text(dir / "file", "");
  const auto topology = run_gbesim(
      {"topology", source_dir().string() + "/scenarios/topologies/two-class-ii-hubs.json", "--out",
       "file/sub"},
      dir);
  EXPECT_EQ(topology.exit_code, 2) << topology.output;
  EXPECT_NE(topology.output.find("error: file/sub: cannot create the directory"), std::string::npos)
      << topology.output;
}

TEST(Reliability, KeysWithControlCharactersArePrintedEscaped) {
  const auto dir = fresh_directory("escape");
  // A NUL, a newline and "clear the screen" in one key.
  write_text(dir / "s.json",
             R"({"name": "x", "description": "", "a\u0000b\n\u001b[2J": 1, "more": 2})");
  const auto r = run_gbesim({"run", "s.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("error: s.json: a\\x00b\\n\\x1b[2J: unknown key"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("error: s.json: more: unknown key"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);
}

const char* kSlowSweep = R"({"name": "slow", "description": "",
  "duration_ns": 20000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"links[0].cable_m": [10, 20, 30]}})";

// The pid of a sweep's first run once it holds its directory's lock, or -1 if the sweep ended
// before that.
pid_t first_run_of(const BackgroundGbesim& sweep, const std::filesystem::path& out) {
  const auto lock = out / "runs/0/.gbesim.lock";
  if (!wait_until([&] { return std::filesystem::exists(lock) && pid_in_lock(lock) > 0; },
                  [&] { return !process_running(sweep.pid()); }))
    return -1;
  return pid_in_lock(lock);
}

TEST(Reliability, ASweepHasOneOwnerAndCtrlCLetsItsRunsWriteInterrupted) {
  const auto dir = fresh_directory("sweep-stop");
  write_text(dir / "s.json", kSlowSweep);
  // Ctrl-C at a terminal signals the whole foreground process group.
  // Aggregating in the background as often as it may: a Ctrl-C that lands while it does must
  // leave neither temporary files nor older files over the final ones.
  BackgroundGbesim sweep({"sweep", "s.json", "--set", kForever, "--out", "out", "-j", "2",
                          "--aggregate-every-ms", "0"},
                         dir, true);
  const pid_t child = first_run_of(sweep, dir / "out");
  ASSERT_GT(child, 0) << sweep.output();
  // The child is simulating once its first progress would be due; wait for its log to say so.
  ASSERT_TRUE(wait_until(
      [&] {
        return read_text(dir / "out/runs/0/log.txt").find("simulated (") != std::string::npos ||
               !process_running(child);
      },
      [] { return false; }));

  const auto second = run_gbesim({"sweep", "s.json", "--out", "out"}, dir);
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_NE(second.output.find("error: out: in use by gbesim sweep s.json (pid " +
                               std::to_string(sweep.pid()) + ")"),
            std::string::npos)
      << second.output;

  sweep.signal_group(SIGINT);
  EXPECT_EQ(sweep.wait(), 130) << sweep.output();
  EXPECT_EQ(read_json(dir / "out/runs/0/run.json")["status"], "interrupted");
  EXPECT_EQ(read_json(dir / "out/sweep.json")["status"], "interrupted");
  const std::string points = read_text(dir / "out/points.csv");
  EXPECT_EQ(points.rfind("run,point,replication,seed,status,links[0].cable_m\n", 0), 0u) << points;
  EXPECT_NE(points.find("\n0,0,0,1,interrupted,10\n"), std::string::npos) << points;
  EXPECT_NE(points.find("\n2,2,0,1,missing,30\n"), std::string::npos) << points;
  EXPECT_EQ(temporaries_in(dir / "out"), std::vector<std::string>{});
}

TEST(Reliability, ASweepsRunsEndWithItWhenItIsKilled) {
  const auto dir = fresh_directory("sweep-kill");
  write_text(dir / "s.json", kSlowSweep);
  BackgroundGbesim sweep({"sweep", "s.json", "--set", kForever, "--out", "out"}, dir);
  const pid_t child = first_run_of(sweep, dir / "out");
  ASSERT_GT(child, 0) << sweep.output();
  sweep.signal(SIGKILL);
  EXPECT_EQ(sweep.wait(), 128 + SIGKILL);
  // The run gets SIGTERM from the kernel as its parent dies, and stops.
  ASSERT_TRUE(wait_until([&] { return !process_running(child); }, [] { return false; }));
  // A new sweep in the directory finds it free and finishes what is left.
  const auto again = run_gbesim({"sweep", "s.json", "--out", "out", "--quiet"}, dir);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_json(dir / "out/sweep.json")["status"], "complete");
  const std::string summary = read_text(dir / "out/summary.csv");
  EXPECT_NE(summary.find(",complete\n"), std::string::npos);
  EXPECT_EQ(summary.find(",partial\n"), std::string::npos);
}

TEST(Reliability, ARunStoppedByAnyoneButItsSweepCountsAsFailed) {
  const auto dir = fresh_directory("sweep-outsider");
  write_text(dir / "s.json", kSlowSweep);
  BackgroundGbesim sweep({"sweep", "s.json", "--set", kForever, "--out", "out"}, dir);
  const pid_t child = first_run_of(sweep, dir / "out");
  ASSERT_GT(child, 0) << sweep.output();
  ASSERT_TRUE(wait_until(
      [&] {
        return read_text(dir / "out/runs/0/log.txt").find("simulated (") != std::string::npos;
      },
      [&] { return !process_running(child); }));
  // Someone else stops run 0; the sweep goes on with the others, which it then stops itself.
  ::kill(child, SIGINT);
  const auto run1 = dir / "out/runs/1/.gbesim.lock";
  ASSERT_TRUE(wait_until([&] { return std::filesystem::exists(run1) && pid_in_lock(run1) > 0; },
                         [&] { return !process_running(sweep.pid()); }))
      << sweep.output();
  sweep.signal(SIGTERM);
  EXPECT_EQ(sweep.wait(), 130) << sweep.output();
  EXPECT_NE(sweep.output().find("run 0 failed"), std::string::npos) << sweep.output();
  const std::string points = read_text(dir / "out/points.csv");
  EXPECT_NE(points.find("\n0,0,0,1,failed,10\n"), std::string::npos) << points;
  EXPECT_EQ(read_json(dir / "out/runs/0/run.json")["status"], "interrupted");
}

TEST(Reliability, ValuesWithoutAValueAreEmptyAndInfinitiesAreWrittenAsSuch) {
  const auto dir = fresh_directory("nonfinite");
  // a receives nothing: its latency has no value.
  write_text(dir / "s.json", kTwoStations);
  const auto r = run_gbesim({"run", "s.json", "--out", "out"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string scalars = read_text(dir / "out/scalars.csv");
  EXPECT_NE(scalars.find("\na.sink,latency_mean,ns,\n"), std::string::npos) << scalars;
  EXPECT_EQ(scalars.find("nan"), std::string::npos);
  EXPECT_EQ(r.output.find("nan"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  -"), std::string::npos) << r.output;

  // 100 km of Cat 5e: no signal is left, the SNR is minus infinity dB.
  write_text(dir / "far.json", R"({"name": "far", "description": "", "duration_ns": 20000,
    "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 100000, "medium": "cat5e",
               "phy": "1000base-t"}]})");
  const auto far = run_gbesim({"run", "far.json", "--out", "far"}, dir);
  ASSERT_EQ(far.exit_code, 0) << far.output;
  EXPECT_NE(read_text(dir / "far/scalars.csv").find("\nanalysis.link0,phy_snr_db,dB,-inf\n"),
            std::string::npos);
  EXPECT_NE(far.output.find("SNR -inf dB"), std::string::npos) << far.output;
}

// The options a command's --help lists with a numeric type (CLI11's FLOAT, INT, UINT).
std::vector<std::string> numeric_options(const std::string& command) {
  const auto help = run_gbesim({command, "--help"});
  std::vector<std::string> out;
  std::istringstream lines(help.output);
  for (std::string line; std::getline(lines, line);) {
    const auto dashes = line.find("--");
    if (dashes == std::string::npos || line.find_first_not_of(' ') + 4 < dashes) continue;
    const auto space = line.find(' ', dashes);
    if (space == std::string::npos) continue;
    const std::string type =
        line.substr(space + 1, line.find_first_of(": ", space + 1) - space - 1);
    if (type == "FLOAT" || type == "INT" || type == "UINT")
      out.push_back(line.substr(dashes, space - dashes));
  }
  return out;
}

TEST(Reliability, EveryNumericOptionOfEveryCommandRefusesNaNAndInfinities) {
  // CLI11 reads nan and inf as numbers and its Range lets NaN through: `gbesim phy --lengths nan`
  // would give an SNR of inf and a BER of 0, `--tx-min-dbm nan` NaN power budgets.
  const auto dir = fresh_directory("nonfinite-options");
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"run", {"s.json"}}, {"sweep", {"s.json"}}, {"topology", {"t.json"}},
      {"phy", {}},         {"bench", {}},         {"params", {}},
      {"stats", {}},       {"plot", {"results"}}, {"report", {"results"}}};
  std::size_t checked = 0;
  for (const auto& [command, positional] : commands) {
    std::vector<std::string> options = numeric_options(command);
    // Hidden options too (not in --help).
    if (command == "run") options.insert(options.end(), {"--chunk-ns", "--parent-pid"});
    if (command == "sweep") options.push_back("--aggregate-every-ms");
    for (const auto& option : options) {
      for (const char* value : {"nan", "inf", "-inf", "1e999", "-NaN", "infinity"}) {
        std::vector<std::string> args = {command};
        args.insert(args.end(), positional.begin(), positional.end());
        args.push_back(option + "=" + value);
        const auto r = run_gbesim(args, dir);
        EXPECT_EQ(r.exit_code, 2) << command << " " << option << "=" << value << ": " << r.output;
        EXPECT_NE(r.output.find(": expected a finite number, got " + std::string(value)),
                  std::string::npos)
            << command << " " << option << "=" << value << ": " << r.output;
        ++checked;
      }
    }
  }
  // phy alone has 14 (lengths, the receiver's, the 1000BASE-X ones, ...).
  const auto phy = numeric_options("phy");
  for (const char* o : {"--lengths", "--eye-length", "--sigma", "--noise-dbm-per-hz",
                        "--connection-loss-db", "--tx-min-dbm", "--mc-symbols", "--seed"})
    EXPECT_NE(std::find(phy.begin(), phy.end(), o), phy.end()) << o;
  EXPECT_GE(checked, 6u * 24);  // 24 numeric options when this was written
  EXPECT_FALSE(std::filesystem::exists(dir / "results"));
}

TEST(Reliability, PhyOptionsOfTheOtherModeAreErrorsNotIgnored) {
  const auto dir = fresh_directory("phy-modes");
  // Only the 1000BASE-X check (--pmd) reads these; without it they would be silently ignored.
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--fibre", "smf-9"},
                                               {"--connection-loss-db", "2"},
                                               {"--tx-min-dbm", "-9.5"}}) {
    std::vector<std::string> all = {"phy", "--channel", "awgn", "--symbols", "1000"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_gbesim(all, dir);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(args[0] + " requires --pmd"), std::string::npos) << r.output;
  }
  // Only the 1000BASE-T link reads these.
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--cable", "cat5"},
                                               {"--sigma", "0.2"},
                                               {"--echo-taps", "10"},
                                               {"--seed", "3"},
                                               {"--scenario", "s.json"},
                                               {"--channel", "awgn"}}) {
    std::vector<std::string> all = {"phy", "--pmd", "1000base-sx"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_gbesim(all, dir);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--pmd excludes " + args[0]), std::string::npos) << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "results"));
  const auto pmd =
      run_gbesim({"phy", "--pmd", "1000base-sx", "--fibre", "mmf-50-500", "--tx-min-dbm", "-9.5",
                  "--connection-loss-db", "2", "--lengths", "500", "--quiet", "--out", "pmd"},
                 dir);
  EXPECT_EQ(pmd.exit_code, 0) << pmd.output;
}

TEST(Reliability, ABenchSweepScenarioThatCannotBeReadIsAnErrorBeforeAnyCase) {
  const auto dir = fresh_directory("bench-sweep");
  write_text(dir / "sweep.json", kSlowSweep);
  // A file the user names is never skipped (as the project's default is when it is not found).
  const auto missing = run_gbesim({"bench", "--cases", "w", "--sweep-scenario", "swep.json"}, dir);
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("error: swep.json: no such file; did you mean sweep.json?"),
            std::string::npos)
      << missing.output;
  write_text(dir / "bad.json", R"({"name": "bad", "description": "", "stations": {}})");
  const auto bad = run_gbesim({"bench", "--cases", "a", "--sweep-scenario", "bad.json"}, dir);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("error: bad.json: stations: "), std::string::npos) << bad.output;
  for (const auto& r : {missing, bad}) EXPECT_EQ(r.output.find("baseline"), std::string::npos);
}

TEST(Reliability, SlurmOptionsOutsideSbatchsGrammarWriteNoScript) {
  const auto dir = fresh_directory("slurm-options");
  write_text(dir / "s.json", kSlowSweep);
  // A newline would add an #SBATCH line of its own to the batch script.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--time", "1:00:00\n#SBATCH --mem=1"},
        {"--time", "x;y"},
        {"--time", "1:2:3:4"},
        {"--partition", "batch\n#SBATCH --mem=1"},
        {"--partition", "a b"}}) {
    std::vector<std::string> all = {"sweep", "s.json", "--slurm", "--out", "out"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_gbesim(all, dir);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(args[0] + ": expected "), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << args[1];
  }
  const auto ok = run_gbesim(
      {"sweep", "s.json", "--slurm", "--out", "out", "--time", "2-12", "--partition", "short,long"},
      dir);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  const std::string script = read_text(dir / "out/slurm/shards.sbatch");
  EXPECT_NE(script.find("\n#SBATCH --time=2-12\n"), std::string::npos) << script;
  EXPECT_NE(script.find("\n#SBATCH --partition=short,long\n"), std::string::npos) << script;
}

TEST(Reliability, AStationNameTooLongForAFileIsRefusedWhenTheScenarioLoads) {
  // Refused with its path before anything is simulated, not when its pcap is written at the
  // end ("File name too long").
  const auto dir = fresh_directory("long-station");
  const std::string name(300, 'x');
  std::string text = kTwoStations;
  for (auto at = text.find("\"a\""); at != std::string::npos; at = text.find("\"a\"", at + 1))
    text.replace(at, 3, "\"" + name + "\"");
  write_text(dir / "s.json", text);
  const auto r = run_gbesim({"run", "s.json", "--trace", "pcap", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: s.json: stations." + name +
                          ": a station's name names its capture file (<station>.pcap): at most "
                          "100 characters, got 300"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("simulated"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// A command line run with its address space capped, so that a regression that tries to build
// tens of GB fails at once instead of taking the machine's memory (not under sanitizers, whose
// shadow memory needs a huge address space).
CommandResult run_gbesim_capped(const std::vector<std::string>& args,
                                const std::filesystem::path& cwd) {
  std::string line = "cd " + cwd.string() + " && ";
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  line += "ulimit -v 8388608 && ";  // 8 GiB
#endif
  line += GBESIM_BINARY;
  for (const auto& a : args) line += " " + a;
  return run_command(line);
}

// 1,024 stations on a chain of 3,071 repeaters: a plant within the limits (4,095 nodes) whose
// every pair's paths hold 538,441,728 names.
Json chain_plant() {
  Json nodes = Json::object();
  Json cables = Json::array();
  for (int r = 0; r < 3071; ++r) {
    nodes["r" + std::to_string(r)] = {{"kind", "repeater"}, {"class", "ten"}};
    if (r > 0)
      cables.push_back({{"between", {"r" + std::to_string(r - 1), "r" + std::to_string(r)}},
                        {"medium", "cat3"},
                        {"cable_m", 1}});
  }
  for (int s = 0; s < 1024; ++s) {
    nodes["s" + std::to_string(s)] = {{"kind", "dte"}};
    cables.push_back({{"between", {"r" + std::to_string(3 * s), "s" + std::to_string(s)}},
                      {"medium", "cat3"},
                      {"cable_m", 1}});
  }
  return {{"nodes", nodes}, {"cables", cables}};
}

TEST(Reliability, ListingEveryPairOfAHugePlantIsRefusedAtOnceWithItsSize) {
  // Built, the paths of every pair would take tens of GB.
  const auto dir = fresh_directory("every-pair");
  Json plant = chain_plant();
  plant["name"] = "chain";
  plant["rate_mbps"] = 10;
  write_text(dir / "chain.json", plant.dump());
  const auto r = run_gbesim_capped({"topology", "chain.json", "--every-pair", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: chain.json: --every-pair would list 523776 pairs with 538441728 "
                          "names along their paths, about "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(" GB in memory and in topology_pairs.csv (at most 2.0 GB); without it "
                          "each station's worst pair is listed ("),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  // Without --every-pair the same plant is analysed (and fails the 5-4-3 rule).
  const auto worst = run_gbesim_capped({"topology", "chain.json", "--out", "out", "--quiet"}, dir);
  EXPECT_EQ(worst.exit_code, 1) << worst.output;

  // A scenario simulating the plant needs every pair's delay: refused the same way.
  Json scenario = {{"name", "chain"}, {"description", ""}, {"rate_mbps", 10}};
  for (int s = 0; s < 1024; ++s) scenario["stations"]["s" + std::to_string(s)] = Json::object();
  scenario["topology"] = chain_plant();
  write_text(dir / "s.json", scenario.dump());
  const auto run = run_gbesim_capped({"run", "s.json", "--out", "run"}, dir);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("error: s.json: topology: a run needs the path of every pair of "
                            "stations: about "),
            std::string::npos)
      << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace gbesim
