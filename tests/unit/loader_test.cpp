#include "sim/input/scenario_loader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "sim/input/nic_profiles.hpp"
#include "sim/input/profiles.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

const char* kValid = R"({
  "name": "t",
  "description": "two stations",
  "duration_ns": 1000,
  "stations": {
    "a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
    "b": {}
  },
  "links": [{"between": ["a", "b"], "cable_m": 10}]
})";

// The error text for a scenario, or "" if it loads.
std::string error_of(const std::string& text, const LoadOptions& options = {}) {
  try {
    load_scenario_text(text, "bad.json", options);
    return "";
  } catch (const ScenarioError& e) {
    return e.what();
  }
}

std::string with(const std::string& path, const std::string& value) {
  Json doc = Json::parse(kValid);
  set_json_path(doc, path, parse_override_value(value));
  return doc.dump();
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST(Loader, LoadsAValidScenarioWithDefaultsFilledIn) {
  const auto s = load_scenario_text(kValid, "ok.json");
  ASSERT_EQ(s.config.stations.size(), 2u);
  EXPECT_EQ(s.config.stations[0].mac.ifg_bits, 96);
  EXPECT_EQ(s.config.stations[0].mac.max_frame_bytes, 1518);
  EXPECT_EQ(s.config.links[0].params.cable_m, 10.0);
  EXPECT_EQ(s.config.stations[0].traffic[0].frame_bytes.fixed_bytes, 64);
  EXPECT_EQ(s.config.run.rate_mbps, 1000);
  EXPECT_EQ(s.resolved["stations"]["a"]["mac"]["ifg_bits"], 96);
}

TEST(Loader, TheResolvedConfigurationIsItselfAScenarioThatResolvesToItself) {
  const auto s = load_scenario_text(kValid, "ok.json");
  const auto again = load_scenario_text(s.resolved.dump(), "resolved.json");
  EXPECT_EQ(again.resolved, s.resolved);
}

TEST(Loader, ATypoedKeyIsNamedWithItsPathAndASuggestion) {
  const auto e = error_of(with("stations.a.mac", R"({"ifg_bit": 96})"));
  EXPECT_CONTAINS(e, "bad.json: stations.a.mac.ifg_bit: unknown key; did you mean \"ifg_bits\"?");
}

TEST(Loader, AWrongTypeSaysWhatWasExpected) {
  const auto e = error_of(with("duration_ns", "\"1000\""));
  EXPECT_CONTAINS(e, "bad.json: duration_ns: expected an integer");
  EXPECT_CONTAINS(e, "got \"1000\" (a string)");
}

TEST(Loader, ANegativeCableLengthIsOutOfRange) {
  const auto e = error_of(with("links[0].cable_m", "-5"));
  EXPECT_CONTAINS(e, "bad.json: links[0].cable_m: expected a number in 0 .. 100000 m, got -5");
}

TEST(Loader, AFrameLargerThanTheMaximumIsRejected) {
  const auto e = error_of(with("stations.a.traffic[0].frame_bytes", "1519"));
  EXPECT_CONTAINS(e,
                  "stations.a.traffic[0].frame_bytes: 1519 bytes is larger than this station's "
                  "maximum frame (1518 bytes");
  // ... and accepted once jumbo frames are enabled.
  Json doc = Json::parse(with("stations.a.traffic[0].frame_bytes", "9000"));
  doc["mac"] = {{"max_frame_bytes", 9018}};
  EXPECT_EQ(error_of(doc.dump()), "");
}

TEST(Loader, AnUnknownTrafficPatternGetsASuggestion) {
  const auto e = error_of(with("stations.a.traffic[0].pattern", "\"poison\""));
  EXPECT_CONTAINS(e,
                  "stations.a.traffic[0].pattern: \"poison\" is not one of saturated | poisson "
                  "| on_off | script; did you mean \"poisson\"?");
}

TEST(Loader, MalformedJsonGivesLineAndColumn) {
  const auto e = error_of("{\n  \"name\": \"x\",\n  \"stations\": {,}\n}");
  EXPECT_CONTAINS(e, "bad.json: malformed JSON at line 3, column 16");
}

TEST(Loader, DuplicateKeysAreErrors) {
  const auto e = error_of(R"({"name": "a", "name": "b"})");
  EXPECT_CONTAINS(e, "duplicate key \"name\"");
}

TEST(Loader, KeysThatDoNotApplyToThePatternAreErrors) {
  const auto e = error_of(with("stations.a.traffic[0].load_bps", "1e6"));
  EXPECT_CONTAINS(e,
                  "stations.a.traffic[0].load_bps: applies only to pattern poisson; this "
                  "source's pattern is \"saturated\"");
}

TEST(Loader, UnknownStationsAndMediaAreNamedWithSuggestions) {
  EXPECT_CONTAINS(error_of(with("stations.a.traffic[0].to", "\"bb\"")),
                  "stations.a.traffic[0].to: no station \"bb\"; did you mean \"b\"?");
  EXPECT_CONTAINS(error_of(with("links[0].medium", "\"cat5f\"")),
                  "links[0].medium: no medium \"cat5f\"; did you mean \"cat5e\"?");
  EXPECT_CONTAINS(error_of(with("links[0].between", R"(["a", "c"])")),
                  "links[0].between[1]: no station \"c\"");
}

TEST(Loader, ReportsEveryErrorAtOnce) {
  Json doc = Json::parse(kValid);
  doc["duration_ns"] = -1;
  doc["links"][0]["cable_m"] = "far";
  doc["rate_mbps"] = 1500;
  try {
    load_scenario_text(doc.dump(), "bad.json");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.diagnostics().size(), 3u) << e.what();
  }
}

TEST(Loader, SetOverridesApplyAndTyposInThemAreCaught) {
  LoadOptions o;
  o.sets = {"links[0].cable_m=250", "mac.ifg_bits=64"};
  const auto s = load_scenario_text(kValid, "ok.json", o);
  EXPECT_EQ(s.config.links[0].params.cable_m, 250.0);
  EXPECT_EQ(s.config.stations[1].mac.ifg_bits, 64);
  o.sets = {"stations.a.mac.ifg_bit=64"};
  EXPECT_CONTAINS(error_of(kValid, o),
                  "stations.a.mac.ifg_bit: unknown key; did you mean \"ifg_bits\"?");
  o.sets = {"links[4].cable_m=1"};
  EXPECT_CONTAINS(error_of(kValid, o),
                  "--set links[4].cable_m: links[4].cable_m: links has 1 "
                  "elements, no [4]");
}

TEST(Loader, SweepPointsAreCartesianWithTheLastAxisFastest) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {{"rate_mbps", {10, 100}}, {"links[0].cable_m", {1, 2, 3}}};
  doc["replications"] = 2;
  const auto s = load_scenario_text(doc.dump(), "sweep.json");
  EXPECT_EQ(s.plan.point_count(), 6u);
  EXPECT_EQ(s.plan.run_count(), 12u);
  const auto p4 = s.plan.point(4);  // rate index 1, cable index 1
  EXPECT_EQ(p4[0].second, 100);
  EXPECT_EQ(p4[1].second, 2);
  LoadOptions o;
  o.run = 9;  // point 4, replication 1
  const auto run = load_scenario_text(doc.dump(), "sweep.json", o);
  EXPECT_EQ(run.config.run.rate_mbps, 100);
  EXPECT_EQ(run.config.links[0].params.cable_m, 2.0);
  EXPECT_EQ(run.config.run.seed, 2);  // seed 1 + replication 1
}

