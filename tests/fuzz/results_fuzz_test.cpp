// Deterministic mutation fuzzing of results directories, read back as gbesim reads them: a run's,
// a sweep's and `gbesim phy`'s directory, written by the binary, then damaged one file at a time
// -- bytes flipped, inserted, cut, truncated; a number made nan, inf, 1e999 or text; a line
// duplicated, dropped or swapped; a JSON member edited (tests/fuzz/mutator); the file replaced by
// a FIFO, a symbolic link, a directory, an empty or a 1 GiB sparse file. The rule is the CLI's:
// exit 0 with correct output, or exit 2 naming the file; never a hang, a crash or a
// complete-looking wrong result.
//
// In this process each mutant is loaded as `plot` and `report` load it (analysis/results, then
// analysis/answers): it must load to exactly what the undamaged directory gives, or be refused
// with a ResultsError naming a file under it. Through the binary, a share of them go to
// `gbesim report` (bounded by `timeout`: exit 0 or 2, never 124), and damaged runs of a sweep to
// `gbesim sweep --status --json` and `--aggregate`: a run is `damaged` exactly when a file its
// record lists (or the record) changed, and no damaged run is aggregated.
//
// GBESIM_FUZZ_MUTANTS=N (the mutants per file of the scenario fuzz) makes 2N/5 in-process mutants
// per directory kind here (default 1,200: 3,600 in all); the counts are printed, for
// docs/reliability.md.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "analysis/answers.hpp"
#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "tests/fuzz/mutator.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;
namespace fs = std::filesystem;

std::size_t mutants_per_kind() {
  const char* n = std::getenv("GBESIM_FUZZ_MUTANTS");
  return n != nullptr ? static_cast<std::size_t>(std::stoul(n)) * 2 / 5 : 1200;
}

const char* kSweep = R"({"name": "fuzzed", "description": "what a fuzzer damages",
  "duration_ns": 200000, "replications": 2,
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
               "b": {"traffic": [{"pattern": "poisson", "to": "a", "frame_bytes": 512,
                                  "load_bps": 100000000}]}},
  "links": [{"between": ["a", "b"], "cable_m": 10}],
  "sweep": {"stations.a.traffic[0].frame_bytes": [64, 1518]}})";

// Everything a directory gives `plot` and `report`, as text: equal texts, equal outputs.
std::string fingerprint(const Results& r) {
  std::ostringstream s;
  s << static_cast<int>(r.kind) << '|' << r.name << '|' << r.description << '\n';
  for (const auto& a : r.axes) s << "axis " << a << '\n';
  for (const auto& p : r.points) {
    s << "point";
    for (const auto& v : p) s << ' ' << v;
    s << '\n';
  }
  for (const auto& [key, st] : r.statistics())
    s << std::get<0>(key) << ' ' << std::get<1>(key) << ' ' << std::get<2>(key) << ' '
      << fmt::format("{} {} {} {}", st.mean, st.ci95, st.n, st.unit) << '\n';
  for (const auto& [name, table] : r.tables) {
    s << "table " << name << ' ' << table.columns.size() << ' ' << table.rows.size() << '\n';
    for (const auto& row : table.rows)
      for (const auto& f : row) s << f << ',';
  }
  // A point's configuration, from whichever of its replications' records is intact: they differ
  // only in their seed.
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    nlohmann::json config = r.config(p);
    if (config.is_object()) config.erase("seed");
    s << config.dump() << '\n';
  }
  for (const Answer& a : answers(r)) {
    s << a.question << '\n';
    for (const auto& l : a.lines) s << l << '\n';
    for (const auto& l : a.details) s << l << '\n';
  }
  return s.str();
}

// The regular files under a directory (relative paths), in order.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != ".gbesim" &&
        e.path().filename() != ".gbesim.lock")  // the mark, a lock: not results
      out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

// One damage to one file. Returns what it did, for a failure's message.
class Damage {
 public:
  explicit Damage(std::uint64_t seed) : rng_(seed), json_(seed ^ 0x9e3779b97f4a7c15ULL) {}

