#include "sim/inspect/topology_command.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "sim/run/topology_files.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {

namespace {

// Every pair's listing, refused before it is built when it would take more than an analysis may
// (kMaxPairListingBytes): its size is known from the default report.
void check_every_pair_listing(const LoadedTopology& topology, const std::string& file) {
  PairListing every;
  PairListing worst;
  for (const auto& dom : topology.report.domains) {
    every.pairs += dom.every_pair.pairs;
    every.path_nodes += dom.every_pair.path_nodes;
    every.bytes += dom.every_pair.bytes;
    worst.pairs += dom.listed.pairs;
    worst.bytes += dom.listed.bytes;
  }
  if (every.bytes <= kMaxPairListingBytes) return;
  throw ScenarioError({{file, "",
                        fmt::format("--every-pair would list {:.0f} pairs with {:.0f} names along "
                                    "their paths, about {:.1f} GB in memory and in "
                                    "topology_pairs.csv (at most {:.1f} GB); without it each "
                                    "station's worst pair is listed ({:.0f} pairs, {:.1f} MB)",
                                    every.pairs, every.path_nodes, every.bytes / 1e9,
                                    kMaxPairListingBytes / 1e9, worst.pairs, worst.bytes / 1e6)}});
}

}  // namespace

int run_topology(const TopologyOptions& options) {
  LoadedTopology topology = load_topology(options.file);
  for (const auto& w : topology.warnings) fmt::print(stderr, "warning: {}: {}\n", options.file, w);
  if (options.every_pair) {
    check_every_pair_listing(topology, options.file);
    topology.report = analyse_topology(topology.plant, PairScope::every_pair);
    topology.scope = PairScope::every_pair;
    std::vector<Diagnostic> problems;
    for (const auto& p : topology.report.problems)
      problems.push_back({options.file, "", p.message});
    if (!problems.empty()) throw ScenarioError(std::move(problems));
  }
  const std::string text = topology_report_text(topology);
  // Exit code 1 means "the plant fails": any problem writing the files is 2, like bad input.
  const std::vector<std::string> files = {"topology.txt", "topology_pairs.csv", "topology.dot"};
  const OutputDirectory out(options.out_dir.empty()
                                ? std::filesystem::path("results") / topology.plant.name
                                : std::filesystem::path(options.out_dir),
                            fmt::format("gbesim topology (pid {})", ::getpid()), files);
  const std::filesystem::path& dir = out.path();
  try {
    write_file_atomically(dir / "topology.txt", text);
    write_file_atomically(dir / "topology_pairs.csv", topology_pairs_csv(topology.report));
    write_file_atomically(dir / "topology.dot", topology_dot(topology.plant, topology.report));
  } catch (const std::exception& e) {
    throw ScenarioError({{dir.string(), "", e.what()}});
  }
  if (!options.quiet) {
    fmt::print("{}", text);
    fmt::print("files: {}/ (topology.txt, topology_pairs.csv, topology.dot)\n", dir.string());
  }
  return topology.report.pass() ? 0 : 1;
}

}  // namespace gbesim
