#include "sim/support/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "analysis/result_files.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

// The open temporaries, for remove_registered_temporaries(): a fixed array of slots, each
// holding its own copy of a path, so that a signal handler can walk it without allocating.
constexpr int kSlots = 4096;
std::atomic<char*> g_paths[kSlots];

// Why a path cannot be created, in a user's words, after the system's.
std::string path_hint(const std::filesystem::path& path) {
  std::error_code ec;
  const auto parent = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::exists(parent, ec)) return " (" + parent.string() + " does not exist)";
  if (!std::filesystem::is_directory(parent, ec))
    return " (" + parent.string() + " is not a directory)";
  return "";
}

}  // namespace

int register_temporary(const std::string& path) {
  char* copy = ::strdup(path.c_str());
  if (copy == nullptr) return -1;
  for (int i = 0; i < kSlots; ++i) {
    char* expected = nullptr;
    if (g_paths[i].compare_exchange_strong(expected, copy)) return i;
  }
  std::free(copy);
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0) std::free(g_paths[slot].exchange(nullptr));
}

void remove_registered_temporaries() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (const char* path = g_paths[i].load()) ::unlink(path);
}

void refuse_unless_replaceable(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // nothing there (or the open will say why)
  if (S_ISREG(st.st_mode)) return;
  throw ScenarioError({{path.string(), "",
                        "is " + kind_of_file(st.st_mode) +
                            "; gbesim replaces only regular files: give a file's path"}});
}

std::optional<long> temporary_owner(const std::string& file_name) {
  // SystemC's VCD writer appends ".vcd" to the name it is given.
  std::string name = file_name;
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".vcd") == 0)
    name.resize(name.size() - 4);
  const auto at = name.rfind(".tmp-");
  if (name.size() < 2 || name[0] != '.' || at == std::string::npos || at < 2) return std::nullopt;
  const std::string pid = name.substr(at + 5);
  if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stol(pid);
}

std::filesystem::path temporary_name(const std::filesystem::path& final_path) {
  return final_path.parent_path() /
         ("." + final_path.filename().string() + ".tmp-" + std::to_string(::getpid()));
}

AtomicFile::AtomicFile(std::filesystem::path final_path)
    : final_(std::move(final_path)), temp_(temporary_name(final_)) {
  refuse_unless_replaceable(final_);
  // Registered before it exists: a signal in between finds nothing to remove, never a file it
  // does not know of.
  slot_ = register_temporary(temp_.string());
  // A new file of our own: whatever holds the temporary's name (a link planted there, a
  // leftover of a process with our pid) goes first, and the open refuses to follow a link or
  // to open a file that reappeared in between.
  ::unlink(temp_.c_str());
  const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  file_ = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
  if (file_ == nullptr) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    unregister_temporary(slot_);
    throw ScenarioError(
        {{final_.string(), "",
          std::string("cannot be written: ") + std::strerror(error) + path_hint(final_)}});
  }
  static constexpr std::size_t kBuffer = 1 << 20;
  std::setvbuf(file_, nullptr, _IOFBF, kBuffer);
}

AtomicFile::~AtomicFile() {
  unregister_temporary(slot_);
  if (file_ != nullptr) {
    std::fclose(file_);
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, file_) != size) failed_ = true;
}

void AtomicFile::commit() {
  // Flushed to the disk before the rename, so that a crash cannot leave a renamed, empty file.
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0 && !failed_;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
    throw std::runtime_error("cannot write " + final_.string() + ": " + std::strerror(errno));
  }
  std::error_code ec;
  try {
    refuse_unless_replaceable(final_);  // again: it may have changed while we wrote
  } catch (...) {
    std::filesystem::remove(temp_, ec);
    unregister_temporary(slot_);
    slot_ = -1;
    throw;
  }
  std::filesystem::rename(temp_, final_, ec);
  if (ec) std::filesystem::remove(temp_, ec);
  unregister_temporary(slot_);
  slot_ = -1;
  if (ec) throw std::runtime_error("cannot rename to " + final_.string() + ": " + ec.message());
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  AtomicFile f(path);
  f.write(content);
  f.commit();
}

}  // namespace gbesim