  std::string apply(const fs::path& file) {
    const std::string name = file.filename().string();
    std::string text = read_text(file);
    const bool json = file.extension() == ".json";
    switch (below(json ? 16 : 14)) {
      case 0:
        return replace_kind(file);
      case 1:
        if (text.empty()) return replace_kind(file);
        text[below(text.size())] ^= static_cast<char>(1 + below(255));
        write(file, text);
        return "a byte flipped";
      case 2:
        text.insert(below(text.size() + 1), random_bytes(1 + below(8)));
        write(file, text);
        return "bytes inserted";
      case 3: {
        const std::size_t at = below(text.size() + 1);
        text.erase(at, 1 + below(64));
        write(file, text);
        return "a range cut";
      }
      case 4:
        write(file, text.substr(0, below(text.size() + 1)));
        return "truncated";
      case 5:
        write(file, text + random_bytes(1 + below(32)));
        return "garbage appended";
      case 6:
      case 7:
      case 8:
        return replace_number(file, text);
      case 9:
        return edit_lines(file, text);
      case 10:
        if (below(2) == 0) {
          fs::remove(file);
          return "deleted";
        }
        write(file, "");
        return "emptied";
      case 11:
        write(file, text + "\n" + std::string(1, '\0') + "{}");
        return "a NUL and more after the end";
      case 12:
        return edit_lines(file, text);
      case 13:
        return replace_number(file, text);
      default:  // JSON: a member edited, the text written again; or a byte
        write(file, json_.mutate_once(text));
        return "JSON edited";
    }
  }

 private:
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
  static void write(const fs::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  }
  std::string random_bytes(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(below(256));
    return s;
  }

  std::string replace_kind(const fs::path& file) {
    fs::remove(file);
    switch (below(6)) {
      case 0:
        ::mkfifo(file.c_str(), 0644);
        return "a FIFO";
      case 1:
        fs::create_symlink("/dev/zero", file);
        return "a link to /dev/zero";
      case 2:
        fs::create_symlink(file.filename().string() + ".elsewhere", file);
        write(file.string() + ".elsewhere", "component,name,unit,value\n");
        return "a link to another file";
      case 3:
        fs::create_directories(file);
        return "a directory";
      case 4:
        write(file, "");
        return "an empty file";
      default: {
        std::ofstream(file).close();
        fs::resize_file(file, std::uintmax_t{1} << 30);
        return "a 1 GiB sparse file";
      }
    }
  }

  // A field or JSON number somewhere replaced by what gbesim never writes as a number.
  std::string replace_number(const fs::path& file, std::string text) {
    static const char* kWords[] = {"nan",
                                   "-nan",
                                   "inf",
                                   "1e999",
                                   "0x1p3",
                                   "",
                                   "abc",
                                   "1,2",
                                   "\"q\"",
                                   "-0",
                                   "99999999999999999999",
                                   "1e-400"};
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(text[i])) &&
          (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]))))
        starts.push_back(i);
    if (starts.empty()) return replace_kind(file);
    const std::size_t at = starts[below(starts.size())];
    std::size_t end = at;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '.' || text[end] == '-' || text[end] == '+'))
      ++end;
    const std::string word = kWords[below(std::size(kWords))];
    text.replace(at, end - at, word);
    write(file, text);
    return "a number made \"" + word + "\"";
  }

  std::string edit_lines(const fs::path& file, const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    if (lines.size() < 2) return replace_kind(file);
    const std::size_t a = below(lines.size()), b = below(lines.size());
    std::string what;
    switch (below(3)) {
      case 0:
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(a), lines[b]);
        what = "a line duplicated";
        break;
      case 1:
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(a));
        what = "a line dropped";
        break;
      default:
        if (lines[a] == lines[b]) return edit_lines(file, text + "\n");
        std::swap(lines[a], lines[b]);
        what = "two lines swapped";
    }
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    write(file, out);
    return what;
  }

  std::mt19937_64 rng_;
  fuzz::Mutator json_;
};

struct Tally {
  std::size_t tried = 0, identical = 0, refused = 0;
  std::vector<std::string> failures;
};