TEST(Loader, ABadValueInOneSweepPointNamesThePoint) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {{"stations.a.traffic[0].frame_bytes", {64, 20000}}};
  LoadOptions o;
  o.run = 1;
  EXPECT_CONTAINS(error_of(doc.dump(), o),
                  "sweep point 1 (stations.a.traffic[0].frame_bytes=20000)");
  // With replications, run K is not point K: both are said.
  doc["replications"] = 3;
  o.run = 4;
  EXPECT_CONTAINS(error_of(doc.dump(), o),
                  "sweep run 4 = point 1, replication 1 (stations.a.traffic[0].frame_bytes=20000)");
}

TEST(Loader, ZippedSweepAxesMoveTogether) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {
      {"stations.a.traffic[0].frame_bytes, mac.max_frame_bytes", {{64, 1518}, {9000, 9018}}}};
  LoadOptions o;
  o.run = 1;
  const auto s = load_scenario_text(doc.dump(), "zip.json", o);
  EXPECT_EQ(s.plan.point_count(), 2u);
  EXPECT_EQ(s.config.stations[0].mac.max_frame_bytes, 9018);
  EXPECT_EQ(s.config.stations[0].traffic[0].frame_bytes.fixed_bytes, 9000);
}

// "exclude" drops combinations from the product; the points that stay keep their order and
// every run index maps to one of them.
TEST(Loader, ExcludedSweepCombinationsAreNotPoints) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {
      {"rate_mbps", {10, 100, 1000}},
      {"links[0].cable_m", {1, 2}},
      {"exclude", {{{"rate_mbps", 100}, {"links[0].cable_m", {2}}}, {{"rate_mbps", {1000}}}}}};
  const auto s = load_scenario_text(doc.dump(), "x.json");
  EXPECT_EQ(s.plan.point_count(), 3u);  // (10, 1), (10, 2), (100, 1)
  EXPECT_EQ(s.plan.point_labels(1), (std::vector<std::string>{"10", "2"}));
  EXPECT_EQ(s.plan.point_labels(2), (std::vector<std::string>{"100", "1"}));
  LoadOptions o;
  o.run = 2;
  EXPECT_EQ(load_scenario_text(doc.dump(), "x.json", o).config.run.rate_mbps, 100);
  doc["sweep"]["exclude"] = {{{"links[0].cable", 2}}};
  EXPECT_CONTAINS(error_of(doc.dump()),
                  "sweep.exclude[0].links[0].cable: not a column of this sweep; did you mean "
                  "\"links[0].cable_m\"?");
  doc["sweep"]["exclude"] = {{{"links[0].cable_m", 3}}};
  EXPECT_CONTAINS(error_of(doc.dump()),
                  "sweep.exclude[0].links[0].cable_m: \"3\" is not an entry of column "
                  "links[0].cable_m");
  doc["sweep"]["exclude"] = {{{"links[0].cable_m", {1, 2}}}};
  EXPECT_CONTAINS(error_of(doc.dump()), "sweep.exclude: excludes every point of the sweep");
}

TEST(Loader, EmptyAndSelfReferencesAreErrorsNotCrashes) {
  EXPECT_CONTAINS(error_of(with("stations.a.traffic[0].to", "\"\"")),
                  "stations.a.traffic[0].to: expected a station name or \"broadcast\"");
  EXPECT_CONTAINS(error_of(with("links[0].between", R"(["a", "a"])")),
                  "links[0].between: a link joins two different ends, not \"a\" to itself");
}

TEST(Loader, NumbersBeyondWhatTheyCanHoldAreErrors) {
  EXPECT_CONTAINS(error_of(R"({"name": "x", "description": "", "duration_ns": 1e400})"),
                  "bad.json: duration_ns: a number does not fit in a 64-bit float: 1e400 (line "
                  "1, column 49)");
  EXPECT_CONTAINS(error_of(with("duration_ns", "18446744073709551615")),
                  "duration_ns: expected an integer in 1 .. 1125899906842624 ns, got "
                  "18446744073709551615");
  LoadOptions o;
  o.sets = {"links[99999999999999999999].cable_m=5"};
  EXPECT_CONTAINS(error_of(kValid, o), "array index [99999999999999999999] is too large");
  o.sets = {"duration_ns=1e400"};
  EXPECT_CONTAINS(error_of(kValid, o),
                  "--set duration_ns: the value is not usable JSON: a number does not fit in a "
                  "64-bit float: 1e400");
}

TEST(Loader, SeedAndReplicationsAreReadLikeEveryOtherInteger) {
  Json doc = Json::parse(kValid);
  doc["seed"] = 5.0;
  doc["replications"] = 3.0;
  const auto s = load_scenario_text(doc.dump(), "ok.json");
  EXPECT_EQ(s.config.run.seed, 5);
  EXPECT_EQ(s.plan.replications, 3);
  EXPECT_EQ(s.plan.run_count(), 3u);
}

TEST(Loader, SeedAndReplicationsCannotBeSwept) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {{"seed", {1, 2}}};
  EXPECT_CONTAINS(error_of(doc.dump()), "sweep[\"seed\"]: \"seed\" cannot be swept");
}

TEST(Loader, MalformedSweepKeysAreErrors) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = {{"links[0].cable_m,", {{1, 2}}}};
  EXPECT_CONTAINS(error_of(doc.dump()), "bad path \"\": empty");
  doc["sweep"] = {{"links[0]x", {1}}};
  EXPECT_CONTAINS(error_of(doc.dump()), "expected '.' or '[' after ']'");
}

TEST(Loader, OversizedSweepsAreRefusedBeforeTheyAreMultipliedOut) {
  Json doc = Json::parse(kValid);
  Json sweep = Json::object();
  for (int i = 0; i < 64; ++i)
    sweep["mac.ifg_bits, mac.tx_queue_frames" + std::string(i, ' ')] = {{96, 1}, {96, 2}};
  doc["sweep"] = sweep;
  EXPECT_CONTAINS(error_of(doc.dump()), "runs (points x replications); the limit is 100000");
}

TEST(Loader, WeightsThatOverflowAreRejected) {
  const auto e = error_of(
      with("stations.a.traffic[0].frame_bytes",
           R"({"mix": [{"bytes": 64, "weight": 1e308}, {"bytes": 1518, "weight": 1e308}]})"));
  EXPECT_CONTAINS(e, "the weights add up to more than a double can hold");
}

TEST(Loader, OnOffPeriodsHaveAOneNanosecondFloor) {
  const auto e =
      error_of(with("stations.a.traffic[0]",
                    R"({"pattern": "on_off", "to": "b", "peak_load_bps": 1e6, "on_ns": 1e-9})"));
  EXPECT_CONTAINS(e, "stations.a.traffic[0].on_ns: expected a number in 1 .. 1e+15 ns");
}

