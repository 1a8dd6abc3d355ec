#pragma once
// A host's logical CPUs as the hardware runs them (docs/host.md, "Logical CPUs"): one CPU, two
// processors or cores (each at full speed whatever the other does), or Hyper-Threading's two
// logical CPUs of one core, which share its execution units: while both have work, each runs at
// pair_throughput / 2 of the core's speed (the two together at pair_throughput of one), and one
// alone runs at full speed (an idle logical CPU halts and gives the core up).
// A logical CPU runs one piece of work at a time; run() is called from that CPU's SystemC thread
// and returns when the work is done. Work is in picoseconds at the core's full speed; completion
// instants are rounded up to whole picoseconds.

#include <array>

#include <systemc>

#include "models/common/time.hpp"

namespace gbesim {

class LogicalCpus {
 public:
  // shared_core: the two CPUs are one core's Hyper-Threading pair; pair_throughput: the work
  // the pair does together per unit of time, relative to one alone (1 .. 2).
  LogicalCpus(bool shared_core, double pair_throughput);

  // Runs `work` on logical CPU k (0 or 1) and waits until it is done.
  void run(int k, Picoseconds work);
  // The speed logical CPU k runs at now, relative to the core alone.
  double speed(int k) const { return shared_ && busy_[1 - k] ? half_pair_ : 1.0; }

 private:
  void advance(Picoseconds now);     // every busy CPU's work left, after the time since the last
  void reschedule(Picoseconds now);  // each busy CPU's completion at its current speed

  const bool shared_;
  const double half_pair_;
  std::array<bool, 2> busy_{false, false};
  std::array<double, 2> left_{0, 0};  // ps of work at full speed
  Picoseconds since_ = 0;
  std::array<sc_core::sc_event, 2> done_;
};

}  // namespace gbesim
