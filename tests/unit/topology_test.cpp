// Collision domains from a cabling graph: path delay values against the worked examples of
// docs/references.md, Validation 3, the repeater rules, loops, domains split at switches, and the
// loader's errors for bad input.

#include <gtest/gtest.h>

#include "sim/input/topology_loader.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

LoadedTopology load(const std::string& text) {
  return load_topology_text(text, "t.json");
}

std::string error_of(const std::string& text) {
  try {
    load(text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

// a - h1 - h2 - b with the given lengths; c hangs off h1 by 20 m.
std::string two_hubs(double a_m, double link_m, double b_m) {
  return R"({"name": "t", "rate_mbps": 100,
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"}, "c": {"kind": "dte"},
              "h1": {"kind": "repeater", "class": "class_ii"},
              "h2": {"kind": "repeater", "class": "class_ii"}},
    "cables": [{"between": ["a", "h1"], "medium": "cat5", "cable_m": )" +
         std::to_string(a_m) + R"(},
               {"between": ["h1", "h2"], "medium": "cat5", "cable_m": )" +
         std::to_string(link_m) + R"(},
               {"between": ["h2", "b"], "medium": "cat5", "cable_m": )" +
         std::to_string(b_m) + R"(},
               {"between": ["c", "h1"], "medium": "cat5", "cable_m": 20}]})";
}

TEST(Topology, TwoClassIIRepeatersAndTwoHundredFiveMetresGive511_96) {
  // docs/references.md, Validation 3: 205 x 1.112 + 2 x 92 + 100 = 511.96 <= 512: legal.
  const auto t = load(two_hubs(100, 5, 100));
  ASSERT_EQ(t.report.domains.size(), 1u);
  const DomainReport& d = t.report.domains[0];
  EXPECT_EQ(d.rate_mbps, 100);
  EXPECT_EQ(d.budget_bt, 512);
  ASSERT_TRUE(d.worst);
  const PathReport& w = d.pairs[*d.worst];
  EXPECT_EQ(w.from, "a");
  EXPECT_EQ(w.to, "b");
  EXPECT_EQ(w.path, (std::vector<std::string>{"a", "h1", "h2", "b"}));
  EXPECT_NEAR(w.cable_bt, 227.96, 1e-9);
  EXPECT_NEAR(w.devices_bt, 184, 1e-9);
  EXPECT_NEAR(w.dte_pair_bt, 100, 1e-9);
  EXPECT_NEAR(w.pdv_bt, 511.96, 1e-9);
  EXPECT_EQ(w.repeaters, 2);
  EXPECT_TRUE(d.pass);
  EXPECT_NEAR(d.margin_bt, 0.04, 1e-9);
  EXPECT_NEAR(d.margin_m, 0.04 / 1.112, 1e-9);  // the legal diameter is 205.04 m
  EXPECT_TRUE(t.report.pass());
}

TEST(Topology, OneMoreTenthOfAMetreFailsAt100Mbps) {
  const auto t = load(two_hubs(100, 5.1, 100));
  const DomainReport& d = t.report.domains[0];
  EXPECT_NEAR(d.pairs[*d.worst].pdv_bt, 512.0712, 1e-9);
  EXPECT_FALSE(d.pass);
  EXPECT_FALSE(t.report.pass());
}

TEST(Topology, AMarginTermIsAddedToEveryPath) {
  std::string text = two_hubs(100, 5, 100);
  text.insert(text.find("\"rate_mbps\""), "\"margin_bt\": 4, ");
  const auto t = load(text);  // a reference into a temporary would dangle
  const DomainReport& d = t.report.domains[0];
  EXPECT_NEAR(d.pairs[*d.worst].pdv_bt, 515.96, 1e-9);
  EXPECT_FALSE(d.pass);
}

