// Two logical CPUs under the SystemC kernel, on hand-computed timelines: CPU 0 starts 1,000 ps of
// work at 0, CPU 1 starts 400 ps at 200. Apart, each runs at full speed (done at 1,000 and 600).
// As one core's Hyper-Threading pair with pair_throughput p, from 200 each runs at p / 2: with
// p = 1.0, CPU 1 needs 800 ps (done at 1,000), by when CPU 0 has 400 left, alone again (done at
// 1,400); with p = 1.1 (0.55 each), CPU 1 is done at 200 + ceil(400 / 0.55) = 928, CPU 0 has
// 1,000 - 200 - 728 x 0.55 = 399.6 left, done at 928 + 400 = 1,328.

#include "models/host/logical_cpus.hpp"

#include <gtest/gtest.h>

#include <systemc>

namespace gbesim {
namespace {

struct TwoJobs : sc_core::sc_module {
  SC_HAS_PROCESS(TwoJobs);
  TwoJobs(sc_core::sc_module_name name, bool shared, double pair)
      : sc_module(name), cpus(shared, pair) {
    SC_THREAD(first);
    SC_THREAD(second);
  }
  void first() {
    cpus.run(0, 1000);
    done[0] = now_ps();
  }
  void second() {
    wait(to_sc_time(200));
    cpus.run(1, 400);
    done[1] = now_ps();
  }
  LogicalCpus cpus;
  Picoseconds done[2] = {-1, -1};
};

struct Case {
  bool shared;
  double pair;
  Picoseconds first_done, second_done;
};

class LogicalCpusTimeline : public ::testing::TestWithParam<Case> {};

TEST_P(LogicalCpusTimeline, EachJobEndsWhenItsWorkIsDone) {
  const Case c = GetParam();
  TwoJobs jobs("jobs", c.shared, c.pair);
  sc_core::sc_start(to_sc_time(10'000));
  EXPECT_EQ(jobs.done[0], c.first_done);
  EXPECT_EQ(jobs.done[1], c.second_done);
}

INSTANTIATE_TEST_SUITE_P(Cores, LogicalCpusTimeline,
                         ::testing::Values(Case{false, 1.1, 1000, 600}, Case{true, 1.0, 1400, 1000},
                                           Case{true, 1.1, 1328, 928}, Case{true, 2.0, 1000, 600}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.shared ? "shared_" : "apart_") +
                                  std::to_string(static_cast<int>(info.param.pair * 10));
                         });

}  // namespace
}  // namespace gbesim
