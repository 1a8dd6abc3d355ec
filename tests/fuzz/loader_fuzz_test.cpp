// Deterministic mutation fuzzing of the scenario and topology loaders. Every shipped scenario and
// topology is mutated (tests/fuzz/mutator) and loaded in this process: each mutant must load, or
// be refused with a ScenarioError (exit code 2 in the CLI). Any other exception fails the test;
// a crash or a sanitizer report fails the process. Failing mutants are written beside the test's
// temporary directory for reproduction. A second test runs mutants through the gbesim binary for
// a short simulation: exit 0 with a complete run.json, or exit 2 with none.
//
// GBESIM_FUZZ_MUTANTS sets the number of mutants per file (default 3000); the count tried is
// printed, for docs/reliability.md.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/input/scenario_loader.hpp"
#include "sim/input/topology_loader.hpp"
#include "sim/support/diagnostics.hpp"
#include "tests/fuzz/mutator.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using namespace gbesim::testing;

std::size_t mutants_per_file() {
  const char* n = std::getenv("GBESIM_FUZZ_MUTANTS");
  return n != nullptr ? static_cast<std::size_t>(std::stoul(n)) : 3000;
}

std::vector<std::string> shipped(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() / folder))
    if (e.path().extension() == ".json") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t seed_of(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: the same seed on every machine
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

struct Tally {
  std::size_t tried = 0, loaded = 0, refused = 0;
  std::vector<std::string> failures;
};

template <class Load>
Tally fuzz(const std::string& name, const std::string& text, Load load) {
  fuzz::Mutator mutator(seed_of(name));
  Tally t;
  static const auto keep = fresh_directory("fuzz-failures");  // once: failures of every file
  for (std::size_t i = 0; i < mutants_per_file(); ++i) {
    const std::string mutant = mutator.mutate(text);
    ++t.tried;
    try {
      load(mutant, i);
      ++t.loaded;
    } catch (const ScenarioError& e) {
      ++t.refused;
      EXPECT_NE(std::string(e.what()).find("error: mutant.json"), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      const auto file = keep / (name + "-" + std::to_string(i) + ".json");
      std::ofstream(file, std::ios::binary) << mutant;
      t.failures.push_back(file.string() + ": " + e.what());
    }
  }
  return t;
}

void report(const std::string& name, const Tally& t) {
  std::printf("fuzz %s: %zu mutants tried, %zu loaded, %zu refused with exit code 2, %zu other\n",
              name.c_str(), t.tried, t.loaded, t.refused, t.failures.size());
  for (const auto& f : t.failures) ADD_FAILURE() << f;
}

class ScenarioFuzz : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioFuzz, EveryMutantLoadsOrIsRefusedWithAScenarioError) {
  const std::string name = GetParam();
  const std::string text = read_text(source_dir() / "scenarios" / name);
  const Tally t = fuzz(name, text, [](const std::string& mutant, std::size_t i) {
    const LoadedScenario s = load_scenario_text(mutant, "mutant.json");
    // And one of its sweep's runs, if it has a sweep.
    if (s.plan.run_count() > 1) {
      LoadOptions o;
      o.run = i % s.plan.run_count();
      load_scenario_text(mutant, "mutant.json", o);
    }
  });
  report(name, t);
}

INSTANTIATE_TEST_SUITE_P(Shipped, ScenarioFuzz, ::testing::ValuesIn(shipped("scenarios")),
                         [](const auto& info) {
                           std::string n = info.param.substr(0, info.param.size() - 5);
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(TopologyFuzz, EveryMutantOfEveryShippedPlantLoadsOrIsRefused) {
  for (const auto& name : shipped("scenarios/topologies")) {
    const std::string text = read_text(source_dir() / "scenarios/topologies" / name);
    report(name, fuzz(name, text, [](const std::string& mutant, std::size_t) {
             load_topology_text(mutant, "mutant.json");
           }));
  }
}

// Mutants of every shipped scenario, simulated for 20 us by the binary: the models, not only the
// loader, meet the odd values.
TEST(RunFuzz, MutantsRunOrAreRefusedAndNothingLooksCompleteAfterARefusal) {
  const auto dir = fresh_directory("run-fuzz");
  const auto names = shipped("scenarios");
  fuzz::Mutator mutator(seed_of("run-fuzz"));
  std::size_t ran = 0, refused = 0;
  const std::size_t n = std::max<std::size_t>(names.size(), mutants_per_file() / 30);
  for (std::size_t i = 0; i < n; ++i) {
    const Json base = Json::parse(read_text(source_dir() / "scenarios" / names[i % names.size()]));
    Json mutant = mutator.mutate_structure(base);
    if (mutant.is_object()) mutant["duration_ns"] = 20000;
    write_text(dir / "m.json", mutant.dump(2, ' ', false, Json::error_handler_t::replace));
    const auto out = dir / ("out" + std::to_string(i));
    const auto r = run_gbesim({"run", "m.json", "--out", out.string(), "--quiet"}, dir);
    if (r.exit_code == 0) {
      ++ran;
      EXPECT_EQ(Json::parse(read_text(out / "run.json"))["status"], "complete");
    } else {
      ++refused;
      EXPECT_EQ(r.exit_code, 2) << r.output << "\n" << mutant.dump();
      EXPECT_FALSE(std::filesystem::exists(out / "run.json"));
    }
  }
  std::printf("fuzz run: %zu mutants run by the binary, %zu simulated, %zu refused\n", n, ran,
              refused);
}

}  // namespace
}  // namespace gbesim