std::string gigabit(double a_m, double b_m, int repeaters = 1) {
  std::string nodes = R"("a": {"kind": "dte"}, "b": {"kind": "dte"},
                        "r1": {"kind": "repeater", "class": "gigabit"})";
  std::string cables =
      R"({"between": ["a", "r1"], "medium": "cat5", "cable_m": )" + std::to_string(a_m) + "}";
  if (repeaters == 2) {
    nodes += R"(, "r2": {"kind": "repeater", "class": "gigabit"})";
    cables += R"(, {"between": ["r1", "r2"], "medium": "cat5", "cable_m": 1},
                 {"between": ["r2", "b"], "medium": "cat5", "cable_m": )" +
              std::to_string(b_m) + "}";
  } else {
    cables +=
        R"(, {"between": ["r1", "b"], "medium": "cat5", "cable_m": )" + std::to_string(b_m) + "}";
  }
  return R"({"name": "g", "rate_mbps": 1000, "nodes": {)" + nodes + R"(}, "cables": [)" + cables +
         "]}";
}

TEST(Topology, OneGigabitRepeaterAndTwoHundredMetresGive4064) {
  // docs/references.md, Validation 3: 864 + 200 x 11.12 + 976 = 4064 <= 4096.
  const DomainReport d = load(gigabit(100, 100)).report.domains[0];
  EXPECT_NEAR(d.pairs[*d.worst].pdv_bt, 4064, 1e-9);
  EXPECT_TRUE(d.pass);
  EXPECT_NEAR(d.margin_bt, 32, 1e-9);
  // The gigabit rows are recalled values: the report says so.
  bool flagged = false;
  for (const auto& n : d.notes) flagged = flagged || n.find("UNCONFIRMED") != std::string::npos;
  EXPECT_TRUE(flagged);
}

TEST(Topology, TwoHundredTenMetresFailAtAGigabit) {
  const DomainReport d = load(gigabit(110, 100)).report.domains[0];
  EXPECT_NEAR(d.pairs[*d.worst].pdv_bt, 864 + 210 * 11.12 + 976, 1e-9);
  EXPECT_FALSE(d.pass);
}

TEST(Topology, TwoRepeatersBetweenGigabitStationsBreakTheRepeaterRule) {
  // Short cables: the PDV alone would pass, the one-repeater rule does not.
  const DomainReport d = load(gigabit(1, 1, 2)).report.domains[0];
  const PathReport& w = d.pairs[*d.worst];
  EXPECT_EQ(w.repeaters, 2);
  EXPECT_LT(w.pdv_bt, 4096);
  EXPECT_CONTAINS(w.rule_problem, "2 repeaters between two stations");
  EXPECT_FALSE(w.pass);
  EXPECT_FALSE(d.pass);
}

TEST(Topology, ClassIRepeatersStandAlone) {
  std::string text = two_hubs(10, 1, 10);
  text.replace(text.find("class_ii"), 8, "class_i");  // h1 becomes Class I, h2 stays Class II
  const DomainReport d = load(text).report.domains[0];
  EXPECT_CONTAINS(d.pairs[*d.worst].rule_problem, "Class I repeater must be the only repeater");
  EXPECT_FALSE(d.pass);
}

TEST(Topology, FiveRepeatersBreakTheFiveFourThreeRuleAt10Mbps) {
  for (int repeaters : {4, 5}) {
    std::string nodes = R"("a": {"kind": "dte"}, "b": {"kind": "dte"})";
    std::string cables;
    std::string previous = "a";
    for (int i = 0; i < repeaters; ++i) {
      const std::string r = "r" + std::to_string(i);
      nodes += ", \"" + r + R"(": {"kind": "repeater", "class": "ten"})";
      cables += R"({"between": [")" + previous + "\", \"" + r + R"("], "cable_m": 100}, )";
      previous = r;
    }
    cables += R"({"between": [")" + previous + R"(", "b"], "cable_m": 100})";
    const auto t = load(R"({"name": "ten", "rate_mbps": 10, "nodes": {)" + nodes +
                        R"(}, "cables": [)" + cables + "]}");
    const DomainReport& d = t.report.domains[0];
    const PathReport& w = d.pairs[*d.worst];
    EXPECT_FALSE(w.pdv_known);  // 10 Mb/s device delays are not in the table
    EXPECT_EQ(w.repeaters, repeaters);
    EXPECT_EQ(d.pass, repeaters == 4) << repeaters;
    if (repeaters == 5) {
      EXPECT_CONTAINS(w.rule_problem, "5-4-3 rule");
    }
  }
}

