// The answers of results held in memory (no runs, no scenario files): what the cable-error and
// switch answers state from given scalars, checked against arithmetic done here; the reason a
// sweep no answer reads gives; and the numbers' text.

#include <gtest/gtest.h>

#include "analysis/answer_rules.hpp"
#include "analysis/answers.hpp"
#include "analysis/results.hpp"

namespace gbesim {
namespace {

Results sweep_of(std::vector<std::string> axes, std::vector<std::vector<std::string>> points) {
  Results r;
  r.kind = ResultsKind::sweep;
  r.dir = "/nonexistent";  // no run.json: the points' scenarios are unknown
  r.provenance = {{"replications", 1}};
  r.axes = std::move(axes);
  r.points = std::move(points);
  return r;
}

void put(Results& r, std::size_t p, const std::string& component, const std::string& name,
         double value) {
  Statistic s;
  s.mean = value;
  s.n = 1;
  r.set(p, component, name, s);
}

const Answer* find_kind(const std::vector<Answer>& all, const std::string& kind) {
  for (const auto& a : all)
    if (a.kind == kind) return &a;
  return nullptr;
}

// Cat 5e at 100, 200 and 300 m and Cat 6 at 300 m: 15 of 406 frames hit by a bit error at 200 m
// is 3.7 %; all 400 at 300 m is 100 %.
TEST(AnswerRules, ACableSweepStatesHowFarNoFrameIsLostAndWhatLossesCostBeyond) {
  Results r = sweep_of({"links[0].medium", "links[0].cable_m"},
                       {{"cat5e", "100"}, {"cat5e", "200"}, {"cat5e", "300"}, {"cat6", "300"}});
  const double margins[] = {3.24, -0.41, -6.0, 0.5};
  const double carried[] = {406, 406, 400, 406};
  const double corrupted[] = {0, 15, 400, 0};
  const double goodput[] = {986.9e6, 950.4e6, 0, 987.0e6};
  for (std::size_t p = 0; p < 4; ++p) {
    put(r, p, "analysis.link0", "phy_margin_db", margins[p]);
    put(r, p, "link0.to_b", "frames_carried", carried[p]);
    put(r, p, "link0.to_b", "frames_corrupted", corrupted[p]);
    put(r, p, "link0.to_a", "frames_carried", 0);
    put(r, p, "link0.to_a", "frames_corrupted", 0);
    put(r, p, "network", "delivered_throughput", goodput[p]);
  }
  const auto all = answers(r);
  ASSERT_EQ(all.size(), 1u);
  const Answer* a = find_kind(all, "cable-errors");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->lines.size(), 2u);
  EXPECT_EQ(a->lines[0],
            "medium=cat5e: no frame lost up to 100 m (margin +3.2 dB), goodput 987 Mb/s; from "
            "200 m (margin -0.4 dB) frames fail their FCS: 3.7 %, goodput 950 Mb/s; at 300 m "
            "(margin -6.0 dB) 100 %, goodput 0 Mb/s");
  EXPECT_EQ(a->lines[1],
            "medium=cat6: no frame lost up to 300 m (margin +0.5 dB), goodput 987 Mb/s");
  EXPECT_EQ(a->details[1],
            "medium=cat5e, cable_m=200: margin -0.41 dB, 15 of 406 frames hit by a bit error "
            "(3.7 %), goodput 950 Mb/s");
  EXPECT_EQ(no_answer_reason(r), "");
}

// An incast with 16 and 64 frames of output buffer, PAUSE off and on: 2827 of 3256 frame copies
// dropped is 86.8 %, 1 of 3100 is 0.032 %.
TEST(AnswerRules, ASwitchSweepStatesItsDropsBesidePause) {
  Results r = sweep_of({"switches.sw.port_buffer_frames", "switches.sw.mac.pause_tx_enabled"},
                       {{"16", "false"}, {"16", "true"}, {"64", "false"}, {"64", "true"}});
  const double dropped[] = {2827, 1, 2700, 0};
  const double copies[] = {3256, 3100, 3256, 3000};
  const double pauses[] = {0, 241, 0, 120};
  for (std::size_t p = 0; p < 4; ++p) {
    put(r, p, "sw", "copies_dropped", dropped[p]);
    put(r, p, "sw", "frames_dropped_fabric", 0);
    put(r, p, "sw", "copies_made", copies[p]);
    put(r, p, "sw.port9.mac", "pause_mac_ctrl_frames_transmitted", 0);
    put(r, p, "sw.port1.mac", "pause_mac_ctrl_frames_transmitted", pauses[p]);
    put(r, p, "network", "delivered_throughput", 984.4e6);
  }
  const auto all = answers(r);
  ASSERT_EQ(all.size(), 1u);
  const Answer* a = find_kind(all, "switch");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->question, "What does the switch drop, and what does PAUSE change?");
  ASSERT_EQ(a->lines.size(), 2u);
  EXPECT_EQ(a->lines[0],
            "port_buffer_frames=16: without PAUSE: 2,827 frames dropped (87 % of those "
            "switched), 984 Mb/s delivered; with PAUSE: 1 frame dropped (0.032 % of those "
            "switched), 984 Mb/s delivered, 241 PAUSE frames sent");
  EXPECT_EQ(a->lines[1],
            "port_buffer_frames=64: without PAUSE: 2,700 frames dropped (83 % of those "
            "switched), 984 Mb/s delivered; with PAUSE: none dropped, 984 Mb/s delivered, 120 "
            "PAUSE frames sent");
}

