#include "models/host/logical_cpus.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {

LogicalCpus::LogicalCpus(bool shared_core, double pair_throughput)
    : shared_(shared_core), half_pair_(pair_throughput / 2.0) {}

void LogicalCpus::run(int k, Picoseconds work) {
  if (work <= 0) return;
  if (!shared_) {
    wait(to_sc_time(work));
    return;
  }
  advance(now_ps());
  busy_[k] = true;
  left_[k] = static_cast<double>(work);
  reschedule(now_ps());
  // Less than a thousandth of a picosecond left is rounding: done.
  while (true) {
    wait(done_[k]);
    advance(now_ps());
    if (left_[k] <= 1e-3) break;
    reschedule(now_ps());
  }
  busy_[k] = false;
  left_[k] = 0;
  reschedule(now_ps());  // the other, if busy, runs alone from now
}

void LogicalCpus::advance(Picoseconds now) {
  const auto elapsed = static_cast<double>(now - since_);
  for (int j = 0; j < 2; ++j)
    if (busy_[j]) left_[j] -= elapsed * speed(j);
  since_ = now;
}

void LogicalCpus::reschedule(Picoseconds now) {
  since_ = now;
  for (int j = 0; j < 2; ++j) {
    done_[j].cancel();
    if (!busy_[j]) continue;
    const double ps = std::ceil(std::max(left_[j], 0.0) / speed(j));
    done_[j].notify(to_sc_time(static_cast<Picoseconds>(ps)));
  }
}

}  // namespace gbesim
