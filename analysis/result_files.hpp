#pragma once
// A results directory's files as untrusted input. gbesim reads back what it wrote (a sweep its
// runs, `plot` and `report` any directory), and anything may have happened to those files since:
// truncated by a full disk, edited, replaced by a FIFO, a device, a directory or a symbolic link.
// So a file is opened without following links and without blocking, read only if it is a
// regular file of bounded size, and checked against the size and CRC-32 (IEEE 802.3's) that the
// record written when it was finished lists for it (run.json's or sweep.json's "files").
// Problems are ResultsErrors naming the file and what was wrong (exit code 2 in the CLI).
// Pure C++: no Qt, no SystemC.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gbesim {

class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Files larger than this are not read into memory: a CSV read as rows of text takes some ten
// times its size (the largest summary.csv of a shipped sweep is some 20 MB; a series.csv that
// would be larger is a shorter --series interval than charts can show).
inline constexpr std::uint64_t kMaxResultFileBytes = std::uint64_t{64} << 20;

struct FileCheck {
  std::uint64_t bytes = 0;
  std::uint32_t crc32 = 0;
  bool operator==(const FileCheck& o) const { return bytes == o.bytes && crc32 == o.crc32; }
};

// "a directory", "a symbolic link", "a FIFO", "a socket", "a device", or "not a regular file":
// what a path that is not a regular file is, for messages (`mode` from lstat).
std::string kind_of_file(unsigned mode);
// Whether `name` names a file inside a directory: not empty, no '/', not "." or "..". (A record
// is input like any other: a name it lists may be anything.)
bool is_plain_name(const std::string& name);

FileCheck check_of_text(const std::string& text);
// The size and CRC-32 of a regular file, read in pieces (any size). Throws ResultsError.
FileCheck check_of_file(const std::filesystem::path& file);

// A record's "files" object: the check of each of `names` that is a regular file in `dir` (a
// name not written is left out).
nlohmann::json checks_of_files(const std::filesystem::path& dir,
                               const std::vector<std::string>& names);

// {"bytes": 48213, "crc32": "1c291ca3"}, and back (nullopt when `entry` is not of that shape).
nlohmann::json file_check_json(const FileCheck& check);
std::optional<FileCheck> file_check_from_json(const nlohmann::json& entry);

// The text of a regular file of at most `max_bytes`; a FIFO, device, directory, socket or
// symbolic link is refused, as is a larger file. Throws ResultsError ("FILE: is a FIFO; ...").
std::string read_result_file(const std::filesystem::path& file,
                             std::uint64_t max_bytes = kMaxResultFileBytes);

// A record gbesim writes (run.json, sweep.json, phy.json) is sealed: its last member,
// "record_crc32", is the CRC-32 of every byte before it (the text up to the comma that precedes
// it), so a record vouches for itself as its "files" vouch for the rest. `text` is a JSON object
// with members, as dump() writes it ("{...\n}" and an optional newline); the sealed text ends
// with a newline.
std::string seal_record(std::string text);
enum class Seal { none, intact, broken };
Seal seal_of(const std::string& text);

// A record gbesim wrote: a JSON object of at most 64 MiB, read as above, whose seal, when it has
// one, is intact (`sealed` says whether it had one). Throws ResultsError.
nlohmann::json read_record_file(const std::filesystem::path& file, bool* sealed = nullptr);
// The same, or null when it is missing, unreadable, broken or not a JSON object.
nlohmann::json read_record_or_null(const std::filesystem::path& file);

// Why `actual`, what `name` holds now, is not what a record's "files" object lists for it, or
// nullopt when it is; `record` names the record in the message ("run.json").
std::optional<std::string> file_check_problem(const std::string& name, const FileCheck& actual,
                                              const nlohmann::json& files,
                                              const std::string& record);

// Why `dir/name` is not what a record's "files" lists for it, or nullopt: its kind and size
// looked at first (a huge sparse file is never read), then its CRC-32. Reading problems are
// problems too, in words.
std::optional<std::string> recorded_file_problem(const std::filesystem::path& dir,
                                                 const std::string& name,
                                                 const nlohmann::json& files,
                                                 const std::string& record);

// Reads `dir/name` and checks it against the record's "files" when the record has them (a
// directory written by hand has none: its text is only validated by the reader). Throws
// ResultsError with the file and the mismatch.
std::string read_recorded_file(const std::filesystem::path& dir, const std::string& name,
                               const nlohmann::json& record, const std::string& record_name);

}  // namespace gbesim
