#pragma once
// The Slurm options `gbesim sweep --slurm` writes into its batch scripts (#SBATCH lines), checked
// against sbatch's own grammar before anything is written: a value is copied into a script line,
// so a newline in it would add a line of its own (another #SBATCH directive), and a value sbatch
// refuses would only fail later, on the cluster.

#include <optional>
#include <string>

namespace gbesim {

// Why `text` is not a time limit sbatch --time accepts, or nullopt. Accepted: "minutes",
// "minutes:seconds", "hours:minutes:seconds", "days-hours", "days-hours:minutes",
// "days-hours:minutes:seconds" (each field decimal digits), and "UNLIMITED" or "INFINITE" (any
// case).
std::optional<std::string> slurm_time_problem(const std::string& text);

// Why `text` is not a partition list sbatch --partition accepts, or nullopt: one or more
// partition names separated by commas, each of letters, digits, '_', '-' and '.'.
std::optional<std::string> slurm_partition_problem(const std::string& text);

}  // namespace gbesim