TEST(Loader, APoissonLoadMayBeAFractionOfTheLineRate) {
  Json doc = Json::parse(
      with("stations.a.traffic[0]", R"({"pattern": "poisson", "to": "b", "load": 0.25})"));
  doc["rate_mbps"] = 100;
  const auto s = load_scenario_text(doc.dump(), "ok.json");
  EXPECT_EQ(s.config.stations[0].traffic[0].load_bps, 25e6);
  // The resolved configuration carries load_bps only, and loads to the same thing.
  const Json& resolved = s.resolved["stations"]["a"]["traffic"][0];
  EXPECT_EQ(resolved["load_bps"], 25e6);
  EXPECT_FALSE(resolved.contains("load"));
  EXPECT_EQ(load_scenario_text(s.resolved.dump(), "again.json").resolved, s.resolved);
  EXPECT_CONTAINS(
      error_of(with("stations.a.traffic[0]",
                    R"({"pattern": "poisson", "to": "b", "load": 0.5, "load_bps": 1e6})")),
      "stations.a.traffic[0].load: give load (a fraction of the line rate) or "
      "load_bps, not both");
  EXPECT_CONTAINS(error_of(with("stations.a.traffic[0].load", "0.5")),
                  "stations.a.traffic[0].load: applies only to pattern poisson");
}

TEST(Loader, AVariantWithAnEmptySetIsTheScenarioAsWritten) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = Json::parse(R"({"mode": [{"label": "as written", "set": {}},
                                          {"label": "short gap", "set": {"mac.ifg_bits": 64}}]})");
  const auto s = load_scenario_text(doc.dump(), "v.json");
  EXPECT_EQ(s.plan.point_count(), 2u);
  EXPECT_EQ(s.config.stations[0].mac.ifg_bits, 96);
  doc["sweep"] = Json::parse(R"({"mode": [{"label": "x", "set": []}]})");
  EXPECT_CONTAINS(error_of(doc.dump()), "sweep[\"mode\"][0].set: expected an object");
}

// A bridge's read latency in ns is clocks at the bus's clock, rounded up: 225 ns is 30 clocks of
// PCI-X 133 (7.5 ns), 15 of PCI-X 66 (15 ns) and 23 of PCI-X 100 (10 ns: 22.5 rounded up); it
// takes the place of read_latency_clocks, and the resolved scenario resolves to itself.
TEST(Loader, ABridgeReadLatencyInNsStaysTheSameTimeAtEveryClock) {
  for (const auto& [mhz, clocks] : {std::pair{133, 30}, std::pair{66, 15}, std::pair{100, 23}}) {
    const std::string text =
        R"({"name": "bus", "description": "", "hosts": {"h": {
        "pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": )" +
        std::to_string(mhz) + R"(},
        "bridge": {"read_latency_ns": 225, "read_latency_clocks": 9, "split_read_bytes": 512}}}})";
    const auto s = load_scenario_text(text, "ok.json");
    EXPECT_EQ(s.config.hosts[0].bridge.read_latency_clocks, clocks) << mhz;
    EXPECT_EQ(load_scenario_text(s.resolved.dump(), "again.json").resolved, s.resolved) << mhz;
  }
}

// The bridge's read-path rate belongs to PCI-X split reads.
TEST(Loader, AReadPathRateNeedsSplitReads) {
  EXPECT_CONTAINS(error_of(R"({"name": "bus", "description": "", "hosts": {"h": {
        "pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": 133},
        "bridge": {"memory_read_mbps": 400}}}})"),
                  "hosts.h.bridge.memory_read_mbps: the read path's rate applies to PCI-X split "
                  "reads: give the bridge split_read_bytes (PCI-X) or drop it");
  EXPECT_CONTAINS(error_of(R"({"name": "bus", "description": "", "hosts": {"h": {
        "pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": 133},
        "bridge": {"memory_mbps": 400, "split_read_bytes": 512}}}})"),
                  "hosts.h.bridge.memory_mbps: the shared memory port's rate takes PCI-X split "
                  "reads and posted writes from one timeline: give the bridge split_read_bytes "
                  "and posted_write_bytes");
}

TEST(Loader, HostsCarryAPciBusItsBridgeAndDmaMasters) {
  const char* text = R"({"name": "bus", "description": "", "hosts": {"h": {
      "pci": {"width_bits": 64, "clock_mhz": 66},
      "bridge": {"read_latency_clocks": 9},
      "dma": {"disk": {"command": "memory_read_multiple", "request_bytes": 512,
                       "master": {"latency_timer_clocks": 32}}}}}})";
  const auto s = load_scenario_text(text, "ok.json");
  ASSERT_EQ(s.config.hosts.size(), 1u);
  EXPECT_TRUE(s.config.stations.empty());
  EXPECT_EQ(s.config.hosts[0].pci.width_bits, 64);
  EXPECT_EQ(s.config.hosts[0].bridge.read_latency_clocks, 9);
  ASSERT_EQ(s.config.hosts[0].dma.size(), 1u);
  EXPECT_EQ(s.config.hosts[0].dma[0].master.latency_timer_clocks, 32);
  EXPECT_EQ(load_scenario_text(s.resolved.dump(), "again.json").resolved, s.resolved);

  Json doc = Json::parse(text);
  auto error_with = [&](const std::string& path, const std::string& value) {
    Json d = doc;
    set_json_path(d, path, parse_override_value(value));
    return error_of(d.dump());
  };
  EXPECT_CONTAINS(error_with("hosts.h.pci.clock_mhz", "100"),
                  "hosts.h.pci.clock_mhz: PCI runs at 33 or 66 MHz, got 100");
  EXPECT_CONTAINS(error_with("hosts.h.pci.width_bits", "48"),
                  "hosts.h.pci.width_bits: a PCI bus is 32 or 64 bits wide, got 48");
  EXPECT_CONTAINS(error_with("hosts.h.bridge.split_read_bytes", "512"),
                  "hosts.h.bridge.split_read_bytes: split transactions are PCI-X only");
  EXPECT_CONTAINS(error_with("hosts.h.dma.disk.target", "\"brige\""),
                  "hosts.h.dma.disk.target: no target \"brige\"; did you mean \"bridge\"?");
  EXPECT_CONTAINS(error_with("hosts.h.dma.disk.master.latency_timer_clocks", "30"),
                  "the latency timer counts in units of 8 clocks, got 30");
  EXPECT_CONTAINS(error_with("hosts.h.dma.disk.comand", "1"),
                  "hosts.h.dma.disk.comand: unknown key; did you mean \"command\"?");
  EXPECT_CONTAINS(error_with("hosts.h.pcii", "{}"),
                  "hosts.h.pcii: unknown key; did you mean \"pci\"?");
  EXPECT_CONTAINS(error_with("hosts.h.dma.disk.command", "\"memory_wrte\""),
                  "hosts.h.dma.disk.command");
  // No stations and no hosts: nothing to simulate.
  EXPECT_CONTAINS(error_of(R"({"name": "x", "description": ""})"), "missing \"stations\"");
}