// Loads `dir` as plot and report do: exactly `pristine`, or a ResultsError naming a file in it.
void judge(const fs::path& dir, const std::string& pristine, const std::string& what, Tally& t) {
  ++t.tried;
  try {
    const std::string got = fingerprint(load_results(dir.string()));
    if (got == pristine)
      ++t.identical;
    else
      t.failures.push_back(what + ": loaded, but not what was written (a wrong result)");
  } catch (const ResultsError& e) {
    ++t.refused;
    if (std::string(e.what()).rfind(dir.string(), 0) != 0)
      t.failures.push_back(what + ": refused without naming a file of it: " + e.what());
  } catch (const std::exception& e) {
    t.failures.push_back(what + ": " + e.what());
  }
}

// Fresh directories of the three kinds, written by the binary once per test process.
struct Written {
  fs::path root;
  fs::path run, sweep, phy;
};

const Written& written() {
  static const Written w = [] {
    Written out;
    out.root = fresh_directory("results-fuzz");
    write_text(out.root / "s.json", kSweep);
    const auto sweep = run_gbesim({"sweep", "s.json", "--out", "sweep", "--quiet"}, out.root);
    EXPECT_EQ(sweep.exit_code, 0) << sweep.output;
    const auto run =
        run_gbesim({"run", "s.json", "--out", "run", "--series", "50us", "--quiet"}, out.root);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    const auto phy =
        run_gbesim({"phy", "--out", "phy", "--lengths", "0,50,100", "--cable", "cat5",
                    "--mc-symbols", "0", "--symbols", "1000", "--sigma", "0.5", "--quiet"},
                   out.root);
    EXPECT_EQ(phy.exit_code, 0) << phy.output;
    out.run = out.root / "run";
    out.sweep = out.root / "sweep";
    out.phy = out.root / "phy";
    return out;
  }();
  return w;
}

void report(const std::string& kind, const Tally& t) {
  std::printf(
      "results fuzz %s: %zu mutants, %zu loaded as written, %zu refused naming the file, %zu "
      "wrong\n",
      kind.c_str(), t.tried, t.identical, t.refused, t.failures.size());
  for (std::size_t i = 0; i < t.failures.size() && i < 20; ++i) ADD_FAILURE() << t.failures[i];
}

class ResultsFuzz : public ::testing::TestWithParam<std::string> {};

TEST_P(ResultsFuzz, EveryDamagedDirectoryLoadsAsWrittenOrIsRefusedNamingTheFile) {
  const std::string kind = GetParam();
  const Written& w = written();
  const fs::path source = kind == "run" ? w.run : kind == "sweep" ? w.sweep : w.phy;
  const std::string pristine = fingerprint(load_results(source.string()));
  const auto files = files_under(source);
  ASSERT_FALSE(files.empty());
  const auto scratch = fresh_directory("results-fuzz-" + kind);
  Damage damage(std::hash<std::string>{}(kind) ^ 20261206);
  std::mt19937_64 pick(std::hash<std::string>{}(kind));
  Tally t;
  for (std::size_t i = 0; i < mutants_per_kind(); ++i) {
    const fs::path dir = scratch / "d";
    fs::remove_all(dir);
    fs::copy(source, dir, fs::copy_options::recursive);
    const std::string file = files[pick() % files.size()];
    const std::string what =
        fmt::format("mutant {} of {}: {}: {}", i, kind, file, damage.apply(dir / file));
    judge(dir, pristine, what, t);
  }
  report(kind, t);
}

INSTANTIATE_TEST_SUITE_P(Kinds, ResultsFuzz, ::testing::Values("run", "sweep", "phy"),
                         [](const auto& info) { return info.param; });

