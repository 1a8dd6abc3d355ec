#pragma once
// `gbesim sweep --slurm`: the scripts that run a sweep on a Slurm cluster (docs/cluster.md).
// DIR/slurm/shards.sbatch is a job array, one task per shard (`gbesim sweep --shard I/N -j C`),
// DIR/slurm/aggregate.sbatch runs `gbesim sweep --aggregate`, and DIR/slurm/submit.sh submits the
// first, then the second to start after every task has ended, however it ended, so that what is
// complete is aggregated and what is not is named. With --submit, gbesim submits them itself and
// records the job ids in DIR/slurm/jobs.json. The #SBATCH values were checked (slurm_options).

#include <filesystem>
#include <string>

#include "sim/campaign/sweep.hpp"
#include "sim/input/sweep_plan.hpp"

namespace gbesim {

// Writes DIR/slurm/ for the sweep `name` in `sweep_dir`, then says how to submit it (or submits
// it). Returns the exit code.
int write_slurm(const SweepOptions& options, const SweepPlan& plan, const std::string& name,
                const std::filesystem::path& sweep_dir);

}  // namespace gbesim
