// Input that once crashed the loader, hung it, or flooded the terminal: each is now a clear error
// (file, JSON path, what is wrong), in bounded output.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/input/json_input.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/input/topology_loader.hpp"
#include "sim/input/topology_schema.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/file_names.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {
namespace {

const char* kValid = R"({"name": "t", "description": "",
  "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
               "b": {}},
  "links": [{"between": ["a", "b"], "cable_m": 10}]})";

std::string error_of(const std::string& text, const LoadOptions& options = {}) {
  try {
    load_scenario_text(text, "bad.json", options);
    return "";
  } catch (const ScenarioError& e) {
    return e.what();
  }
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

std::string nested(std::size_t levels) {
  return R"({"name": "t", "description": "", "x": )" + std::string(levels, '[') +
         std::string(levels, ']') + "}";
}

TEST(InputLimits, JsonNestedDeeperThanTheLimitIsAnErrorNotAStackOverflow) {
  // 100,000 levels overflowed the stack of the readers that recurse per level.
  const std::string e = error_of(nested(100'000));
  EXPECT_CONTAINS(e, "error: bad.json: x[0][0][0][0]");
  EXPECT_CONTAINS(e, ": nested more than 64 levels deep (line 1, column ");
  // At the limit it still parses (and then fails only as an unknown key).
  EXPECT_CONTAINS(error_of(nested(kMaxJsonDepth - 1)), "bad.json: x: unknown key");
}

TEST(InputLimits, DeepSetPathsAndValuesAreErrors) {
  LoadOptions deep_path;
  std::string path = "a";
  for (int i = 0; i < 20'000; ++i) path += ".a";
  deep_path.sets = {path + "=1"};
  const std::string e = error_of(kValid, deep_path);
  EXPECT_CONTAINS(e, "more than 64 levels; no scenario is that deep");
  EXPECT_LT(e.size(), 2000u) << "a 40,000-character path is shortened in the message";

  LoadOptions deep_value;
  deep_value.sets = {"description=" + std::string(20'000, '[')};
  EXPECT_CONTAINS(error_of(kValid, deep_value), "--set description: the value at [0]");
  EXPECT_CONTAINS(error_of(kValid, deep_value),
                  "is not usable JSON: nested more than 64 levels deep");
  // JSON with a duplicate key is a mistake, not a string.
  LoadOptions duplicate;
  duplicate.sets = {R"(stations.a.mac={"ifg_bits": 96, "ifg_bits": 64})"};
  EXPECT_CONTAINS(error_of(kValid, duplicate),
                  "--set stations.a.mac: the value at ifg_bits is not usable JSON: duplicate key");
}

TEST(InputLimits, ManyUnknownKeysGiveTheFirstErrorsAndACount) {
  std::string text = kValid;
  text.pop_back();  // the closing brace
  for (int i = 0; i < 100'000; ++i) text += ",\"junk" + std::to_string(i) + "\": 1";
  text += "}";
  const std::string e = error_of(text);
  EXPECT_CONTAINS(e, "error: bad.json: junk0: unknown key");
  EXPECT_CONTAINS(e, "error: bad.json: junk49: unknown key");
  EXPECT_EQ(e.find("junk50:"), std::string::npos);
  EXPECT_CONTAINS(e, "error: bad.json: 99950 more errors not shown (the first 50 are above)");
  EXPECT_LT(e.size(), 20'000u);
}

TEST(InputLimits, HugeKeysAndManyDuplicatesStayCheap) {
  // A 4 MB key gets no did-you-mean (its edit distance to every known key was a 4-million-row
  // table each), and 100,000 duplicate keys give 50 errors and a count (each was placed by a
  // rescan of the text from its start).
  const std::string huge =
      R"({"name": "t", "description": "", ")" + std::string(4 << 20, 'a') + R"(": 1})";
  const std::string e = error_of(huge);
  EXPECT_CONTAINS(e, ": unknown key (known here: name, description");
  EXPECT_LT(e.size(), 4000u);
  std::string dups = R"({"name": "t", "description": "", "x": {"a": 0)";
  for (int i = 0; i < 100'000; ++i) dups += ", \"a\": 0";
  dups += "}}";
  const std::string d = error_of(dups);
  EXPECT_CONTAINS(d, "error: bad.json: x.a: duplicate key \"a\" (line 1, column 48)");
  EXPECT_CONTAINS(d, "error: bad.json: 99950 more errors not shown (the first 50 are above)");
}

TEST(InputLimits, DuplicateKeysAndOverflowingNumbersNameTheirPathAndLine) {
  const std::string dup = error_of(R"({"name": "t", "description": "",
    "stations": {"a": {}, "a": {}}})");
  EXPECT_CONTAINS(dup, "bad.json: stations.a: duplicate key \"a\" (line 2, column 27)");
  const std::string big = error_of(R"({"name": "t", "description": "",
    "links": [{"between": ["a", "b"], "cable_m": -1e999}]})");
  EXPECT_CONTAINS(big,
                  "bad.json: links[0].cable_m: a number does not fit in a 64-bit float: -1e999 "
                  "(line 2, column 50)");
}

TEST(InputLimits, ControlCharactersAndBrokenUtf8ArePrintedEscaped) {
  const std::string e =
      error_of(R"({"name": "t", "description": "", "a\u0000b\u001b[2J\u0085": 1})");
  EXPECT_CONTAINS(e, "error: bad.json: a\\x00b\\x1b[2J\\u0085: unknown key");
  EXPECT_EQ(e.find('\0'), std::string::npos);
  EXPECT_EQ(e.find('\x1b'), std::string::npos);
  EXPECT_EQ(printable("caf\xc3\xa9 \xff\xfe x\xe2\x82"), "caf\xc3\xa9 \\xff\\xfe x\\xe2\\x82");
  // A --set value that is not UTF-8 is judged as text, never thrown at as a library error.
  LoadOptions o;
  o.sets = {"stations.a.traffic[0].pattern=\xff"};
  EXPECT_CONTAINS(error_of(kValid, o), "stations.a.traffic[0].pattern: \"\\xff\" is not one of");
}

TEST(InputLimits, OnlyRegularFilesOfBoundedSizeAreRead) {
  auto error_reading = [](const std::string& file) -> std::string {
    try {
      read_json_file(file);
      return "";
    } catch (const ScenarioError& e) {
      return e.what();
    }
  };
  EXPECT_CONTAINS(error_reading("/dev/zero"),
                  "error: /dev/zero: is not a regular file (a pipe, socket or device)");
  const auto dir =
      std::filesystem::temp_directory_path() / ("gbesim-limits-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto fifo = (dir / "fifo.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_CONTAINS(error_reading(fifo), "is not a regular file");  // and does not block
  const auto big = (dir / "big.json").string();
  {
    const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(kMaxInputBytes) + 1), 0);  // sparse
    ::close(fd);
  }
  EXPECT_CONTAINS(error_reading(big), "input files are limited to 64 MiB");
  std::filesystem::remove_all(dir);
}

TEST(InputLimits, NamesThatCannotNameAResultsDirectoryAreErrors) {
  for (const char* name : {"-rf", "--help", ".hidden", "..", "CON", "con.txt", "Com1", "LPT9.log",
                           "a/b", "a b", "", "abc."}) {
    std::string text = kValid;
    text.replace(text.find("\"t\""), 3, "\"" + std::string(name) + "\"");
    EXPECT_CONTAINS(error_of(text), "bad.json: name: ");
  }
  for (const char* name : {"default", "a.b-c_1", "COM10", "console", "9lives"})
    EXPECT_EQ(results_name_problem(name), std::nullopt) << name;
  try {
    load_topology_text(R"({"name": "..", "nodes": {}, "cables": []})", "t.json");
    ADD_FAILURE() << "\"..\" accepted as a topology name";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "t.json: name: \"..\" cannot name a results directory");
  }
}

TEST(InputLimits, AScenarioTakesABoundedNumberOfStations) {
  std::string stations;
  for (int i = 0; i < 10'001; ++i)
    stations += std::string(i ? "," : "") + "\"s" + std::to_string(i) + "\": {}";
  const std::string text = R"({"name": "t", "description": "", "stations": {)" + stations + "}}";
  EXPECT_CONTAINS(error_of(text),
                  "bad.json: stations: has 10001 stations and 0 hosts; a scenario takes at most "
                  "10000 together");
}

TEST(InputLimits, AStationTakesABoundedNumberOfTrafficSources) {
  std::string sources;
  for (int i = 0; i < 257; ++i)
    sources +=
        std::string(i ? "," : "") + R"({"pattern": "saturated", "to": "b", "frame_bytes": 64})";
  std::string text = kValid;
  const auto at = text.find("[{\"pattern\"");
  text.replace(at, text.find("]", at) - at + 1, "[" + sources + "]");
  EXPECT_CONTAINS(error_of(text),
                  "stations.a.traffic: has 257 traffic sources; a station takes at most 256");
}

TEST(InputLimits, AStationNameThatCannotNameItsCaptureFileIsAnErrorWithItsPath) {
  // A station's name names its pcap (<station>.pcap): a device name, or a name longer than a
  // file system takes, is refused with its path when the scenario loads, not when a run writes
  // its capture at the end.
  auto with_station = [](const std::string& name) {
    std::string text = kValid;
    for (auto at = text.find("\"a\""); at != std::string::npos; at = text.find("\"a\"", at + 1))
      text.replace(at, 3, "\"" + name + "\"");
    return text;
  };
  EXPECT_CONTAINS(error_of(with_station("CON")),
                  "error: bad.json: stations.CON: \"CON\" names the station's capture file "
                  "CON.pcap, and is a device name on Windows; choose another name");
  for (const char* name : {"nul", "Com1", "LPT9", "aux"})
    EXPECT_CONTAINS(error_of(with_station(name)), std::string("stations.") + name + ": ");
  const std::string longest(kMaxFileNameChars, 'x');
  EXPECT_EQ(error_of(with_station(longest)), "");
  EXPECT_CONTAINS(error_of(with_station(longest + "x")),
                  "error: bad.json: stations." + longest +
                      "x: a station's name names its capture file (<station>.pcap): at most 100 "
                      "characters, got 101");
  EXPECT_EQ(error_of(with_station("COM10")), "");
  EXPECT_EQ(error_of(with_station("console")), "");
}

TEST(InputLimits, AMissingProfileFileIsAnErrorOfTheKeyThatNamedIt) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gbesim-profile-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "mynic.json") << "{}\n"; }
  std::string text = kValid;
  text.pop_back();
  const std::string scenario = (dir / "s.json").string();
  auto error_with = [&](const std::string& profile) {
    try {
      load_scenario_text(
          text + R"(, "hosts": {"h": {"nic": {"station": "a", "profile": ")" + profile + "\"}}}}",
          scenario);
      return std::string();
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
  };
  // The error names the scenario and the key, not only the file that was looked for.
  EXPECT_CONTAINS(error_with("myni.json"),
                  "error: " + scenario + ": hosts.h.nic.profile: no such NIC profile file " +
                      "\"myni.json\" (resolved as " + (dir / "myni.json").string() +
                      "); did you mean \"mynic.json\"?");
  EXPECT_CONTAINS(error_with("../elsewhere/x.json"),
                  "error: " + scenario + ": hosts.h.nic.profile: no such NIC profile file " +
                      "\"../elsewhere/x.json\" (resolved as " +
                      (dir.parent_path() / "elsewhere/x.json").string() + ")");
  std::filesystem::create_directories(dir / "d.json");
  EXPECT_CONTAINS(error_with("d.json"), "error: " + scenario +
                                            ": hosts.h.nic.profile: NIC profile file \"d.json\" " +
                                            "(resolved as " + (dir / "d.json").string() +
                                            "): is a directory; expected a JSON file");
  EXPECT_EQ(error_with("mynic.json"), "");
  std::filesystem::remove_all(dir);
}

// A topology block of `dtes` stations and `repeaters` repeaters (no cables: only the size is
// judged here).
std::string topology_nodes(int dtes, int repeaters) {
  std::string nodes;
  for (int i = 0; i < dtes; ++i)
    nodes +=
        std::string(nodes.empty() ? "" : ",") + "\"s" + std::to_string(i) + R"(": {"kind": "dte"})";
  for (int i = 0; i < repeaters; ++i)
    nodes += std::string(nodes.empty() ? "" : ",") + "\"r" + std::to_string(i) +
             R"(": {"kind": "repeater", "class": "class_ii"})";
  return "{" + nodes + "}";
}

TEST(InputLimits, AScenariosTopologyTakesAsManyNodesAndStationsAsARunSimulates) {
  auto scenario = [](int dtes, int repeaters) {
    std::string text = kValid;
    text.pop_back();
    return text + R"(, "topology": {"nodes": )" + topology_nodes(dtes, repeaters) +
           R"(, "cables": []}})";
  };
  const std::string refused = "a scenario's topology takes at most";
  // At the limits: other errors (the nodes have no cables), none about the size.
  const std::string at_limits = error_of(scenario(1024, 3072));
  EXPECT_NE(at_limits, "");
  EXPECT_EQ(at_limits.find(refused), std::string::npos) << at_limits.substr(0, 400);
  EXPECT_CONTAINS(error_of(scenario(1024, 3073)),
                  "error: bad.json: topology.nodes: has 4097 nodes; a scenario's topology takes "
                  "at most 4096 (a run simulates every station and keeps the delay of every "
                  "pair; gbesim topology checks plants of up to 200000 nodes)");
  EXPECT_CONTAINS(error_of(scenario(1025, 0)),
                  "error: bad.json: topology.nodes: has 1025 stations (kind dte); a scenario's "
                  "topology takes at most 1024");
}

TEST(InputLimits, ATopologyFileTakesABoundedNumberOfNodes) {
  auto size_errors = [](int repeaters) {
    Diagnostics d("t.json");
    TopologyDocument t;
    // Parsed as gbesim reads files (the JSON library's own parse is quadratic in keys).
    const JsonParse doc = parse_json_text(R"({"name": "t", "nodes": )" +
                                          topology_nodes(0, repeaters) + R"(, "cables": []})");
    read_topology_document(doc.value, "", t, d);
    try {
      d.throw_if_any();
      return std::string();
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
  };
  EXPECT_EQ(size_errors(static_cast<int>(kMaxPlantNodes)), "");
  EXPECT_EQ(size_errors(static_cast<int>(kMaxPlantNodes) + 1),
            "error: t.json: nodes: has 200001 nodes; a plant takes at most 200000 (its analysis "
            "takes seconds and about 0.5 GB at that size)");
}

}  // namespace
}  // namespace gbesim