std::string with_nic(const std::string& nic) {
  return std::string(R"({"name": "n", "description": "", "stations": {"a": {}, "b": {}},
      "links": [{"between": ["a", "b"]}],
      "hosts": {"h": {"nic": )") +
         nic + "}}}";
}

TEST(Loader, EveryBuiltInNicProfileLoadsWithASourcePerField) {
  const auto& profiles = builtin_nic_profiles();
  // 8 PCI chips, the 2003 review's 6 boards, 2 more boards, 3 PCIe chips, the 3C980B, the PCI-X
  // era's 82544EI, 82545EM, one 82546EB port and the BCM5703, and two 10 GbE chips.
  ASSERT_EQ(profiles.size(), 26u);
  auto text_of = [&](const std::string& name) {
    for (const auto& [n, t] : profiles)
      if (n == name) return Json::parse(t);
    return Json();
  };
  for (const auto& [name, text] : profiles) {
    const Json doc = Json::parse(text);
    // A board's driver costs cycles: its host needs a clock.
    const std::string nic = R"({"station": "a", "profile": ")" + name + "\"}";
    // (A board profile has no "nic" block of its own: its chip's applies.)
    const bool pcie =
        doc.contains("nic") && doc["nic"].contains("bus") && doc["nic"]["bus"]["value"] == "pcie";
    const std::string scenario =
        with_nic(nic + (doc.contains("chip") ? R"(, "cpu": {"clock_mhz": 3060})" : "") +
                 (pcie ? R"(, "pci": {"mode": "pcie", "lanes": 4})" : ""));
    const auto s = load_scenario_text(scenario, "ok.json");
    if (pcie) {  // the link trains to the NIC's width; its driver's read request size applies
      EXPECT_EQ(s.config.hosts[0].pci.lanes, doc["nic"]["pcie_lanes"]["value"]) << name;
      EXPECT_EQ(s.config.hosts[0].pci.max_read_request_bytes,
                doc["nic"]["pcie_max_read_request_bytes"]["value"])
          << name;
      EXPECT_CONTAINS(error_of(with_nic(nic)),
                      "hosts.h.pci.mode: the NIC is a PCI Express device (hosts.h.nic.bus "
                      "\"pcie\"): give this host \"mode\": \"pcie\"");
    }
    EXPECT_EQ(doc["name"], name);
    for (const char* block : {"nic", "master", "driver"}) {
      if (!doc.contains(block)) continue;
      for (const auto& f : doc[block].items())
        EXPECT_FALSE(f.value()["source"].get<std::string>().empty()) << name << " " << f.key();
    }
    // The profile's values are in the configuration: its own, else those of the chip it names
    // (and of that chip's chip).
    auto value_of = [&](Json d, const char* block, const char* key) {
      while (d.is_object()) {
        if (d.contains(block) && d[block].contains(key)) return d[block][key]["value"];
        if (!d.contains("chip")) break;
        d = text_of(d["chip"]);
      }
      return Json();
    };
    EXPECT_EQ(s.config.hosts[0].nic.rx_fifo_bytes, value_of(doc, "nic", "rx_fifo_bytes")) << name;
    if (const Json width = value_of(doc, "master", "width_bits"); !width.is_null()) {
      EXPECT_EQ(s.config.hosts[0].nic_master.width_bits, width) << name;
    }
    if (const Json mmrbc = value_of(doc, "master", "mmrbc_bytes"); !mmrbc.is_null()) {
      EXPECT_EQ(s.config.hosts[0].nic_master.mmrbc_bytes, mmrbc) << name;
    }
    if (doc.contains("driver")) {
      EXPECT_EQ(s.config.hosts[0].driver.rx_packet_cycles,
                doc["driver"]["rx_packet_cycles"]["value"])
          << name;
      EXPECT_EQ(s.config.hosts[0].driver.version, doc["driver"]["version"]["value"]) << name;
    }
  }
  const auto intel = load_scenario_text(
      with_nic(R"({"station": "a", "profile": "intel-82540em", "rx_fifo_bytes": 40960})"),
      "ok.json");
  EXPECT_EQ(intel.config.hosts[0].nic.rx_fifo_bytes, 40960);  // the scenario overrides
  EXPECT_EQ(intel.config.hosts[0].nic.tx_fifo_bytes, 16384);
  EXPECT_EQ(intel.config.hosts[0].nic.itr_256ns, 488);
  EXPECT_CONTAINS(
      error_of(
          with_nic(R"({"station": "a", "profile": "intel-82540em"}, "pci": {"mode": "pcie"})")),
      "hosts.h.pci.mode: the NIC is a PCI device (hosts.h.nic.bus \"pci\") and this host's bus "
      "is PCI Express");
  EXPECT_CONTAINS(error_of(with_nic(R"({"station": "a", "profile": "intel-82540e"})")),
                  "hosts.h.nic.profile: no NIC profile \"intel-82540e\"; did you mean "
                  "\"intel-82540em\"?");
}

TEST(Loader, AUserNicProfileIsCheckedLikeAScenario) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gbesim-profile-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "mine.json") << R"({"name": "mine", "nic": {
        "rx_fifo_bytes": {"value": 8192, "source": "datasheet p. 3"},
        "tx_fifo_byts": {"value": 8192, "source": "datasheet p. 3"},
        "max_burst_bytes": {"value": 128}}})";
  }
  const std::string scenario = (dir / "s.json").string();
  { std::ofstream(scenario) << with_nic(R"({"station": "a", "profile": "mine.json"})"); }
  std::string e;
  try {
    load_scenario(scenario);
  } catch (const ScenarioError& x) {
    e = x.what();
  }
  EXPECT_CONTAINS(e, (dir / "mine.json").string() +
                         ": nic.tx_fifo_byts: unknown key; did you "
                         "mean \"tx_fifo_bytes\"?");
  EXPECT_CONTAINS(e, "nic.max_burst_bytes: expected {\"value\": ..., \"source\"");
  std::filesystem::remove_all(dir);
}

TEST(Loader, WildcardsSetEveryElementThatHasTheRestOfThePath) {
  Json doc = Json::parse(kValid);
  doc["stations"]["c"] = {{"traffic", Json::array({{{"pattern", "saturated"}, {"to", "b"}}})}};
  doc["links"] = Json::array({Json{{"between", {"a", "b"}}}});
  LoadOptions o;
  o.sets = {"stations.*.traffic[0].frame_bytes=128", "stations.c.traffic[*].to=broadcast"};
  doc["collision_domains"] =
      Json::array({Json{{"stations", {"c", "d"}}, {"delay_ns", {{0, 1}, {1, 0}}}}});
  doc["stations"]["d"] = Json::object();
  doc["mac"] = {{"duplex", "half"}};
  const auto s = load_scenario_text(doc.dump(), "ok.json", o);
  EXPECT_EQ(s.config.find_station("a")->traffic[0].frame_bytes.fixed_bytes, 128);
  EXPECT_EQ(s.config.find_station("c")->traffic[0].frame_bytes.fixed_bytes, 128);
  EXPECT_EQ(s.config.find_station("c")->traffic[0].to, "broadcast");
  EXPECT_TRUE(s.config.find_station("b")->traffic.empty());  // b has no traffic[0]: untouched
  // Missing objects on the way are created below a wildcard too (every station gets a mac);
  // arrays are not (a station without traffic is skipped), and a misspelt key is refused by the
  // schema, not silently made.
  o.sets = {"stations.*.mac.promiscuous=true", "stations.*.traffic[*].vlan_id=7",
            "stations.c.traffic[*].to=broadcast"};
  const auto p = load_scenario_text(doc.dump(), "ok.json", o);
  for (const auto& st : p.config.stations) EXPECT_TRUE(st.mac.promiscuous) << st.name;
  EXPECT_EQ(p.config.find_station("a")->traffic[0].vlan_id, 7);
  EXPECT_TRUE(p.config.find_station("d")->traffic.empty());
  o.sets = {"links[*].nothing_here.x=1"};
  EXPECT_CONTAINS(error_of(doc.dump(), o), "links[0].nothing_here: unknown key");
  o.sets = {"links[*].nothing_here[*].x=1"};
  EXPECT_CONTAINS(error_of(doc.dump(), o), "nothing under links matches the rest of the path");
}

