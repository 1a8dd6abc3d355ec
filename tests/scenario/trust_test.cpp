// Trust, through the binary: gbesim never writes over what is not its own, reads its own result
// files as untrusted input (a damaged run is named and run again, never aggregated; a damaged
// directory is refused with the file and what was wrong, never reported as if complete), and
// states answers only for the geometry a sweep varied, saying first when the plant is illegal.
// Every test waits for a condition, never a time; `timeout` only catches a hang.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <regex>

#include <fmt/format.h>

#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "sim/input/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

const char* kTwoStations = R"({"name": "two", "description": "",
  "duration_ns": 20000,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}]})";

// Four points x two replications: eight runs.
const char* kSmallSweep = R"({"name": "small", "description": "", "duration_ns": 20000,
  "replications": 2,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"stations.a.traffic[0].frame_bytes": [64, 512, 1024, 1518]}})";

// gbesim as a user runs it, ended by `timeout` only if it hangs (exit code 124 then).
CommandResult run_bounded(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
  std::string line = "cd '" + cwd.string() + "' && timeout 600 " + GBESIM_BINARY;
  for (const auto& a : args) line += " '" + a + "'";
  return run_command(line);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> temporaries_in(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp") != std::string::npos) out.push_back(name);
  }
  return out;
}

// ---- the write path ------------------------------------------------------------------------

TEST(Trust, ARunIntoADirectoryOfTheUsersNeverReplacesOrRemovesTheirFiles) {
  const auto dir = fresh_directory("trust-user-dir");
  write_text(dir / "s.json", kTwoStations);
  std::filesystem::create_directories(dir / "mine");
  for (const char* f : {"a.pcap", "b.pcap", "series.csv", "events.csv", "trace.vcd"})
    write_text(dir / "mine" / f, std::string("mine: ") + f);
  const auto r = run_gbesim({"run", "s.json", "--out", "mine", "--trace", "pcap,events"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "error: mine: holds events.csv, a.pcap, b.pcap, which gbesim did "
                       "not write here"))
      << r.output;
  EXPECT_FALSE(contains(r.output, "simulated")) << r.output;
  for (const char* f : {"a.pcap", "b.pcap", "series.csv", "events.csv", "trace.vcd"})
    EXPECT_EQ(read_text(dir / "mine" / f), std::string("mine: ") + f);
  // Nothing of gbesim's was left there either, not even its mark.
  EXPECT_FALSE(std::filesystem::exists(dir / "mine/.gbesim"));
  EXPECT_FALSE(std::filesystem::exists(dir / "mine/.gbesim.lock"));
  EXPECT_FALSE(std::filesystem::exists(dir / "mine/run.json"));
  // Without traces the run writes no file of those names: it runs, and keeps them.
  const auto plain = run_gbesim({"run", "s.json", "--out", "mine", "--quiet"}, dir);
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  for (const char* f : {"a.pcap", "b.pcap", "series.csv", "events.csv", "trace.vcd"})
    EXPECT_EQ(read_text(dir / "mine" / f), std::string("mine: ") + f);
  // The next run there removes what the last one wrote, and still nothing of the user's.
  const auto again = run_gbesim({"run", "s.json", "--out", "mine", "--quiet"}, dir);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_text(dir / "mine/a.pcap"), "mine: a.pcap");
}

