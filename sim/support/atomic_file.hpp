#pragma once
// Result files are written under a temporary name and renamed into place when complete, so a
// crash never leaves a file that looks finished. The temporary is a new file (never a link
// followed or a file opened that was there), and the rename replaces only a regular file: an
// output path naming a device, a FIFO, a directory or a symbolic link is refused, as is a path
// that cannot be created -- ScenarioErrors naming the path (exit code 2).

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

namespace gbesim {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary file unless committed

  std::FILE* handle() { return file_; }
  void write(const std::string& text) { write(text.data(), text.size()); }
  void write(const void* data, std::size_t size);
  // Flushes, closes and renames into place. Throws std::runtime_error on I/O failure.
  void commit();
  const std::filesystem::path& temp_path() const { return temp_; }

 private:
  std::filesystem::path final_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
  int slot_ = -1;  // in the registry of open temporaries
};

// Throws ScenarioError unless `path` names nothing yet or a regular file (not through a link).
void refuse_unless_replaceable(const std::filesystem::path& path);
void write_file_atomically(const std::filesystem::path& path, const std::string& content);
// A sibling name for a temporary file: ".<name>.tmp-<pid>".
std::filesystem::path temporary_name(const std::filesystem::path& final_path);
// The process id in a file name of the form temporary_name gives, or nullopt for other names.
std::optional<long> temporary_owner(const std::string& file_name);
// Registers a temporary file written some other way (SystemC's VCD writer), for
// remove_registered_temporaries(); returns a slot for unregister_temporary (-1: not registered).
int register_temporary(const std::string& path);
void unregister_temporary(int slot);
// Removes every registered temporary this process has open. Async-signal-safe: for a signal
// handler that must exit at once.
void remove_registered_temporaries() noexcept;

}  // namespace gbesim
