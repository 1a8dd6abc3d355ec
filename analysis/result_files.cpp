#include "analysis/result_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "models/common/crc32.hpp"

namespace gbesim {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw ResultsError(file.string() + ": " + what);
}

// A descriptor of the regular file `file`, opened without following a link or blocking (a FIFO
// put in its place cannot block us), closed when it goes.
class RegularFile {
 public:
  explicit RegularFile(const std::filesystem::path& file) {
    fd_ = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd_ < 0) {
      if (errno == ELOOP) fail(file, "is a symbolic link; gbesim writes only regular files");
      if (errno == ENOENT) fail(file, "is missing");
      fail(file, std::string("cannot be read: ") + std::strerror(errno));
    }
    if (::fstat(fd_, &st_) != 0) {
      const int error = errno;
      ::close(fd_);
      fail(file, std::string("cannot be read: ") + std::strerror(error));
    }
    if (!S_ISREG(st_.st_mode)) {
      ::close(fd_);
      fail(file, "is " + kind_of_file(st_.st_mode) + "; expected a file gbesim wrote");
    }
  }
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile() { ::close(fd_); }
  int fd() const { return fd_; }
  std::uint64_t size() const { return static_cast<std::uint64_t>(st_.st_size); }

 private:
  int fd_ = -1;
  struct stat st_ {};
};

// Reads up to `limit` bytes, passing each piece to `take`; returns the bytes read.
template <typename Take>
std::uint64_t read_pieces(const RegularFile& f, const std::filesystem::path& file,
                          std::uint64_t limit, Take&& take) {
  std::vector<char> piece(std::size_t{1} << 20);
  std::uint64_t total = 0;
  while (total < limit) {
    const auto want =
        static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), limit - total));
    const ssize_t n = ::read(f.fd(), piece.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(file, std::string("cannot be read: ") + std::strerror(errno));
    if (n == 0) break;
    take(piece.data(), static_cast<std::size_t>(n));
    total += static_cast<std::uint64_t>(n);
  }
  return total;
}

}  // namespace

std::string kind_of_file(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

bool is_plain_name(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..";
}

FileCheck check_of_text(const std::string& text) {
  return {text.size(), crc32(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())};
}

FileCheck check_of_file(const std::filesystem::path& file) {
  const RegularFile f(file);
  FileCheck c;
  c.bytes = read_pieces(f, file, UINT64_MAX, [&c](const char* data, std::size_t n) {
    c.crc32 = crc32_extend(c.crc32, reinterpret_cast<const std::uint8_t*>(data), n);
  });
  return c;
}

nlohmann::json checks_of_files(const std::filesystem::path& dir,
                               const std::vector<std::string>& names) {
  nlohmann::json files = nlohmann::json::object();
  std::error_code ec;
  for (const auto& name : names)
    if (std::filesystem::is_regular_file(std::filesystem::symlink_status(dir / name, ec)))
      files[name] = file_check_json(check_of_file(dir / name));
  return files;
}

nlohmann::json file_check_json(const FileCheck& check) {
  return {{"bytes", check.bytes}, {"crc32", fmt::format("{:08x}", check.crc32)}};
}

std::optional<FileCheck> file_check_from_json(const nlohmann::json& entry) {
  if (!entry.is_object() || !entry.contains("bytes") || !entry.contains("crc32")) return {};
  const auto& bytes = entry["bytes"];
  const auto& crc = entry["crc32"];
  if (!bytes.is_number_unsigned() || !crc.is_string()) return {};
  const std::string hex = crc.get<std::string>();
  if (hex.size() != 8 || hex.find_first_not_of("0123456789abcdef") != std::string::npos) return {};
  return FileCheck{bytes.get<std::uint64_t>(),
                   static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16))};
}

std::string read_result_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
  const RegularFile f(file);
  const std::string limit = fmt::format("results files are read up to {} MiB", max_bytes >> 20);
  if (f.size() > max_bytes) fail(file, fmt::format("has {} bytes; {}", f.size(), limit));
  std::string text;
  text.reserve(static_cast<std::size_t>(f.size()));
  // One byte past the limit tells a file that grew while being read.
  read_pieces(f, file, max_bytes + 1,
              [&text](const char* data, std::size_t n) { text.append(data, n); });
  if (text.size() > max_bytes) fail(file, "grew beyond the limit while being read; " + limit);
  return text;
}