TEST(Topology, SwitchesSplitCollisionDomainsAndTheirPortsAreStations) {
  const auto t = load(R"({"name": "s", "rate_mbps": 100,
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"}, "c": {"kind": "dte"},
              "h": {"kind": "repeater", "class": "class_ii"}, "sw": {"kind": "switch"}},
    "cables": [{"between": ["a", "h"], "cable_m": 10}, {"between": ["b", "h"], "cable_m": 10},
               {"between": ["h", "sw"], "cable_m": 10}, {"between": ["sw", "c"], "cable_m": 90}]})");
  ASSERT_EQ(t.report.domains.size(), 2u);
  std::vector<std::vector<std::string>> stations;
  for (const auto& d : t.report.domains) stations.push_back(d.stations);
  EXPECT_EQ(stations[0], (std::vector<std::string>{"a", "b", "sw:h"}));
  EXPECT_EQ(stations[1], (std::vector<std::string>{"c", "sw:c"}));
  // Each station's worst pair, each pair once: a - sw:h and b - sw:h (a - b is no worse).
  EXPECT_EQ(t.report.domains[0].pairs.size(), 2u);
  EXPECT_EQ(analyse_topology(t.plant, PairScope::every_pair).domains[0].pairs.size(), 3u);
  // The switch-to-c domain is a point-to-point link: 90 m x 1.112 + a DTE pair.
  const DomainReport& link = t.report.domains[1];
  EXPECT_NEAR(link.pairs[0].pdv_bt, 90 * 1.112 + 100, 1e-9);
}

TEST(Topology, ALoopIsAnErrorNamingIt) {
  const std::string e = error_of(R"({"name": "l", "rate_mbps": 100,
    "nodes": {"a": {"kind": "dte"}, "h1": {"kind": "repeater", "class": "class_ii"},
              "h2": {"kind": "repeater", "class": "class_ii"},
              "h3": {"kind": "repeater", "class": "class_ii"}},
    "cables": [{"between": ["a", "h1"], "cable_m": 1}, {"between": ["h1", "h2"], "cable_m": 1},
               {"between": ["h2", "h3"], "cable_m": 1}, {"between": ["h3", "h1"], "cable_m": 1}]})");
  EXPECT_CONTAINS(e, "loop in a collision domain: h1 - h2 - h3 - h1");
  // Two cables between the same repeaters are a loop too.
  const std::string twice = error_of(R"({"name": "l", "rate_mbps": 100,
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"},
              "h1": {"kind": "repeater", "class": "class_ii"},
              "h2": {"kind": "repeater", "class": "class_ii"}},
    "cables": [{"between": ["a", "h1"], "cable_m": 1}, {"between": ["h1", "h2"], "cable_m": 1},
               {"between": ["h2", "h1"], "cable_m": 2}, {"between": ["h2", "b"], "cable_m": 1}]})");
  EXPECT_CONTAINS(twice, "loop in a collision domain: h1 - h2 - h1");
}

// `text` with the first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

// A cable's length is "cable_m", as in links and collision domains; "length_m", its old name,
// is read the same and warned of; both, or neither, is an error.
TEST(Topology, TheOldNameOfACablesLengthIsReadWithAWarning) {
  const std::string base = two_hubs(100, 5, 100);
  auto with = [&base](const std::string& from, const std::string& to) {
    return replaced(base, from, to);
  };
  const std::string five = "\"cable_m\": " + std::to_string(5.0);  // cables[1], h1 - h2
  const std::string old_five = "\"length_m\": " + std::to_string(5.0);
  const auto plain = load(base);
  EXPECT_TRUE(plain.warnings.empty());
  const auto old = load(with(five, old_five));
  ASSERT_EQ(old.warnings.size(), 1u);
  EXPECT_EQ(old.warnings[0],
            "cables[1].length_m is the old name of cable_m (read the same; rename it)");
  EXPECT_EQ(old.plant.cables[1].length_m, plain.plant.cables[1].length_m);
  EXPECT_EQ(old.resolved, plain.resolved);  // written out under the new name
  EXPECT_CONTAINS(error_of(with(five, five + ", " + old_five)),
                  "cables[1].length_m: give the length once: \"length_m\" is the old name of "
                  "\"cable_m\"");
  EXPECT_CONTAINS(error_of(with(", " + five, "")),
                  "cables[1]: missing \"cable_m\": the cable's length in metres");
}

