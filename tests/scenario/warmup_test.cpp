// Warm-up: with warmup_ns = W every statistic restarts at W. Differential check on
// real runs of every kind of model: run A (duration T, warm-up W), run B (duration T, none) and
// run C (duration W, none) are the same simulation, so what A reports must follow from B and C
// by the kind `gbesim stats` gives each row -- a count or total is B - C, a rate is
// (B T - C W) / (T - W), a distribution's count and sum are B's less C's, a state at the end is
// B's, a peak since the restart is at most B's, and the fairness index is Jain's over each
// station's bytes since the restart over the stations that tried to send.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "sim/input/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using gbesim::testing::fresh_directory;
using gbesim::testing::read_csv;
using gbesim::testing::read_text;
using gbesim::testing::run_gbesim;
using gbesim::testing::source_dir;
using gbesim::testing::stats_pattern;

struct Case {
  std::string name;
  std::vector<std::string> args;  // scenario (relative to the source tree), then options
  std::int64_t duration_ns;
};

// (component, name) -> value text, in file order.
using Scalars = std::map<std::pair<std::string, std::string>, std::string>;

Scalars scalars_of(const std::filesystem::path& file) {
  Scalars out;
  const auto rows = read_csv(file);
  for (std::size_t i = 1; i < rows.size(); ++i) out[{rows[i][0], rows[i][1]}] = rows[i][3];
  return out;
}

double number(const std::string& text) {
  return text.empty() ? std::nan("") : std::stod(text);
}

bool close(double got, double want, double scale) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  return std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(scale));
}

