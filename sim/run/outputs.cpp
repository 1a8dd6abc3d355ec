#include "sim/run/outputs.hpp"

#include <unistd.h>

#include "analysis/result_files.hpp"
#include "gbesim_version.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/atomic_file.hpp"

namespace gbesim {

// The files a run writes besides run.json, which lists them (so that the next run in the same
// directory removes exactly what this one wrote, e.g. pcaps of stations it no longer has).
std::vector<std::string> output_files(const RunOptions& options, const ScenarioConfig& config) {
  std::vector<std::string> files = {"scalars.csv"};
  if (config.run.series_interval_ns > 0) files.push_back("series.csv");
  if (options.traces.count("events")) files.push_back("events.csv");
  if (options.traces.count("vcd")) files.push_back("trace.vcd");
  if (options.traces.count("pcapng")) files.push_back("trace.pcapng");
  if (options.traces.count("pcap")) {
    const auto it = options.trace_filters.find("pcap");
    for (const auto& s : config.stations)
      if (it == options.trace_filters.end() || it->second.keeps(s.name))
        files.push_back(s.name + ".pcap");
  }
  if (config.topology)
    for (const char* f : {"topology.txt", "topology_pairs.csv", "topology.dot"}) files.push_back(f);
  return files;
}

// Every name a run may write in its directory: its outputs, flows.csv (written when the run has
// flows) and run.json.
std::vector<std::string> names_written(std::vector<std::string> outputs) {
  outputs.push_back("flows.csv");
  outputs.push_back("run.json");
  return outputs;
}

namespace {

// What the last run in a directory gbesim marked wrote, from its run.json: a sealed record's
// list, or the list of an earlier gbesim's record (they were not sealed); a record whose seal is
// broken is not taken (`why` says so).
std::vector<std::string> previous_outputs(const OutputDirectory& out, std::string& why) {
  std::vector<std::string> own = {"run.json"};
  if (!out.was_marked()) return own;
  std::string text;
  try {
    text = read_result_file(out.path() / "run.json", std::uint64_t{64} << 20);
  } catch (const ResultsError&) {
    return own;  // none, or not a file: nothing it lists
  }
  const Seal seal = seal_of(text);
  const JsonParse parsed = parse_json_text(text);
  const Json& old = parsed.value;
  const bool earlier = seal == Seal::none && parsed.ok && old.is_object() &&
                       old.contains("version") && old["version"] != kVersion;
  if (seal == Seal::broken || (seal == Seal::none && !earlier)) {
    why = "the last run's run.json is damaged or not gbesim's, so what it lists is not taken";
    return own;
  }
  if (parsed.ok && old.is_object() && old.contains("outputs") && old["outputs"].is_array())
    for (const auto& f : old["outputs"])
      if (f.is_string()) own.push_back(f.get<std::string>());
  return own;
}

}  // namespace

// Makes room for this run's files: in a directory gbesim marked, what the last run's run.json
// lists is removed (its pcaps of stations this run no longer has too); a file this run would
// write that no record lists is refused, never overwritten (OutputDirectory). Then run.json says
// `running` and lists what this run will write, so that a run killed before its end leaves a
// record naming its files for the next run here to remove.
void prepare_outputs(const OutputDirectory& out, const LoadedScenario& scenario,
                     const std::vector<std::string>& outputs) {
  std::string why;
  const std::vector<std::string> own = previous_outputs(out, why);
  out.refuse_foreign(names_written(outputs), own, why);
  out.remove_own(own);
  Json record;
  record["name"] = scenario.config.run.name;
  record["status"] = "running";
  record["version"] = kVersion;
  record["pid"] = ::getpid();
  std::vector<std::string> may_write = names_written(outputs);
  may_write.pop_back();  // run.json itself
  record["outputs"] = may_write;
  write_file_atomically(out.path() / "run.json", seal_record(dump_json(record, 2)));
}

std::filesystem::path default_out_dir(const LoadedScenario& scenario) {
  std::filesystem::path dir = std::filesystem::path("results") / scenario.config.run.name;
  if (scenario.run) dir /= std::filesystem::path("runs") / std::to_string(*scenario.run);
  return dir;
}

}  // namespace gbesim
