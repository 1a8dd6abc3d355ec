// The collision-domain analysis finds its worst cases from the paths between repeaters and the
// longest cable of each kind of station, not by a search per pair. Differential test: on random
// plants (trees of repeaters and converters, several media, station PHY types and own delays,
// switch ports, all three speeds and their repeater rules) the default report must agree with
// every pair computed one by one (PairScope::every_pair): the worst pair's PDV and cable, each
// station's worst partner's PDV, the verdict, the repeater-rule verdict and the longest station
// cable.

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>

#include "models/topology/cabling.hpp"

namespace gbesim {
namespace {

CablingPlant random_plant(std::mt19937_64& rng, std::int64_t rate) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  auto uniform = [&rng](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  CablingPlant p;
  p.name = "random";
  p.rate_mbps = rate;
  p.margin_bt = pick(2) == 0 ? 0 : 4;
  std::vector<std::string> repeater_types;
  std::vector<std::string> media;
  std::vector<std::string> phys;
  if (rate == 10) {
    repeater_types = {"ten"};
    media = {"cat3", "coax_thin", "fibre_mm"};
    phys = {""};
  } else if (rate == 100) {
    repeater_types = {"class_ii", "class_ii", "class_i"};
    media = {"cat5", "cat3", "fibre_mm"};
    phys = {"", "tx", "t4", "fx"};
  } else {
    repeater_types = {"gigabit"};
    media = {"cat5", "fibre_mm", "twinax"};
    phys = {""};
  }
  // The inside: a random tree of 1..6 repeaters and converters.
  const int inner = 1 + pick(6);
  for (int i = 0; i < inner; ++i) {
    CablingNode n;
    n.name = "r" + std::to_string(i);
    if (i > 0 && pick(5) == 0) {
      n.kind = NodeKind::converter;
      n.delay_bt = uniform(0, 40);
    } else {
      n.kind = NodeKind::repeater;
      n.type = repeater_types[pick(static_cast<int>(repeater_types.size()))];
      if (pick(4) == 0) n.delay_bt = uniform(20, 120);
    }
    p.nodes.push_back(n);
    if (i > 0)
      p.cables.push_back(
          {"r" + std::to_string(pick(i)), n.name, media[pick(3)], uniform(1, 60), ""});
  }
  // Stations and switch ports on random repeaters.
  const int stations = 2 + pick(12);
  for (int s = 0; s < stations; ++s) {
    CablingNode n;
    const bool port = pick(6) == 0;
    n.name = (port ? "sw" : "s") + std::to_string(s);
    n.kind = port ? NodeKind::bridge : NodeKind::dte;
    if (!port) {
      n.type = phys[pick(static_cast<int>(phys.size()))];
      if (pick(5) == 0) n.delay_bt = uniform(10, 60);
    }
    p.nodes.push_back(n);
    // Some stations share a length, so ties between partners are exercised too.
    const double length = pick(3) == 0 ? 25 : uniform(1, 120);
    p.cables.push_back({"r" + std::to_string(pick(inner)), n.name, media[pick(3)], length, ""});
  }
  return p;
}

TEST(TopologyScale, TheDefaultReportAgreesWithEveryPairOnRandomPlants) {
  std::mt19937_64 rng(20261202);
  int compared = 0;
  int rule_failures = 0;
  int station_answers = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const std::int64_t rate = std::array<std::int64_t, 3>{10, 100, 1000}[trial % 3];
    const CablingPlant plant = random_plant(rng, rate);
    const TopologyReport fast = analyse_topology(plant);
    const TopologyReport every = analyse_topology(plant, PairScope::every_pair);
    ASSERT_EQ(fast.problems.size(), every.problems.size());
    ASSERT_EQ(fast.domains.size(), every.domains.size());
    for (std::size_t d = 0; d < fast.domains.size(); ++d) {
      const DomainReport& f = fast.domains[d];
      const DomainReport& e = every.domains[d];
      SCOPED_TRACE("trial " + std::to_string(trial) + " domain " + std::to_string(d));
      ASSERT_EQ(f.stations, e.stations);
      ASSERT_EQ(f.worst.has_value(), e.worst.has_value());
      EXPECT_EQ(f.pass, e.pass);
      if (!e.worst) continue;
      ++compared;
      // Every pair one by one: the worst, each station's worst partner, any rule broken.
      // A pair whose path delay is not known (a device delay missing) is worse than any known
      // one: it cannot be shown to pass; among those the longer cable is worse.
      auto badness = [](const PathReport& p) {
        return p.pdv_known ? std::make_pair(0, p.pdv_bt) : std::make_pair(1, p.cable_m);
      };
      // Per station, the worst of the listed pairs it is in; and whether any breaks a rule.
      auto worst_by_station = [&badness](const std::vector<PathReport>& pairs, bool& rule_broken) {
        std::map<std::string, std::pair<int, double>> worst;
        rule_broken = false;
        for (const PathReport& p : pairs) {
          for (const std::string* s : {&p.from, &p.to})
            if (!worst.count(*s) || badness(p) > worst[*s]) worst[*s] = badness(p);
          rule_broken = rule_broken || !p.rule_problem.empty();
        }
        return worst;
      };
      bool rule_broken = false;
      const auto worst_of = worst_by_station(e.pairs, rule_broken);
      const PathReport& fw = f.pairs[*f.worst];
      const PathReport& ew = e.pairs[*e.worst];
      EXPECT_EQ(fw.pdv_known, ew.pdv_known);
      if (ew.pdv_known)
        EXPECT_NEAR(fw.pdv_bt, ew.pdv_bt, 1e-9);
      else
        EXPECT_NEAR(fw.cable_m, ew.cable_m, 1e-9);
      EXPECT_NEAR(f.margin_bt, e.margin_bt, 1e-9);
      EXPECT_NEAR(f.margin_m, e.margin_m, 1e-9);
      bool fast_rule_broken = false;
      auto listed = worst_by_station(f.pairs, fast_rule_broken);
      EXPECT_EQ(fast_rule_broken, rule_broken);
      rule_failures += rule_broken ? 1 : 0;
      for (const auto& [station, worst] : worst_of) {
        ASSERT_TRUE(listed.count(station)) << station;
        EXPECT_EQ(listed[station].first, worst.first) << station;
        EXPECT_NEAR(listed[station].second, worst.second, 1e-9) << station;
      }
      ASSERT_EQ(f.max_station_cable_m.has_value(), e.max_station_cable_m.has_value());
      if (e.max_station_cable_m) {
        ++station_answers;
        EXPECT_NEAR(*f.max_station_cable_pdv_m, *e.max_station_cable_pdv_m, 1e-9);
        EXPECT_NEAR(*f.max_station_cable_m, *e.max_station_cable_m, 1e-9);
        EXPECT_EQ(f.max_station_cable_limit, e.max_station_cable_limit);
      }
    }
  }
  // The random plants reach every branch that matters.
  EXPECT_GT(compared, 500);
  EXPECT_GT(rule_failures, 50);
  EXPECT_GT(station_answers, 200);
}

// What a listing holds is known before it is built (and refused beyond kMaxPairListingBytes):
// on the random plants, the estimate's pairs and path names are exactly those of the listing
// then built, for each station's worst pairs and for every pair.
TEST(TopologyScale, TheSizeOfAListingIsKnownExactlyBeforeItIsBuilt) {
  std::mt19937_64 rng(20261206);
  auto names_in = [](const DomainReport& dom) {
    double names = 0;
    for (const PathReport& p : dom.pairs) names += static_cast<double>(p.path.size());
    return names;
  };
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const CablingPlant plant =
        random_plant(rng, std::array<std::int64_t, 3>{10, 100, 1000}[trial % 3]);
    const TopologyReport fast = analyse_topology(plant);
    const TopologyReport every = analyse_topology(plant, PairScope::every_pair);
    ASSERT_EQ(fast.domains.size(), every.domains.size());
    for (std::size_t d = 0; d < fast.domains.size(); ++d) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " domain " + std::to_string(d));
      const DomainReport& f = fast.domains[d];
      const DomainReport& e = every.domains[d];
      EXPECT_EQ(f.listed.pairs, static_cast<double>(f.pairs.size()));
      EXPECT_EQ(f.listed.path_nodes, names_in(f));
      EXPECT_EQ(e.listed.pairs, static_cast<double>(e.pairs.size()));
      EXPECT_EQ(e.listed.path_nodes, names_in(e));
      // The default report knows what every pair would take.
      EXPECT_EQ(f.every_pair.pairs, e.listed.pairs);
      EXPECT_EQ(f.every_pair.path_nodes, e.listed.path_nodes);
      EXPECT_EQ(f.every_pair.bytes, e.listed.bytes);
      compared += e.pairs.size() > f.pairs.size() ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 100);  // plants where every pair is more than each station's worst
}

