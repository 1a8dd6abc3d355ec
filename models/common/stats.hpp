#pragma once
// Statistics, declared once per model with a name, a unit and a description. The hot path only
// increments counters or records samples; rates and utilisations are formulas evaluated when
// results are written. Names of MAC counters follow IEEE 802.3 Clause 30 in snake_case.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/histogram.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// What formulas may depend on: the span of simulated time the statistics cover.
struct StatContext {
  Picoseconds elapsed_ps = 0;
  // 1 / elapsed seconds, computed so that whole-number rates over round durations stay exact.
  double per_second() const {
    return static_cast<double>(kPsPerSecond) / static_cast<double>(elapsed_ps);
  }
};

struct Scalar {
  std::string component;
  std::string name;
  std::string unit;
  double value = 0;
  bool integral = false;  // written without a decimal point
};

class StatRegistry;

class StatGroup {
 public:
  StatGroup(StatRegistry& registry, std::string component);
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& component() const { return component_; }

  using Formula = std::function<double(const StatContext&)>;
  void formula(std::string name, std::string unit, std::string description, Formula f);
  // A rate or a share of time: a formula whose value x elapsed time is a quantity accumulated
  // since the start (bits, frames, busy picoseconds). Rates can be recorded per interval
  // (series.csv): the interval's value is the quantity accumulated in it over its length.
  void rate(std::string name, std::string unit, std::string description, Formula f);

  // Appends this group's scalars, in declaration order.
  void collect(const StatContext& context, std::vector<Scalar>& out) const;

  struct Description {
    std::string name, unit, description;
  };
  // One row per scalar collect() appends, in the same order (a distribution's six included).
  std::vector<Description> describe() const;

  // Each rate's value at `context`, appended in declaration order; one row per
  // rate_descriptions() entry.
  void collect_rates(const StatContext& context, std::vector<double>& out) const;
  std::vector<Description> rate_descriptions() const;

 private:
  friend class Counter;
  friend class Distribution;
  struct Entry {
    Description info;
    bool reported = true;
    bool rate = false;
    const std::uint64_t* counter = nullptr;
    const Histogram* histogram = nullptr;
    Formula formula;
  };
  std::string component_;
  std::vector<Entry> entries_;
};

class Counter {
 public:
  // A counter that is not `reported` still counts but is left out of the results (e.g. the
  // half-duplex counters of a full-duplex MAC).
  Counter(StatGroup& group, std::string name, std::string unit, std::string description,
          bool reported = true);
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  Counter& operator++() {
    ++value_;
    return *this;
  }
  Counter& operator+=(std::uint64_t n) {
    value_ += n;
    return *this;
  }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 0;
};

// A distribution of durations (recorded in ps): reported as count, mean, min, p50, p99 and max
// in ns, each as a scalar named <name>_<statistic>.
class Distribution {
 public:
  Distribution(StatGroup& group, std::string name, std::string description, bool reported = true);
  Distribution(const Distribution&) = delete;
  Distribution& operator=(const Distribution&) = delete;

  void record(Picoseconds sample) { histogram_.record(sample); }
  const Histogram& histogram() const { return histogram_; }

 private:
  Histogram histogram_;
};

class StatRegistry {
 public:
  void add(const StatGroup* group) { groups_.push_back(group); }
  std::vector<Scalar> collect(const StatContext& context) const;
  const std::vector<const StatGroup*>& groups() const { return groups_; }

 private:
  std::vector<const StatGroup*> groups_;
};

}  // namespace gbesim
