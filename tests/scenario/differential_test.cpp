// Differential test of the half-duplex MAC and collision domain: random small scenarios run
// through the gbesim binary (events.csv) and through the bit-stepped reference of
// tests/reference, with the same traffic and the same backoff draws, must give the identical
// timeline of every attempt (start, end, outcome) and every drop, station by station.

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "models/common/rng.hpp"
#include "sim/input/json_path.hpp"
#include "tests/reference/csma_cd_reference.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;
namespace ref = gbesim::reference;

struct Generated {
  ref::Setup setup;
  std::string json;
};

// A random scenario: 2-6 stations on one collision domain, delays from 0 to 1.2 slots (so
// collisions are late at times), a few scripted frames each, 10/100/1000 Mb/s, extension and
// bursting on or off.
Generated generate(std::uint64_t index) {
  RngStream rng(index, "differential");
  Generated g;
  ref::Setup& s = g.setup;
  const std::int64_t rates[] = {10, 100, 1000};
  s.rate_mbps = rates[rng.uniform_below(3)];
  s.slot_bits = s.rate_mbps == 1000 ? 4096 : 512;
  s.extension = rng.uniform_below(4) != 0;
  s.bursting = s.rate_mbps == 1000 && rng.uniform_below(2) == 0;
  s.seed = index + 1;
  const std::size_t n = 2 + rng.uniform_below(5);
  s.duration_bits = s.rate_mbps == 1000 ? 150000 : 40000;
  s.delay_bits.assign(n, std::vector<std::int64_t>(n, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = i + 1; k < n; ++k)
      s.delay_bits[i][k] = s.delay_bits[k][i] = static_cast<std::int64_t>(
          rng.uniform_below(static_cast<std::uint64_t>(s.slot_bits * 6 / 5)));
  const std::int64_t bit_ps = 1'000'000 / s.rate_mbps;
  Json stations = Json::object();
  for (std::size_t i = 0; i < n; ++i) {
    ref::StationSetup st;
    st.name = "s" + std::to_string(i);
    const std::size_t frames = rng.uniform_below(6);
    std::vector<std::int64_t> at;
    for (std::size_t f = 0; f < frames; ++f)
      at.push_back(static_cast<std::int64_t>(
          rng.uniform_below(static_cast<std::uint64_t>(s.duration_bits / 3))));
    std::sort(at.begin(), at.end());
    Json script = Json::array();
    for (std::int64_t a : at) {
      const std::int64_t bytes = rng.uniform_below(3) == 0 ? 64 : rng.uniform_range(64, 1518);
      st.frames.push_back({a, bytes});
      script.push_back(Json{{"at_ns", a * bit_ps / 1000}, {"bytes", bytes}});
    }
    const std::string to = "s" + std::to_string((i + 1) % n);
    stations[st.name]["traffic"] =
        frames == 0 ? Json::array()
                    : Json::array({Json{{"pattern", "script"}, {"to", to}, {"script", script}}});
    s.stations.push_back(st);
  }
  Json delays = Json::array();
  for (std::size_t i = 0; i < n; ++i) {
    Json row = Json::array();
    for (std::size_t k = 0; k < n; ++k)
      row.push_back(static_cast<double>(s.delay_bits[i][k] * bit_ps) / 1000.0);
    delays.push_back(row);
  }
  Json doc;
  doc["name"] = "diff" + std::to_string(index);
  doc["description"] = "differential test scenario";
  doc["duration_ns"] = s.duration_bits * bit_ps / 1000;
  doc["seed"] = s.seed;
  doc["rate_mbps"] = s.rate_mbps;
  doc["mac"] = {
      {"duplex", "half"}, {"carrier_extension", s.extension}, {"frame_bursting", s.bursting}};
  doc["stations"] = stations;
  Json names = Json::array();
  for (const auto& st : s.stations) names.push_back(st.name);
  doc["collision_domains"] = Json::array({Json{{"stations", names}, {"delay_ns", delays}}});
  g.json = doc.dump(1);
  return g;
}

// The model's timeline, from events.csv.
std::vector<ref::StationTimeline> model_timeline(const std::filesystem::path& events,
                                                 const ref::Setup& s) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < s.stations.size(); ++i) index[s.stations[i].name + ".mac"] = i;
  std::vector<ref::StationTimeline> out(s.stations.size());
  const std::int64_t bit_ps = 1'000'000 / s.rate_mbps;
  std::ifstream in(events);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string x;
    while (std::getline(ss, x, ',')) f.push_back(x);
    if (f.size() < 5) f.resize(6);
    if (f.size() < 6) f.resize(6);
    const auto it = index.find(f[1]);
    if (it == index.end()) continue;
    auto& tl = out[it->second];
    const std::int64_t t = std::stoll(f[0]) / bit_ps;
    const std::int64_t frame =
        f[3].empty() ? -1 : static_cast<std::int64_t>(std::stoull(f[3]) % 1'000'000'000'000ULL) - 1;
    const std::string& event = f[2];
    if (event == "tx_start") {
      tl.attempts.push_back({frame, t, -1, ""});
    } else if (event == "tx_end") {
      tl.attempts.back().end_bits = t;
      tl.attempts.back().outcome = "ok";
    } else if (event == "collision") {
      if (frame < 0) {
        tl.attempts.push_back({-1, t, -1, "late"});
      } else {
        tl.attempts.back().outcome = f[5] == "late" ? "late" : "collision";
      }
    } else if (event == "jam_end") {
      tl.attempts.back().end_bits = t;
    } else if (event == "drop") {
      tl.drops.push_back({frame, t, f[5]});
    }
  }
  return out;
}

