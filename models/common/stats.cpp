#include "models/common/stats.hpp"

#include <cmath>
#include <utility>

namespace gbesim {

StatGroup::StatGroup(StatRegistry& registry, std::string component)
    : registry_(registry), component_(std::move(component)) {
  registry.add(this);
}

StatGroup::Entry& StatGroup::add(std::string_view name, std::string_view unit,
                                 std::string_view description, Kind kind, Formula f) {
  Entry& e = entries_.emplace_back();
  e.texts = registry_.texts(name, unit, description);
  e.kind = kind;
  if (kind == Kind::ratio) {
    e.formulas = static_cast<std::uint32_t>(ratios_.size());
    ratios_.push_back({std::move(f), {}, {}});
  } else if (kind != Kind::counter && kind != Kind::histogram) {
    e.formulas = static_cast<std::uint32_t>(formulas_.size());
    formulas_.push_back(std::move(f));
  }
  return e;
}

const char* StatGroup::kind_name(Kind kind) {
  switch (kind) {
    case Kind::counter:
      return "count";
    case Kind::histogram:
      return "distribution";
    case Kind::total:
      return "total";
    case Kind::rate:
      return "rate";
    case Kind::ratio:
      return "ratio";
    case Kind::level:
      return "at end";
    case Kind::summary:
      return "summary";
  }
  return "";
}

void StatGroup::ratio(std::string_view name, std::string_view unit, std::string_view description,
                      Formula numerator, Formula denominator, Combine combine) {
  Entry& e = add(name, unit, description, Kind::ratio, std::move(numerator));
  ratios_[e.formulas].denominator = std::move(denominator);
  ratios_[e.formulas].combine = std::move(combine);
}

void StatGroup::restart(const StatContext& at) {
  restarted_ps_ = at.elapsed_ps;
  for (auto& e : entries_) {
    switch (e.kind) {
      case Kind::counter:
        e.base_counter = *e.counter;
        break;
      case Kind::histogram:
        e.histogram->clear();
        break;
      case Kind::total:
        e.base = formula(e)(at);
        break;
      case Kind::rate:
        e.base = formula(e)(at) * static_cast<double>(at.elapsed_ps);
        break;
      case Kind::ratio: {
        Ratio& r = ratios_[e.formulas];
        e.base = r.numerator(at);
        r.base_denominator = r.denominator(at);
        break;
      }
      case Kind::level:
      case Kind::summary:
        break;
    }
  }
  for (const auto& hook : restart_hooks_) hook(at.elapsed_ps);
}

void StatGroup::collect_rates(const StatContext& context, std::vector<double>& out) const {
  for (const auto& e : entries_)
    if (e.reported && e.kind == Kind::rate) out.push_back(formula(e)(context));
}

std::vector<StatGroup::Description> StatGroup::rate_descriptions() const {
  std::vector<Description> out;
  for (const auto& e : entries_)
    if (e.reported && e.kind == Kind::rate)
      out.push_back({std::string(e.texts->name), std::string(e.texts->unit),
                     std::string(e.texts->description), kind_name(e.kind)});
  return out;
}

void StatGroup::collect(const StatContext& context, std::vector<Scalar>& out) const {
  // The span the values cover: since the restart, if there was one.
  StatContext span = context;
  span.elapsed_ps = context.elapsed_ps - restarted_ps_;
  for (const auto& e : entries_) {
    if (!e.reported) continue;
    const StatTexts& t = *e.texts;
    switch (e.kind) {
      case Kind::counter:
        out.push_back({component_, std::string(t.name), std::string(t.unit),
                       static_cast<double>(*e.counter - e.base_counter), true});
        break;
      case Kind::histogram: {
        // An empty distribution has no mean or quantiles: reported as NaN (written empty).
        const Histogram& h = *e.histogram;
        const bool empty = h.count() == 0;
        const double ps_per_ns = 1000.0;
        auto ns = [&](double ps) { return empty ? std::nan("") : ps / ps_per_ns; };
        out.push_back({component_, std::string(t.name) + "_count", "samples",
                       static_cast<double>(h.count()), true});
        out.push_back({component_, std::string(t.name) + "_mean", "ns", ns(h.mean()), false});
        out.push_back({component_, std::string(t.name) + "_min", "ns",
                       ns(static_cast<double>(h.min())), false});
        out.push_back({component_, std::string(t.name) + "_p50", "ns",
                       ns(static_cast<double>(h.quantile(0.5))), false});
        out.push_back({component_, std::string(t.name) + "_p99", "ns",
                       ns(static_cast<double>(h.quantile(0.99))), false});
        out.push_back({component_, std::string(t.name) + "_max", "ns",
                       ns(static_cast<double>(h.max())), false});
        break;
      }
      case Kind::total:
        out.push_back({component_, std::string(t.name), std::string(t.unit),
                       formula(e)(context) - e.base, false});
        break;
      case Kind::rate: {
        double value = formula(e)(context);
        // What accumulated since the restart, over the time since (as series.csv's intervals).
        if (restarted_ps_ > 0)
          value = (value * static_cast<double>(context.elapsed_ps) - e.base) /
                  static_cast<double>(span.elapsed_ps);
        out.push_back({component_, std::string(t.name), std::string(t.unit), value, false});
        break;
      }
      case Kind::ratio: {
        const Ratio& r = ratios_[e.formulas];
        out.push_back({component_, std::string(t.name), std::string(t.unit),
                       r.combine(r.numerator(context) - e.base,
                                 r.denominator(context) - r.base_denominator, span),
                       false});
        break;
      }
      case Kind::level:
      case Kind::summary:
        out.push_back(
            {component_, std::string(t.name), std::string(t.unit), formula(e)(context), false});
        break;
    }
  }
}

std::size_t StatGroup::scalar_rows() const {
  std::size_t rows = 0;
  for (const auto& e : entries_)
    if (e.reported) rows += e.kind == Kind::histogram ? 6 : 1;
  return rows;
}

// What collect() writes, row by row: a distribution is six rows.
std::vector<StatGroup::Description> StatGroup::describe() const {
  std::vector<Description> out;
  for (const auto& e : entries_) {
    if (!e.reported) continue;
    const std::string kind = kind_name(e.kind);
    const StatTexts& t = *e.texts;
    if (e.histogram == nullptr) {
      out.push_back({std::string(t.name), std::string(t.unit), std::string(t.description), kind});
      continue;
    }
    const std::string what(t.description);
    out.push_back({std::string(t.name) + "_count", "samples", what + ": samples", kind});
    out.push_back({std::string(t.name) + "_mean", "ns", what + ": mean", kind});
    out.push_back({std::string(t.name) + "_min", "ns", what + ": minimum", kind});
    out.push_back({std::string(t.name) + "_p50", "ns", what + ": median", kind});
    out.push_back({std::string(t.name) + "_p99", "ns", what + ": 99th percentile", kind});
    out.push_back({std::string(t.name) + "_max", "ns", what + ": maximum", kind});
  }
  return out;
}

Counter::Counter(StatGroup& group, std::string_view name, std::string_view unit,
                 std::string_view description, bool reported) {
  StatGroup::Entry& e = group.add(name, unit, description, StatGroup::Kind::counter);
  e.reported = reported;
  e.counter = &value_;
}

Distribution::Distribution(StatGroup& group, std::string_view name, std::string_view description,
                           bool reported) {
  StatGroup::Entry& e = group.add(name, "ns", description, StatGroup::Kind::histogram);
  e.reported = reported;
  e.histogram = &histogram_;
}

std::string_view StatRegistry::intern(std::string_view text) {
  const auto it = known_.find(text);
  if (it != known_.end()) return *it;
  const std::string_view kept = texts_.emplace_back(text);
  known_.insert(kept);
  return kept;
}

const StatTexts* StatRegistry::texts(std::string_view name, std::string_view unit,
                                     std::string_view description) {
  const StatTexts kept{intern(name), intern(unit), intern(description)};
  // Interned, equal texts are the same characters: the triple is found by where they are.
  const TextsKey key{kept.name.data(), kept.unit.data(), kept.description.data()};
  const auto it = triple_of_.find(key);
  if (it != triple_of_.end()) return it->second;
  const StatTexts* triple = &triples_.emplace_back(kept);
  triple_of_.emplace(key, triple);
  return triple;
}

std::vector<Scalar> StatRegistry::collect(const StatContext& context, std::size_t room) const {
  std::vector<Scalar> out;
  std::size_t rows = 0;
  for (const StatGroup* g : groups_) rows += g->scalar_rows();
  out.reserve(rows + room);
  for (const StatGroup* g : groups_) g->collect(context, out);
  return out;
}

void StatRegistry::restart(const StatContext& at) {
  for (StatGroup* g : groups_) g->restart(at);
}

// The helpers keep the operations of the formulas they replaced, in the same order: every value
// is the same double as before, to the last bit.

StatGroup::Formula per_second(const Counter& events) {
  return [&events](const StatContext& c) {
    return static_cast<double>(events.value()) * c.per_second();
  };
}

StatGroup::Formula per_second(Quantity events) {
  return [events = std::move(events)](const StatContext& c) { return events() * c.per_second(); };
}

StatGroup::Formula bits_per_second(const Counter& bytes) {
  return [&bytes](const StatContext& c) {
    return 8.0 * static_cast<double>(bytes.value()) * c.per_second();
  };
}

StatGroup::Formula bits_per_second(Quantity bytes) {
  return
      [bytes = std::move(bytes)](const StatContext& c) { return 8.0 * bytes() * c.per_second(); };
}

StatGroup::Formula megabytes_per_second(const Counter& bytes) {
  return [&bytes](const StatContext& c) {
    return static_cast<double>(bytes.value()) * c.per_second() / 1e6;
  };
}

StatGroup::Formula megabytes_per_second(Quantity bytes) {
  return
      [bytes = std::move(bytes)](const StatContext& c) { return bytes() * c.per_second() / 1e6; };
}

StatGroup::Formula share_of_time(const Counter& ps) {
  return [&ps](const StatContext& c) {
    return static_cast<double>(ps.value()) / static_cast<double>(c.elapsed_ps);
  };
}

StatGroup::Formula share_of_time(Quantity ps) {
  return [ps = std::move(ps)](const StatContext& c) {
    return ps() / static_cast<double>(c.elapsed_ps);
  };
}

StatGroup::Formula value_of(const Counter& counter) {
  return [&counter](const StatContext&) { return static_cast<double>(counter.value()); };
}

StatGroup::Formula value_of(Quantity quantity) {
  return [quantity = std::move(quantity)](const StatContext&) { return quantity(); };
}

StatGroup::Formula elapsed_ps() {
  return [](const StatContext& c) { return static_cast<double>(c.elapsed_ps); };
}

StatGroup::Combine per_event(double scale) {
  return [scale](double n, double events, const StatContext&) {
    return events > 0 ? scale * n / events : std::nan("");
  };
}

StatGroup::Combine fraction_of_span() {
  return [](double n, double span, const StatContext&) { return n / span; };
}

}  // namespace gbesim
