#pragma once
// `gbesim validate`: the project's scorecard against the published measurements of its source
// documents (docs/validation/*.json, compiled in; or a user's own files in the same shape). For
// each document it runs the points of its scenario that the figures and claims need (each run a
// process, into DIR/<source>/runs/<K>/ as a sweep's, so an interrupted validation resumes), scores
// every figure (measured, simulated, error, tolerance, role) and claim, prints the scorecard with
// per-source totals and the median absolute error of the prediction rows, and writes
// DIR/validation.csv and DIR/scorecard.txt. --check compares with a committed validation.csv: a
// prediction whose error grew by more than the allowed points, or a claim that no longer holds,
// is a regression (exit 1) -- a fingerprint of the model, never a target to tune to.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gbesim {

struct ValidateOptions {
  std::vector<std::string> data_files;  // empty: the built-in sources
  std::vector<std::string> sources;     // only these (file stems), empty: all
  bool quick = false;                   // only the rows marked quick
  int jobs = 1;
  std::optional<std::filesystem::path> out_dir;  // default results/validation
  std::string check_file;                        // --check: a committed validation.csv
  double allowed_points = 2;
  bool list_only = false;  // --list: the sources and their rows; nothing runs
  // --markdown FILE: a validation.csv as docs/validation.md's tables (with --totals, only the
  // totals, as the README has them); nothing runs.
  std::string markdown_of;
  bool totals_only = false;
  bool quiet = false;
};

int run_validate(const ValidateOptions& options);

}  // namespace gbesim