TEST(Loader, VariantAxesSetSeveralPathsUnderOneLabel) {
  Json doc = Json::parse(kValid);
  doc["sweep"] = Json::parse(R"({"mode": [
      {"label": "fd", "set": {"mac.ifg_bits": 96}},
      {"label": "short gap", "set": {"mac.ifg_bits": 64, "links[0].cable_m": 1}}],
    "rate_mbps": [100, 1000]})");
  LoadOptions o;
  o.run = 2;  // variant 1 ("short gap"), rate 100
  const auto s = load_scenario_text(doc.dump(), "v.json", o);
  EXPECT_EQ(s.plan.point_count(), 4u);
  EXPECT_EQ(s.plan.columns(), (std::vector<std::string>{"mode", "rate_mbps"}));
  EXPECT_EQ(s.plan.point_labels(2), (std::vector<std::string>{"short gap", "100"}));
  EXPECT_EQ(s.config.stations[0].mac.ifg_bits, 64);
  EXPECT_EQ(s.config.links[0].params.cable_m, 1.0);
  EXPECT_EQ(s.config.run.rate_mbps, 100);
  doc["sweep"] = Json::parse(R"({"mode": [{"label": "x", "set": {"seed": 3}}]})");
  EXPECT_CONTAINS(error_of(doc.dump()), "\"seed\" cannot be swept");
}

TEST(Loader, CollisionDomainsAreCheckedLikeEverythingElse) {
  Json doc = Json::parse(kValid);
  doc["links"] = Json::array();
  doc["collision_domains"] = Json::parse(R"([{"stations": ["a", "b"], "cable_m": {"a": 10}}])");
  auto e = error_of(doc.dump());
  EXPECT_CONTAINS(e, "collision_domains[0].cable_m: missing the cable length of station \"b\"");
  EXPECT_CONTAINS(e,
                  "stations.a.mac.duplex: \"a\" is on collision_domains[0], a shared medium: "
                  "set \"mac\": {\"duplex\": \"half\"}");
  doc["mac"] = {{"duplex", "half"}};
  doc["collision_domains"] = Json::parse(R"([{"stations": ["a", "b"], "cable_m": {"a": 10, "b": 20},
                                            "delay_ns": [[0, 1], [1, 0]]}])");
  EXPECT_CONTAINS(error_of(doc.dump()), "give either \"cable_m\"");
  doc["collision_domains"] = Json::parse(R"([{"stations": ["a", "b"], "cable_m": {"a": 10, "b": 20},
                                            "repeater_round_trip_bt": 976}])");
  const auto s = load_scenario_text(doc.dump(), "ok.json");
  // Half the path delay value: (10 + 20) m x 5.56 ns/m (Cat 5e, the Cat 5 budget figure) +
  // (976 BT repeater + 864 BT DTE pair, the table's at 1000 Mb/s) x 1 ns / 2 = 166.8 + 920 ns.
  EXPECT_EQ(s.config.media.at("cat5e").ns_per_m, 5.56);
  EXPECT_EQ(s.config.domains[0].dte_pair_round_trip_bt, 864);
  EXPECT_EQ(s.config.domains[0].delay_ps(5.56, 1.0)[0][1], 1'086'800);
  // The old one-way key is refused with the conversion, not read as something else.
  auto old = doc;
  old["collision_domains"][0].erase("repeater_round_trip_bt");
  old["collision_domains"][0]["repeater_delay_ns"] = 488;
  EXPECT_CONTAINS(error_of(old.dump()),
                  "collision_domains[0].repeater_delay_ns: device delays are round trips in bit "
                  "times now");
  EXPECT_EQ(s.config.stations[0].mac.slot_time_bits, 4096);  // resolved for 1000 Mb/s
  doc["rate_mbps"] = 10000;
  EXPECT_CONTAINS(error_of(doc.dump()), "half duplex is not defined at 10000 Mb/s");
  doc["rate_mbps"] = 100;
  doc["mac"]["frame_bursting"] = true;
  EXPECT_CONTAINS(error_of(doc.dump()), "frame bursting is defined at 1000 Mb/s only");
}

