#include "sim/campaign/sweep_status.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "sim/input/json_input.hpp"
#include "sim/support/diagnostics.hpp"

namespace gbesim {
namespace {

const std::vector<std::string> kStatusOrder = {"complete",    "running", "stale",  "damaged",
                                               "interrupted", "failed",  "missing"};

// The runs in each state, and those listed with their why: every run not complete, but a
// missing one that nothing is known of (those are "never run").
struct StatusTally {
  std::map<std::string, std::vector<std::size_t>> by_status;
  std::vector<std::pair<std::size_t, RunState>> listed;
  bool all_complete = false;
};

StatusTally tally(const SweepRuns& runs) {
  StatusTally t;
  for (const auto& status : kStatusOrder) t.by_status[status];
  for (std::size_t k = 0; k < runs.count(); ++k) {
    RunState st = runs.state(k);
    t.by_status[st.status].push_back(k);
    if (st.status != "complete" && !(st.status == "missing" && st.why.empty()))
      t.listed.emplace_back(k, std::move(st));
  }
  t.all_complete = t.by_status["complete"].size() == runs.count();
  return t;
}

void print_status_json(const SweepPlan& plan, const SweepRuns& runs, const std::string& name,
                       const StatusTally& t) {
  Json j;
  j["sweep"] = name;
  j["directory"] = runs.sweep_dir().string();
  j["runs"] = plan.run_count();
  j["all_complete"] = t.all_complete;
  for (const auto& status : kStatusOrder) {
    j["counts"][status] = t.by_status.at(status).size();
    j["runs_by_status"][status] = t.by_status.at(status);
  }
  Json listed = Json::array();
  for (const auto& [k, st] : t.listed)
    listed.push_back({{"run", k},
                      {"point", plan.point_of_run(k)},
                      {"replication", plan.replication_of_run(k)},
                      {"status", st.status},
                      {"why", st.why}});
  j["not_complete"] = listed;
  fmt::print("{}\n", dump_json(j, 2));
}

void print_status_text(const SweepPlan& plan, const SweepRuns& runs, const std::string& name,
                       const StatusTally& t) {
  fmt::print("sweep {} in {}/: {} runs\n", name, runs.sweep_dir().string(), plan.run_count());
  for (const auto& status : kStatusOrder)
    fmt::print("  {:<12} {:>6}\n", status, t.by_status.at(status).size());
  if (!t.listed.empty()) {
    fmt::print("{:>6} {:>6} {:>4}  {:<12} why\n", "run", "point", "rep", "status");
    for (const auto& [k, st] : t.listed)
      fmt::print("{:>6} {:>6} {:>4}  {:<12} {}\n", k, plan.point_of_run(k),
                 plan.replication_of_run(k), st.status, st.why);
  }
  std::vector<std::size_t> never;
  for (std::size_t k : t.by_status.at("missing"))
    if (std::none_of(t.listed.begin(), t.listed.end(), [&](const auto& l) { return l.first == k; }))
      never.push_back(k);
  if (!never.empty()) fmt::print("never run: runs {}\n", run_ranges(never));
}

}  // namespace

void print_list(const SweepPlan& plan) {
  fmt::print("{:>5} {:>6} {:>5} {:>12}  values\n", "run", "point", "rep", "seed");
  for (std::size_t k = 0; k < plan.run_count(); ++k) {
    std::string values;
    const auto columns = plan.columns();
    const auto labels = plan.point_labels(plan.point_of_run(k));
    for (std::size_t c = 0; c < columns.size(); ++c)
      values += (values.empty() ? "" : "  ") + printable(columns[c]) + "=" + printable(labels[c]);
    fmt::print("{:>5} {:>6} {:>5} {:>12}  {}\n", k, plan.point_of_run(k),
               plan.replication_of_run(k), plan.seed_of_run(k), values);
  }
  fmt::print("{} points x {} replications = {} runs\n", plan.point_count(), plan.replications,
             plan.run_count());
}

int print_status(const SweepPlan& plan, const SweepRuns& runs, const std::string& name,
                 bool as_json) {
  const StatusTally t = tally(runs);
  if (as_json)
    print_status_json(plan, runs, name, t);
  else
    print_status_text(plan, runs, name, t);
  return t.all_complete ? 0 : 1;
}

}  // namespace gbesim
