#include "sim/support/stop_signal.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <string>

#include "sim/support/atomic_file.hpp"

namespace gbesim {
namespace {

// The record to leave on a hard stop; the handler reads it in place (c_str() and size() of
// strings built beforehand allocate nothing).
struct HardStopRecord {
  std::string path;
  std::string temporary;
  std::string text;
};
std::atomic<HardStopRecord*> g_record{nullptr};

void write_hard_stop_record() {
  const HardStopRecord* r = g_record.load();
  if (r == nullptr) return;
  const int fd =
      ::open(r->temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return;
  const char* at = r->text.c_str();
  std::size_t left = r->text.size();
  bool written = true;
  while (left > 0) {
    const ssize_t n = ::write(fd, at, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      written = false;
      break;
    }
    at += n;
    left -= static_cast<std::size_t>(n);
  }
  written = ::fsync(fd) == 0 && written;
  ::close(fd);
  if (!written || ::rename(r->temporary.c_str(), r->path.c_str()) != 0)
    ::unlink(r->temporary.c_str());
}

volatile std::sig_atomic_t g_child = 0;

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_clean_stop = 0;
int g_wake[2] = {-1, -1};

void wake() {
  if (g_wake[1] < 0) return;
  [[maybe_unused]] const auto n = ::write(g_wake[1], "w", 1);
}

void on_child(int) {
  const int saved = errno;
  wake();
  errno = saved;
}

void on_signal(int) {
  if (g_clean_stop != 0 && g_stop == 0) {
    const int saved = errno;
    g_stop = 1;
    wake();
    errno = saved;
    return;
  }
  // Only async-signal-safe calls from here on. A child writing the same record ends first (it
  // removes its own temporaries), so that nothing it writes lands after ours.
  if (const pid_t child = g_child; child > 0) {
    ::kill(child, SIGTERM);
    while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  remove_registered_temporaries();
  write_hard_stop_record();
  static const char message[] = "gbesim: stopped\n";
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(130);
}

}  // namespace

void install_stop_handlers() {
  if (g_wake[0] < 0 && ::pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, s);
  // One stop signal at a time: a second waits for the handler of the first to return.
  action.sa_mask = signals;
  for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &action, nullptr);
  ::sigprocmask(SIG_UNBLOCK, &signals, nullptr);
}

void watch_children() {
  struct sigaction action {};
  action.sa_handler = on_child;
  action.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGCHLD, &action, nullptr);
}

void set_record_for_hard_stop(const std::filesystem::path& path, const std::string& text) {
  HardStopRecord* next = nullptr;
  if (!path.empty()) next = new HardStopRecord{path.string(), temporary_name(path).string(), text};
  // The handler runs on this thread: it sees the old record or the new one, never one freed.
  delete g_record.exchange(next);
}

void set_child_to_end_on_hard_stop(int pid) {
  g_child = pid;
}

void forget_inherited_stop_state() {
  set_record_for_hard_stop({}, "");
  g_child = 0;
  for (int& fd : g_wake) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  g_stop = 0;
  g_clean_stop = 0;
}

void wait_for_wake() {
  if (g_wake[0] < 0) return;
  pollfd p{g_wake[0], POLLIN, 0};
  while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
  }
  char buffer[64];
  while (::read(g_wake[0], buffer, sizeof buffer) > 0) {
  }
}

void allow_clean_stop() {
  g_clean_stop = 1;
}

bool stop_requested() {
  return g_stop != 0;
}

}  // namespace gbesim