namespace {

constexpr const char* kSealKey = ",\n  \"record_crc32\": \"";

}  // namespace

std::string seal_record(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.size() < 2 || text.back() != '}') return text + "\n";
  text.pop_back();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const FileCheck body = check_of_text(text);
  return text + fmt::format("{}{:08x}\"\n}}\n", kSealKey, body.crc32);
}

Seal seal_of(const std::string& text) {
  const std::size_t at = text.rfind(kSealKey);
  // A record that names its seal anywhere but in its place was sealed, and has been rewritten.
  if (at == std::string::npos)
    return text.find("\"record_crc32\"") == std::string::npos ? Seal::none : Seal::broken;
  const std::string tail = text.substr(at + std::strlen(kSealKey));
  // 8 hex digits, the closing quote, brace and newline: nothing after the seal.
  if (tail.size() != 12 || tail.compare(8, 4, "\"\n}\n") != 0 ||
      tail.substr(0, 8).find_first_not_of("0123456789abcdef") != std::string::npos)
    return Seal::broken;
  const auto recorded = static_cast<std::uint32_t>(std::stoul(tail.substr(0, 8), nullptr, 16));
  return check_of_text(text.substr(0, at)).crc32 == recorded ? Seal::intact : Seal::broken;
}

nlohmann::json read_record_file(const std::filesystem::path& file, bool* sealed) {
  const std::string text = read_result_file(file, std::uint64_t{64} << 20);
  const Seal seal = seal_of(text);
  if (seal == Seal::broken)
    fail(file, "damaged: its record_crc32 does not match its text (changed after gbesim wrote it)");
  if (sealed != nullptr) *sealed = seal == Seal::intact;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) fail(file, "not valid JSON");
  if (!j.is_object()) fail(file, "expected a JSON object");
  return j;
}

nlohmann::json read_record_or_null(const std::filesystem::path& file) {
  try {
    return read_record_file(file);
  } catch (const ResultsError&) {
    return nullptr;
  }
}

std::optional<std::string> file_check_problem(const std::string& name, const FileCheck& actual,
                                              const nlohmann::json& files,
                                              const std::string& record) {
  if (!files.is_object() || !files.contains(name))
    return fmt::format("{} lists no check of {}", record, name);
  const auto expected = file_check_from_json(files[name]);
  if (!expected)
    return fmt::format("{}'s check of {} is not {{\"bytes\": N, \"crc32\": \"8 hex digits\"}}",
                       record, name);
  if (expected->bytes != actual.bytes)
    return fmt::format("{} has {} bytes; {} records {} (written when it was finished)", name,
                       actual.bytes, record, expected->bytes);
  if (expected->crc32 != actual.crc32)
    return fmt::format("{} has CRC-32 {:08x}; {} records {:08x}: it changed after it was written",
                       name, actual.crc32, record, expected->crc32);
  return std::nullopt;
}

std::optional<std::string> recorded_file_problem(const std::filesystem::path& dir,
                                                 const std::string& name,
                                                 const nlohmann::json& files,
                                                 const std::string& record) {
  const auto expected = files.is_object() && files.contains(name)
                            ? file_check_from_json(files[name])
                            : std::optional<FileCheck>();
  if (!expected) return file_check_problem(name, FileCheck{}, files, record);
  try {
    const RegularFile f(dir / name);
    if (f.size() != expected->bytes)
      return fmt::format("{} has {} bytes; {} records {} (written when it was finished)", name,
                         f.size(), record, expected->bytes);
    FileCheck actual;
    actual.bytes =
        read_pieces(f, dir / name, expected->bytes + 1, [&actual](const char* data, std::size_t n) {
          actual.crc32 = crc32_extend(actual.crc32, reinterpret_cast<const std::uint8_t*>(data), n);
        });
    return file_check_problem(name, actual, files, record);
  } catch (const ResultsError& e) {
    return std::string(e.what());
  }
}

std::string read_recorded_file(const std::filesystem::path& dir, const std::string& name,
                               const nlohmann::json& record, const std::string& record_name) {
  const auto file = dir / name;
  std::string text = read_result_file(file);
  if (record.is_object() && record.contains("files")) {
    if (const auto problem =
            file_check_problem(name, check_of_text(text), record["files"], record_name))
      fail(file, "damaged: " + *problem);
  }
  return text;
}

}  // namespace gbesim
