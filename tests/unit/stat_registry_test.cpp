// The statistics registry: names, units and descriptions kept once however many groups declare
// them, rows in declaration order, and run records read for only what is asked.

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "models/common/stats.hpp"
#include "sim/json_input.hpp"

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
