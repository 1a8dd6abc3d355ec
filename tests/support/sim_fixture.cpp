#include "tests/support/sim_fixture.hpp"

#include "sim/input/json_path.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

extern char** environ;

namespace gbesim::testing {

SimFixture::SimFixture(const std::string& scenario_json, const LoadOptions& options)
    : loaded_(load_scenario_text(scenario_json, "test.json", options)) {
  init_time_resolution();
  context_ = std::make_unique<SimContext>(static_cast<std::uint64_t>(loaded_.config.run.seed));
  network_ = std::make_unique<Network>(loaded_.config, *context_);
}

SimFixture::~SimFixture() = default;

void SimFixture::record(Hook<const Event&>& hook, const std::string& component) {
  hook.connect([this, component](const Event& e) {
    const std::uint64_t bytes = e.bytes >= 0 ? static_cast<std::uint64_t>(e.bytes)
                                : e.frame    ? e.frame->size()
                                             : 0;
    events_.push_back({e.time_ps,
                       e.part.empty() ? component : component + "." + std::string(e.part), e.kind,
                       e.frame ? e.frame->id : e.frame_id, bytes, std::string(e.detail), e.value});
  });
}

void SimFixture::record_events() {
  for (const auto& s : network_->stations()) {
    record(s->mac().events, s->mac().name());
    if (s->sink() != nullptr) record(s->sink()->events, s->sink()->name());
  }
}

void SimFixture::record_all_events() {
  for (const EventSource& source : network_->event_sources())
    record(*source.hook, source.component);
}

std::vector<RecordedEvent> SimFixture::events_of(EventKind kind,
                                                 const std::string& component) const {
  std::vector<RecordedEvent> out;
  for (const auto& e : events_)
    if (e.kind == kind && e.component == component) out.push_back(e);
  return out;
}

void SimFixture::run_until(Picoseconds end_ps) {
  if (end_ps > now_ps()) sc_core::sc_start(to_sc_time(end_ps - now_ps()));
  network_->settle_late_deliveries();  // after network().deliver_late(), as a run does
}

void SimFixture::run() {
  run_until(loaded_.config.run.duration_ns * kPsPerNs);
}

double SimFixture::scalar(const std::string& component, const std::string& name) const {
  StatContext c;
  c.elapsed_ps = std::max<Picoseconds>(now_ps(), 1);
  for (const auto& s : context_->stats.collect(c))
    if (s.component == component && s.name == name) return s.value;
  ADD_FAILURE() << "no scalar " << component << "," << name;
  return -1;
}

std::vector<std::pair<std::int64_t, std::string>> vcd_changes(const std::string& vcd,
                                                              const std::string& signal) {
  std::istringstream in(vcd);
  std::string line;
  std::vector<std::string> scopes;  // the top one ("SystemC") first
  std::string id;
  std::vector<std::pair<std::int64_t, std::string>> out;
  std::int64_t now = 0;
  bool in_body = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    if (!in_body) {
      if (w[0] == "$scope" && w.size() > 2) scopes.push_back(w[2]);
      if (w[0] == "$upscope" && !scopes.empty()) scopes.pop_back();
      if (w[0] == "$var" && w.size() > 4) {
        std::string name;
        for (std::size_t i = 1; i < scopes.size(); ++i) name += scopes[i] + ".";
        if (name + w[4] == signal) id = w[3];
      }
      if (w[0] == "$enddefinitions") in_body = true;
      continue;
    }
    if (w[0][0] == '#') {
      now = std::stoll(w[0].substr(1));
    } else if (w[0][0] == 'b' && w.size() == 2 && w[1] == id) {
      out.emplace_back(now, w[0].substr(1));
    } else if (w.size() == 1 && w[0].size() > 1 && w[0].substr(1) == id) {
      out.emplace_back(now, w[0].substr(0, 1));
    }
  }
  return out;
}

