#pragma once
// Test helpers: an in-process simulation built from scenario JSON (the same loader and builder
// as `gbesim run`), an event recorder, and a way to run the gbesim binary as a user would.

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/sim_context.hpp"
#include "scenarios/network.hpp"
#include "sim/input/scenario_loader.hpp"

namespace gbesim::testing {

struct RecordedEvent {
  Picoseconds time_ps;
  std::string component;
  EventKind kind;
  std::uint64_t frame_id;
  std::uint64_t bytes;
  std::string detail;
  std::int64_t value;
};

class SimFixture {
 public:
  explicit SimFixture(const std::string& scenario_json, const LoadOptions& options = {});
  ~SimFixture();

  Network& network() { return *network_; }
  SimContext& context() { return *context_; }
  const ScenarioConfig& config() const { return loaded_.config; }
  Station& station(const std::string& name) { return *network_->find_station(name); }

  // Connects to every station's MAC's and sink's event hook; call before run().
  void record_events();
  // Connects to every model's (Network::event_sources), a part named in the component
  // ("h.pci.nic"); call before run().
  void record_all_events();
  const std::vector<RecordedEvent>& events() const { return events_; }
  std::vector<RecordedEvent> events_of(EventKind kind, const std::string& component) const;

  // Simulates until absolute time end_ps.
  void run_until(Picoseconds end_ps);
  // Simulates the scenario's duration_ns.
  void run();
  // A scalar as results would report it now; fails the test if it does not exist.
  double scalar(const std::string& component, const std::string& name) const;

 private:
  void record(Hook<const Event&>& hook, const std::string& component);
  LoadedScenario loaded_;
  std::unique_ptr<SimContext> context_;
  std::unique_ptr<Network> network_;
  std::vector<RecordedEvent> events_;
};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs the gbesim binary with the given arguments (shell-quoted here) in `cwd`, with one more
// environment variable if `environment` ("NAME=value") is given.
CommandResult run_gbesim(const std::vector<std::string>& args,
                         const std::filesystem::path& cwd = std::filesystem::current_path(),
                         const std::string& environment = "");
// gbesim running in the background, as a user's terminal would have it: the test waits for what
// it prints (never for a fixed time), then signals it.
class BackgroundGbesim {
 public:
  // `own_group`: in a process group of its own (as a shell job), so that the group can be
  // signalled as a terminal's Ctrl-C would.
  BackgroundGbesim(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                   bool own_group = false);
  ~BackgroundGbesim();  // kills it if it still runs
  BackgroundGbesim(const BackgroundGbesim&) = delete;
  BackgroundGbesim& operator=(const BackgroundGbesim&) = delete;

  pid_t pid() const { return pid_; }
  // Reads its output (stdout and stderr) until `text` appears; false if it ended first.
  bool wait_for_output(const std::string& text);
  void signal(int sig) const;
  void signal_group(int sig) const;
  // Waits for it to end; its exit code (128 + signal if a signal ended it).
  int wait();
  const std::string& output() const { return output_; }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string output_;
  bool reaped_ = false;
  int code_ = -1;
};

// Waits until `condition` holds, polling; false if `give_up` holds first (a process that ended).
bool wait_until(const std::function<bool()>& condition, const std::function<bool()>& give_up);
// Whether a process is running (not ended, not a zombie).
bool process_running(pid_t pid);

// Runs a shell command line, capturing stdout and stderr.
CommandResult run_command(const std::string& command_line);
// A fresh empty directory under the system temporary directory.
std::filesystem::path fresh_directory(const std::string& tag);
std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, const std::string& text);
std::filesystem::path source_dir();

// Value changes of one VCD signal ("<scope>.<name>", scopes below the top one joined by dots:
// "a.tx_state", "h.nic.irq"), as (time, value) in file order.
std::vector<std::pair<std::int64_t, std::string>> vcd_changes(const std::string& vcd,
                                                              const std::string& signal);

// A CSV file's rows, split at commas (a trailing comma is an empty last field).
std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file);
// A scalars.csv component as `gbesim stats` names it ("e.mac" -> "<station>.mac",
// "domain0" -> "domain<i>", "sw.port3" -> "<switch>.port<n>"), given the run's run.json text (its
// resolved config names the stations, hosts, DMA masters and switches).
std::string stats_pattern(const std::string& component, const std::string& run_json);

}  // namespace gbesim::testing
