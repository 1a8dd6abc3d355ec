#include "models/common/stats.hpp"

#include <cmath>
#include <utility>

namespace gbesim {

StatGroup::StatGroup(StatRegistry& registry, std::string component)
    : component_(std::move(component)) {
  registry.add(this);
}

void StatGroup::formula(std::string name, std::string unit, std::string description, Formula f) {
  Entry e;
  e.info = {std::move(name), std::move(unit), std::move(description)};
  e.formula = std::move(f);
  entries_.push_back(std::move(e));
}

void StatGroup::rate(std::string name, std::string unit, std::string description, Formula f) {
  formula(std::move(name), std::move(unit), std::move(description), std::move(f));
  entries_.back().rate = true;
}

void StatGroup::collect_rates(const StatContext& context, std::vector<double>& out) const {
  for (const auto& e : entries_)
    if (e.reported && e.rate) out.push_back(e.formula(context));
}

std::vector<StatGroup::Description> StatGroup::rate_descriptions() const {
  std::vector<Description> out;
  for (const auto& e : entries_)
    if (e.reported && e.rate) out.push_back(e.info);
  return out;
}

void StatGroup::collect(const StatContext& context, std::vector<Scalar>& out) const {
  for (const auto& e : entries_) {
    if (!e.reported) continue;
    if (e.counter != nullptr) {
      out.push_back({component_, e.info.name, e.info.unit, static_cast<double>(*e.counter), true});
    } else if (e.histogram != nullptr) {
      // An empty distribution has no mean or quantiles: reported as NaN ("nan"), not 0.
      const Histogram& h = *e.histogram;
      const bool empty = h.count() == 0;
      const double ps_per_ns = 1000.0;
      auto ns = [&](double ps) { return empty ? std::nan("") : ps / ps_per_ns; };
      out.push_back(
          {component_, e.info.name + "_count", "samples", static_cast<double>(h.count()), true});
      out.push_back({component_, e.info.name + "_mean", "ns", ns(h.mean()), false});
      out.push_back(
          {component_, e.info.name + "_min", "ns", ns(static_cast<double>(h.min())), false});
      out.push_back({component_, e.info.name + "_p50", "ns",
                     ns(static_cast<double>(h.quantile(0.5))), false});
      out.push_back({component_, e.info.name + "_p99", "ns",
                     ns(static_cast<double>(h.quantile(0.99))), false});
      out.push_back(
          {component_, e.info.name + "_max", "ns", ns(static_cast<double>(h.max())), false});
    } else {
      out.push_back({component_, e.info.name, e.info.unit, e.formula(context), false});
    }
  }
}

// What collect() writes, row by row: a distribution is six rows.
std::vector<StatGroup::Description> StatGroup::describe() const {
  std::vector<Description> out;
  for (const auto& e : entries_) {
    if (!e.reported) continue;
    if (e.histogram == nullptr) {
      out.push_back(e.info);
      continue;
    }
    const std::string& what = e.info.description;
    out.push_back({e.info.name + "_count", "samples", what + ": samples"});
    out.push_back({e.info.name + "_mean", "ns", what + ": mean"});
    out.push_back({e.info.name + "_min", "ns", what + ": minimum"});
    out.push_back({e.info.name + "_p50", "ns", what + ": median"});
    out.push_back({e.info.name + "_p99", "ns", what + ": 99th percentile"});
    out.push_back({e.info.name + "_max", "ns", what + ": maximum"});
  }
  return out;
}

Counter::Counter(StatGroup& group, std::string name, std::string unit, std::string description,
                 bool reported) {
  StatGroup::Entry e;
  e.reported = reported;
  e.info = {std::move(name), std::move(unit), std::move(description)};
  e.counter = &value_;
  group.entries_.push_back(std::move(e));
}

Distribution::Distribution(StatGroup& group, std::string name, std::string description,
                           bool reported) {
  StatGroup::Entry e;
  e.reported = reported;
  e.info = {std::move(name), "ns", std::move(description)};
  e.histogram = &histogram_;
  group.entries_.push_back(std::move(e));
}

std::vector<Scalar> StatRegistry::collect(const StatContext& context) const {
  std::vector<Scalar> out;
  for (const StatGroup* g : groups_) g->collect(context, out);
  return out;
}

}  // namespace gbesim