TEST(Trust, ARunKilledAtAnyMomentLeavesNothingOfTheUsersAtRisk) {
  // A directory is marked gbesim's only once it holds nothing gbesim will write: a user's
  // run.json there is refused before the mark is made...
  const auto dir = fresh_directory("trust-killed");
  write_text(dir / "s.json", kTwoStations);
  std::filesystem::create_directories(dir / "mine");
  write_text(dir / "mine/run.json", R"({"my": "precious notes"})");
  const auto refused = run_gbesim({"run", "s.json", "--out", "mine"}, dir);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "mine/.gbesim"));
  EXPECT_FALSE(std::filesystem::exists(dir / "mine/.gbesim.lock"));
  EXPECT_EQ(read_text(dir / "mine/run.json"), R"({"my": "precious notes"})");
  // ...and a run killed after marking one (its notes.txt no name of gbesim's) leaves the next
  // run there nothing of the user's to take for its own.
  std::filesystem::remove(dir / "mine/run.json");
  write_text(dir / "mine/notes.txt", "notes");
  {
    BackgroundGbesim run(
        {"run", "s.json", "--set", "duration_ns=1125899906842624", "--out", "mine"}, dir);
    ASSERT_TRUE(run.wait_for_output("simulated (")) << run.output();
    run.signal(SIGKILL);
    EXPECT_EQ(run.wait(), 128 + SIGKILL);
  }
  const auto again = run_gbesim({"run", "s.json", "--out", "mine", "--quiet"}, dir);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_text(dir / "mine/notes.txt"), "notes");
  EXPECT_EQ(Json::parse(read_text(dir / "mine/run.json"))["status"], "complete");
}

TEST(Trust, ASweepNeverRunsIntoNorClearsALinkedOrForeignRunDirectory) {
  const auto dir = fresh_directory("trust-run-links");
  write_text(dir / "s.json", kSmallSweep);
  std::filesystem::create_directories(dir / "sw/runs/0");
  write_text(dir / "sw/runs/0/notes.txt", "mine");
  std::filesystem::create_directories(dir / "victim");
  write_text(dir / "victim/thesis.tex", "thesis");
  std::filesystem::create_directory_symlink(dir / "victim", dir / "sw/runs/1");
  const auto r = run_gbesim({"sweep", "s.json", "--out", "sw"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "runs 1: a link or a file where a run's directory goes"))
      << r.output;
  EXPECT_EQ(read_text(dir / "victim/thesis.tex"), "thesis");
  EXPECT_EQ(std::vector<std::string>{"thesis.tex"}, [&] {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir / "victim"))
      names.push_back(e.path().filename().string());
    return names;
  }());
  // Without the link the sweep runs; the user's file in runs/0 is not a name of gbesim's, and
  // stays.
  std::filesystem::remove(dir / "sw/runs/1");
  const auto ok = run_gbesim({"sweep", "s.json", "--out", "sw", "--quiet"}, dir);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_EQ(read_text(dir / "sw/runs/0/notes.txt"), "mine");
  // A linked runs/ takes nothing anywhere either.
  std::filesystem::create_directories(dir / "elsewhere");
  std::filesystem::create_directories(dir / "sw2");
  std::filesystem::create_directory_symlink(dir / "elsewhere", dir / "sw2/runs");
  const auto linked = run_gbesim({"sweep", "s.json", "--out", "sw2"}, dir);
  EXPECT_EQ(linked.exit_code, 2) << linked.output;
  EXPECT_TRUE(contains(linked.output, "sw2/runs: is a link or not a directory")) << linked.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir / "elsewhere"));
}

TEST(Trust, TheRootDirectoryCannotHoldResults) {
  const auto dir = fresh_directory("trust-root");
  write_text(dir / "s.json", kTwoStations);
  for (const char* verb : {"run", "sweep"}) {
    const auto r = run_gbesim({verb, "s.json", "--out", "/"}, dir);
    EXPECT_EQ(r.exit_code, 2) << verb << r.output;
    EXPECT_TRUE(contains(r.output, "error: /: the root directory cannot hold results")) << r.output;
  }
}