TEST(AnswerRules, ASweepNoAnswerReadsNamesWhatItVariesOnceForALinkedAxis) {
  Results r = sweep_of({"rate_mbps", "duration_ns", "stations.a.traffic[0].load_bps"},
                       {{"100", "2000", "1e7"},
                        {"100", "2000", "2e7"},
                        {"1000", "200", "1e7"},
                        {"1000", "200", "2e7"}});
  for (std::size_t p = 0; p < 4; ++p) put(r, p, "network", "delivered_throughput", 1e7);
  EXPECT_TRUE(answers(r).empty());
  const std::string reason = no_answer_reason(r);
  EXPECT_NE(reason.find(" This sweep varies rate_mbps, stations.a.traffic[0].load_bps, which no "
                        "answer reads."),
            std::string::npos)
      << reason;
  EXPECT_EQ(reason.find("duration_ns"), std::string::npos) << reason;
}

TEST(AnswerRules, ASweepWithoutACompleteRunSaysSo) {
  Results r = sweep_of({"stations.a.traffic[0].load_bps"}, {{""}, {""}});
  EXPECT_NE(no_answer_reason(r).find("None of this sweep's runs completed."), std::string::npos);
}

TEST(AnswerRules, ACableSweepWithoutThePhyModelsErrorsIsNamedAsSuch) {
  Results r = sweep_of({"links[0].medium"}, {{"cat5"}, {"cat6"}});
  for (std::size_t p = 0; p < 2; ++p) {
    put(r, p, "analysis.link0", "phy_margin_db", 1.0);
    put(r, p, "network", "delivered_throughput", 1e9);
  }
  EXPECT_NE(no_answer_reason(r).find(
                "which no answer reads; its links' bit errors come from the PHY model, but no "
                "cable length is swept."),
            std::string::npos)
      << no_answer_reason(r);
}

TEST(AnswerRules, NumbersAreGroupedByThousandsAndSmallSharesKeepTwoDigits) {
  using answer_rules::grouped;
  using answer_rules::small_percent;
  EXPECT_EQ(grouped(1488095.24), "1,488,095");
  EXPECT_EQ(grouped(14880952.4), "14,880,952");
  EXPECT_EQ(grouped(138.58), "138.6");
  EXPECT_EQ(grouped(810), "810");
  EXPECT_EQ(grouped(1000), "1,000");
  EXPECT_EQ(small_percent(15.0 / 406), "3.7 %");
  EXPECT_EQ(small_percent(1.0 / 3100), "0.032 %");
  EXPECT_EQ(small_percent(1), "100 %");
  EXPECT_EQ(small_percent(0), "0 %");
  EXPECT_EQ(answer_rules::frames_text(1), "1 frame");
  EXPECT_EQ(answer_rules::frames_text(2826.7), "2,827 frames");
}

}  // namespace
}  // namespace gbesim
