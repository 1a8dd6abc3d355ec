#include "models/common/time.hpp"

namespace gbesim {

void init_time_resolution() {
  static bool done = false;
  if (done) return;
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  done = true;
}

}  // namespace gbesim
