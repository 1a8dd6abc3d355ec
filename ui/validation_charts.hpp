#pragma once
// The charts of a `gbesim validate` directory (its validation.csv): per source document and
// unit, each figure's simulated value against its measurement -- calibration and prediction rows
// as two kinds of marker -- with the line where they agree and the lines 20 % either side, so a
// row's error is its distance from the diagonal.

#include <filesystem>
#include <vector>

#include "analysis/validation.hpp"
#include "ui/standard_charts.hpp"

namespace gbesim::ui {

// Whether `dir` holds what `gbesim validate` writes (validation.json, and no run or sweep record).
bool is_validation_directory(const std::filesystem::path& dir);
// DIR/validation.csv read as untrusted input: checked against the size and CRC-32 its sealed
// record (validation.json) lists, then every field (ResultsError naming the file and line).
std::vector<ScoreRow> read_validation_directory(const std::filesystem::path& dir);

std::vector<StandardChart> validation_charts(const std::vector<ScoreRow>& rows);

}  // namespace gbesim::ui
