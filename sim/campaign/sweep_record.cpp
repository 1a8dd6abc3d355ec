#include "sim/campaign/sweep_record.hpp"

#include <unistd.h>

#include <system_error>
#include <utility>

#include "analysis/result_files.hpp"
#include "sim/input/json_input.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

Json points_of(const SweepPlan& plan) {
  Json points = Json::array();
  for (std::size_t p = 0; p < plan.point_count(); ++p) {
    Json values = Json::object();
    for (const auto& [path, v] : plan.point(p)) values[path] = v;
    points.push_back(values);
  }
  return points;
}

// The checks of the files an earlier sweep.json in `dir` lists that are still as it wrote them.
Json earlier_checks(const std::filesystem::path& dir) {
  Json files = Json::object();
  if (const auto earlier = read_record_or_null(dir / "sweep.json");
      earlier.is_object() && earlier.contains("files") && earlier["files"].is_object())
    for (const auto& [file, check] : earlier["files"].items())
      if (!recorded_file_problem(dir, file, earlier["files"], "sweep.json"))
        files[file] = Json::parse(check.dump());
  return files;
}

}  // namespace

SweepRecord::SweepRecord(const SweepOptions& options, const SweepPlan& plan,
                         const std::string& name, std::filesystem::path dir)
    : dir_(std::move(dir)), scenario_file_(options.scenario_file), owner_(::getpid()) {
  description_["scenario_file"] = options.scenario_file;
  description_["name"] = name;
  description_["sets"] = options.sets;
  description_["replications"] = plan.replications;
  description_["runs"] = plan.run_count();
  description_["points"] = points_of(plan);
  description_["files"] = earlier_checks(dir_);
}

void SweepRecord::write(const std::string& status, std::size_t runs_complete) {
  description_["status"] = status;
  description_["runs_complete"] = runs_complete;
  write_file_atomically(dir_ / "sweep.json", seal_record(dump_json(description_, 2)));
  if (::getpid() == owner_) set_hard_stop_record(status);
}

void SweepRecord::set_hard_stop_record(const std::string& status) const {
  if (status != "running") {
    set_record_for_hard_stop({}, "");
    return;
  }
  Json stopped = description_;
  stopped["status"] = "interrupted";
  stopped["note"] =
      "stopped at once by a second signal: points.csv and summary.csv, if there are any, are "
      "from the last aggregation; gbesim sweep " +
      scenario_file_ + " --aggregate brings them up to date";
  set_record_for_hard_stop(dir_ / "sweep.json", seal_record(dump_json(stopped, 2)));
}

void SweepRecord::write_file(const std::string& file, const std::string& text) {
  write_file_atomically(dir_ / file, text);
  description_["files"][file] = file_check_json(check_of_text(text));
}

void SweepRecord::record_file(const std::string& file) {
  description_["files"][file] = file_check_json(check_of_file(dir_ / file));
}

void SweepRecord::adopt_checks(std::size_t runs_complete) {
  const auto written = read_record_or_null(dir_ / "sweep.json");
  if (!written.is_object() || !written.contains("files") || !written["files"].is_object()) return;
  description_["files"] = Json::parse(written["files"].dump());
  write("running", runs_complete);
}

void SweepRecord::forget_answers() {
  std::error_code ec;
  std::filesystem::remove(dir_ / "answers.txt", ec);
  description_["files"].erase("answers.txt");
}

}  // namespace gbesim