TEST(Loader, ADuplexMismatchOnALinkIsAnError) {
  Json doc = Json::parse(kValid);
  doc["stations"]["a"]["mac"] = {{"duplex", "half"}};
  EXPECT_CONTAINS(error_of(doc.dump()),
                  "links[0]: duplex mismatch: a is half duplex, b is full duplex");
  doc["mac"] = {{"duplex", "half"}};
  doc["links"][0]["ber"] = 1e-9;
  EXPECT_CONTAINS(error_of(doc.dump()),
                  "links[0].ber: bit errors are modelled on full-duplex links only");
  doc["links"][0]["ber"] = 0;
  EXPECT_NO_THROW(load_scenario_text(doc.dump(), "ok.json"));
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

std::string with_app(const std::string& app, const std::string& extra = "") {
  return R"({"name": "t", "description": "", "stations": {"a": {}, "b": {}, "c": {}, "d": {}},
            "links": [{"between": ["a", "b"]}, {"between": ["c", "d"]}],
      "hosts": {"h": {"nic": {"station": "a"}, "app": )" +
         app + extra + "}}}";
}

// Host applications: a wrong kind gets a did-you-mean, the peer must exist and be reachable, the
// MTU must fit the stations' frames, a UDP datagram at most 65507 bytes.
TEST(Loader, HostApplicationsAreChecked) {
  EXPECT_NO_THROW(load_scenario_text(with_app(R"({"kind": "bulk", "peer": "b"})"), "ok.json"));
  EXPECT_CONTAINS(
      error_of(with_app(R"({"kind": "bulkk", "peer": "b"})")),
      "hosts.h.app.kind: \"bulkk\" is not one of bulk | requests | ping_pong | udp | file; "
      "did you mean \"bulk\"?");
  EXPECT_CONTAINS(error_of(with_app(R"({"kind": "bulk", "peer": "bb"})")),
                  "hosts.h.app.peer: no station \"bb\"; did you mean \"b\"?");
  EXPECT_CONTAINS(error_of(with_app(R"({"kind": "bulk", "peer": "c"})")),
                  "hosts.h.app.peer: station \"c\" is not reachable from \"a\"");
  EXPECT_CONTAINS(error_of(with_app(R"({"kind": "bulk"})")), "hosts.h.app: missing \"peer\"");
  EXPECT_CONTAINS(
      error_of(with_app(R"({"kind": "bulk", "peer": "b"})", R"(, "transport": {"mtu": 9000})")),
      "hosts.h.transport.mtu: MTU 9000 makes 9018-byte frames, over station a's "
      "max_frame_bytes (1518)");
  EXPECT_CONTAINS(
      error_of(with_app(R"({"kind": "udp", "peer": "b", "request_bytes": 70000})")),
      "hosts.h.app.request_bytes: a UDP datagram carries at most 65507 bytes, got 70000");
  // A host's transport block sets the ends it runs: one that runs none is refused.
  EXPECT_CONTAINS(error_of(R"({"name": "n", "description": "", "stations": {"a": {}, "b": {}},
      "links": [{"between": ["a", "b"]}], "hosts": {"h": {"transport": {"mtu": 1500}}}})"),
                  "hosts.h.transport: transport settings apply to the connection ends a host "
                  "runs: this host has neither a nic nor a light host's \"station\"");
}

// An on-card bridge puts a host's NICs on a PCI-X segment of their own: it needs a nic, a PCI-X
// slot and a clock a PCI-X segment runs at.
TEST(Loader, AnOnCardBridgeIsChecked) {
  auto scenario = [](const std::string& host) {
    return R"({"name": "n", "description": "", "stations": {"a": {}, "b": {}},
      "links": [{"between": ["a", "b"]}], "hosts": {"h": )" +
           host + "}}";
  };
  const std::string nic = R"("nic": {"station": "a", "profile": "intel-82546eb"}, "cpu": {})";
  EXPECT_NO_THROW(load_scenario_text(
      scenario(R"({"pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": 133}, )" + nic +
               R"(, "card_bridge": {"clock_mhz": 120}})"),
      "ok.json"));
  EXPECT_CONTAINS(
      error_of(scenario(R"({"pci": {"mode": "pci"}, )" + nic + R"(, "card_bridge": {}})")),
      "hosts.h.card_bridge: a PCI-X-to-PCI-X bridge sits in a PCI-X slot: set "
      "pci.mode to \"pcix\" (it is \"pci\")");
  EXPECT_CONTAINS(error_of(scenario(R"({"card_bridge": {}})")),
                  "hosts.h.card_bridge: an on-card bridge puts the host's NICs on a segment of "
                  "their own: this host has no nic");
  EXPECT_CONTAINS(
      error_of(scenario(R"({"pci": {"mode": "pcix", "width_bits": 64, "clock_mhz": 133}, )" + nic +
                        R"(, "card_bridge": {"clock_mhz": 125}})")),
      "hosts.h.card_bridge.clock_mhz: a PCI-X segment runs at 66, 100, 120 or 133 MHz, got 125");
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// One plant, two ways of writing it: a collision domain with cable lengths to a central
// repeater, and a topology block of the same cables and repeater. Both take the cable delay from
// the same media row and the device delays from the same table, so every pair's one-way delay is
// the same to the picosecond -- half the path delay value -- at 100 and at 1000 Mb/s.
TEST(Loader, ACollisionDomainAndTheSameTopologyGiveTheSameDelays) {
  const std::vector<std::string> names = {"a", "b", "c", "d"};
  const std::vector<double> metres = {10, 20.5, 37.3, 99.9};
  for (const auto& [rate, repeater, repeater_bt, dte_bt] :
       {std::tuple<int, const char*, int, int>{1000, "gigabit", 976, 864},
        std::tuple<int, const char*, int, int>{100, "class_ii", 92, 100}}) {
    std::string stations, cable_m, nodes, cables;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string n = "\"" + names[i] + "\"";
      const std::string sep = i == 0 ? "" : ", ";
      stations += sep + n + ": {}";
      cable_m += sep + n + ": " + std::to_string(metres[i]);
      nodes += sep + n + ": {\"kind\": \"dte\"}";
      cables += sep + "{\"between\": [" + n +
                ", \"r\"], \"medium\": \"cat5\", \"cable_m\": " + std::to_string(metres[i]) + "}";
    }
    const std::string head = R"({"name": "p", "description": "", "rate_mbps": )" +
                             std::to_string(rate) +
                             R"(, "mac": {"duplex": "half"}, "stations": {)" + stations + "}, ";
    const auto domain = load_scenario_text(
        head + R"("collision_domains": [{"stations": ["a", "b", "c", "d"], "medium": "cat5",
            "cable_m": {)" +
            cable_m + R"(}, "repeater_round_trip_bt": )" + std::to_string(repeater_bt) + "}]}",
        "domain.json");
    const auto plant = load_scenario_text(head + R"("topology": {"nodes": {)" + nodes +
                                              R"(, "r": {"kind": "repeater", "class": ")" +
                                              repeater + R"("}}, "cables": [)" + cables + "]}}",
                                          "plant.json");
    ASSERT_EQ(domain.config.domains.size(), 1u);
    ASSERT_EQ(plant.config.domains.size(), 1u);
    EXPECT_EQ(domain.config.domains[0].dte_pair_round_trip_bt, dte_bt);
    const double ns_per_m = domain.config.media.at("cat5").ns_per_m;
    EXPECT_EQ(ns_per_m, 5.56);
    const double bit_ns = 1000.0 / rate;
    const auto from_domain = domain.config.domains[0].delay_ps(ns_per_m, bit_ns);
    const auto from_plant = plant.config.domains[0].delay_ps(ns_per_m, bit_ns);
    EXPECT_EQ(from_domain, from_plant) << rate << " Mb/s";
    // a - d, by hand: (10 + 99.9) m x 5.56 ns/m + (repeater + DTE pair) BT x bit time / 2.
    const double ns = (10 + 99.9) * 5.56 + (repeater_bt + dte_bt) * bit_ns / 2;
    EXPECT_EQ(from_domain[0][3], std::llround(ns * 1000)) << rate << " Mb/s";
  }
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

const char* kSwitched = R"({"name": "s", "description": "", "duration_ns": 1000,
  "stations": {"a": {}, "b": {}},
  "switches": {"sw": {"ports": [{"count": 2, "rate_mbps": 100}, {"count": 1, "rate_mbps": 1000}]}},
  "links": [{"between": ["a", "sw:1"]}, {"between": ["sw:3", "b"]}]})";

std::string switched_with(const std::string& path, const std::string& value) {
  Json doc = Json::parse(kSwitched);
  set_json_path(doc, path, parse_override_value(value));
  return doc.dump();
}

