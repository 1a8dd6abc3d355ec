#include "sim/support/output_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <set>
#include <string_view>

#include <fmt/core.h>

#include "analysis/result_files.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/file_names.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

constexpr const char* kMarkText =
    "This directory holds results written by gbesim. gbesim replaces or removes here only the "
    "files its own records list; without this file it treats the directory as someone else's.\n";

[[noreturn]] void fail(const std::filesystem::path& dir, const std::string& message) {
  throw ScenarioError({{dir.string(), "", message}});
}

// The lock file, never through a symbolic link (a planted link could make us truncate another
// file); read-only when another user owns it (flock works on any descriptor). -1 on failure.
int open_lock(const std::filesystem::path& dir, bool* writable) {
  const auto file = dir / kLockName;
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  *writable = fd >= 0;
  if (fd < 0 && errno == EACCES) {
    fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) errno = EACCES;  // there is none, and none can be made
  }
  struct stat st {};
  if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  return fd;
}

// Whether the lock file's name still leads to the file `fd` holds: a holder that ends removes
// the name, and a process that opened it before then may lock a file nobody else will see.
bool still_named(const std::filesystem::path& dir, int fd) {
  struct stat held {
  }, named{};
  return ::fstat(fd, &held) == 0 && ::lstat((dir / kLockName).c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

// Marks the directory as gbesim's (kMarkName), once; false with errno on failure.
bool mark(const std::filesystem::path& dir) {
  const int fd =
      ::open((dir / kMarkName).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return errno == EEXIST;
  const std::string_view text = kMarkText;
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return written;
}

// The error of the last call that failed: "cannot write here" when that is what it means.
std::string problem(const std::string& what) {
  const int e = errno;
  return (e == EACCES || e == EROFS || e == EPERM ? std::string("cannot write here") : what) +
         ": " + std::strerror(e);
}

std::string holder_of(int fd) {
  std::array<char, 512> buffer{};
  const ssize_t n = ::pread(fd, buffer.data(), buffer.size() - 1, 0);
  std::string text = n > 0 ? std::string(buffer.data(), static_cast<std::size_t>(n)) : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "another process" : text;
}

}  // namespace

OutputDirectory::OutputDirectory(std::filesystem::path dir, const std::string& holder,
                                 const std::vector<std::string>& will_write)
    : dir_(std::move(dir)) {
  std::error_code ec;
  if (std::filesystem::equivalent(dir_, "/", ec))
    fail(dir_, "the root directory cannot hold results; give a directory of their own");
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_))
    fail(dir_, "cannot create the directory" + (ec ? ": " + ec.message() : std::string()));
  bool writable = false;
  struct stat seen {};
  // The mark, or a lock file a killed gbesim left (or one of a gbesim that kept it as the mark).
  was_marked_ = ::lstat((dir_ / kMarkName).c_str(), &seen) == 0 ||
                ::lstat((dir_ / kLockName).c_str(), &seen) == 0;
  // A directory gbesim never used keeps what is in it: refused before it is marked, so that a
  // process ended at any moment after marking it leaves only its own names there.
  if (!was_marked_) refuse_foreign(will_write, {});
  if (!mark(dir_)) fail(dir_, problem("cannot mark the directory as gbesim's"));
  // From here on a failure must release the lock: the destructor does not run for a constructor
  // that throws.
  auto release_and_fail = [&](const std::string& message) {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
    fail(dir_, message);
  };
  // Locked, and still the file the name leads to (else the holder that just ended removed it:
  // again, on the name's new file).
  for (int attempt = 0; lock_fd_ < 0 && attempt < 100; ++attempt) {
    lock_fd_ = open_lock(dir_, &writable);
    if (lock_fd_ < 0) fail(dir_, problem("cannot use " + std::string(kLockName) + " here"));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0)
      release_and_fail("in use by " + holder_of(lock_fd_) +
                       "; wait for it to finish, stop it, or use another --out");
    if (!still_named(dir_, lock_fd_)) {
      ::close(lock_fd_);
      lock_fd_ = -1;
    }
  }
  if (lock_fd_ < 0)
    fail(dir_, "cannot take " + std::string(kLockName) + ": it keeps being replaced");
  const std::string text = holder + "\n";
  if (writable &&
      (::ftruncate(lock_fd_, 0) != 0 ||
       ::pwrite(lock_fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())))
    release_and_fail(std::string("cannot write here: ") + std::strerror(errno));
  // Temporaries of gbesim processes that were killed before they could rename or remove them
  // (a process still running, such as a report being written here, keeps its own).
  if (was_marked_)
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
      const std::string name = entry.path().filename().string();
      if (const auto pid = temporary_owner(name); pid && ::kill(*pid, 0) != 0 && errno == ESRCH)
        std::filesystem::remove(entry.path(), ec);
    }
  // Can a file be created and renamed here? Better to know now than after the simulation. (A
  // name of this process's own, which no user file has.)
  const auto probe_name = dir_ / (".gbesim-write-test-" + std::to_string(::getpid()));
  try {
    AtomicFile probe(probe_name);
    probe.write("ok\n");
    probe.commit();
  } catch (const std::exception& e) {
    release_and_fail(std::string("cannot write here: ") + e.what());
  }
  std::filesystem::remove(probe_name, ec);
}

