// The statistics registry: names, units and descriptions kept once however many groups declare
// them, rows in declaration order, and run records read for only what is asked.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>

#include "models/common/stats.hpp"
#include "sim/input/json_input.hpp"

namespace gbesim {
namespace {

TEST(StatRegistry, TextsAreKeptOnceAndOutliveWhatTheyWereMadeFrom) {
  StatRegistry registry;
  StatGroup a(registry, "a");
  StatGroup b(registry, "b");
  {
    // Built here and gone before the rows are collected: the registry holds its own copy.
    const std::string name = std::string("frames_") + "seen";
    const std::string description = std::string(40, 'x');
    a.level(name, "frames", description, [](const StatContext&) { return 3.0; });
    b.level(name, "frames", description, [](const StatContext&) { return 4.0; });
  }
  Counter c(a, "drops", "frames", "frames dropped");
  ++c;
  ++c;
  const std::string_view first = registry.intern("frames_seen");
  EXPECT_EQ(first.data(), registry.intern(std::string("frames_") + "seen").data());
  EXPECT_NE(first.data(), registry.intern("frames_kept").data());

  StatContext at;
  at.elapsed_ps = 1000;
  const auto rows = registry.collect(at, 5);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_GE(rows.capacity(), 8u);  // the rows and the room asked for
  EXPECT_EQ(rows[0].component, "a");
  EXPECT_EQ(rows[0].name, "frames_seen");
  EXPECT_EQ(rows[0].unit, "frames");
  EXPECT_EQ(rows[0].value, 3.0);
  EXPECT_EQ(rows[1].component, "a");
  EXPECT_EQ(rows[1].name, "drops");
  EXPECT_EQ(rows[1].value, 2.0);
  EXPECT_TRUE(rows[1].integral);
  EXPECT_EQ(rows[2].component, "b");
  EXPECT_EQ(rows[2].name, "frames_seen");
  EXPECT_EQ(rows[2].value, 4.0);
  const auto described = b.describe();
  ASSERT_EQ(described.size(), 1u);
  EXPECT_EQ(described[0].description, std::string(40, 'x'));
  EXPECT_EQ(described[0].kind, "at end");
}

// A statistic's three texts are one triple per registry, found again from copies of them.
TEST(StatRegistry, EachTripleOfTextsIsKeptOnce) {
  StatRegistry registry;
  const StatTexts* t = registry.texts("frames_seen", "frames", "frames seen");
  EXPECT_EQ(t, registry.texts(std::string("frames_") + "seen", std::string("frames"),
                              std::string("frames ") + "seen"));
  EXPECT_NE(t, registry.texts("frames_kept", "frames", "frames seen"));
  EXPECT_NE(t, registry.texts("frames_seen", "bytes", "frames seen"));
  EXPECT_NE(t, registry.texts("frames_seen", "frames", "frames kept"));
  EXPECT_EQ(t->name, "frames_seen");
  EXPECT_EQ(t->unit, "frames");
  EXPECT_EQ(t->description, "frames seen");
}

// After a restart a ratio combines what its numerator and denominator accumulated since, a rate
// and a total cover the time since, a level is as it is: each group keeps its own bases. (A total
// is declared first and two ratios apart, so that a ratio read from the other formulas' list, or
// one's bases read as another's, gives a wrong row.)
TEST(StatRegistry, AfterARestartEachKindCoversTheTimeSince) {
  StatRegistry registry;
  double numerator = 0;
  double denominator = 0;
  double frames = 0;
  double bits = 0;
  auto declare = [&](StatGroup& g) {
    g.total("bits", "bits", "bits sent", [&](const StatContext&) { return bits; });
    g.ratio(
        "mean", "bytes", "bytes per frame", [&](const StatContext&) { return numerator; },
        [&](const StatContext&) { return denominator; },
        [](double n, double d, const StatContext&) { return n / d; });
    g.rate("throughput", "bit/s", "bits per second",
           [&](const StatContext& c) { return bits * c.per_second(); });
    g.ratio(
        "bits_per_frame", "bits", "bits per frame sent", [&](const StatContext&) { return bits; },
        [&](const StatContext&) { return frames; },
        [](double n, double d, const StatContext&) { return n / d; });
    g.level("queued", "frames", "frames queued", [](const StatContext&) { return 7.0; });
  };
  StatGroup a(registry, "a");
  StatGroup b(registry, "b");
  declare(a);
  declare(b);
  numerator = 1000;  // 10 frames of 100 bytes, 5 frames sent
  denominator = 10;
  frames = 5;
  bits = 4000;
  StatContext at;
  at.elapsed_ps = 1'000'000;  // 1 us
  a.restart(at);              // b is not restarted
  numerator += 3000;          // then 10 frames of 300 bytes, 20 frames sent
  denominator += 10;
  frames += 20;
  bits += 16000;
  at.elapsed_ps = 3'000'000;
  const auto rows = registry.collect(at);
  ASSERT_EQ(rows.size(), 10u);
  // a: since the restart
  EXPECT_DOUBLE_EQ(rows[0].value, 16000.0);
  EXPECT_DOUBLE_EQ(rows[1].value, 300.0);
  EXPECT_DOUBLE_EQ(rows[2].value, 8.0e9);  // 16,000 bits in 2 us
  EXPECT_DOUBLE_EQ(rows[3].value, 800.0);  // 16,000 bits, 20 frames
  EXPECT_DOUBLE_EQ(rows[4].value, 7.0);
  // b: the whole run
  EXPECT_DOUBLE_EQ(rows[5].value, 20000.0);
  EXPECT_DOUBLE_EQ(rows[6].value, 200.0);
  EXPECT_DOUBLE_EQ(rows[7].value, 20000.0 / 3e-6);
  EXPECT_DOUBLE_EQ(rows[8].value, 800.0);  // 20,000 bits, 25 frames
  EXPECT_DOUBLE_EQ(rows[9].value, 7.0);
  EXPECT_EQ(rows[3].name, "bits_per_frame");
  EXPECT_EQ(a.describe()[3].description, "bits per frame sent");
  EXPECT_EQ(a.describe()[3].kind, "ratio");
}

TEST(StatRegistry, ADistributionIsSixRows) {
  StatRegistry registry;
  StatGroup g(registry, "g");
  Distribution d(g, "delay", "time in queue");
  Counter hidden(g, "hidden", "frames", "not reported", false);
  d.record(2000);
  d.record(4000);
  EXPECT_EQ(g.scalar_rows(), 6u);
  StatContext at;
  at.elapsed_ps = 1;
  const auto rows = registry.collect(at);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].name, "delay_count");
  EXPECT_EQ(rows[0].value, 2.0);
  EXPECT_EQ(rows[1].name, "delay_mean");
  EXPECT_EQ(rows[1].value, 3.0);  // ns
  EXPECT_EQ(rows[5].name, "delay_max");
  EXPECT_EQ(g.describe()[1].description, "time in queue: mean");
}