TEST(Topology, BadInputGetsClearErrors) {
  const std::string base = two_hubs(100, 5, 100);
  auto with = [&base](const std::string& from, const std::string& to) {
    return replaced(base, from, to);
  };
  EXPECT_CONTAINS(error_of(with("\"medium\": \"cat5\", \"cable_m\": 5",
                                "\"medium\": \"cat55\", \"cable_m\": 5")),
                  "t.json: cables[1].medium: expected one of");
  EXPECT_CONTAINS(error_of(with("\"medium\": \"cat5\", \"cable_m\": 5",
                                "\"medium\": \"cat55\", \"cable_m\": 5")),
                  "did you mean");
  EXPECT_CONTAINS(error_of(with("\"cable_m\": 5.0", "\"cable_m\": -3")),
                  "cables[1].cable_m: expected a number in 0 .. 100000 m, got -3");
  EXPECT_CONTAINS(error_of(with("\"c\": {\"kind\": \"dte\"}",
                                "\"c\": {\"kind\": \"dte\"}, \"lonely\": {\"kind\": \"dte\"}")),
                  "nodes.lonely: \"lonely\" has no cables");
  EXPECT_CONTAINS(error_of(with("[\"h2\", \"b\"]", "[\"h2\", \"bb\"]")),
                  "cables[2].between[1]: no node \"bb\"; did you mean \"b\"?");
  EXPECT_CONTAINS(error_of(with("\"kind\": \"repeater\", \"class\": \"class_ii\"",
                                "\"kind\": \"repeater\", \"clas\": \"class_ii\"")),
                  "nodes.h1.clas: unknown key; did you mean \"class\"?");
  EXPECT_CONTAINS(error_of(with("\"kind\": \"dte\"", "\"kind\": \"station\"")),
                  "nodes.a.kind: expected one of dte, repeater, switch, converter");
  EXPECT_CONTAINS(error_of(with("\"rate_mbps\": 100", "\"rate_mbps\": 10000")),
                  "rate_mbps: expected 10, 100 or 1000");
  EXPECT_CONTAINS(error_of("{\"name\": \"x\", \"nodes\": {}"), "malformed JSON at line 1");
  // The old per-speed medium form is refused with the conversion to one-way ns per metre.
  std::string old = base;
  old.insert(old.find("\"nodes\""),
             "\"media\": {\"f\": {\"round_trip_bt_per_m\": {\"100\": 1.2}}}, ");
  EXPECT_CONTAINS(error_of(old),
                  "t.json: media.f.round_trip_bt_per_m: media rows give the one-way "
                  "delay now: \"ns_per_m\" = BT per metre x 1000 / (2 x Mb/s)");
}

// A key of another kind of node is named as such, not silently ignored.
TEST(Topology, AKeyOfAnotherKindOfNodeIsAnError) {
  std::string s = two_hubs(100, 5, 100);
  const std::string c = "\"c\": {\"kind\": \"dte\"}";
  s.replace(s.find(c), c.size(), "\"c\": {\"kind\": \"dte\", \"class\": \"gigabit\"}");
  EXPECT_CONTAINS(
      error_of(s),
      "t.json: nodes.c.class: does not apply to a dte (its keys: kind, phy, rate_mbps, delay_bt)");
}

// The document as read, written back with every default spelled out, loads again to the same
// document and the same path delays; user media and converter delays survive the trip.
TEST(Topology, TheResolvedDocumentLoadsAgainToTheSamePlant) {
  const auto t = load(R"({"name": "u", "rate_mbps": 100, "description": "trip",
    "media": {"old_fibre": {"ns_per_m": 6.25, "source": "test"}},
    "nodes": {"a": {"kind": "dte", "phy": "t4"}, "b": {"kind": "dte"},
              "mc": {"kind": "converter", "delay_bt": 20}},
    "cables": [{"between": ["a", "mc"], "cable_m": 100},
               {"between": ["mc", "b"], "medium": "old_fibre", "cable_m": 200}]})");
  EXPECT_EQ(t.resolved["cables"][0]["medium"], "cat5");
  EXPECT_EQ(t.resolved["media"]["old_fibre"]["ns_per_m"], 6.25);
  const auto again = load(t.resolved.dump());
  EXPECT_EQ(again.resolved, t.resolved);
  EXPECT_EQ(again.description, "trip");
  ASSERT_EQ(again.report.domains.size(), 1u);
  EXPECT_EQ(again.report.domains[0].pairs[0].pdv_bt, t.report.domains[0].pairs[0].pdv_bt);
}