// 1,024 stations on a chain of 3,071 repeaters (4,095 nodes, within the limits of a scenario's
// topology): station i on repeater 3i. Every pair's path names its two stations and the repeaters
// from 3i to 3k: 3 + 3 (k - i) names; over all pairs 3 P + 3 n (n^2 - 1) / 6 with n = 1,024 and
// P = n (n - 1) / 2 = 523,776: 538,441,728 names, tens of GB. The analysis refuses at once, with
// the estimate.
TEST(TopologyScale, AListingBeyondTheBoundIsRefusedBeforeItIsBuilt) {
  constexpr int n = 1024;
  constexpr int repeaters = 3 * n - 1;
  CablingPlant plant;
  plant.name = "chain";
  plant.rate_mbps = 10;
  for (int r = 0; r < repeaters; ++r) {
    plant.nodes.push_back({"r" + std::to_string(r), NodeKind::repeater, "ten", 0, std::nullopt});
    if (r > 0)
      plant.cables.push_back({"r" + std::to_string(r - 1), "r" + std::to_string(r), "cat3", 1, ""});
  }
  for (int i = 0; i < n; ++i) {
    plant.nodes.push_back({"s" + std::to_string(i), NodeKind::dte, "", 0, std::nullopt});
    plant.cables.push_back({"r" + std::to_string(3 * i), "s" + std::to_string(i), "cat3", 1, ""});
  }
  const TopologyReport fast = analyse_topology(plant);
  ASSERT_EQ(fast.problems.size(), 0u);
  ASSERT_EQ(fast.domains.size(), 1u);
  EXPECT_EQ(fast.domains[0].every_pair.pairs, 523'776);
  EXPECT_EQ(fast.domains[0].every_pair.path_nodes, 538'441'728);
  EXPECT_GT(fast.domains[0].every_pair.bytes, 10 * kMaxPairListingBytes);
  // Each station's worst pair (its partner at the far end) stays small.
  EXPECT_LT(fast.domains[0].listed.bytes, kMaxPairListingBytes / 10);

  const TopologyReport every = analyse_topology(plant, PairScope::every_pair);
  EXPECT_TRUE(every.domains.empty());
  ASSERT_EQ(every.problems.size(), 1u);
  EXPECT_NE(every.problems[0].message.find(
                "collision domain 0: listing every pair of its stations would take about "),
            std::string::npos)
      << every.problems[0].message;
  EXPECT_NE(every.problems[0].message.find(
                " GB (523776 pairs, 538441728 names along their paths); an analysis lists at "
                "most 2.0 GB (each station's worst pair is listed without asking for every pair)"),
            std::string::npos)
      << every.problems[0].message;
}

}  // namespace
}  // namespace gbesim
