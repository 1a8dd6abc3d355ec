#pragma once
// Running a sweep's pending runs, each a child process (sweep_children): -j at a time, each end
// counted (done; failed; or interrupted by a stop the sweep passed on), progress on stderr, a
// first stop signal passed on once to every run in flight, and for a whole sweep (not a shard)
// points.csv, summary.csv and sweep.json rewritten in the background while runs go on. What is
// written after the last run has ended is the caller's.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/campaign/aggregation.hpp"
#include "sim/campaign/run_state.hpp"
#include "sim/campaign/sweep.hpp"
#include "sim/campaign/sweep_record.hpp"

namespace gbesim {

// What a sweep, or one shard of it, still has to run.
struct PendingRuns {
  std::vector<std::size_t> runs;  // in the order they start
  std::size_t skipped = 0;        // complete already
  std::size_t in_range = 0;       // the runs of the sweep, or of the shard
};

// Returns when every pending run has ended, or after a stop when every run in flight has ended.
// A run that failed is marked in `runs`. `label` heads the progress line. `aggregation` and
// `record`: a whole sweep's, for the background aggregation (null for a shard).
void run_pending(const SweepOptions& options, SweepRuns& runs, const PendingRuns& pending,
                 const std::string& label, Aggregation* aggregation, SweepRecord* record);

}  // namespace gbesim