// Batch `batch` (100 scenarios) compared, gbesim run with `environment` ("NAME=value" or "").
void compare_batch(int batch, const std::string& environment) {
  const auto dir = fresh_directory("differential-" + std::to_string(batch));
  std::map<std::string, int> outcomes;  // what the batch exercised
  for (int s = 0; s < 100; ++s) {
    const std::uint64_t index =
        static_cast<std::uint64_t>(batch) * 100 + static_cast<std::uint64_t>(s);
    const Generated g = generate(index);
    const auto file = dir / ("s" + std::to_string(index) + ".json");
    write_text(file, g.json);
    const auto out = dir / ("o" + std::to_string(index));
    const auto r =
        run_gbesim({"run", file.string(), "--quiet", "--trace", "events", "--out", out.string()},
                   dir, environment);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto model = model_timeline(out / "events.csv", g.setup);
    const auto reference = ref::simulate(g.setup);
    for (std::size_t k = 0; k < reference.size(); ++k) {
      const auto& m = model[k].attempts;
      const auto& e = reference[k].attempts;
      for (const auto& x : e) ++outcomes[x.frame < 0 ? "fill_" + x.outcome : x.outcome];
      for (const auto& x : reference[k].drops) ++outcomes["drop_" + x.reason];
      for (std::size_t a = 0; a < std::max(m.size(), e.size()); ++a) {
        const std::string mine = a < m.size() ? ref::describe(m[a]) : "(none)";
        const std::string theirs = a < e.size() ? ref::describe(e[a]) : "(none)";
        ASSERT_EQ(mine, theirs) << "scenario " << file << ", station s" << k << ", attempt " << a;
      }
      ASSERT_EQ(model[k].drops.size(), reference[k].drops.size()) << file << " s" << k;
      for (std::size_t d = 0; d < reference[k].drops.size(); ++d)
        ASSERT_TRUE(model[k].drops[d] == reference[k].drops[d])
            << file << " s" << k << " drop " << d;
    }
    std::filesystem::remove_all(out);
    std::filesystem::remove(file);
  }
  // The batch exercised the interesting paths (over all batches every one of them occurs).
  std::string seen;
  for (const auto& [what, count] : outcomes) seen += " " + what + "=" + std::to_string(count);
  ::testing::Test::RecordProperty("outcomes", seen);
  std::cout << "batch " << batch << " compared:" << seen << "\n";
  EXPECT_GT(outcomes["ok"], 200);
  EXPECT_GT(outcomes["collision"], 20);
}

class Differential : public ::testing::TestWithParam<int> {};

TEST_P(Differential, TheModelAndTheBitSteppedReferenceGiveTheSameTimeline) {
  compare_batch(GetParam(), "");
}

INSTANTIATE_TEST_SUITE_P(Batches, Differential, ::testing::Range(0, 10));

// The same with the history pruned at every end instead of every 16 (GBESIM_PRUNE_EVERY): what
// a prune keeps must be all any answer needs. With the tempting rule "keep back to the oldest
// waiting frame's ready time less a gap" scenario 8 of batch 0 fails
// here: station s2, deferring, had begun its busy period with its own transmission, which the
// prune forgets while others' signals keep that period going; its gap is then timed as if it
// had not sent (carrier in the first part restarting it), and it goes 951 bit times late.
class DifferentialPrunedAtEveryEnd : public ::testing::TestWithParam<int> {};

TEST_P(DifferentialPrunedAtEveryEnd, TheModelAndTheBitSteppedReferenceGiveTheSameTimeline) {
  compare_batch(GetParam(), "GBESIM_PRUNE_EVERY=1");
}

INSTANTIATE_TEST_SUITE_P(Batches, DifferentialPrunedAtEveryEnd, ::testing::Range(0, 10));

}  // namespace
}  // namespace gbesim