TEST(Trust, AReportReplacesOnlyARegularFile) {
  const auto dir = fresh_directory("trust-report-out");
  write_text(dir / "s.json", kTwoStations);
  ASSERT_EQ(run_gbesim({"run", "s.json", "--out", "r", "--quiet"}, dir).exit_code, 0);
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
  std::filesystem::create_directories(dir / "adir");
  write_text(dir / "afile", "x");
  std::filesystem::create_symlink(dir / "afile", dir / "alink");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fifo", "fifo: is a FIFO; gbesim replaces only regular files"},
      {"adir", "adir: is a directory; -o takes the report's file name, e.g. adir/report.html"},
      {"alink", "alink: is a symbolic link; gbesim replaces only regular files"},
      {"afile/r.html", "afile/r.html: cannot be written: afile is not a directory"}};
  for (const auto& [out, message] : cases) {
    const auto r = run_bounded({"report", "r", "-o", out, "--quiet"}, dir);
    EXPECT_EQ(r.exit_code, 2) << out << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "error: " + message)) << r.output;
  }
  struct stat st {};
  ASSERT_EQ(::lstat((dir / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  ASSERT_EQ(::lstat((dir / "alink").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(read_text(dir / "afile"), "x");
  EXPECT_EQ(temporaries_in(dir), std::vector<std::string>{});
  // A regular file is replaced.
  const auto ok = run_bounded({"report", "r", "-o", "afile", "--quiet"}, dir);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_TRUE(contains(read_text(dir / "afile"), "<!DOCTYPE html>"));
}

TEST(Trust, ANulByteAndGarbageAfterAScenarioAreRefused) {
  const auto dir = fresh_directory("trust-nul");
  write_text(dir / "s.json", std::string(kTwoStations) + std::string("\0garbage{", 9));
  const auto r = run_gbesim({"run", "s.json", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "error: s.json: a NUL byte at line 5, column ")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// ---- own files read back ---------------------------------------------------------------------

// A run.json without its "files" and its seal: as a directory written by hand would be (its
// files are then only validated, not checked against what was written).
void drop_checks(const std::filesystem::path& record_file) {
  auto record = Json::parse(read_text(record_file));
  record.erase("files");
  record.erase("record_crc32");
  write_text(record_file, record.dump());
}

TEST(Trust, ATruncatedRunIsDamagedInStatusRunAgainAndNeverAggregated) {
  const auto dir = fresh_directory("trust-damaged-run");
  write_text(dir / "s.json", kSmallSweep);
  ASSERT_EQ(run_gbesim({"sweep", "s.json", "--out", "sw", "--quiet"}, dir).exit_code, 0);
  const std::string good_row = [&] {
    for (const auto& row : read_csv(dir / "sw/points.csv"))
      if (row[0] == "6") return row[5] + "," + row.back();
    return std::string();
  }();
  write_text(dir / "sw/runs/6/scalars.csv", "");  // : > runs/6/scalars.csv
  const auto status = run_gbesim({"sweep", "s.json", "--out", "sw", "--status"}, dir);
  EXPECT_EQ(status.exit_code, 1) << status.output;
  EXPECT_TRUE(std::regex_search(status.output, std::regex("damaged +1\n"))) << status.output;
  EXPECT_TRUE(contains(status.output, "damaged      scalars.csv has 0 bytes; run.json records "))
      << status.output;
  const auto aggregate = run_gbesim({"sweep", "s.json", "--out", "sw", "--aggregate"}, dir);
  EXPECT_EQ(aggregate.exit_code, 1) << aggregate.output;
  EXPECT_TRUE(contains(aggregate.output, "1 of 8 runs are not complete: runs 6"))
      << aggregate.output;
  EXPECT_TRUE(contains(read_text(dir / "sw/points.csv"), "\n6,3,0,1,damaged,1518,"));
  // Its point's summary holds the other replication only (n = 1).
  EXPECT_TRUE(contains(read_text(dir / "sw/summary.csv"), ",a.mac,frames_transmitted_ok,frames,1,"))
      << read_text(dir / "sw/summary.csv");
  const auto resume = run_gbesim({"sweep", "s.json", "--out", "sw"}, dir);
  EXPECT_EQ(resume.exit_code, 0) << resume.output;
  EXPECT_TRUE(contains(resume.output, "run 6: running it again: damaged (scalars.csv has 0 bytes"))
      << resume.output;
  EXPECT_TRUE(contains(resume.output, "8/8 runs done (0 running, 0 failed, 7 already complete)"))
      << resume.output;
  for (const auto& row : read_csv(dir / "sw/points.csv"))
    if (row[0] == "6") {
      EXPECT_EQ(row[5] + "," + row.back(), good_row);
    }
}

TEST(Trust, AggregatingWithOtherSetsThanTheSweepChangesNothing) {
  const auto dir = fresh_directory("trust-aggregate-sets");
  write_text(dir / "s.json", kSmallSweep);
  ASSERT_EQ(
      run_gbesim({"sweep", "s.json", "--out", "sw", "--quiet", "--set", "links[0].cable_m=20"}, dir)
          .exit_code,
      0);
  const std::string points = read_text(dir / "sw/points.csv");
  const std::string summary = read_text(dir / "sw/summary.csv");
  const std::string record = read_text(dir / "sw/sweep.json");
  for (const std::vector<std::string>& sets :
       {std::vector<std::string>{}, std::vector<std::string>{"--set", "links[0].cable_m=30"}}) {
    std::vector<std::string> args = {"sweep", "s.json", "--out", "sw", "--aggregate"};
    args.insert(args.end(), sets.begin(), sets.end());
    const auto r = run_gbesim(args, dir);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(
        contains(r.output, "this sweep was run with --set 'links[0].cable_m=20' (sweep.json)"))
        << r.output;
    EXPECT_TRUE(contains(r.output,
                         "aggregate it with the same: gbesim sweep s.json --aggregate "
                         "--out sw --set 'links[0].cable_m=20'"))
        << r.output;
    EXPECT_EQ(read_text(dir / "sw/points.csv"), points);
    EXPECT_EQ(read_text(dir / "sw/summary.csv"), summary);
    EXPECT_EQ(read_text(dir / "sw/sweep.json"), record);
  }
  const auto same = run_gbesim(
      {"sweep", "s.json", "--out", "sw", "--aggregate", "--set", "links[0].cable_m=20"}, dir);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_EQ(read_text(dir / "sw/points.csv"), points);
}

TEST(Trust, PlotAndReportRefuseADamagedDirectoryNamingTheFile) {
  const auto dir = fresh_directory("trust-damaged-report");
  write_text(dir / "s.json", kSmallSweep);
  ASSERT_EQ(run_gbesim({"sweep", "s.json", "--out", "sw", "--quiet"}, dir).exit_code, 0);
  ASSERT_EQ(run_gbesim({"run", "s.json", "--out", "r", "--quiet"}, dir).exit_code, 0);
  for (const char* copy : {"r0", "r1"})
    std::filesystem::copy(dir / "r", dir / copy, std::filesystem::copy_options::recursive);
  const std::string scalars = read_text(dir / "r/scalars.csv");
  struct Case {
    std::string what;
    std::string results;
    std::function<void()> damage;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"a FIFO summary", "sw",
       [&] {
         std::filesystem::remove(dir / "sw/summary.csv");
         ASSERT_EQ(::mkfifo((dir / "sw/summary.csv").c_str(), 0644), 0);
       },
       "sw/summary.csv: is a FIFO; expected a file gbesim wrote"},
      {"a truncated scalars.csv", "r",
       [&] { write_text(dir / "r/scalars.csv", scalars.substr(0, scalars.size() / 2)); },
       "r/scalars.csv: damaged: scalars.csv has "},
      {"a binary scalars.csv, with the record's checks", "r",
       [&] {
         write_text(dir / "r/scalars.csv", std::string("\x7f"
                                                       "ELF\x02\x01\x01\0\0",
                                                       9));
       },
       "r/scalars.csv: damaged: scalars.csv has 9 bytes; run.json records " +
           std::to_string(scalars.size())},
      {"a binary scalars.csv, without them", "r", [&] { drop_checks(dir / "r/run.json"); },
       "r/scalars.csv: line 1: holds a control byte"},
      {"nan values", "r",
       [&] {
         const auto header = scalars.find('\n') + 1;
         write_text(
             dir / "r/scalars.csv",
             scalars.substr(0, header) +
                 std::regex_replace(scalars.substr(header), std::regex(",[^,\n]*\n"), ",nan\n"));
       },
       "r/scalars.csv: line 2: value \"nan\" is not a number"},
      {"a run.json with a wrong type", "r0",
       [&] {
         auto record = Json::parse(read_text(dir / "r0/run.json"));
         record["name"] = 42;
         record.erase("record_crc32");
         write_text(dir / "r0/run.json", record.dump());
       },
       "r0/run.json: name: expected a string, got number"},
      {"a sealed run.json edited", "r1",
       [&] {
         const std::string text = read_text(dir / "r1/run.json");
         const auto at = text.find("\"description\": \"\"");
         ASSERT_NE(at, std::string::npos);
         write_text(dir / "r1/run.json",
                    text.substr(0, at) + "\"description\": \"x\"" + text.substr(at + 17));
       },
       "r1/run.json: damaged: its record_crc32 does not match its text"},
  };
  for (const auto& c : cases) {
    c.damage();
    for (const char* verb : {"report", "plot"}) {
      std::vector<std::string> args = {verb, c.results, "-o"};
      args.push_back(std::string(verb) == "report" ? "out.html" : "charts-out");
      const auto r = run_bounded(args, dir);
      EXPECT_EQ(r.exit_code, 2) << c.what << " (" << verb << "): " << r.output;
      EXPECT_TRUE(contains(r.output, "error: " + c.message)) << c.what << ": " << r.output;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.html"));
}

// The pid a lock file names ("gbesim run s.json (pid 123)"), or -1.
pid_t pid_in_lock(const std::filesystem::path& lock) {
  const std::string text = read_text(lock);
  const auto at = text.find("(pid ");
  if (at == std::string::npos) return -1;
  return static_cast<pid_t>(std::atol(text.c_str() + at + 5));
}

// Whether a process is stopped (SIGSTOP taken: its state is T).
bool stopped(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("State:", 0) == 0) return line.find('T') != std::string::npos;
  return false;
}

// Whether a process has `sig` pending (sent, not yet taken: it is stopped).
bool signal_pending(pid_t pid, int sig) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  unsigned long long pending = 0;
  while (std::getline(in, line))
    if (line.rfind("SigPnd:", 0) == 0 || line.rfind("ShdPnd:", 0) == 0)
      pending |= std::stoull(line.substr(7), nullptr, 16);
  return (pending >> (sig - 1)) & 1;
}

TEST(Trust, ASecondSignalLeavesNoTemporaryAndASweepRecordThatSaysInterrupted) {
  const auto dir = fresh_directory("trust-double-int");
  write_text(dir / "s.json", kSmallSweep);
  BackgroundGbesim sweep(
      {"sweep", "s.json", "--out", "sw", "--set", "duration_ns=1125899906842624", "-j", "2"}, dir,
      /*own_group=*/true);
  // Its two runs have started simulating when their logs say so.
  ASSERT_TRUE(wait_until(
      [&] {
        return contains(read_text(dir / "sw/runs/0/log.txt"), "simulated (") &&
               contains(read_text(dir / "sw/runs/1/log.txt"), "simulated (");
      },
      [&] { return !process_running(sweep.pid()); }))
      << sweep.output();
  // The runs are held still, so that the sweep is still waiting for them when the second signal
  // comes: the first is passed on to them (pending while they are stopped), then the second.
  std::vector<pid_t> runs;
  for (int k = 0; k < 2; ++k)
    runs.push_back(pid_in_lock(dir / ("sw/runs/" + std::to_string(k) + "/.gbesim.lock")));
  for (pid_t run : runs) {
    ASSERT_GT(run, 0);
    ::kill(run, SIGSTOP);
  }
  for (pid_t run : runs)
    ASSERT_TRUE(wait_until([&] { return stopped(run); }, [&] { return !process_running(run); }));
  sweep.signal(SIGINT);
  ASSERT_TRUE(wait_until([&] { return signal_pending(runs[0], SIGINT); },
                         [&] { return !process_running(sweep.pid()); }));
  sweep.signal(SIGINT);
  EXPECT_EQ(sweep.wait(), 130) << sweep.output();
  for (pid_t run : runs) ::kill(run, SIGCONT);
  const auto record = Json::parse(read_text(dir / "sw/sweep.json"));
  EXPECT_EQ(record["status"], "interrupted") << record.dump(2);
  EXPECT_TRUE(contains(record.value("note", ""), "stopped at once by a second signal"));
  EXPECT_EQ(temporaries_in(dir / "sw"), std::vector<std::string>{});
  // Its runs end with it (each stops at once when its sweep dies) and leave nothing half written.
  const std::regex none_running("running +0\n");
  ASSERT_TRUE(wait_until(
      [&] {
        return std::regex_search(
            run_gbesim({"sweep", "s.json", "--out", "sw", "--status"}, dir).output, none_running);
      },
      [] { return false; }));
  for (int k = 0; k < 2; ++k)
    EXPECT_EQ(temporaries_in(dir / ("sw/runs/" + std::to_string(k))), std::vector<std::string>{});
}

TEST(Trust, AProcessGroupSigintUnderTimeoutStopsASweepEveryTime) {
  // `timeout` puts itself and the sweep in a process group of their own and, given a signal,
  // passes it on to the sweep and to the group again: the sweep gets it two or three times,
  // at any moment of its loop. Each time it must stop, not start the runs that remain.
  const auto dir = fresh_directory("trust-timeout-int");
  std::string runs;
  for (int size = 64; size < 104; ++size) runs += (runs.empty() ? "" : ", ") + std::to_string(size);
  write_text(dir / "s.json", R"({"name": "many", "description": "", "duration_ns": 400000000,
    "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 10}],
    "sweep": {"stations.a.traffic[0].frame_bytes": [)" +
                                 runs + "]}}");
  for (int attempt = 0; attempt < 5; ++attempt) {
    const std::string out = "sw" + std::to_string(attempt);
    // The signal comes once a run has ended (a condition, polled), at a different run each time.
    const std::string ended = out + "/runs/" + std::to_string(attempt) + "/run.json";
    const auto r = run_command(
        "cd '" + dir.string() + "' || exit 1; timeout 600 " + GBESIM_BINARY +
        " sweep s.json --out " + out +
        " -j 2 --quiet & pid=$!; until grep -qs '\"status\": \"complete\"' " + ended +
        " || ! kill -0 $pid 2>/dev/null; do sleep 0.01; done; kill -INT -$pid; wait $pid; "
        "echo \"exit $?\"");
    EXPECT_TRUE(contains(r.output, "exit 130")) << attempt << ": " << r.output;
    const auto record = Json::parse(read_text(dir / out / "sweep.json"));
    EXPECT_EQ(record["status"], "interrupted") << attempt;
    std::size_t complete = 0;
    for (const auto& row : read_csv(dir / out / "points.csv")) complete += row[4] == "complete";
    EXPECT_LT(complete, 40u) << attempt << ": every run ran";
  }
}

TEST(Trust, AReaderOfARunningSweepNeverSeesItsFilesDisagree) {
  // A sweep aggregating every 20 ms rewrites summary.csv and then sweep.json with its check;
  // loads in a loop meanwhile (as gbesim-gui follows a sweep) either find nothing yet or read a
  // matching pair, never a false "damaged".
  const auto dir = fresh_directory("trust-running-reader");
  std::string sizes;
  for (int size = 64; size < 144; size += 2)
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
  write_text(dir / "s.json", R"({"name": "busy", "description": "", "duration_ns": 20000000,
    "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 10}],
    "sweep": {"stations.a.traffic[0].frame_bytes": [)" +
                                 sizes + "]}}");
  BackgroundGbesim sweep(
      {"sweep", "s.json", "--out", "sw", "--aggregate-every-ms", "20", "-j", "2", "--quiet"}, dir);
  std::size_t loads = 0, read = 0;
  std::vector<std::string> wrong;
  while (process_running(sweep.pid())) {
    ++loads;
    try {
      load_results((dir / "sw").string());
      ++read;
    } catch (const ResultsError& e) {
      // Before the first aggregation there is no summary.csv yet: not an error of the pair.
      if (std::string(e.what()).find("damaged") != std::string::npos) wrong.push_back(e.what());
    }
  }
  EXPECT_EQ(sweep.wait(), 0) << sweep.output();
  EXPECT_EQ(wrong, std::vector<std::string>{});
  std::printf("%zu loads while the sweep ran, %zu read\n", loads, read);
  EXPECT_NO_THROW(load_results((dir / "sw").string()));
}

// ---- answers and illegal plants -------------------------------------------------------------

// 100BASE-TX, three stations: a and b at the ends of a row of `hubs` Class II repeaters (at least
// two), c on the second; every cable lengthened together by the sweep, and the slot time swept.
std::string hub_chain_sweep(int hubs, const std::string& lengths) {
  std::string nodes = R"("a": {"kind": "dte"}, "b": {"kind": "dte"}, "c": {"kind": "dte"})";
  std::string cables = R"({"between": ["a", "h1"], "medium": "cat5", "cable_m": 5})";
  for (int h = 1; h <= hubs; ++h) {
    nodes += fmt::format(R"(, "h{}": {{"kind": "repeater", "class": "class_ii"}})", h);
    if (h > 1)
      cables += fmt::format(R"(, {{"between": ["h{}", "h{}"], "medium": "cat5", "cable_m": 5}})",
                            h - 1, h);
  }
  cables += fmt::format(R"(, {{"between": ["h{}", "b"], "medium": "cat5", "cable_m": 5}})", hubs);
  cables += R"(, {"between": ["c", "h2"], "medium": "cat5", "cable_m": 5})";
  return fmt::format(R"({{"name": "hubs", "description": "", "duration_ns": 4000000,
    "rate_mbps": 100, "mac": {{"duplex": "half"}},
    "stations": {{"a": {{"traffic": [{{"pattern": "saturated", "to": "b", "frame_bytes": 64}}]}},
                 "b": {{"traffic": [{{"pattern": "saturated", "to": "a", "frame_bytes": 64}}]}},
                 "c": {{"traffic": [{{"pattern": "saturated", "to": "b", "frame_bytes": 64}}]}}}},
    "topology": {{"nodes": {{{}}}, "cables": [{}]}},
    "sweep": {{"topology.cables[*].cable_m": [{}],
              "slot": [{{"label": "512", "set": {{"mac.slot_time_bits": 512, "topology.budget_bt": 512}}}},
                       {{"label": "1024", "set": {{"mac.slot_time_bits": 1024, "topology.budget_bt": 1024}}}}]}}}})",
                     nodes, cables, lengths);
}

// The path delay of a - b with every cable at L (802.3 clause 29, 100BASE-TX over Category 5):
// two TX DTEs 100 BT, a Class II repeater 92 BT each, 1.112 BT per metre of cable both ways.
double edge_m(int hubs, double budget_bt) {
  return (budget_bt - 100 - 92 * hubs) / (1.112 * (hubs + 1));
}

TEST(Trust, ThreeClassIiRepeatersAreIllegalAtEveryPointAndTheAnswerSaysSoFirst) {
  const auto dir = fresh_directory("trust-three-hubs");
  write_text(dir / "s.json", hub_chain_sweep(3, "10, 20, 25, 30, 35, 40"));
  const auto r = run_gbesim({"sweep", "s.json", "--out", "sw", "-j", "2", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string answers = read_text(dir / "sw/answers.txt");
  // (512 - 100 - 276) / (4 x 1.112) = 30.58 m.
  EXPECT_TRUE(contains(answers,
                       fmt::format("slot=512: illegal at every point: 3 Class II repeaters between "
                                   "two stations; at most 2 (a - b); by the path delay alone up to "
                                   "{:.2f} m per cable at slot 512 BT",
                                   edge_m(3, 512))))
      << answers;
  EXPECT_TRUE(contains(answers, "slot=1024: illegal at every point: 3 Class II repeaters"))
      << answers;
}

TEST(Trust, TheLegalLengthOfALengthenedTwoHubPlantLandsOnTheSimulatedEdge) {
  const auto dir = fresh_directory("trust-two-hubs");
  // Every cable, the hubs' own included, at L: (512 - 100 - 184) / (3 x 1.112) = 68.35 m.
  write_text(dir / "s.json", hub_chain_sweep(2, "40, 50, 60, 65, 70, 75, 80, 90"));
  const auto r = run_gbesim({"sweep", "s.json", "--out", "sw", "-j", "2", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string answers = read_text(dir / "sw/answers.txt");
  const std::string legal = fmt::format(
      "slot=512: legal up to {:.2f} m per cable at slot 512 BT "
      "by the path delay",
      edge_m(2, 512));
  EXPECT_TRUE(contains(answers, legal)) << answers;
  EXPECT_FALSE(contains(answers, "illegal at")) << answers;
  // Within one swept step: clean at 65 m, failing at 70.
  EXPECT_TRUE(contains(answers, legal + "; simulated: no failure up to 65 m, first failure at 70 m "
                                        "(late collisions: "))
      << answers;
}

TEST(Trust, ARunOfAnIllegalPlantSaysEachBrokenRuleFirstAndRecordsIt) {
  const auto dir = fresh_directory("trust-illegal-run");
  write_text(dir / "s.json", hub_chain_sweep(3, "40"));
  const auto r = run_gbesim({"run", "s.json", "--point", "0", "--out", "out"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // PDV with every cable at 40 m: 100 + 276 + 4 x 40 x 1.112 = 553.92 BT.
  const std::string rule =
      "warning: s.json: topology: collision domain 0 (100 Mb/s) breaks a repeater rule of 802.3: "
      "a - b: 3 Class II repeaters between two stations; at most 2";
  const std::string pdv =
      "warning: s.json: topology: collision domain 0 (100 Mb/s): the path delay value of a - b is "
      "553.92 bit times, over the 512 BT budget by 41.92";
  EXPECT_EQ(r.output.rfind(rule, 0), 0u) << r.output;  // the first line
  EXPECT_TRUE(contains(r.output, pdv)) << r.output;
  const auto record = Json::parse(read_text(dir / "out/run.json"));
  const std::string warnings = record["warnings"].dump();
  EXPECT_TRUE(contains(warnings, "3 Class II repeaters between two stations; at most 2"));
  EXPECT_TRUE(contains(warnings, "553.92 bit times"));
  EXPECT_EQ(record["repeater_rule_breaches"][0]["rule"],
            "3 Class II repeaters between two stations; at most 2");
}

TEST(Trust, ASweepOverOneCableStatesTheLegalLengthOfThatCable) {
  const auto dir = fresh_directory("trust-one-cable");
  std::string s = hub_chain_sweep(2, "40");
  s = std::regex_replace(s, std::regex(R"("topology.cables\[\*\].cable_m": \[40\])"),
                         R"("topology.cables[0].cable_m": [100, 120, 140, 160, 180])");
  write_text(dir / "s.json", s);
  const auto r = run_gbesim({"sweep", "s.json", "--out", "sw", "-j", "2", "--quiet"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Cable 0 alone, the two others on its paths at 5 m: (512 - 284 - 2 x 5 x 1.112) / 1.112 =
  // 195.04 m; the segment limit of 100BASE-TX is 100 m.
  const double legal = (512 - 284 - 2 * 5 * 1.112) / 1.112;
  EXPECT_TRUE(contains(read_text(dir / "sw/answers.txt"),
                       fmt::format("slot=512: legal up to {:.2f} m of topology.cables[0] at slot "
                                   "512 BT by the path delay (100.00 m with the PHY's segment "
                                   "limit)",
                                   legal)))
      << read_text(dir / "sw/answers.txt");
}

TEST(Trust, RunningAShippedSweepFileRunsItsBaseScenario) {
  const auto dir = fresh_directory("trust-base");
  // Every shipped scenario (each but default.json a sweep; pci-ceiling's excludes combinations
  // that are not points), its base run for 20 us.
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() / "scenarios")) {
    if (entry.path().extension() != ".json") continue;
    const std::string file = entry.path().filename().string();
    const auto r = run_gbesim({"run", entry.path().string(), "--set", "duration_ns=20000", "--out",
                               "out-" + file, "--quiet"},
                              dir);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.output;
  }
}

}  // namespace
}  // namespace gbesim
