#include "sim/input/json_path.hpp"

#include <gtest/gtest.h>

#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

TEST(JsonPath, ParsesKeysAndIndices) {
  const auto t = parse_json_path("stations.a.traffic[0].frame_bytes");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(std::get<std::string>(t[0]), "stations");
  EXPECT_EQ(std::get<std::size_t>(t[3]), 0u);
  EXPECT_EQ(format_json_path(t), "stations.a.traffic[0].frame_bytes");
  EXPECT_EQ(format_json_path(parse_json_path("links[1].cable_m")), "links[1].cable_m");
}

TEST(JsonPath, RejectsMalformedPaths) {
  EXPECT_THROW(parse_json_path(""), std::invalid_argument);
  EXPECT_THROW(parse_json_path("a..b"), std::invalid_argument);
  EXPECT_THROW(parse_json_path("a[x]"), std::invalid_argument);
  EXPECT_THROW(parse_json_path("a[1"), std::invalid_argument);
  EXPECT_THROW(parse_json_path("a."), std::invalid_argument);
}

TEST(JsonPath, SetsValuesCreatingMissingObjectsButNotArrayElements) {
  Json doc = Json::parse(R"({"links": [{"cable_m": 1}]})");
  set_json_path(doc, "links[0].cable_m", 100);
  set_json_path(doc, "mac.ifg_bits", 64);
  EXPECT_EQ(doc["links"][0]["cable_m"], 100);
  EXPECT_EQ(doc["mac"]["ifg_bits"], 64);
  EXPECT_THROW(set_json_path(doc, "links[3].cable_m", 1), std::invalid_argument);
  EXPECT_THROW(set_json_path(doc, "lnks[0].cable_m", 1), std::invalid_argument);
  EXPECT_THROW(set_json_path(doc, "mac[0]", 1), std::invalid_argument);
}

TEST(JsonPath, OverrideValuesAreJsonWhenTheyParse) {
  EXPECT_EQ(parse_override_value("100"), Json(100));
  EXPECT_EQ(parse_override_value("true"), Json(true));
  EXPECT_EQ(parse_override_value("[64, 1518]"), Json::parse("[64,1518]"));
  EXPECT_EQ(parse_override_value("cat5e"), Json("cat5e"));
}

// What a sweep point that sets `outer` replaces: the path itself and everything below it.
TEST(JsonPath, APathIsWithinItselfAndTheObjectsAboveIt) {
  EXPECT_TRUE(path_within("hosts.h.pci", "hosts.h.pci"));
  EXPECT_TRUE(path_within("hosts.h.pci.width_bits", "hosts.h.pci"));
  EXPECT_TRUE(path_within("links[0].cable_m", "links[0]"));
  EXPECT_TRUE(path_within("links[0].cable_m", "links"));
  EXPECT_FALSE(path_within("hosts.h.pci", "hosts.h.pci.width_bits"));  // above, not within
  EXPECT_FALSE(path_within("hosts.h.pcie", "hosts.h.pci"));            // a longer key
  EXPECT_FALSE(path_within("links[1].cable_m", "links[0]"));
  EXPECT_FALSE(path_within("links[0].cable_m", "links.0"));  // a key "0", not an element
  // Wildcards on either side match any key or index there.
  EXPECT_TRUE(path_within("stations.*.mac.duplex", "stations.a.mac"));
  EXPECT_TRUE(path_within("stations.a.mac.duplex", "stations.*.mac"));
  EXPECT_TRUE(path_within("links[3].ber", "links[*]"));
  EXPECT_FALSE(path_within("stations.*.mac", "stations.a.traffic"));
  EXPECT_FALSE(path_within("links[", "links"));  // does not parse
}

TEST(DidYouMean, SuggestsCloseKeysOnly) {
  const std::vector<std::string> keys = {"cable_m", "medium", "ber"};
  EXPECT_EQ(did_you_mean("cable_mm", keys), "cable_m");
  EXPECT_EQ(did_you_mean("cable", keys), "cable_m");
  EXPECT_EQ(did_you_mean("meduim", keys), "medium");
  EXPECT_FALSE(did_you_mean("wavelength", keys));
  // A profile named without its vendor: the one candidate ending in "-" + the word.
  const std::vector<std::string> cpus = {"intel-pentium3-500", "intel-pentium3-800",
                                         "amd-opteron-242"};
  EXPECT_EQ(did_you_mean("pentium3-500", cpus), "intel-pentium3-500");
  EXPECT_EQ(did_you_mean("opteron-242", cpus), "amd-opteron-242");
  EXPECT_FALSE(did_you_mean("500", cpus));     // too short to be a name
  EXPECT_FALSE(did_you_mean("m3-500", cpus));  // not a whole part
  EXPECT_EQ(edit_distance("ifg_bit", "ifg_bits"), 1u);
  EXPECT_EQ(edit_distance("poison", "poisson"), 1u);
}

}  // namespace
}  // namespace gbesim