// Two stations on one cable, no repeater: the path delay value is far inside the budget, so only
// the segment rule can fail the plant.
std::string one_cable(int rate, const std::string& medium, double metres) {
  return R"({"name": "s", "rate_mbps": )" + std::to_string(rate) +
         R"(, "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"}},
    "cables": [{"between": ["a", "b"], "medium": ")" +
         medium + R"(", "cable_m": )" + std::to_string(metres) + "}]}";
}

TEST(Topology, ASegmentLongerThanItsPhyAllowsFailsThePlantWithTheLimitAndItsSource) {
  // 180 m of Cat 5 at 100 Mb/s: PDV 180 x 1.112 + 100 = 300.16 BT <= 512, but 100BASE-TX
  // segments end at 100 m.
  const auto fast = load(one_cable(100, "cat5", 180));
  const DomainReport& d = fast.report.domains[0];
  EXPECT_NEAR(d.pairs[0].pdv_bt, 300.16, 1e-9);
  EXPECT_TRUE(d.pairs[0].pass);
  ASSERT_EQ(d.segment_violations.size(), 1u);
  EXPECT_EQ(d.segment_violations[0].where, "cables[0]");
  EXPECT_CONTAINS(d.segment_violations[0].message,
                  "a - b: 180 m of cat5 is longer than 100BASE-TX's 100 m segment limit (802.3u");
  EXPECT_FALSE(d.pass);
  EXPECT_FALSE(fast.report.pass());
  // 110 m at 1000 Mb/s: PDV 864 + 110 x 11.12 = 2087.2 BT, but 1000BASE-T ends at 100 m.
  const auto gig = load(one_cable(1000, "cat5e", 110));
  EXPECT_NEAR(gig.report.domains[0].pairs[0].pdv_bt, 2087.2, 1e-9);
  ASSERT_EQ(gig.report.domains[0].segment_violations.size(), 1u);
  EXPECT_CONTAINS(gig.report.domains[0].segment_violations[0].message,
                  "110 m of cat5e is longer than 1000BASE-T's 100 m segment limit");
  // At the limit, and on media whose limit is longer, the plant passes.
  EXPECT_TRUE(load(one_cable(1000, "cat5e", 100)).report.pass());
  EXPECT_TRUE(load(one_cable(100, "fibre_mm", 412)).report.pass());
  EXPECT_FALSE(load(one_cable(100, "fibre_mm", 413)).report.pass());  // 100BASE-FX, half duplex
  EXPECT_TRUE(load(one_cable(10, "coax_thin", 185)).report.pass());
  EXPECT_FALSE(load(one_cable(10, "coax_thin", 186)).report.pass());  // 10BASE2
  EXPECT_FALSE(load(one_cable(1000, "twinax", 26)).report.pass());    // 1000BASE-CX
  // 1000BASE-SX per fibre type and modal bandwidth (Standards B.5); single-mode is 1000BASE-LX.
  EXPECT_TRUE(load(one_cable(1000, "mmf_62_5_200", 275)).report.pass());
  EXPECT_FALSE(load(one_cable(1000, "mmf_62_5_200", 276)).report.pass());
  EXPECT_FALSE(load(one_cable(1000, "mmf_62_5_160", 221)).report.pass());
  EXPECT_TRUE(load(one_cable(1000, "mmf_50_500", 316)).report.pass());  // PDV 864 + 3160 <= 4096
  EXPECT_CONTAINS(
      load(one_cable(1000, "mmf_50_400", 501)).report.domains[0].segment_violations[0].message,
      "501 m of mmf_50_400 is longer than 1000BASE-SX (50 um, 400 MHz.km)'s 500 m");
}

