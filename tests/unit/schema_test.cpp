// The schema's blocks on a small document of their own, and the scenario schema's coverage: every
// block users write has paths, and docs/scenarios.md carries the generated reference.

#include "sim/schema.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "models/common/stats.hpp"
#include "models/phy/phy_params.hpp"
#include "sim/params_command.hpp"
#include "sim/scenario_schema.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

struct Pump {
  std::string name;
  double litres_per_s = 2;
  std::string feeds;
  bool has_motor = false;
  std::int64_t poles = 4;
};

const schema::Object<Pump>& pump() {
  static const schema::Object<Pump> o = [] {
    schema::Object<Pump> p("a pump");
    p.field("litres_per_s", &Pump::litres_per_s, schema::number(0, 10, "l/s", "flow"))
        .field("feeds", &Pump::feeds, schema::reference("tank", "the tank it fills"))
        .field("poles", &Pump::poles, schema::integer(2, 12, "", "motor poles"))
        .on_read([](Pump& x) { x.has_motor = true; })
        .written_if([](const Pump& x) { return x.has_motor; })
        .require("feeds", "missing \"feeds\"")
        .needs("poles", "litres_per_s", "a motor needs a flow");
    return p;
  }();
  return o;
}

std::string errors(const Json& doc, Pump& out, schema::Reader* keep = nullptr) {
  Diagnostics d("p.json");
  schema::Reader r(d);
  pump().read(doc, "pumps.p", out, keep != nullptr ? *keep : r);
  try {
    (keep != nullptr ? keep->d : d).throw_if_any();
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(Schema, AnObjectReadsItsFieldsAndNamesEveryProblemByPath) {
  Pump p;
  EXPECT_EQ(errors(Json::parse(R"({"litres_per_s": 3.5, "feeds": "t1"})"), p), "");
  EXPECT_EQ(p.litres_per_s, 3.5);
  EXPECT_EQ(p.feeds, "t1");
  EXPECT_FALSE(p.has_motor);  // poles not given
  const std::string e = errors(Json::parse(R"({"litres_per_sec": 3, "poles": 13})"), p);
  EXPECT_NE(e.find("pumps.p.litres_per_sec: unknown key; did you mean \"litres_per_s\"?"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("pumps.p.poles: expected an integer in 2 .. 12, got 13"), std::string::npos)
      << e;
  EXPECT_NE(e.find("pumps.p: missing \"feeds\""), std::string::npos) << e;
  EXPECT_NE(e.find("pumps.p.poles: a motor needs a flow"), std::string::npos) << e;
}

TEST(Schema, ReferencesAreCollectedForLaterAndWritingFollowsPresence) {
  Pump p;
  Diagnostics d("p.json");
  schema::Reader r(d);
  pump().read(Json::parse(R"({"litres_per_s": 1, "feeds": "t9", "poles": 6})"), "pumps.p", p, r);
  EXPECT_TRUE(d.empty());
  ASSERT_EQ(r.references.size(), 1u);
  EXPECT_EQ(r.references[0].kind, "tank");
  EXPECT_EQ(r.references[0].name, "t9");
  EXPECT_EQ(r.references[0].path, "pumps.p.feeds");
  EXPECT_TRUE(p.has_motor);
  EXPECT_EQ(pump().write(p), Json::parse(R"({"litres_per_s": 1.0, "feeds": "t9", "poles": 6})"));
  p.has_motor = false;
  EXPECT_EQ(pump().write(p), Json::parse(R"({"litres_per_s": 1.0, "feeds": "t9"})"));
}

TEST(Schema, RowConstraintsAreCheckedAndDescribed) {
  ParamInfo width;
  width.one_of = {32, 64};
  width.rule = "a bus is 32 or 64 bits wide";
  EXPECT_EQ(width.constraint_problem(32), std::nullopt);
  EXPECT_EQ(width.constraint_problem(48), "a bus is 32 or 64 bits wide, got 48");
  ParamInfo line;
  line.power_of_two = true;
  line.rule = "a power of two";
  EXPECT_EQ(line.constraint_problem(64), std::nullopt);
  EXPECT_EQ(line.constraint_problem(96), "a power of two, got 96");
  EXPECT_EQ(line.constraint_problem(0), "a power of two, got 0");
  ParamInfo timer;
  timer.multiple_of = 8;
  timer.rule = "units of 8";
  EXPECT_EQ(timer.constraint_problem(248), std::nullopt);
  EXPECT_EQ(timer.constraint_problem(30), "units of 8, got 30");
}

const schema::Entry* find(const std::vector<schema::Entry>& entries, const std::string& path) {
  for (const auto& e : entries)
    if (e.path == path) return &e;
  return nullptr;
}

// Every block users write has its paths: the desktop app and `gbesim params` reach all of them.
TEST(Schema, EveryBlockOfAScenarioHasItsPaths) {
  const auto entries = scenario_entries();
  for (const char* path : {"name",
                           "duration_ns",
                           "mac.ifg_bits",
                           "media.*.ns_per_m",
                           "stations.*.address",
                           "stations.*.mac.duplex",
                           "stations.*.traffic[*].to",
                           "stations.*.traffic[*].frame_bytes",
                           "links[*].between",
                           "links[*].cable_m",
                           "collision_domains[*].stations",
                           "collision_domains[*].cable_m",
                           "collision_domains[*].repeater_round_trip_bt",
                           "collision_domains[*].delay_ns",
                           "topology",
                           "link_level.cables",
                           "link_level.lengths_m",
                           "hosts.*.pci.clock_mhz",
                           "hosts.*.bridge.cache_line_bytes",
                           "hosts.*.dma.*.request_bytes",
                           "hosts.*.dma.*.master.width_bits",
                           "hosts.*.nic.profile",
                           "hosts.*.nic.rx_fifo_bytes",
                           "hosts.*.nic.master.latency_timer_clocks",
                           "hosts.*.cpu.interrupt_ns",
                           "hosts.*.tx.to",
                           "hosts.*.app.kind",
                           "hosts.*.transport.mtu",
                           "sweep",
                           "sweep.*"})
    EXPECT_NE(find(entries, path), nullptr) << path;
  const auto* width = find(entries, "hosts.*.pci.width_bits");
  ASSERT_NE(width, nullptr);
  EXPECT_EQ(width->rule, "a PCI bus is 32 or 64 bits wide");
  const auto* to = find(entries, "stations.*.traffic[*].to");
  ASSERT_NE(to, nullptr);
  EXPECT_EQ(to->type, "reference");
  const auto* profile = find(entries, "hosts.*.nic.profile");
  ASSERT_NE(profile, nullptr);
  EXPECT_NE(profile->range.find("intel-82540em"), std::string::npos);
  // No path twice.
  std::vector<std::string> paths;
  for (const auto& e : entries) paths.push_back(e.path);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(std::adjacent_find(paths.begin(), paths.end()), paths.end());
}

// docs/scenarios.md carries the reference generated from the schema: a key added to the schema
// and not to the page fails here (scripts/update-scenario-docs regenerates it).
TEST(Schema, TheScenarioPageCarriesTheGeneratedReference) {
  std::ifstream in(gbesim::testing::source_dir() / "docs/scenarios.md");
  std::stringstream page;
  page << in.rdbuf();
  EXPECT_NE(page.str().find(params_markdown()), std::string::npos)
      << "docs/scenarios.md's path reference is stale: run scripts/update-scenario-docs";
  for (const auto& e : scenario_entries())
    EXPECT_NE(page.str().find("`" + e.path + "`"), std::string::npos) << e.path;
}

// The receiver table's defaults are the link model's: one place says what a default PHY is.
TEST(Schema, ThePhyReceiverTableStartsFromTheLinkModelsDefaults) {
  phy::PhyLinkParams fresh;
  phy::PhyLinkParams applied;
  applied.echo_canceller_taps = applied.next_canceller_taps = applied.ffe_taps = -1;
  applied.dfe_taps = applied.adc_bits = -1;
  applied.background_noise_dbm_per_hz = 0;
  phy::apply(phy::PhyReceiverParams{}, applied);
  EXPECT_EQ(applied.echo_canceller_taps, fresh.echo_canceller_taps);
  EXPECT_EQ(applied.next_canceller_taps, fresh.next_canceller_taps);
  EXPECT_EQ(applied.ffe_taps, fresh.ffe_taps);
  EXPECT_EQ(applied.dfe_taps, fresh.dfe_taps);
  EXPECT_EQ(applied.adc_bits, fresh.adc_bits);
  EXPECT_EQ(applied.background_noise_dbm_per_hz, fresh.background_noise_dbm_per_hz);
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// describe() lists exactly the rows collect() writes: what `gbesim stats` shows is what
// scalars.csv will hold, a distribution's six rows included, an unreported counter left out.
TEST(Stats, TheDescriptionIsTheRowsCollectWrites) {
  StatRegistry registry;
  StatGroup group(registry, "x.mac");
  Counter sent(group, "frames", "frames", "frames sent");
  Counter hidden(group, "internal", "frames", "not reported", false);
  Distribution delay(group, "delay", "time to send");
  group.formula("rate", "1/s", "frames per second", [](const StatContext&) { return 1.0; });
  ++sent;
  StatContext c;
  c.elapsed_ps = 1;
  std::vector<Scalar> rows;
  group.collect(c, rows);
  const auto described = group.describe();
  ASSERT_EQ(described.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(described[i].name, rows[i].name) << i;
    EXPECT_EQ(described[i].unit, rows[i].unit) << i;
    EXPECT_FALSE(described[i].description.empty()) << i;
  }
  EXPECT_EQ(rows.size(), 1u + 6u + 1u);
  EXPECT_EQ(described[2].name, "delay_mean");
}

}  // namespace
}  // namespace gbesim
