#include "sim/campaign/sweep_children.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "sim/run/runner.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

// Closes every descriptor marked close-on-exec, as exec would have: the sweep's lock and pipes
// are not the run's.
void close_on_exec_descriptors() {
  std::vector<int> marked;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    const int own = ::dirfd(d);
    while (const dirent* e = ::readdir(d)) {
      if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
      const int fd = std::atoi(e->d_name);
      if (fd != own && (::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0) marked.push_back(fd);
    }
    ::closedir(d);
  }
  for (int fd : marked) ::close(fd);
}

// What runs in the child: `gbesim run <scenario> --point K --out <dir> --set ...`, with its
// output in log.txt and its exit code the process's.
[[noreturn]] void run_in_child(const SweepOptions& options, std::size_t run,
                               const std::filesystem::path& dir, pid_t sweep) {
  ::setpgid(0, 0);
  sigset_t stops;
  sigemptyset(&stops);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  ::sigprocmask(SIG_SETMASK, &stops, nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) ::signal(sig, SIG_DFL);
  forget_inherited_stop_state();
  close_on_exec_descriptors();
  // Not --quiet: the run's log.txt gets its progress lines and its summary.
  const int log = ::open((dir / "log.txt").c_str(),
                         O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (log < 0 || ::dup2(log, STDOUT_FILENO) < 0 || ::dup2(log, STDERR_FILENO) < 0) ::_exit(1);
  if (log > STDERR_FILENO) ::close(log);
  RunOptions options_of_run;
  options_of_run.scenario_file = options.scenario_file;
  options_of_run.load.run = run;
  options_of_run.load.sets = options.sets;
  options_of_run.out_dir = dir;
  options_of_run.parent_pid = sweep;
  int code = 1;
  try {
    code = run_simulation(options_of_run);
  } catch (const std::exception&) {
    code = report_failure(std::current_exception());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(code);
}

// fork() with this process's buffered output written first (else both copies would write it).
pid_t fork_flushed() {
  std::fflush(stdout);
  std::fflush(stderr);
  return ::fork();
}

// The sweep's handlers are not the aggregator's: signals wait until its own are in place.
void become_aggregator() {
  sigset_t stops;
  sigemptyset(&stops);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  ::sigprocmask(SIG_BLOCK, &stops, nullptr);
  forget_inherited_stop_state();
  install_stop_handlers();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
}

}  // namespace

// A run is a child process rather than `gbesim run` started again: on this project's VM loading
// the program -- the dynamic linker and the SystemC library's 3 MiB initialisation -- takes
// about 20 ms, more than most runs of a small sweep simulate.
pid_t start_run(const SweepOptions& options, std::size_t run, const std::filesystem::path& dir) {
  const pid_t sweep = ::getpid();
  const pid_t pid = fork_flushed();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a run: ") + std::strerror(errno));
  if (pid == 0) run_in_child(options, run, dir, sweep);
  ::setpgid(pid, pid);  // also here, so that a signal forwarded at once finds the group
  return pid;
}

pid_t start_aggregator(const std::string& name, const std::function<void()>& aggregate,
                       const std::function<void()>& record) {
  const pid_t sweep = ::getpid();
  const pid_t pid = fork_flushed();
  if (pid > 0) set_child_to_end_on_hard_stop(pid);
  if (pid != 0) return pid < 0 ? 0 : pid;
  become_aggregator();
  int code = 1;
  if (::getppid() == sweep) {
    try {
      aggregate();
      if (::getppid() == sweep) record();
      code = 0;
    } catch (const std::exception& e) {
      fmt::print(stderr, "warning: sweep {}: aggregating while running: {}\n", name,
                 printable(e.what()));
    }
  }
  std::fflush(stderr);
  ::_exit(code);
}

}  // namespace gbesim