// A cable may name the PMD its ends run: 1000BASE-LX reaches 550 m on every multimode type
// (Standards B.5), where 1000BASE-SX on 62.5 um 200 MHz.km ends at 275 m. A PMD that does not
// run on the medium, or at the cable's speed, is an error naming where it does run.
std::string with_pmd(int rate, const std::string& medium, double metres, const std::string& pmd) {
  std::string s = one_cable(rate, medium, metres);
  const std::string at = "\"cable_m\"";
  s.insert(s.find(at), "\"pmd\": \"" + pmd + "\", ");
  return s;
}

TEST(Topology, ACableNamingItsPmdIsHeldToThatPmdsRange) {
  EXPECT_FALSE(load(one_cable(1000, "mmf_62_5_200", 300)).report.pass());  // SX by default
  EXPECT_TRUE(load(with_pmd(1000, "mmf_62_5_200", 300, "1000base-lx")).report.pass());
  EXPECT_TRUE(load(with_pmd(1000, "mmf_62_5_160", 316, "1000base-lx")).report.pass());
  // Past 550 m the LX rule fails it; the path delay check alone would too (864 + 5510 BT), so
  // the message is what shows the rule applied.
  const auto far = load(with_pmd(1000, "mmf_50_400", 551, "1000base-lx"));
  ASSERT_EQ(far.report.domains[0].segment_violations.size(), 1u);
  EXPECT_CONTAINS(far.report.domains[0].segment_violations[0].message,
                  "551 m of mmf_50_400 is longer than 1000BASE-LX (50 um, 400 MHz.km)'s 550 m");
  EXPECT_TRUE(load(with_pmd(1000, "mmf_50_400", 550, "1000base-lx"))
                  .report.domains[0]
                  .segment_violations.empty());
  // Naming the default changes nothing.
  EXPECT_EQ(
      load(with_pmd(1000, "mmf_62_5_200", 276, "1000base-sx"))
          .report.domains[0]
          .segment_violations[0]
          .message,
      load(one_cable(1000, "mmf_62_5_200", 276)).report.domains[0].segment_violations[0].message);
  EXPECT_CONTAINS(error_of(with_pmd(1000, "smf_9", 100, "1000base-sx")),
                  "cables[0].pmd: 1000base-sx does not run on smf_9 (it runs on mmf_62_5_160");
  EXPECT_CONTAINS(error_of(with_pmd(100, "mmf_62_5_200", 100, "1000base-lx")),
                  "cables[0].pmd: 1000base-lx is a 1000 Mb/s PHY and this cable runs at 100 Mb/s");
  EXPECT_CONTAINS(error_of(with_pmd(1000, "cat5", 10, "1000base-lz")),
                  "cables[0].pmd: expected one of 1000base-t, 1000base-sx, 1000base-lx, "
                  "1000base-cx, got \"1000base-lz\" (a string); did you mean \"1000base-lx\"?");
}