// The lock file goes with its holder (the mark stays): removed while it is held, so that a
// process waiting on it sees it is no longer the name's and takes the name's next one.
OutputDirectory::~OutputDirectory() {
  if (lock_fd_ < 0) return;
  if (still_named(dir_, lock_fd_)) ::unlink((dir_ / kLockName).c_str());
  ::close(lock_fd_);  // releases the lock
}

void OutputDirectory::remove_or_fail(const std::string& name) const {
  std::error_code ec;
  const auto file = dir_ / name;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return;
  std::filesystem::remove(file, ec);
  if (ec) fail(dir_, "cannot remove the old " + name + ": " + ec.message());
}

namespace {

// The plain names of `names` (a record is input like any other).
std::set<std::string> plain_names(const std::vector<std::string>& names) {
  std::set<std::string> out;
  for (const auto& name : names)
    if (is_plain_name(name)) out.insert(name);
  return out;
}

}  // namespace

void OutputDirectory::refuse_foreign(const std::vector<std::string>& will_write,
                                     const std::vector<std::string>& own,
                                     const std::string& why) const {
  const std::set<std::string> owned = was_marked_ ? plain_names(own) : std::set<std::string>{};
  std::vector<std::string> foreign;
  std::error_code ec;
  for (const auto& name : will_write)
    if (!owned.count(name) &&
        std::filesystem::exists(std::filesystem::symlink_status(dir_ / name, ec)))
      foreign.push_back(name);
  if (foreign.empty()) return;
  // The mark this process put on a directory that is not gbesim's goes with the refusal.
  if (!was_marked_) ::unlink((dir_ / kMarkName).c_str());
  std::string list;
  for (std::size_t i = 0; i < foreign.size() && i < 10; ++i)
    list += (list.empty() ? "" : ", ") + printable(foreign[i]);
  if (foreign.size() > 10) list += fmt::format(" and {} more", foreign.size() - 10);
  const std::string reason = !why.empty() ? why
                             : was_marked_
                                 ? std::string("the record of the last run here does not list it")
                                 : "the directory has no gbesim mark, " + std::string(kMarkName);
  fail(dir_, "holds " + list + ", which gbesim did not write here (" + reason +
                 "): nothing was changed; move it away or give another --out");
}

void OutputDirectory::remove_own(const std::vector<std::string>& own) const {
  if (!was_marked_) return;
  std::error_code ec;
  for (const auto& name : plain_names(own)) {
    const auto status = std::filesystem::symlink_status(dir_ / name, ec);
    if (!std::filesystem::exists(status) || std::filesystem::is_directory(status)) continue;
    std::filesystem::remove(dir_ / name, ec);
    if (ec) fail(dir_, "cannot remove the old " + printable(name) + ": " + ec.message());
  }
}

std::optional<std::string> wait_until_unlocked(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir / kLockName, ec)) return std::nullopt;
  bool writable = false;
  const int fd = open_lock(dir, &writable);
  if (fd < 0) return std::nullopt;  // the run itself will say what is wrong
  std::optional<std::string> waited;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    waited = holder_of(fd);
    while (::flock(fd, LOCK_EX) != 0 && errno == EINTR && !stop_requested()) {
    }
  }
  ::close(fd);
  return waited;
}

bool lock_held(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat((dir / kLockName).c_str(), &st) != 0) return false;
  // /proc/locks: "1: FLOCK  ADVISORY  WRITE 4242 08:01:123456 0 EOF" (device in hex).
  const std::string id = fmt::format(" {:02x}:{:02x}:{} ", major(st.st_dev), minor(st.st_dev),
                                     static_cast<unsigned long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line))
    if (line.find("FLOCK") != std::string::npos && line.find(id) != std::string::npos) return true;
  return false;
}

std::optional<std::string> results_name_problem(const std::string& name) {
  const std::string shown = "\"" + name + "\"";
  if (name.empty()) return "a name cannot be empty";
  if (name.size() > kMaxFileNameChars)
    return "a name is at most " + std::to_string(kMaxFileNameChars) + " characters";
  if (!std::isalnum(static_cast<unsigned char>(name[0])))
    return shown + " cannot name a results directory: start with a letter or a digit";
  if (!std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
      }))
    return shown + " cannot name a results directory: use letters, digits, '_', '-', '.'";
  if (name.back() == '.')
    return shown + " cannot name a results directory: it ends with '.' (Windows drops it)";
  if (is_windows_device_name(name))
    return shown + " is a device name on Windows; choose another name";
  return std::nullopt;
}

std::filesystem::path checked_out_option(const std::string& text, const std::string& option) {
  if (text.empty()) throw ScenarioError({{option, "", "expected a directory, got an empty path"}});
  return std::filesystem::path(text);
}

}  // namespace gbesim
