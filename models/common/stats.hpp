#pragma once
// Statistics, declared once per model with a name, a unit and a description. The hot path only
// increments counters or records samples; rates and utilisations are formulas evaluated when
// results are written. Names of MAC counters follow IEEE 802.3 Clause 30 in snake_case.
// A model with many statistics declares them in a stats struct of its own beside it
// (models/mac/mac_stats.hpp): counters as members, formulas one line each with the helpers at the
// end of this file (bits_per_second(octets), share_of_time(busy_ps), ...).

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "models/common/histogram.hpp"
#include "models/common/time.hpp"

namespace gbesim {

// What formulas may depend on: the simulated time since the start of the run (formulas read
// the model's state as of then).
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

// A statistic's name, unit and description: kept once per registry (a thousand stations
// declare the same few hundred), each entry points at its three.
struct StatTexts {
  std::string_view name, unit, description;
};

class StatGroup {
 public:
  StatGroup(StatRegistry& registry, std::string component);
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& component() const { return component_; }

  // Every value is declared with what it is, which says how it reads after a restart (a
  // warm-up): each value then covers only the time since the restart.
  using Formula = std::function<double(const StatContext&)>;
  // A quantity accumulated since the start (bits, frames, busy picoseconds): reported as what
  // accumulated since the restart.
  void total(std::string_view name, std::string_view unit, std::string_view description,
             Formula f) {
    add(name, unit, description, Kind::total, std::move(f));
  }
  // A rate or a share of time: a formula whose value x elapsed time is a quantity accumulated
  // since the start. Rates can be recorded per interval (series.csv): the interval's value is
  // the quantity accumulated in it over its length; after a restart, the same over the time since.
  void rate(std::string_view name, std::string_view unit, std::string_view description, Formula f) {
    add(name, unit, description, Kind::rate, std::move(f));
  }
  // A value computed from two totals (a mean per event, a ratio of two counts): `combine` gets
  // what each accumulated since the restart and the context of that span (elapsed = its length).
  using Combine = std::function<double(double numerator, double denominator, const StatContext&)>;
  void ratio(std::string_view name, std::string_view unit, std::string_view description,
             Formula numerator, Formula denominator, Combine combine);
  // A state at the end (frames still queued, table entries) or a constant: never restarted.
  void level(std::string_view name, std::string_view unit, std::string_view description,
             Formula f) {
    add(name, unit, description, Kind::level, std::move(f));
  }
  // A level that summarises the past (a peak, a member histogram's mean, an index over each
  // station's totals): the model restarts what it reads in on_restart().
  void summary(std::string_view name, std::string_view unit, std::string_view description,
               Formula f) {
    add(name, unit, description, Kind::summary, std::move(f));
  }
  // Runs at a restart, for what the group's levels summarise (e.g. a peak restarts at the present
  // occupancy, a member histogram is emptied).
  void on_restart(std::function<void(Picoseconds now)> f) {
    restart_hooks_.push_back(std::move(f));
  }

  // Statistics restart at `at`: from then on collect() reports what happened since (counters
  // and totals by difference, rates over the time since, distributions emptied).
  void restart(const StatContext& at);

  // Appends this group's scalars, in declaration order.
  void collect(const StatContext& context, std::vector<Scalar>& out) const;

  struct Description {
    std::string name, unit, description;
    // What it is, which says what it covers after a warm-up: "count", "distribution", "total",
    // "rate", "ratio" (since the restart), "summary" (restarted by the model), "at end".
    std::string kind;
  };
  // One row per scalar collect() appends, in the same order (a distribution's six included).
  std::vector<Description> describe() const;
  // How many rows collect() appends.
  std::size_t scalar_rows() const;

  // Each rate's value at `context`, appended in declaration order; one row per
  // rate_descriptions() entry.
  void collect_rates(const StatContext& context, std::vector<double>& out) const;
  std::vector<Description> rate_descriptions() const;