// Through the binary: `gbesim report` on damaged directories ends, with 0 or 2.
TEST(ResultsFuzzBinary, ReportOfADamagedDirectoryEndsWithZeroOrTwoNamingTheFile) {
  const Written& w = written();
  const auto scratch = fresh_directory("results-fuzz-report");
  Damage damage(7);
  std::mt19937_64 pick(11);
  std::size_t ok = 0, refused = 0;
  const std::size_t n = std::max<std::size_t>(30, mutants_per_kind() / 12);
  for (std::size_t i = 0; i < n; ++i) {
    const fs::path source = i % 2 == 0 ? w.run : w.sweep;
    const fs::path dir = scratch / ("d" + std::to_string(i));
    fs::copy(source, dir, fs::copy_options::recursive);
    const auto files = files_under(dir);
    const std::string file = files[pick() % files.size()];
    const std::string what = file + ": " + damage.apply(dir / file);
    const auto r =
        run_command("cd '" + scratch.string() + "' && timeout 600 " + GBESIM_BINARY + " report d" +
                    std::to_string(i) + " -o r" + std::to_string(i) + ".html --quiet");
    if (r.exit_code == 0) {
      ++ok;
    } else {
      ++refused;
      EXPECT_EQ(r.exit_code, 2) << what << ": " << r.output;
      EXPECT_NE(r.output.find("error: d" + std::to_string(i)), std::string::npos)
          << what << ": " << r.output;
      EXPECT_FALSE(fs::exists(scratch / ("r" + std::to_string(i) + ".html"))) << what;
    }
  }
  std::printf("results fuzz report: %zu mutants through gbesim report, %zu reported, %zu refused\n",
              n, ok, refused);
}

// A sweep's own reading: a run whose record or listed files changed is `damaged`, every other
// run stays `complete`, and --aggregate leaves the damaged one out.
TEST(ResultsFuzzBinary, ASweepCallsEveryDamagedRunDamagedAndAggregatesNoneOfThem) {
  const Written& w = written();
  const auto scratch = fresh_directory("results-fuzz-status");
  write_text(scratch / "s.json", kSweep);
  Damage damage(13);
  std::mt19937_64 pick(17);
  std::size_t damaged = 0, intact = 0;
  const std::size_t n = std::max<std::size_t>(30, mutants_per_kind() / 20);
  for (std::size_t i = 0; i < n; ++i) {
    const fs::path dir = scratch / "sweep";
    fs::remove_all(dir);
    fs::copy(w.sweep, dir, fs::copy_options::recursive);
    const std::size_t run = pick() % 4;
    const fs::path run_dir = dir / "runs" / std::to_string(run);
    const auto files = files_under(run_dir);
    const std::string file = files[pick() % files.size()];
    const std::string before = read_text(run_dir / file);
    const std::string what = fmt::format("run {}: {}: {}", run, file, damage.apply(run_dir / file));
    struct stat st {};
    const bool same = ::lstat((run_dir / file).c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                      read_text(run_dir / file) == before;
    const bool counts = file == "run.json" || file == "scalars.csv" || file == "flows.csv";
    const auto status = run_command("cd '" + scratch.string() + "' && timeout 600 " +
                                    GBESIM_BINARY + " sweep s.json --out sweep --status --json");
    ASSERT_NE(status.exit_code, 124) << what;
    const Json j = Json::parse(status.output.substr(status.output.find('{')));
    // Damaged; or, its record gone, a run that left only its log (failed): run again either way.
    const bool gone = file == "run.json" && !fs::exists(fs::symlink_status(run_dir / file));
    const std::string expected = gone ? "failed" : "damaged";
    const bool said = j["counts"][expected] == 1 && j["runs_by_status"][expected][0] == run;
    if (counts && !same) {
      EXPECT_TRUE(said) << what << ": " << status.output;
      EXPECT_EQ(j["counts"]["complete"], 3) << what << ": " << status.output;
      ++damaged;
      const auto aggregate = run_command("cd '" + scratch.string() + "' && timeout 600 " +
                                         GBESIM_BINARY + " sweep s.json --out sweep --aggregate");
      EXPECT_EQ(aggregate.exit_code, 1) << what << ": " << aggregate.output;
      bool row_damaged = false;
      for (const auto& row : read_csv(dir / "points.csv"))
        if (row[0] == std::to_string(run)) row_damaged = row[4] == expected && row.back().empty();
      EXPECT_TRUE(row_damaged) << what << "\n" << read_text(dir / "points.csv");
    } else {
      EXPECT_EQ(j["counts"]["complete"], 4) << what << ": " << status.output;
      ++intact;
    }
  }
  std::printf(
      "results fuzz status: %zu damaged runs of a sweep, %zu named damaged and left out, "
      "%zu damages to files no check covers, runs complete\n",
      n, damaged, intact);
}

}  // namespace
}  // namespace gbesim