// The formula helpers over 2 simulated seconds: 1000 bytes are 4000 bit/s, 500 events 250/s,
// 1.5 s busy a share of 0.75; a ratio of counts is NaN until its denominator counts something.
TEST(StatRegistry, FormulaHelpersGiveRatesSharesAndMeans) {
  StatRegistry registry;
  StatGroup g(registry, "g");
  Counter bytes(g, "bytes", "bytes", "bytes");
  Counter busy(g, "busy", "ps", "busy time");
  bytes += 1000;
  busy += 1'500'000'000'000;
  StatContext c;
  c.elapsed_ps = 2'000'000'000'000;
  EXPECT_EQ(bits_per_second(bytes)(c), 4000.0);
  EXPECT_EQ(per_second(bytes)(c), 500.0);
  EXPECT_EQ(megabytes_per_second([] { return 3e6; })(c), 1.5);
  EXPECT_EQ(share_of_time(busy)(c), 0.75);
  EXPECT_EQ(value_of(bytes)(c), 1000.0);
  const std::int64_t field = 7;
  EXPECT_EQ(value_of(field)(c), 7.0);
  EXPECT_EQ(elapsed_ps()(c), 2e12);
  EXPECT_EQ(per_event()(3.0, 4.0, c), 0.75);
  EXPECT_EQ(per_event(1000.0)(3.0, 4.0, c), 750.0);
  EXPECT_TRUE(std::isnan(per_event()(3.0, 0.0, c)));
  EXPECT_EQ(fraction_of_span()(1.0, 4.0, c), 0.25);
}

TEST(RunRecord, OnlyTheMembersAskedForAreKept) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("gbesim-record-" + std::to_string(::getpid()) + ".json");
  auto write = [&](const std::string& text) { std::ofstream(file) << text; };
  write(R"({"name": "x", "config": {"stations": {"a": {"outputs": [1]}}},
            "outputs": ["scalars.csv", "a.pcap"], "status": "complete"})");
  const auto kept = read_json_record(file, {"outputs"});
  ASSERT_TRUE(kept.has_value());
  ASSERT_EQ(kept->size(), 1u);
  ASSERT_TRUE(kept->contains("outputs"));
  EXPECT_EQ((*kept)["outputs"].size(), 2u);
  EXPECT_EQ((*kept)["outputs"][1], "a.pcap");
  const auto whole = read_json_record(file);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->size(), 4u);
  // A damaged record is not read at all, asked for a part or the whole.
  write(R"({"outputs": ["scalars.csv"], "config": {)");
  EXPECT_FALSE(read_json_record(file, {"outputs"}).has_value());
  EXPECT_FALSE(read_json_record(file).has_value());
  std::filesystem::remove(file);
  EXPECT_FALSE(read_json_record(file, {"outputs"}).has_value());
}

}  // namespace
}  // namespace gbesim
