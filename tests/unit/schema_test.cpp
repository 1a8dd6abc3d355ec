// The schema's blocks on a small document of their own, and the scenario schema's coverage: every
// block users write has paths, and docs/scenarios.md carries the generated reference.

#include "sim/input/schema.hpp"

#include <gtest/gtest.h>

#include <map>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "models/common/stats.hpp"
#include "models/phy/phy_params.hpp"
#include "sim/input/scenario_schema.hpp"
#include "sim/inspect/params_command.hpp"
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

// A choice: an enum in the Params struct, its names and docs declared once beside it.
enum class Drive { none, manual, motor };
const ChoiceList<Drive>& choice_list(Drive) {
  static const ChoiceList<Drive> list = {
      {Drive::none, "", "no drive"},
      {Drive::manual, "manual", "a hand wheel"},
      {Drive::motor, "motor", ""},
  };
  return list;
}
struct Valve {
  Drive drive = Drive::none;
};

TEST(Schema, AChoiceIsAnEnumInItsParamsAndANameOnlyInTheDocument) {
  ParamTable<Valve> t("valve", "a valve");
  t.choice("drive", &Valve::drive);
  const ParamInfo& info = t.entries().at(0).info;
  // The unset value is not offered; the row's doc is the values' own.
  EXPECT_EQ(info.choices, (std::vector<std::string>{"manual", "motor"}));
  EXPECT_EQ(info.range_text(), "manual | motor");
  EXPECT_EQ(info.doc, "manual: a hand wheel; motor");
  EXPECT_EQ(std::get<std::string>(info.default_value), "");
  EXPECT_EQ(choice_name(Drive::manual), "manual");

  const auto node = schema::table(t);
  Valve v;
  Diagnostics d("v.json");
  schema::Reader r(d);
  node.read(Json::parse(R"({"drive": "motor"})"), "valves.v", v, r);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(v.drive, Drive::motor);
  EXPECT_EQ(node.write(v), Json::parse(R"({"drive": "motor"})"));
  node.read(Json::parse(R"({"drive": "motr"})"), "valves.v", v, r);
  EXPECT_EQ(v.drive, Drive::motor);  // unchanged
  try {
    d.throw_if_any();
    ADD_FAILURE() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "valves.v.drive: \"motr\" is not one of manual | motor; did you mean \"motor\"?"),
              std::string::npos)
        << e.what();
  }

  ParamTable<Valve> worded("valve", "a valve");
  worded.choice("drive", &Valve::drive, "how it turns");
  EXPECT_EQ(worded.entries().at(0).info.doc, "how it turns");
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
// and not to the page fails here (scripts/update-docs regenerates it).
TEST(Schema, TheScenarioPageCarriesTheGeneratedReference) {
  std::ifstream in(gbesim::testing::source_dir() / "docs/scenarios.md");
  std::stringstream page;
  page << in.rdbuf();
  EXPECT_NE(page.str().find(params_markdown()), std::string::npos)
      << "docs/scenarios.md's path reference is stale: run scripts/update-docs";
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
  group.rate("rate", "1/s", "frames per second", [](const StatContext&) { return 1.0; });
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

// A restart (the end of a warm-up) by hand: 3 frames and 300 busy ps before it at t = 1000 ps,
// 5 frames and 1100 busy ps after it up to t = 3000 ps, a peak of 9 before and 4 after.
TEST(Stats, ARestartLeavesWhatHappenedSinceInEachKind) {
  StatRegistry registry;
  StatGroup group(registry, "x");
  Counter frames(group, "frames", "frames", "frames");
  Counter busy(group, "busy", "ps", "busy time");
  Distribution delay(group, "delay", "delay");
  std::int64_t queued = 0;
  std::int64_t peak = 0;
  group.total("busy_total", "ps", "busy time as a total",
              [&](const StatContext&) { return static_cast<double>(busy.value()); });
  group.rate("utilisation", "fraction", "busy share", [&](const StatContext& c) {
    return static_cast<double>(busy.value()) / static_cast<double>(c.elapsed_ps);
  });
  group.ratio(
      "busy_per_frame", "ps", "busy per frame",
      [&](const StatContext&) { return static_cast<double>(busy.value()); },
      [&](const StatContext&) { return static_cast<double>(frames.value()); },
      [](double n, double d, const StatContext&) { return d > 0 ? n / d : std::nan(""); });
  group.level("queued", "frames", "queued at the end",
              [&](const StatContext&) { return static_cast<double>(queued); });
  group.summary("peak", "frames", "largest queue",
                [&](const StatContext&) { return static_cast<double>(peak); });
  Picoseconds span_seen = 0;
  group.ratio(
      "span", "ps", "the span a ratio is given", [](const StatContext&) { return 0.0; },
      [](const StatContext&) { return 0.0; },
      [&](double, double, const StatContext& span) {
        span_seen = span.elapsed_ps;
        return 0.0;
      });
  group.on_restart([&](Picoseconds now) {
    EXPECT_EQ(now, 1000);
    peak = queued;
  });
  frames += 3;
  busy += 300;
  delay.record(50'000);
  queued = 2;
  peak = 9;
  StatContext at;
  at.elapsed_ps = 1000;
  registry.restart(at);
  frames += 5;
  busy += 1100;
  delay.record(7'000);
  delay.record(9'000);
  queued = 4;
  peak = std::max<std::int64_t>(peak, 4);
  StatContext end;
  end.elapsed_ps = 3000;
  std::map<std::string, double> v;
  for (const Scalar& s : registry.collect(end)) v[s.name] = s.value;
  EXPECT_EQ(v["frames"], 5);
  EXPECT_EQ(v["busy"], 1100);
  EXPECT_EQ(v["busy_total"], 1100);
  EXPECT_DOUBLE_EQ(v["utilisation"], 1100.0 / 2000.0);
  EXPECT_DOUBLE_EQ(v["busy_per_frame"], 1100.0 / 5.0);
  EXPECT_EQ(v["delay_count"], 2);
  EXPECT_DOUBLE_EQ(v["delay_mean"], 8.0);  // ns: (7000 + 9000) / 2 ps
  EXPECT_DOUBLE_EQ(v["delay_max"], 9.0);
  EXPECT_EQ(v["queued"], 4);
  EXPECT_EQ(v["peak"], 4);
  EXPECT_EQ(span_seen, 2000);
  // The kinds gbesim stats shows.
  std::map<std::string, std::string> kind;
  for (const auto& d : group.describe()) kind[d.name] = d.kind;
  EXPECT_EQ(kind["frames"], "count");
  EXPECT_EQ(kind["delay_p99"], "distribution");
  EXPECT_EQ(kind["busy_total"], "total");
  EXPECT_EQ(kind["utilisation"], "rate");
  EXPECT_EQ(kind["busy_per_frame"], "ratio");
  EXPECT_EQ(kind["queued"], "at end");
  EXPECT_EQ(kind["peak"], "summary");
}

}  // namespace
}  // namespace gbesim
