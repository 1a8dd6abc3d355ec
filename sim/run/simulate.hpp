#pragma once
// The kernel run of one elaboration, in chunks: progress on stderr, a stop request honoured
// between chunks, a series sampled and a warm-up ended at their instants.

#include <memory>
#include <string>

#include <systemc>

#include "models/common/stats.hpp"
#include "models/common/time.hpp"

namespace gbesim {

class Network;
class SeriesRecorder;
struct RunOptions;

struct Outcome {
  Picoseconds simulated_ps = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;  // of the simulation only (not start-up, loading or writing)
  bool interrupted = false;
  Picoseconds statistics_from_ps = 0;  // the warm-up's end, if the run got there
};

// Runs the kernel to `end_ps` in chunks, so that progress can be shown and a stop request
// honoured between chunks. Chunk boundaries do not change results: all activity at a time is
// finished before sc_start returns.
// With a series, the kernel also stops at every interval's end to sample it (a chunk boundary
// like any other), and the last, shorter interval is closed at the end.
// With a warm-up, the kernel also stops at its end and every statistic restarts there.
// Whenever the kernel stops, the network delivers what links left to their receivers' next
// settle (late delivery), so that statistics read then are complete.
Outcome simulate(Picoseconds end_ps, Picoseconds warmup_ps, StatRegistry& stats,
                 const RunOptions& options, const std::string& name, SeriesRecorder* series,
                 Network& network);

// GBESIM_PERTURB_ORDER=1: one more process, re-triggered every nanosecond and registered before
// the network's, so that the simulation kernel orders the processes of each instant differently
// (its order follows the history of timed notifications). For the differential check that no
// result depends on that order (tests/scenario/kernel_order_test.cpp); it counts no activation.
// Null unless asked for.
std::unique_ptr<sc_core::sc_module> order_perturbation_if_asked();

}  // namespace gbesim
