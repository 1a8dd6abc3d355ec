#pragma once
// Result files are written under a temporary name and renamed into place when complete, so a
// crash never leaves a file that looks finished.

#include <cstdio>
#include <filesystem>
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
};

void write_file_atomically(const std::filesystem::path& path, const std::string& content);
// A sibling name for a temporary file: ".<name>.tmp-<pid>".
std::filesystem::path temporary_name(const std::filesystem::path& final_path);

}  // namespace gbesim
