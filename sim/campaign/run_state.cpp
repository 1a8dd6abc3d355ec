#include "sim/campaign/run_state.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <optional>
#include <sstream>
#include <utility>

#include "analysis/result_files.hpp"
#include "analysis/results.hpp"
#include "gbesim_version.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {
namespace {

// The line of a failed run's log that says what went wrong: the last one naming an error, else
// the last one. The log is read like any result file (a FIFO in its place must not block).
std::string error_line(const std::filesystem::path& log) {
  std::string text;
  try {
    text = read_result_file(log, std::uint64_t{16} << 20);
  } catch (const ResultsError& e) {
    return "its log cannot be read: " + printable(e.what());
  }
  std::istringstream in(text);
  std::string line, last, error;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    last = line;
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.find("error") != std::string::npos) error = line;
  }
  const std::string& shown = error.empty() ? last : error;
  return shown.empty() ? "its log is empty" : shown;
}

// A run's scalars.csv text as rows (analysis/results checked its header, four fields a row, a
// number, inf, -inf or nothing in each value). Throws ResultsError naming the file and line.
std::vector<RunScalar> scalars_of(const std::string& text, const std::filesystem::path& file) {
  std::vector<RunScalar> out;
  const CsvTable table = parse_scalars_csv(text, file.string());
  out.reserve(table.rows.size());
  for (const auto& f : table.rows) {
    RunScalar s{f[0], f[1], f[2], 0.0, f[3]};
    s.value = parse_number(f[3]).value_or(std::nan(""));  // empty: no value
    out.push_back(std::move(s));
  }
  return out;
}

// Why a complete run's files are not what its run.json recorded when it finished, or nullopt:
// every file the record lists (scalars.csv at least) must be a regular file of the size (looked
// at first: a huge sparse file is not read) and CRC-32 recorded, and scalars.csv must read as
// one. Its scalars, read once from the text that was checked, go to `scalars` when given.
std::optional<std::string> damage_of(const std::filesystem::path& dir, const Json& run,
                                     std::vector<RunScalar>* scalars) {
  const Json files = run.value("files", Json());
  if (!files.is_object() || !files.contains("scalars.csv"))
    return std::string("run.json lists no check of scalars.csv");
  try {
    for (const auto& [name, entry] : files.items()) {
      if (!is_plain_name(name))
        return "run.json lists a file outside the run's directory: " + printable(name);
      if (name == "scalars.csv") continue;
      if (const auto problem = recorded_file_problem(dir, name, files, "run.json")) return problem;
    }
    const auto file = dir / "scalars.csv";
    const std::string text = read_result_file(file);
    if (const auto problem =
            file_check_problem("scalars.csv", check_of_text(text), files, "run.json"))
      return problem;
    std::vector<RunScalar> rows = scalars_of(text, file);
    if (scalars != nullptr) *scalars = std::move(rows);
  } catch (const ResultsError& e) {
    return printable(e.what());
  }
  return std::nullopt;
}

// A run's record, read as untrusted input: nullopt when there is none, or when it is damaged
// (not a regular file, its seal broken or missing, not a JSON object: `damage` says which). A
// record of another gbesim version may lack the seal: it is stale whatever else it holds.
std::optional<Json> run_record(const std::filesystem::path& dir, std::string& damage) {
  std::error_code ec;
  const auto file = dir / "run.json";
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return std::nullopt;
  std::string text;
  try {
    text = read_result_file(file, std::uint64_t{64} << 20);
  } catch (const ResultsError& e) {
    damage = printable(e.what());
    return std::nullopt;
  }
  const Seal seal = seal_of(text);
  const JsonParse parsed = seal != Seal::broken ? parse_json_text(text) : JsonParse{};
  if (seal == Seal::broken)
    damage = "run.json's record_crc32 does not match its text: it changed after it was written";
  else if (!parsed.ok || !parsed.value.is_object())
    damage = "run.json is not a JSON object";
  else if (seal == Seal::none && parsed.value.value("version", Json()) == kVersion)
    damage = "run.json is not sealed (record_crc32)";  // an earlier gbesim's is only stale
  if (!damage.empty()) return std::nullopt;
  return parsed.value;
}

}  // namespace

