#pragma once
// A results directory is written by one gbesim process at a time. Opening one creates it, takes
// its lock (another gbesim writing there is an error that names it), checks that files can be
// created in it before anything is simulated, and removes the temporary files that a killed
// process left behind (while we hold the lock, no other process may be writing them). The lock is
// a flock(2) on DIR/.gbesim.lock: the kernel releases it when the holder ends, however it ends,
// and a holder that ends normally removes the file too (one killed leaves it, to the next).
//
// DIR/.gbesim is gbesim's mark on the directory, made only once the directory holds nothing
// gbesim is about to write, and kept (a lock file left there counts as a mark too). Files in a
// directory without it are the user's: gbesim opens it only if no file there has a name it is
// about to write, and removes nothing in it. In a marked directory it replaces or removes only
// what it was told is its own (the names the last run's sealed run.json lists, or the fixed
// names of the command). The root directory is refused. Problems are ScenarioErrors (exit code
// 2), naming the directory.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gbesim {

// The mark's name; the lock file's.
inline constexpr const char* kMarkName = ".gbesim";
inline constexpr const char* kLockName = ".gbesim.lock";

class OutputDirectory {
 public:
  // `holder`: how this process describes itself to another that finds the directory busy.
  // `will_write`: the plain names this process will write there (files or directories); in a
  // directory gbesim never used, any of them that exists is refused before the mark is made.
  OutputDirectory(std::filesystem::path dir, const std::string& holder,
                  const std::vector<std::string>& will_write);
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;
  ~OutputDirectory();

  const std::filesystem::path& path() const { return dir_; }
  // Whether gbesim had used the directory before this process opened it (it held the mark).
  bool was_marked() const { return was_marked_; }
  // Refuses to write over what is not gbesim's: `will_write` are the plain names this process
  // will write; `own`, names an earlier gbesim wrote here (its record's list), count only in a
  // marked directory. A ScenarioError names every file of `will_write` that exists and is not of
  // `own`, with `why` when given (why the record's list was not taken).
  void refuse_foreign(const std::vector<std::string>& will_write,
                      const std::vector<std::string>& own, const std::string& why = "") const;
  // Removes the files of `own` that exist (in a marked directory only): what an earlier run wrote
  // and this one may not write again must not be left beside new results.
  void remove_own(const std::vector<std::string>& own) const;
  // Removes DIR/name if it exists; a ScenarioError if it exists and cannot be removed (a stale
  // run.json must never survive beside new results).
  void remove_or_fail(const std::string& name) const;

 private:
  std::filesystem::path dir_;
  int lock_fd_ = -1;
  bool was_marked_ = false;
};

// Blocks until no process holds DIR's lock (an earlier sweep's run that is still stopping), or
// until this process is asked to stop. Returns the holder's description when it had to wait,
// nullopt when the directory was free.
std::optional<std::string> wait_until_unlocked(const std::filesystem::path& dir);

// True if a process holds DIR's lock now (a run still writing there), read from the kernel's
// lock table without touching the lock, so that looking never gets in a starting run's way.
// Only locks taken on this machine are seen (on a shared file system, not another node's).
bool lock_held(const std::filesystem::path& dir);

// Why `name` cannot name a results directory (results/<name>), or nullopt: it must start with a
// letter or a digit, use letters, digits, '_', '-' and '.', be at most 100 characters, and not be
// a name Windows reserves for a device (CON, NUL, COM1, ...), so results can be copied anywhere.
std::optional<std::string> results_name_problem(const std::string& name);

// The text of an --out option, checked: empty is an error, not "the default".
std::filesystem::path checked_out_option(const std::string& text, const std::string& option);

}  // namespace gbesim
