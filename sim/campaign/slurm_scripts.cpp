#include "sim/campaign/slurm_scripts.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "sim/campaign/shell_words.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"

namespace gbesim {
namespace {

std::string absolute_text(const std::filesystem::path& p) {
  return std::filesystem::absolute(p).lexically_normal().string();
}

// What every script is written from.
struct SlurmJob {
  const SweepOptions& options;
  std::string name;
  std::size_t runs = 0;
  std::size_t tasks = 0;
  std::filesystem::path slurm;  // DIR/slurm
  std::string self;             // the gbesim executable, as a shell word
  std::string common;           // " SCENARIO --out DIR --set ...", for every gbesim sweep line
};

// --tasks, or min(runs, 8); more tasks than runs is refused before anything is written.
std::size_t task_count(const SweepOptions& options, std::size_t runs) {
  const std::size_t tasks = options.slurm_tasks > 0 ? static_cast<std::size_t>(options.slurm_tasks)
                                                    : std::min<std::size_t>(runs, 8);
  if (tasks > runs) {
    Diagnostics d(options.scenario_file);
    d.error("", fmt::format("--tasks {}: at most {} (the sweep has {} runs)", tasks, runs, runs));
    d.throw_if_any();
  }
  return tasks;
}

// Absolute paths throughout: a job starts wherever the scheduler starts it.
std::string common_arguments(const SweepOptions& options, const std::filesystem::path& sweep_dir) {
  std::string common = " " + shell_word(absolute_text(options.scenario_file)) + " --out " +
                       shell_word(absolute_text(sweep_dir));
  for (const auto& set : options.sets) common += " --set " + shell_word(set);
  return common;
}

std::string script_header(const SlurmJob& job, const std::string& job_name,
                          const std::string& output) {
  std::string h = "#!/bin/bash\n";
  h += "#SBATCH --job-name=" + shell_word(job_name) + "\n";
  h += "#SBATCH --output=" + shell_word(absolute_text(job.slurm / output)) + "\n";
  if (!job.options.slurm_partition.empty())
    h += "#SBATCH --partition=" + shell_word(job.options.slurm_partition) + "\n";
  if (!job.options.slurm_time.empty())
    h += "#SBATCH --time=" + shell_word(job.options.slurm_time) + "\n";
  return h;
}

std::string shards_script(const SlurmJob& job) {
  std::string shards = script_header(job, "gbesim-" + job.name, "shard-%a.out");
  shards += fmt::format("#SBATCH --array=1-{}\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task={}\n",
                        job.tasks, job.options.slurm_cpus_per_task);
  shards += fmt::format(
      "# Written by gbesim sweep --slurm: task I of this array runs shard I/{} of the {} runs\n"
      "# (docs/cluster.md).\nset -euo pipefail\nexec {} sweep{} --shard "
      "\"$SLURM_ARRAY_TASK_ID/{}\" "
      "-j {} --quiet\n",
      job.tasks, job.runs, job.self, job.common, job.tasks, job.options.slurm_cpus_per_task);
  return shards;
}

std::string aggregate_script(const SlurmJob& job) {
  std::string aggregate = script_header(job, "gbesim-" + job.name + "-aggregate", "aggregate.out");
  aggregate += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  aggregate += fmt::format(
      "# Written by gbesim sweep --slurm: after every shard task has ended, points.csv and\n"
      "# summary.csv from what is complete (exit 1 naming the runs that are not).\n"
      "set -euo pipefail\nexec {} sweep{} --aggregate\n",
      job.self, job.common);
  return aggregate;
}

std::string submit_script(const SlurmJob& job) {
  return fmt::format(
      "#!/bin/sh\n# Written by gbesim sweep --slurm: submits the shards, then the aggregation to\n"
      "# run after all of them (afterany: also when some failed).\nset -eu\n"
      "array=$(sbatch --parsable {})\narray=${{array%%;*}}\n"
      "aggregate=$(sbatch --parsable --dependency=afterany:$array {})\n"
      "echo \"shards: job $array (array of {}), aggregation: job ${{aggregate%%;*}}\"\n",
      shell_word(absolute_text(job.slurm / "shards.sbatch")),
      shell_word(absolute_text(job.slurm / "aggregate.sbatch")), job.tasks);
}

void write_scripts(const SlurmJob& job) {
  const std::string shards = shards_script(job);
  const std::string aggregate = aggregate_script(job);
  const std::string submit = submit_script(job);
  write_file_atomically(job.slurm / "shards.sbatch", shards);
  write_file_atomically(job.slurm / "aggregate.sbatch", aggregate);
  write_file_atomically(job.slurm / "submit.sh", submit);
  std::error_code ec;
  std::filesystem::permissions(job.slurm / "submit.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add, ec);
}

void say_how_to_submit(const SlurmJob& job) {
  const int cpus = job.options.slurm_cpus_per_task;
  fmt::print(
      "sweep {}: {} runs in {} Slurm array tasks ({} to {} runs each, {} CPU{} per task);\n"
      "written {}/ (shards.sbatch, aggregate.sbatch, submit.sh). Submit with:\n  sh {}\n"
      "then follow it with: {} sweep{} --status\n",
      job.name, job.runs, job.tasks, job.runs / job.tasks, (job.runs + job.tasks - 1) / job.tasks,
      cpus, cpus == 1 ? "" : "s", job.slurm.string(),
      shell_word(absolute_text(job.slurm / "submit.sh")), job.self, job.common);
}

// sbatch --parsable prints "ID" or "ID;CLUSTER".
std::string job_id(const std::string& parsable) {
  return parsable.substr(0, parsable.find(';'));
}

void submit(const SlurmJob& job) {
  const std::string shards_file = absolute_text(job.slurm / "shards.sbatch");
  const std::string aggregate_file = absolute_text(job.slurm / "aggregate.sbatch");
  const std::string array = job_id(command_output("sbatch --parsable " + shell_word(shards_file)));
  const std::string aggregation =
      job_id(command_output("sbatch --parsable --dependency=afterany:" + shell_word(array) + " " +
                            shell_word(aggregate_file)));
  Json ids;
  ids["array_job"] = array;
  ids["aggregate_job"] = aggregation;
  ids["tasks"] = job.tasks;
  write_file_atomically(job.slurm / "jobs.json", dump_json(ids, 2) + "\n");
  fmt::print(
      "sweep {}: submitted job {} (array of {} shard tasks) and job {} (aggregation, "
      "after them); follow it with: {} sweep{} --status\n",
      job.name, array, job.tasks, aggregation, job.self, job.common);
}

}  // namespace

int write_slurm(const SweepOptions& options, const SweepPlan& plan, const std::string& name,
                const std::filesystem::path& sweep_dir) {
  const std::size_t runs = plan.run_count();
  const std::size_t tasks = task_count(options, runs);
  const OutputDirectory out(
      sweep_dir,
      fmt::format("gbesim sweep {} --slurm (pid {})", printable(options.scenario_file), ::getpid()),
      {"slurm"});
  const std::filesystem::path slurm = sweep_dir / "slurm";
  std::error_code ec;
  std::filesystem::create_directories(slurm, ec);
  if (ec) throw ScenarioError({{slurm.string(), "", "cannot create it: " + ec.message()}});
  const SlurmJob job{options,
                     name,
                     runs,
                     tasks,
                     slurm,
                     shell_word(absolute_text(options.self)),
                     common_arguments(options, sweep_dir)};
  write_scripts(job);
  if (options.slurm_submit)
    submit(job);
  else
    say_how_to_submit(job);
  return 0;
}

}  // namespace gbesim
