// libsystemc references sc_main; the test binaries use GoogleTest's main instead.
#include <cstdlib>

extern "C" int sc_main(int, char**) {
  return 0;
}

namespace {
// Silence the SystemC banner however the test binary is started.
const bool kQuiet = (::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1), true);
// Every receiver checks the FCS of frames marked intact too, and stops the process if one fails
// (a place that changed bytes without clearing Frame::fcs_intact); the simulators the tests start
// inherit it.
const bool kVerifyFcs = (::setenv("GBESIM_VERIFY_FCS", "1", 1), true);
}  // namespace