// The answer stated: the longest cable per station. Two Class II hubs 5 m apart (a and b on
// 100 m, c on 20 m): the a - b pair bounds it, (512 - 5 x 1.112 - 2 x 92 - 100) / (2 x 1.112)
// = 100.018 m (docs/references.md, Validation 3's 205 m), and 100BASE-TX's 100 m segment is
// shorter still. One gigabit repeater: (4096 - 864 - 976) / (2 x 11.12) = 101.439 m, again
// bounded by 1000BASE-T's 100 m; with a 8192-bit budget ("what if") 285.612 m of delay.
TEST(Topology, TheLongestStationCableIsTheSmallerOfThePathDelayAndTheSegmentLimit) {
  const auto hubs = load(two_hubs(100, 5, 100));
  const DomainReport& d = hubs.report.domains[0];
  ASSERT_TRUE(d.max_station_cable_m);
  EXPECT_NEAR(*d.max_station_cable_pdv_m, (512 - 5 * 1.112 - 2 * 92 - 100) / (2 * 1.112), 1e-9);
  EXPECT_NEAR(*d.max_station_cable_pdv_m, 100.018, 1e-3);
  EXPECT_EQ(*d.max_station_cable_m, 100);
  EXPECT_EQ(d.max_station_cable_limit, "100BASE-TX segment (100 m of cat5)");
  const std::string gig = R"({"name": "g", "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"},
      "c": {"kind": "dte"}, "r": {"kind": "repeater", "class": "gigabit"}},
    "cables": [{"between": ["a", "r"], "cable_m": 10}, {"between": ["b", "r"], "cable_m": 50},
               {"between": ["c", "r"], "cable_m": 90}]})";
  const DomainReport g = load(gig).report.domains[0];
  EXPECT_NEAR(*g.max_station_cable_pdv_m, (4096.0 - 864 - 976) / (2 * 11.12), 1e-9);
  EXPECT_EQ(*g.max_station_cable_m, 100);
  std::string what_if = gig;
  what_if.insert(what_if.find("\"nodes\""), "\"budget_bt\": 8192, ");
  EXPECT_NEAR(*load(what_if).report.domains[0].max_station_cable_pdv_m,
              (8192.0 - 864 - 976) / (2 * 11.12), 1e-9);
  // At 100 Mb/s through one Class II hub nothing but the PDV bounds fibre: 412 m of 100BASE-FX
  // segment against (512 - 92 - 100) / (2 x 1.0) = 160 m of delay.
  const std::string fx = R"({"name": "f", "rate_mbps": 100, "nodes": {"a": {"kind": "dte"},
      "b": {"kind": "dte"}, "h": {"kind": "repeater", "class": "class_ii"}},
    "cables": [{"between": ["a", "h"], "medium": "fibre_mm", "cable_m": 10},
               {"between": ["b", "h"], "medium": "fibre_mm", "cable_m": 10}]})";
  const DomainReport f = load(fx).report.domains[0];
  EXPECT_NEAR(*f.max_station_cable_m, 160, 1e-9);
  EXPECT_EQ(f.max_station_cable_limit, "path delay");
}

TEST(Topology, AStationBetweenRepeatersOfTwoSpeedsIsAnError) {
  const std::string e = error_of(R"({"name": "m",
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"}, "c": {"kind": "dte"},
              "h": {"kind": "repeater", "class": "class_ii"},
              "g": {"kind": "repeater", "class": "gigabit"}},
    "cables": [{"between": ["a", "h"], "cable_m": 10}, {"between": ["a", "g"], "cable_m": 10},
               {"between": ["b", "h"], "cable_m": 10}, {"between": ["c", "g"], "cable_m": 10}]})");
  EXPECT_CONTAINS(e, "nodes.a: a station has one port, but \"a\" has 2 cables");
  EXPECT_CONTAINS(e, "a repeater cannot join speeds; put a switch between them");
}

TEST(Topology, UserMediaAndConverterDelaysEnterThePathDelay) {
  const auto t = load(R"({"name": "u", "rate_mbps": 100,
    "media": {"old_fibre": {"ns_per_m": 6.25, "source": "test"}},
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"},
              "mc": {"kind": "converter", "delay_bt": 20}},
    "cables": [{"between": ["a", "mc"], "medium": "cat5", "cable_m": 100},
               {"between": ["mc", "b"], "medium": "old_fibre", "cable_m": 200}]})");
  const DomainReport& d = t.report.domains[0];
  EXPECT_NEAR(d.pairs[0].pdv_bt, 100 * 1.112 + 20 + 200 * 1.25 + 100, 1e-9);
  EXPECT_EQ(d.pairs[0].repeaters, 0);  // a converter is not a repeater
  EXPECT_EQ(d.margin_medium, "old_fibre");
  EXPECT_CONTAINS(error_of(R"({"name": "u", "rate_mbps": 100,
    "nodes": {"a": {"kind": "dte"}, "b": {"kind": "dte"}, "mc": {"kind": "converter"}},
    "cables": [{"between": ["a", "mc"], "cable_m": 1}, {"between": ["mc", "b"], "cable_m": 1}]})"),
                  "nodes.mc: no delay is known for media converter \"mc\"");
}

TEST(Topology, TheDotFileDrawsTheWorstPath) {
  const auto t = load(gigabit(110, 100));
  const std::string dot = topology_dot(t.plant, t.report);
  EXPECT_CONTAINS(dot, "graph \"g\" {");
  EXPECT_CONTAINS(dot, "\"a\" -- \"r1\" [label=\"110 m cat5\", penwidth=3, color=red]");
  EXPECT_CONTAINS(dot, "FAIL");
}

}  // namespace
}  // namespace gbesim