TEST(Loader, SwitchPortsAreNamedAndEachLinkTakesItsPortsRate) {
  const auto s = load_scenario_text(kSwitched, "ok.json");
  EXPECT_EQ(s.config.find_station("a")->rate_mbps, 100);
  EXPECT_EQ(s.config.find_station("b")->rate_mbps, 1000);
  EXPECT_EQ(s.config.reachable_from("a"), std::vector<std::string>{"b"});
  EXPECT_CONTAINS(error_of(switched_with("links[1].between", R"(["sw:4", "b"])")),
                  "links[1].between[0]: expected \"sw:<n>\" with n from 1 to 3 (its ports), got "
                  "\"sw:4\"");
  EXPECT_CONTAINS(error_of(switched_with("links[1].between", R"(["sx:3", "b"])")),
                  "links[1].between[0]: no switch \"sx\"; did you mean \"sw\"?");
  EXPECT_CONTAINS(error_of(switched_with("links[0].rate_mbps", "1000")),
                  "links[0].rate_mbps: 1000 Mb/s is faster than switch port sw:1 (100 Mb/s)");
  EXPECT_CONTAINS(error_of(switched_with("links[1].between", R"(["sw:1", "b"])")),
                  "links[1].between[0]: switch port sw:1 is already on another link");
  EXPECT_CONTAINS(error_of(switched_with("switches.sw.ports[0].speed", "100")),
                  "switches.sw.ports[0].speed: unknown key \"speed\"");
  // A refused "ports" block is the one error: the links naming its ports are not blamed too.
  const std::string refused = error_of(switched_with("switches.sw.ports[0].count", "-3"));
  EXPECT_CONTAINS(refused, "switches.sw.ports[0].count: expected an integer in 1 .. 4096 ports");
  EXPECT_EQ(refused.find("between"), std::string::npos) << refused;
  // A link that sets a lower rate than its port's: the port negotiates down.
  const auto down = load_scenario_text(switched_with("links[1].rate_mbps", "100"), "ok.json");
  EXPECT_EQ(down.config.find_station("b")->rate_mbps, 100);
}

// Switch profiles: every built-in one loads, each field with a source, its ports and parameters
// in the configuration; keys beside the profile override it, "ports" beside it replaces its ports.
TEST(Loader, EveryBuiltInSwitchProfileLoadsWithASourcePerField) {
  const auto& profiles = builtin_switch_profiles();
  ASSERT_EQ(profiles.size(), 2u);  // the AT-8326GB and the Catalyst 3560E-24TD
  for (const auto& [name, text] : profiles) {
    const Json doc = Json::parse(text);
    EXPECT_EQ(doc["name"], name);
    for (const auto& f : doc["switch"].items())
      EXPECT_FALSE(f.value()["source"].get<std::string>().empty()) << name << " " << f.key();
    const auto s = load_scenario_text(
        switched_with("switches.sw", R"({"profile": ")" + name + "\"}"), "ok.json");
    const SwitchConfig& sw = s.config.switches[0];
    const Json& groups = doc["switch"]["ports"]["value"];
    ASSERT_EQ(sw.groups.size(), groups.size()) << name;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      EXPECT_EQ(sw.groups[i].count, groups[i]["count"]) << name;
      EXPECT_EQ(sw.groups[i].rate_mbps, groups[i]["rate_mbps"]) << name;
    }
    EXPECT_EQ(sw.params.fabric_mbps, doc["switch"]["fabric_mbps"]["value"]) << name;
    EXPECT_EQ(sw.params.address_table_entries, doc["switch"]["address_table_entries"]["value"])
        << name;
    EXPECT_EQ(sw.params.forwarding_latency_ns, doc["switch"]["forwarding_latency_ns"]["value"])
        << name;
  }
  // The AT-8326GB's ports 1-24 are Fast Ethernet, 25-26 gigabit: a at 100, b (on port 25) at 1000.
  Json doc = Json::parse(kSwitched);
  doc["switches"]["sw"] = {{"profile", "allied-telesyn-at8326gb"}, {"forwarding_latency_ns", 0}};
  doc["links"][1]["between"] = {"sw:25", "b"};
  const auto at = load_scenario_text(doc.dump(), "ok.json");
  EXPECT_EQ(at.config.find_station("a")->rate_mbps, 100);
  EXPECT_EQ(at.config.find_station("b")->rate_mbps, 1000);
  EXPECT_EQ(at.config.switches[0].params.forwarding_latency_ns, 0);  // the scenario overrides
  EXPECT_EQ(at.config.switches[0].params.fabric_mbps, 6400);         // the profile's
  EXPECT_CONTAINS(error_of(switched_with("switches.sw", R"({"profile": "at8326gb"})")),
                  "switches.sw.profile: no switch profile \"at8326gb\"; did you mean "
                  "\"allied-telesyn-at8326gb\"?");
  // "ports" beside the profile replaces the profile's: port 25 no longer exists.
  doc["switches"]["sw"]["ports"] = {{{"count", 3}, {"rate_mbps", 100}}};
  EXPECT_CONTAINS(error_of(doc.dump()),
                  "links[1].between[0]: expected \"sw:<n>\" with n from 1 to 3 (its ports)");
}

// CPU profiles: clock and memory bandwidth with sources; the copy cost per byte follows from the
// bandwidth (2 bytes of traffic per byte copied at copy_efficiency 0.81), unless given.
TEST(Loader, EveryBuiltInCpuProfileGivesAClockAndACopyCost) {
  const auto& profiles = builtin_cpu_profiles();
  ASSERT_EQ(profiles.size(), 13u);
  for (const auto& [name, text] : profiles) {
    const Json doc = Json::parse(text);
    EXPECT_EQ(doc["name"], name);
    for (const auto& f : doc["cpu"].items())
      EXPECT_FALSE(f.value()["source"].get<std::string>().empty()) << name << " " << f.key();
    const auto s = load_scenario_text(
        with_nic(R"({"station": "a"}, "cpu": {"profile": ")" + name + "\"}"), "ok.json");
    const CpuParams& cpu = s.config.hosts[0].cpu;
    EXPECT_EQ(cpu.clock_mhz, doc["cpu"]["clock_mhz"]["value"]) << name;
    EXPECT_EQ(cpu.memory_mbps, doc["cpu"]["memory_mbps"]["value"]) << name;
    EXPECT_DOUBLE_EQ(cpu.copy_ns_per_byte(),
                     2000.0 / (doc["cpu"]["memory_mbps"]["value"].get<double>() * 0.81))
        << name;
  }
  auto cpu_of = [&](const std::string& block) {
    return load_scenario_text(with_nic(R"({"station": "a"}, "cpu": )" + block), "ok.json")
        .config.hosts[0]
        .cpu;
  };
  // By hand: a Pentium III 500 on its 800 MB/s bus copies at 0.81 x 800 / 2 = 324 MB/s, 3.086
  // ns per byte; the Pentium 4 3.06 on 4,266 MB/s at 0.5788, the measured 0.58 within 0.3 %.
  EXPECT_NEAR(cpu_of(R"({"profile": "intel-pentium3-500"})").copy_ns_per_byte(), 3.0864, 1e-4);
  EXPECT_NEAR(cpu_of(R"({"profile": "intel-pentium4-3060"})").copy_ns_per_byte(), 0.5788, 1e-4);
  // A measured per_byte_ns beside the profile wins; the clock stays the profile's.
  const CpuParams given = cpu_of(R"({"profile": "intel-pentium4-3060", "per_byte_ns": 0.58})");
  EXPECT_EQ(given.copy_ns_per_byte(), 0.58);
  EXPECT_EQ(given.clock_mhz, 3060);
  EXPECT_EQ(cpu_of("{}").copy_ns_per_byte(), 0);  // neither given: no copy cost, as before
  EXPECT_CONTAINS(error_of(with_nic(R"({"station": "a"}, "cpu": {"profile": "pentium3-500"})")),
                  "hosts.h.cpu.profile: no CPU profile \"pentium3-500\"; did you mean "
                  "\"intel-pentium3-500\"?");
}

}  // namespace
}  // namespace gbesim