 private:
  friend class Counter;
  friend class Distribution;
  enum class Kind : std::uint8_t { counter, histogram, total, rate, ratio, level, summary };
  static const char* kind_name(Kind kind);
  // Most entries are counters: the formula of a total, rate, level or summary is kept beside the
  // entries, a ratio's two formulas, their combination and its denominator at the restart apart
  // (48 bytes an entry, 96 before the texts became one triple).
  struct Entry {
    const StatTexts* texts = nullptr;
    const std::uint64_t* counter = nullptr;
    Histogram* histogram = nullptr;
    // What had accumulated at the restart (a rate: its value x the elapsed picoseconds; a
    // ratio: its numerator).
    double base = 0;
    std::uint64_t base_counter = 0;
    // Index in formulas_ (a total, rate, level or summary) or ratios_ (a ratio).
    std::uint32_t formulas = 0;
    Kind kind = Kind::level;
    bool reported = true;
  };
  static_assert(sizeof(Entry) <= 48, "an entry per statistic, a hundred per station");
  struct Ratio {
    Formula numerator;
    Formula denominator;
    Combine combine;
    double base_denominator = 0;  // the denominator at the restart
  };
  Entry& add(std::string_view name, std::string_view unit, std::string_view description, Kind kind,
             Formula f = {});
  const Formula& formula(const Entry& e) const { return formulas_[e.formulas]; }
  StatRegistry& registry_;
  std::string component_;
  std::vector<Entry> entries_;
  std::vector<Formula> formulas_;
  std::vector<Ratio> ratios_;
  std::vector<std::function<void(Picoseconds)>> restart_hooks_;
  Picoseconds restarted_ps_ = 0;  // 0: never restarted
};

class Counter {
 public:
  // A counter that is not `reported` still counts but is left out of the results (e.g. the
  // half-duplex counters of a full-duplex MAC).
  Counter(StatGroup& group, std::string_view name, std::string_view unit,
          std::string_view description, bool reported = true);
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
  Distribution(StatGroup& group, std::string_view name, std::string_view description,
               bool reported = true);
  Distribution(const Distribution&) = delete;
  Distribution& operator=(const Distribution&) = delete;

  void record(Picoseconds sample) { histogram_.record(sample); }
  const Histogram& histogram() const { return histogram_; }

 private:
  Histogram histogram_;
};

class StatRegistry {
 public:
  StatRegistry() = default;
  // Its groups, entries and texts point into it.
  StatRegistry(const StatRegistry&) = delete;
  StatRegistry& operator=(const StatRegistry&) = delete;
  void add(StatGroup* group) { groups_.push_back(group); }
  // Every group's scalars, with room for `room` more that the caller appends.
  std::vector<Scalar> collect(const StatContext& context, std::size_t room = 0) const;
  // Every group's statistics restart at `at` (the end of a warm-up).
  void restart(const StatContext& at);
  const std::vector<StatGroup*>& groups() const { return groups_; }
  // The registry's one copy of `text`, alive as long as the registry.
  std::string_view intern(std::string_view text);
  // The registry's one copy of these three texts.
  const StatTexts* texts(std::string_view name, std::string_view unit,
                         std::string_view description);

 private:
  struct TextsKey {
    const char* name;
    const char* unit;
    const char* description;
    bool operator==(const TextsKey& o) const {
      return name == o.name && unit == o.unit && description == o.description;
    }
  };
  struct TextsKeyHash {
    std::size_t operator()(const TextsKey& k) const {
      const std::hash<const void*> h;
      return h(k.name) ^ (h(k.unit) * 31) ^ (h(k.description) * 1009);
    }
  };
  std::vector<StatGroup*> groups_;
  std::deque<std::string> texts_;  // a deque: growing it moves no string
  std::unordered_set<std::string_view> known_;
  std::deque<StatTexts> triples_;                                           // nor any triple
  std::unordered_map<TextsKey, const StatTexts*, TextsKeyHash> triple_of_;  // by interned texts
};

// Formulas of the shapes statistics take most, so that a declaration is one line:
//   group.rate("tx_throughput", "bit/s", "...", bits_per_second(frame_octets_transmitted));
// Each takes a Counter or, for a quantity the model keeps otherwise (a sum over stations, a
// field of a connection), a function giving its value so far.
using Quantity = std::function<double()>;

// A count of events, per simulated second.
StatGroup::Formula per_second(const Counter& events);
StatGroup::Formula per_second(Quantity events);
// A count of bytes, as bits per second.
StatGroup::Formula bits_per_second(const Counter& bytes);
StatGroup::Formula bits_per_second(Quantity bytes);
// A count of bytes, as MB/s (10^6 bytes per second).
StatGroup::Formula megabytes_per_second(const Counter& bytes);
StatGroup::Formula megabytes_per_second(Quantity bytes);
// Picoseconds accumulated (time busy, time stalled), as a share of the time elapsed.
StatGroup::Formula share_of_time(const Counter& ps);
StatGroup::Formula share_of_time(Quantity ps);
// The value so far: of a counter, of a number the model keeps, or of a quantity.
StatGroup::Formula value_of(const Counter& counter);
StatGroup::Formula value_of(Quantity quantity);
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
StatGroup::Formula value_of(const T& field) {
  return [&field](const StatContext&) { return static_cast<double>(field); };
}
// A temporary would be gone when the formula reads it.
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
StatGroup::Formula value_of(const T&& field) = delete;
// The time elapsed in picoseconds: the denominator of a share of time (ratio()).
StatGroup::Formula elapsed_ps();

// How ratio() combines its numerator n and denominator d: n per event counted in d (x scale),
// NaN while there was none ...
StatGroup::Combine per_event(double scale = 1.0);
// ... or n as a fraction of the span d (busy clocks of the clocks elapsed).
StatGroup::Combine fraction_of_span();

}  // namespace gbesim