std::filesystem::path run_dir(const std::filesystem::path& sweep_dir, std::size_t run) {
  return sweep_dir / "runs" / std::to_string(run);
}

ConfigDigest::ConfigDigest(const Json& config) {
  const std::string text = config.dump();
  length = text.size();
  hash = std::hash<std::string>{}(text);
}

RunState run_state(const std::filesystem::path& dir, const ConfigDigest& expected_config,
                   std::vector<RunScalar>* scalars) {
  if (!real_directory_or_none(dir))
    return {"damaged", "its directory is a link or not a directory: not gbesim's"};
  if (lock_held(dir)) return {"running", ""};
  std::string damage;
  const std::optional<Json> run = run_record(dir, damage);
  if (!damage.empty()) return {"damaged", damage};
  const Json status = run && run->is_object() ? run->value("status", Json()) : Json();
  if (status == "complete") {
    if (!run->contains("config") || !(ConfigDigest((*run)["config"]) == expected_config))
      return {"stale", "the configuration changed"};
    const Json version = run->value("version", Json());
    if (version != kVersion)
      return {"stale", fmt::format("made by gbesim {} (this is {})",
                                   version.is_string() ? printable(version.get<std::string>())
                                                       : std::string("?"),
                                   kVersion)};
    if (const auto problem = damage_of(dir, *run, scalars)) return {"damaged", *problem};
    return {"complete", ""};
  }
  if (status == "interrupted") return {"interrupted", "it was stopped before its end"};
  if (run && !status.is_string()) return {"damaged", "run.json has no status"};
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(dir / "log.txt", ec)))
    return {"failed", error_line(dir / "log.txt")};
  return {"missing", ""};
}

bool real_directory_or_none(const std::filesystem::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) != 0 || S_ISDIR(st.st_mode);
}

void clear_run_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat mark {};
  if (::fstatat(fd, kMarkName, &mark, AT_SYMLINK_NOFOLLOW) != 0 &&
      ::fstatat(fd, kLockName, &mark, AT_SYMLINK_NOFOLLOW) != 0)
    return;  // not gbesim's
  std::set<std::string> names = {"run.json",     "log.txt",           "scalars.csv",
                                 "flows.csv",    "series.csv",        "events.csv",
                                 "trace.vcd",    "trace.pcapng",      "topology.txt",
                                 "topology.dot", "topology_pairs.csv"};
  if (const auto old = read_json_record(dir / "run.json", {"outputs"});
      old && old->is_object() && old->contains("outputs") && (*old)["outputs"].is_array())
    for (const auto& f : (*old)["outputs"])
      if (f.is_string()) names.insert(f.get<std::string>());
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (const std::string name = entry.path().filename().string(); temporary_owner(name))
      names.insert(name);
  for (const auto& name : names)
    if (is_plain_name(name)) ::unlinkat(fd, name.c_str(), 0);  // a directory of that name stays
}

std::string run_ranges(const std::vector<std::size_t>& runs) {
  std::string out;
  for (std::size_t i = 0; i < runs.size();) {
    std::size_t j = i;
    while (j + 1 < runs.size() && runs[j + 1] == runs[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") +
           (j == i ? std::to_string(runs[i]) : fmt::format("{}-{}", runs[i], runs[j]));
    i = j + 1;
  }
  return out;
}

SweepRuns::SweepRuns(std::filesystem::path sweep_dir, std::vector<ConfigDigest> expected)
    : sweep_dir_(std::move(sweep_dir)), expected_(std::move(expected)) {}

RunState SweepRuns::state(std::size_t run, std::vector<RunScalar>* scalars) const {
  return run_state(dir(run), expected_[run], scalars);
}

std::string SweepRuns::status(std::size_t run, std::vector<RunScalar>* scalars) const {
  if (failed_.count(run)) return "failed";
  return state(run, scalars).status;
}

}  // namespace gbesim