namespace gbesim {
namespace {

// Four stations on a switch; host h's NIC serves a.
std::string with_hosts(const std::string& hosts, const std::string& b = "{}") {
  return R"({"name": "t", "description": "", "stations": {"a": {}, "b": )" + b +
         R"(, "c": {}, "a2": {}},
      "switches": {"sw": {"ports": [{"count": 4}]}},
      "links": [{"between": ["a", "sw:1"]}, {"between": ["b", "sw:2"]}, {"between": ["c", "sw:3"]},
                {"between": ["a2", "sw:4"]}],
      "hosts": )" +
         hosts + "}";
}

// Several applications, teams and light hosts: each mistake is named where it is made.
TEST(Loader, TeamsAppsAndLightHostsAreChecked) {
  EXPECT_NO_THROW(
      load_scenario_text(with_hosts(R"({"h": {"nic": {"station": "a"}, "team": {"stations": ["a2"]},
                          "apps": [{"kind": "bulk", "peer": "b"}, {"kind": "file", "peer": "c"}]},
                    "cl": {"station": "b", "app": {"kind": "bulk", "peer": "a2"}}})"),
                         "ok.json"));
  EXPECT_CONTAINS(error_of(with_hosts(R"({"h": {"team": {"stations": ["a2"]}}})")),
                  "hosts.h.team: a team is more NICs like the host's nic: this host has no nic");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"h": {"nic": {"station": "a"}, "team": {"stations": ["a"]}}})")),
      "hosts.h.team.stations[0]: station \"a\" already has a NIC");
  EXPECT_CONTAINS(error_of(with_hosts(
                      R"({"h": {"nic": {"station": "a"}, "team": {"mode": "round-robin",
                                                               "stations": ["a2"]}}})")),
                  "hosts.h.team.mode: \"round-robin\" is not one of per_client | round_robin; did "
                  "you mean \"round_robin\"?");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"h": {"nic": {"station": "a"}, "team": {"mode": "round_robin"}}})")),
      "hosts.h.team: missing \"stations\"");
  EXPECT_CONTAINS(error_of(with_hosts(
                      R"({"h": {"nic": {"station": "a"}, "team": {"mode": "round_robin",
                                 "balances": "ip_only", "stations": ["a2"]}}})")),
                  "hosts.h.team.balances: ip_only balances per client; a round_robin team "
                  "spreads every frame it sends");
  EXPECT_CONTAINS(error_of(with_hosts(
                      R"({"h": {"nic": {"station": "a"}, "team": {"mode": "round_robin",
                                 "balances": "receive_ip_only", "stations": ["a2"]}}})")),
                  "hosts.h.team.balances: receive_ip_only balances per client; a round_robin team "
                  "spreads every frame it sends");
  EXPECT_CONTAINS(error_of(with_hosts(R"({"h": {"nic": {"station": "a"}, "apps": []}})")),
                  "hosts.h.apps: expected a non-empty array of applications, got []");
  EXPECT_CONTAINS(
      error_of(with_hosts(
          R"({"h": {"nic": {"station": "a"}, "apps": [{"kind": "bulk", "peer": "a"}]}})")),
      "hosts.h.apps[0].peer: station \"a\" is this host's own; the peer is another station");
  EXPECT_CONTAINS(error_of(with_hosts(R"({"cl": {"station": "b", "pci": {"width_bits": 64}}})")),
                  "hosts.cl.pci: a light host has no bus: drop \"pci\"");
  EXPECT_CONTAINS(error_of(with_hosts(R"({"cl": {"station": "b"}, "cl2": {"station": "b"}})")),
                  "hosts.cl2.station: station \"b\" already has a host (a NIC or a light host)");
  EXPECT_CONTAINS(error_of(with_hosts(R"({"cl": {"app": {"kind": "bulk", "peer": "c"}}})")),
                  "hosts.cl.app: an application runs on a host with a nic or a light host's "
                  "\"station\": this host has neither");
  EXPECT_CONTAINS(error_of(with_hosts(R"({"cl": {"station": "bb"}})")),
                  "hosts.cl.station: no station \"bb\"; did you mean \"b\"?");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"cl": {"station": "b", "cpu": {"logical_cpus": 2}}})")),
      "hosts.cl.cpu.logical_cpus: a light host has one CPU; two logical CPUs need a host with a "
      "nic");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"h": {"nic": {"station": "a"}, "cpu": {"logical_cpus": 3}}})")),
      "hosts.h.cpu.logical_cpus: expected an integer in 1 .. 2, got 3");
  const std::string cabled = R"({"name": "t", "description": "",
      "stations": {"a": {}, "a2": {}, "b": {}, "c": {}, "d": {}},
      "links": [{"between": ["a", "b"]}, {"between": ["a2", "c"]}],
      "hosts": )";
  EXPECT_CONTAINS(
      error_of(cabled + R"({"h": {"nic": {"station": "a"}, "team": {"stations": ["a2"]},
          "apps": [{"kind": "bulk", "peer": "d"}]}}})"),
      "hosts.h.apps[0].peer: station \"d\" is not reachable from \"a\" or the team's other "
      "stations");
  EXPECT_CONTAINS(
      error_of(cabled + R"({"h": {"nic": {"station": "a"},
          "team": {"mode": "round_robin", "stations": ["a2"]},
          "apps": [{"kind": "bulk", "peer": "c"}]}}})"),
      "hosts.h.apps[0].peer: a round_robin team sends every frame from the next NIC, so every NIC "
      "must reach station \"c\"");
  EXPECT_CONTAINS(
      error_of(cabled + R"({"h": {"nic": {"station": "a"},
          "team": {"balances": "ip_only", "stations": ["a2"]},
          "apps": [{"kind": "bulk", "peer": "c", "network": "ipx"}]}}})"),
      "hosts.h.apps[0].peer: an IPX application's peer sends to the team's first NIC (balances "
      "ip_only), and \"a\" does not reach station \"c\"");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"h": {"nic": {"station": "a"},
          "app": {"kind": "bulk", "peer": "b", "report_ring_slots": 700}}})")),
      "hosts.h.app.report_ring_slots: expected 0: the report ring is iperf's UDP reporter (kind "
      "\"udp\"), got 700");
  EXPECT_CONTAINS(
      error_of(with_hosts(R"({"h": {"nic": {"station": "a"},
          "app": {"kind": "udp", "peer": "b", "report_ring_slots": 1}}})")),
      "hosts.h.app.report_ring_slots: expected 0 or at least 2 (a ring keeps one slot empty), "
      "got 1");
}

}  // namespace
}  // namespace gbesim
