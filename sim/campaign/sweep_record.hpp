#pragma once
// sweep.json, a sweep's record (docs/results.md "Sweeps"): the plan (its points and their
// values), the --set it was run with, its status, how many runs are complete, and the size and
// CRC-32 of each sweep-wide file as last written ("files": readers check them), sealed. While the
// sweep runs, it is also the record a second signal leaves if it ends the sweep at once. A shard
// writes none: the sweep-wide files are --aggregate's.

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "sim/campaign/sweep.hpp"
#include "sim/input/json_path.hpp"
#include "sim/input/sweep_plan.hpp"

namespace gbesim {

class SweepRecord {
 public:
  // The plan of sweep `name` in `dir`. The files an earlier sweep there wrote keep their checks
  // while they are as it wrote them: until this one aggregates, readers check them against those.
  SweepRecord(const SweepOptions& options, const SweepPlan& plan, const std::string& name,
              std::filesystem::path dir);

  // Writes sweep.json with `status` (running, complete, interrupted or incomplete) and
  // `runs_complete`. Only in the sweep's own process (not a child forked to aggregate), also sets
  // the record a hard stop leaves: while it runs, this one saying `interrupted`; after, none.
  void write(const std::string& status, std::size_t runs_complete);
  // Writes DIR/`file` atomically with `text` and records its check.
  void write_file(const std::string& file, const std::string& text);
  // Records the check of DIR/`file` as it is now (one written some other way: results.sqlite).
  void record_file(const std::string& file);
  // Takes the checks from the sealed sweep.json a child that aggregated in the background left,
  // and writes sweep.json (`running`) again: this process's record (and the one a hard stop
  // leaves) vouches for the files it wrote from now on.
  void adopt_checks(std::size_t runs_complete);
  // Removes answers.txt and its check: an answers.txt of earlier results must not stay beside
  // these.
  void forget_answers();

 private:
  void set_hard_stop_record(const std::string& status) const;

  std::filesystem::path dir_;
  std::string scenario_file_;
  pid_t owner_;  // the sweep's own process
  Json description_;
};

}  // namespace gbesim
