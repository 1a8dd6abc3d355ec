#pragma once
// What a sweep's run directories (DIR/runs/<K>/) hold, read as untrusted input: whether a run is
// complete with the configuration expected now, and if not, why; clearing what an earlier attempt
// left before a run is made again; run numbers as ranges for messages. Nothing here starts or
// writes a run.

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "analysis/sweep_summary.hpp"
#include "sim/input/json_path.hpp"

namespace gbesim {

// What a run's directory holds: complete (the configuration expected now, made by this
// version, every file as its record says it was written), running (a process holds its lock),
// stale (complete, but for another configuration or by another version), damaged (its record
// or files are not what the run wrote: changed, truncated, replaced), interrupted, failed (it
// left a log but no record), or missing; `why` says what changed, or the failed run's error line.
struct RunState {
  std::string status;
  std::string why;
};

// A resolved configuration, as its compact JSON text's length and hash: what a sweep keeps of
// each run's expected configuration (a few bytes instead of the document, which for 1,920 runs
// was 40 MiB -- memory every run forked from the sweep would count as its own). Two texts differ
// unless they are the same (a run's configuration in run.json is written from the same text and
// reads back to it, numbers included); a collision of both would need 2^64 bad luck.
struct ConfigDigest {
  std::size_t length = 0;
  std::size_t hash = 0;
  explicit ConfigDigest(const Json& config);
  bool operator==(const ConfigDigest& o) const { return length == o.length && hash == o.hash; }
};

std::filesystem::path run_dir(const std::filesystem::path& sweep_dir, std::size_t run);

// What `dir` holds against `expected_config` (a failed run's `why` is the line of its log that
// says what went wrong). `scalars`: a complete run's scalars, from the text
// its check was made on, when given.
RunState run_state(const std::filesystem::path& dir, const ConfigDigest& expected_config,
                   std::vector<RunScalar>* scalars = nullptr);

// Whether `path` is a real directory or absent: not a link, a file, a FIFO.
bool real_directory_or_none(const std::filesystem::path& path);

// Before a run is made again, what an earlier attempt left in its directory goes: only in a
// directory gbesim marked, only gbesim's names (its record, its log, the files the record lists,
// every kind of output, temporaries), through a descriptor of the directory itself (a link
// swapped in for it is not followed). Anything else stays, and the run refuses to write over it.
void clear_run_directory(const std::filesystem::path& dir);

// "3, 7-9, 12": run numbers as ranges.
std::string run_ranges(const std::vector<std::size_t>& runs);

// A sweep's runs: where each goes, the configuration each must have been made with, and the
// runs that failed in this process (in points.csv a run that failed here is `failed`, whatever
// its directory holds now).
class SweepRuns {
 public:
  SweepRuns(std::filesystem::path sweep_dir, std::vector<ConfigDigest> expected);

  std::size_t count() const { return expected_.size(); }
  const std::filesystem::path& sweep_dir() const { return sweep_dir_; }
  std::filesystem::path dir(std::size_t run) const { return run_dir(sweep_dir_, run); }
  // What run K's directory holds (`scalars` as for run_state).
  RunState state(std::size_t run, std::vector<RunScalar>* scalars = nullptr) const;
  // Its status for points.csv: `failed` if it failed here, else its directory's.
  std::string status(std::size_t run, std::vector<RunScalar>* scalars = nullptr) const;

  void mark_failed(std::size_t run) { failed_.insert(run); }
  const std::set<std::size_t>& failed() const { return failed_; }

 private:
  std::filesystem::path sweep_dir_;
  std::vector<ConfigDigest> expected_;
  std::set<std::size_t> failed_;
};

}  // namespace gbesim
