#pragma once
// Two results of the same study set side by side (e.g. nic-review-2003 against an ideal peer and
// nic-review-2003-switched through a switch to Fast Ethernet clients): points match when their
// sweeps have as many axes and the same value on each, position by position (so the axis
// "hosts.pc.app.request_bytes" of one matches "hosts.pc.apps[*].request_bytes" of the other);
// a run matches a run. Per matching point, every host both carry gives its application totals
// (<host>.driver or <host>.cpu: app_receive_throughput, app_send_throughput) and its CPU
// utilisation, a beside b.

#include <string>
#include <vector>

#include "analysis/results.hpp"

namespace gbesim {

struct SideBySide {
  std::size_t point_a = 0;
  std::size_t point_b = 0;
  std::string component;  // "pc.driver"
  std::string quantity;   // "app_receive_throughput"
  std::string unit;
  double a = 0;
  double b = 0;
  // (b - a) / a, or NaN when a is 0.
  double relative() const;
};

std::vector<SideBySide> side_by_side(const Results& a, const Results& b);

// One sentence per host quantity: how b differs from a over the matching points (mean, range).
std::vector<std::string> side_by_side_summary(const std::vector<SideBySide>& rows,
                                              const std::string& a_name, const std::string& b_name);

}  // namespace gbesim