TEST(Warmup, EveryStatisticCoversOnlyTheTimeAfterTheWarmUp) {
  const auto dir = fresh_directory("warmup");
  std::map<std::pair<std::string, std::string>, std::string> kind_of;
  for (const auto& s : Json::parse(run_gbesim({"stats", "--json"}).output))
    kind_of[{s["component"].get<std::string>(), s["name"].get<std::string>()}] =
        s["kind"].get<std::string>();
  const std::vector<Case> cases = {
      {"hd", {"tests/data/golden/hd-33-mixed.json"}, 5'000'000},
      {"bursting", {"tests/data/golden/hd-128-bursting.json"}, 2'000'000},
      {"pci", {"scenarios/pci-ceiling.json", "--point", "200"}, 10'000'000},
      {"review", {"scenarios/nic-review-2003.json", "--point", "57"}, 20'000'000},
      {"switch", {"scenarios/switch-incast.json", "--point", "3"}, 10'000'000},
      {"pcie", {"scenarios/gbe-aggregation-10g.json"}, 3'000'000},
      {"files", {"scenarios/server-fe-vs-gbe.json", "--point", "5"}, 20'000'000},
  };
  std::map<std::string, int> checked;  // by kind
  int counts_that_differ = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // A warm-up that is not a round number, so no boundary is special.
    const std::int64_t warmup_ns = c.duration_ns / 3 + 7;
    auto run = [&](const std::string& out, std::int64_t duration, std::int64_t warmup) {
      std::vector<std::string> args = {"run", (source_dir() / c.args[0]).string()};
      args.insert(args.end(), c.args.begin() + 1, c.args.end());
      args.insert(args.end(),
                  {"--quiet", "--out", out, "--set", "duration_ns=" + std::to_string(duration),
                   "--set", "warmup_ns=" + std::to_string(warmup)});
      const auto r = run_gbesim(args, dir);
      EXPECT_EQ(r.exit_code, 0) << r.output;
      return scalars_of(dir / out / "scalars.csv");
    };
    const Scalars a = run(c.name + "-a", c.duration_ns, warmup_ns);
    const Scalars b = run(c.name + "-b", c.duration_ns, 0);
    const Scalars w = run(c.name + "-c", warmup_ns, 0);
    const Json run_a = Json::parse(read_text(dir / (c.name + "-a") / "run.json"));
    EXPECT_EQ(run_a["statistics_from_ps"].get<std::int64_t>(), warmup_ns * 1000);
    const std::string run_json = read_text(dir / (c.name + "-a") / "run.json");
    const double t = static_cast<double>(c.duration_ns);
    const double wu = static_cast<double>(warmup_ns);
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [key, text] : a) {
      const auto& [component, name] = key;
      SCOPED_TRACE(component + " " + name);
      ASSERT_EQ(b.count(key), 1u);
      const std::string pattern = stats_pattern(component, run_json);
      const auto kind_it = kind_of.find({pattern, name});
      if (kind_it == kind_of.end()) continue;  // derived rows (network totals, analysis)
      const std::string& kind = kind_it->second;
      const double va = number(text);
      const double vb = number(b.at(key));
      const double vc = w.count(key) ? number(w.at(key)) : std::nan("");
      const bool distribution = kind == "distribution";
      const std::string stem = distribution ? name.substr(0, name.rfind('_')) : name;
      if (kind == "count" || (distribution && name == stem + "_count")) {
        // Exact: the same events, counted from the restart.
        EXPECT_EQ(va, vb - vc);
        if (va != vb) ++counts_that_differ;
      } else if (kind == "total") {
        EXPECT_TRUE(close(va, vb - vc, vb)) << va << " vs " << vb << " - " << vc;
      } else if (kind == "rate") {
        EXPECT_TRUE(close(va * (t - wu), vb * t - vc * wu, vb * t)) << va << " " << vb << " " << vc;
      } else if (kind == "at end") {
        EXPECT_EQ(text, b.at(key));
      } else if (distribution && name == stem + "_mean") {
        const double na = number(a.at({component, stem + "_count"}));
        const double nb = number(b.at({component, stem + "_count"}));
        const double nc = number(w.at({component, stem + "_count"}));
        if (na == 0) continue;
        const double sum_b = vb * nb;
        const double sum_c = nc > 0 ? vc * nc : 0.0;
        EXPECT_TRUE(close(va * na, sum_b - sum_c, sum_b));
      } else if (distribution && (name == stem + "_max" || name == stem + "_min")) {
        if (text.empty()) continue;
        if (name == stem + "_max") {
          EXPECT_LE(va, vb);
        } else {
          EXPECT_GE(va, vb);
        }
      } else if (kind == "summary" &&
                 (name.find("peak") != std::string::npos ||
                  (name.size() > 4 && name.substr(name.size() - 4) == "_max"))) {
        EXPECT_LE(va, vb);
      } else if (kind == "summary" && name == "fairness") {
        // Jain's index over each station's DA..FCS bytes since the restart.
        double sum = 0, squares = 0, n = 0;
        for (const auto& [k, v] : a)
          if (k.second == "frame_octets_transmitted_ok" && k.first.size() > 4 &&
              k.first.substr(k.first.size() - 4) == ".mac") {
            // Over the stations that tried to send since the restart.
            if (number(a.at({k.first, "transmission_attempts"})) == 0) continue;
            const double x = number(v);
            sum += x;
            squares += x * x;
            n += 1;
          }
        ASSERT_GT(n, 1);
        EXPECT_TRUE(close(va, sum * sum / (n * squares), 1.0)) << va;
      } else {
        continue;  // ratios, quantiles, other summaries: by their mechanism (Stats tests)
      }
      ++checked[kind];
    }
  }
  for (const char* kind : {"count", "distribution", "total", "rate", "at end", "summary"})
    EXPECT_GT(checked[kind], 0) << kind;
  EXPECT_GT(counts_that_differ, 100);
}

// The warm-up is inside the run: one as long as the run leaves no statistics, a clear error.
TEST(Warmup, AWarmUpAsLongAsTheRunIsAnError) {
  const auto dir = fresh_directory("warmup-error");
  const auto r =
      run_gbesim({"run", (source_dir() / "scenarios/default.json").string(), "--set",
                  "duration_ns=1000000", "--set", "warmup_ns=1000000", "--quiet", "--out", "out"},
                 dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("warmup_ns"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("expected at most 999999 ns"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out/scalars.csv"));
}

// The run summary says the statistics start after the warm-up.
TEST(Warmup, TheSummarySaysWhatTheStatisticsCover) {
  const auto dir = fresh_directory("warmup-summary");
  const auto r = run_gbesim({"run", (source_dir() / "scenarios/default.json").string(), "--set",
                             "duration_ns=3000000", "--set", "warmup_ns=1000000", "--out", "out"},
                            dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("statistics after a 1 ms warm-up: the last 2 ms"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace gbesim
