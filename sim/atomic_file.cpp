#include "sim/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gbesim {

std::filesystem::path temporary_name(const std::filesystem::path& final_path) {
  return final_path.parent_path() /
         ("." + final_path.filename().string() + ".tmp-" + std::to_string(::getpid()));
}

AtomicFile::AtomicFile(std::filesystem::path final_path)
    : final_(std::move(final_path)), temp_(temporary_name(final_)) {
  file_ = std::fopen(temp_.c_str(), "wb");
  if (file_ == nullptr)
    throw std::runtime_error("cannot write " + temp_.string() + ": " + std::strerror(errno));
  static constexpr std::size_t kBuffer = 1 << 20;
  std::setvbuf(file_, nullptr, _IOFBF, kBuffer);
}

AtomicFile::~AtomicFile() {
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
  std::filesystem::rename(temp_, final_, ec);
  if (ec) throw std::runtime_error("cannot rename to " + final_.string() + ": " + ec.message());
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  AtomicFile f(path);
  f.write(content);
  f.commit();
}

}  // namespace gbesim