static std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CommandResult run_command(const std::string& command_line) {
  CommandResult r;
  FILE* pipe = ::popen((command_line + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

CommandResult run_gbesim(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                         const std::string& environment) {
  std::string line = "cd " + shell_quote(cwd.string()) + " && ";
  if (!environment.empty()) line += "env " + shell_quote(environment) + " ";
  line += shell_quote(GBESIM_BINARY);
  for (const auto& a : args) line += " " + shell_quote(a);
  return run_command(line);
}

BackgroundGbesim::BackgroundGbesim(const std::vector<std::string>& args,
                                   const std::filesystem::path& cwd, bool own_group) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  // Everything the child needs is made before fork: after it, only exec-safe calls.
  std::vector<std::string> all = {GBESIM_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = {"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"};
  for (char** e = environ; *e != nullptr; ++e)
    if (std::string(*e).rfind("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=", 0) != 0) env_text.push_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    if (own_group) ::setpgid(0, 0);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    if (::chdir(cwd.c_str()) != 0) ::_exit(127);
    ::execve(GBESIM_BINARY, argv.data(), envp.data());
    ::_exit(127);
  }
  if (own_group) ::setpgid(pid_, pid_);  // both sides, so that neither races the other
  ::close(fds[1]);
  out_fd_ = fds[0];
}

BackgroundGbesim::~BackgroundGbesim() {
  if (!reaped_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait();
  }
  if (out_fd_ >= 0) ::close(out_fd_);
}

bool BackgroundGbesim::wait_for_output(const std::string& text) {
  char buffer[4096];
  while (output_.find(text) == std::string::npos) {
    const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // it closed its output: it has ended
    output_.append(buffer, static_cast<std::size_t>(n));
  }
  return true;
}

void BackgroundGbesim::signal(int sig) const {
  ::kill(pid_, sig);
}

void BackgroundGbesim::signal_group(int sig) const {
  ::kill(-pid_, sig);
}

int BackgroundGbesim::wait() {
  if (reaped_) return code_;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(out_fd_, buffer, sizeof buffer)) != 0) {
    if (n < 0 && errno != EINTR) break;
    if (n > 0) output_.append(buffer, static_cast<std::size_t>(n));
  }
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return code_;
}

bool process_running(pid_t pid) {
  // A zombie has ended: whether anyone reaps it depends on the machine's init.
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

bool wait_until(const std::function<bool()>& condition, const std::function<bool()>& give_up) {
  while (!condition()) {
    if (give_up()) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a poll, not a wait for time
  }
  return true;
}

std::filesystem::path fresh_directory(const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gbesim-test-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
}

std::filesystem::path source_dir() {
  return GBESIM_SOURCE_DIR;
}

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, ',')) fields.push_back(f);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

std::string stats_pattern(const std::string& component, const std::string& run_json) {
  const Json config = Json::parse(run_json)["config"];
  std::set<std::string> stations, hosts, masters, switches;
  if (config.contains("stations"))
    for (const auto& [name, body] : config["stations"].items()) stations.insert(name);
  if (config.contains("switches"))
    for (const auto& [name, body] : config["switches"].items()) switches.insert(name);
  if (config.contains("hosts"))
    for (const auto& [name, body] : config["hosts"].items()) {
      hosts.insert(name);
      if (body.contains("dma"))
        for (const auto& [m, unused] : body["dma"].items()) masters.insert(m);
    }
  auto indexed = [](const std::string& part) {
    for (const std::string prefix : {"domain", "link", "source"}) {
      if (part.rfind(prefix, 0) != 0 || part.size() == prefix.size()) continue;
      if (part.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
        return prefix + "<i>";
    }
    return part;
  };
  std::string pattern;
  std::stringstream parts(component);
  for (std::string part; std::getline(parts, part, '.');) {
    if (stations.count(part) != 0)
      part = "<station>";
    else if (pattern.empty() && hosts.count(part) != 0)
      part = "<host>";
    else if (pattern == "analysis" && hosts.count(part) != 0)
      part = "<host>";
    else if (!pattern.empty() && masters.count(part) != 0)
      part = "<dma master>";
    else if (pattern.empty() && switches.count(part) != 0)
      part = "<switch>";
    else if (part.rfind("to_", 0) == 0 && stations.count(part.substr(3)) != 0)
      part = "to_<station>";
    else if (part.rfind("stack_", 0) == 0 && stations.count(part.substr(6)) != 0)
      part = "stack_<station>";
    else if (part.rfind("to_", 0) == 0 && part.find_last_of('_') > 3 &&
             switches.count(part.substr(3, part.find_last_of('_') - 3)) != 0)
      part = "to_<switch>_<n>";
    else if (!pattern.empty() && part.rfind("port", 0) == 0 && part.size() > 4 &&
             part.find_first_not_of("0123456789", 4) == std::string::npos)
      part = "port<n>";
    else
      part = indexed(part);
    pattern += (pattern.empty() ? "" : ".") + part;
  }
  return pattern;
}

}  // namespace gbesim::testing
