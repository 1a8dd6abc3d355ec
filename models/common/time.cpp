#include "models/common/time.hpp"

#include <cmath>

namespace gbesim {

Picoseconds round_to_ps(double ps) {
  if (!(ps > 0)) return 0;  // also NaN
  if (ps >= static_cast<double>(kForeverPs)) return kForeverPs;
  return static_cast<Picoseconds>(std::llround(ps));
}

void init_time_resolution() {
  static bool done = false;
  if (done) return;
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  done = true;
}

}  // namespace gbesim
