#include "sim/campaign/sweep_loop.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <map>
#include <optional>
#include <system_error>
#include <utility>

#include "sim/campaign/sweep_children.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/progress.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

using Clock = std::chrono::steady_clock;

// Every 3 s (or less often when aggregating takes long: about a tenth of the time), in the
// background: a child process aggregates what is complete, while runs go on starting here, and
// this process does not grow (the runs forked from it are copies of it, and what it holds would
// count in their peak memory, run.json peak_rss_kib).
class BackgroundAggregator {
 public:
  BackgroundAggregator(Aggregation& aggregation, SweepRecord& record, Clock::duration every)
      : aggregation_(aggregation),
        record_(record),
        every_(every),
        interval_(every),
        last_(Clock::now()),
        started_(last_) {}

  // Starts a child when none is running, no stop was asked and the interval has passed.
  void start_when_due() {
    if (pid_ != 0 || stop_requested() || Clock::now() - last_ < interval_) return;
    started_ = Clock::now();
    pid_ = start_aggregator(
        aggregation_.name(), [this] { aggregation_.write_tables(); },
        [this] { record_.write("running", aggregation_.complete()); });
  }

  // Whether `pid` was the child; if it was and it wrote its files, the record adopts their
  // checks (with `runs_complete`).
  bool ended(pid_t pid, int wstatus, std::size_t runs_complete) {
    if (pid != pid_) return false;
    pid_ = 0;
    set_child_to_end_on_hard_stop(0);
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) record_.adopt_checks(runs_complete);
    last_ = Clock::now();
    interval_ = std::max(every_, 10 * (last_ - started_));
    return true;
  }

  // The last aggregation is the sweep's own, after any in the background has ended (so that it
  // cannot overwrite the final files with older ones).
  void wait() {
    if (pid_ == 0) return;
    int wstatus = 0;
    while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
    }
    pid_ = 0;
    set_child_to_end_on_hard_stop(0);
  }

 private:
  Aggregation& aggregation_;
  SweepRecord& record_;
  Clock::duration every_;
  Clock::duration interval_;
  Clock::time_point last_;     // when the last aggregation ended (or the loop began)
  Clock::time_point started_;  // when it started
  pid_t pid_ = 0;              // the child aggregating now, if any
};

class SweepLoop {
 public:
  SweepLoop(const SweepOptions& options, SweepRuns& runs, const PendingRuns& pending,
            std::string label, Aggregation* aggregation, SweepRecord* record)
      : options_(options),
        runs_(runs),
        pending_(pending),
        label_(std::move(label)),
        progress_(!options.quiet) {
    if (aggregation != nullptr && record != nullptr)
      background_.emplace(*aggregation, *record,
                          std::chrono::milliseconds(options.aggregate_every_ms));
  }

  void run();

 private:
  bool reap();
  void count_end(std::size_t run, int wstatus);
  void forward_stop();
  void start_pending();
  std::string progress_text() const;

  const SweepOptions& options_;
  SweepRuns& runs_;
  const PendingRuns& pending_;
  std::string label_;
  ProgressLine progress_;
  std::optional<BackgroundAggregator> background_;
  std::map<pid_t, std::size_t> running_;  // process id: run
  std::size_t next_ = 0;                  // in pending_.runs
  std::size_t done_ = 0;
  bool forwarded_ = false;  // a stop was passed on to the runs
};

void SweepLoop::run() {
  watch_children();
  allow_clean_stop();
  progress_.update(progress_text(), true);  // "0/N runs done": the count is known from the start
  while (next_ < pending_.runs.size() || !running_.empty()) {
    const bool reaped = reap();
    if (stop_requested() && !forwarded_) forward_stop();
    start_pending();
    if (stop_requested() && !forwarded_) continue;  // pass the stop on before waiting
    if (stop_requested() && running_.empty()) break;
    if (background_) background_->start_when_due();
    // Sleep until a run ends or a signal comes; neither can slip in after the checks above.
    if (!reaped && !running_.empty()) wait_for_wake();
  }
  if (background_) background_->wait();
  progress_.update(progress_text(), true);
  progress_.finish();
}

// Reaps every child that has ended; true if a run was among them.
bool SweepLoop::reap() {
  bool any = false;
  int wstatus = 0;
  pid_t pid = 0;
  while ((pid = ::waitpid(-1, &wstatus, WNOHANG)) > 0) {
    if (background_ && background_->ended(pid, wstatus, done_ + pending_.skipped)) continue;
    const auto it = running_.find(pid);
    if (it == running_.end()) continue;
    const std::size_t k = it->second;
    running_.erase(it);
    any = true;
    count_end(k, wstatus);
    progress_.update(progress_text());
  }
  return any;
}

// A run that ends with 130 (or dies of SIGINT/SIGTERM) after the sweep passed on a stop was
// interrupted; anything else but 0 failed, even a 130 nobody here asked for.
void SweepLoop::count_end(std::size_t run, int wstatus) {
  const bool exited = WIFEXITED(wstatus);
  const int code = exited ? WEXITSTATUS(wstatus) : -1;
  const bool stopped =
      forwarded_ &&
      (code == 130 || (!exited && (WTERMSIG(wstatus) == SIGINT || WTERMSIG(wstatus) == SIGTERM)));
  if (code == 0) {
    ++done_;
  } else if (!stopped) {
    runs_.mark_failed(run);
  }
}

// One SIGINT to each run in flight: each writes its interrupted record.
void SweepLoop::forward_stop() {
  for (const auto& [pid, run] : running_) ::kill(pid, SIGINT);
  forwarded_ = true;
}

void SweepLoop::start_pending() {
  while (!stop_requested() && next_ < pending_.runs.size() &&
         static_cast<int>(running_.size()) < options_.jobs) {
    const std::size_t k = pending_.runs[next_++];
    const std::filesystem::path dir = runs_.dir(k);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // A run of an earlier sweep that was killed may still be stopping in this directory.
    if (const auto holder = wait_until_unlocked(dir); holder && !options_.quiet)
      fmt::print(stderr, "run {}: waited for {} to stop\n", k, printable(*holder));
    if (stop_requested()) break;
    clear_run_directory(dir);
    running_[start_run(options_, k, dir)] = k;
  }
}

// The time left from the pace so far: runs ended here per second of wall time (with -j N that
// counts N at once), over the runs still to end. Not before one has ended.
std::string SweepLoop::progress_text() const {
  const std::size_t failed = runs_.failed().size();
  const std::size_t ended = done_ + failed;
  const std::size_t left = pending_.runs.size() - std::min(pending_.runs.size(), ended);
  const std::string eta =
      stop_requested() ? "" : time_left_text(progress_.seconds_since_start(), ended, left);
  return fmt::format("{}: {}/{} runs done ({} running, {} failed, {} already complete){}", label_,
                     done_ + pending_.skipped, pending_.in_range, running_.size(), failed,
                     pending_.skipped, eta);
}

}  // namespace

void run_pending(const SweepOptions& options, SweepRuns& runs, const PendingRuns& pending,
                 const std::string& label, Aggregation* aggregation, SweepRecord* record) {
  SweepLoop loop(options, runs, pending, label, aggregation, record);
  loop.run();
}

}  // namespace gbesim
