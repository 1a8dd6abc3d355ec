#include "sim/stop_signal.hpp"

#include <unistd.h>

#include <csignal>

#include "sim/atomic_file.hpp"

namespace gbesim {
namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_clean_stop = 0;

void on_signal(int) {
  if (g_clean_stop != 0 && g_stop == 0) {
    g_stop = 1;
    return;
  }
  // Only async-signal-safe calls from here on.
  remove_registered_temporaries();
  static const char message[] = "gbesim: stopped\n";
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(130);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &action, nullptr);
}

void allow_clean_stop() {
  g_clean_stop = 1;
}

bool stop_requested() {
  return g_stop != 0;
}

}  // namespace gbesim
