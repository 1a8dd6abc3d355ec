// The answers about the Ethernet itself: contention on a collision domain against Metcalfe-Boggs,
// a full-duplex link against its closed-form line rate, and what a cable's bit errors do to
// goodput.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/answer_rules.hpp"
#include "analysis/line_rate.hpp"

namespace gbesim::answer_rules {
namespace {

// ---- contention ----------------------------------------------------------------------------

struct Contenders {
  std::size_t point = 0;
  int senders = 0;     // saturated or not: stations with enabled traffic on the domain
  std::string domain;  // "domain<i>"
};

// The collision domain with the most senders at a point, when it has any and was simulated.
std::optional<Contenders> contenders_of(const Results& r, std::size_t p) {
  // Cheap first: a point without a collision domain reads no scenario.
  if (!mean_of(r, p, "domain0", "efficiency")) return std::nullopt;
  const auto& config = r.config(p);
  if (!config.is_object() || !config.contains("collision_domains")) return std::nullopt;
  const auto senders = senders_of(config);
  std::optional<Contenders> best;
  for (std::size_t d = 0; d < config["collision_domains"].size(); ++d) {
    int n = 0;
    for (const auto& s : config["collision_domains"][d].value("stations", nlohmann::json::array()))
      n += std::count(senders.begin(), senders.end(), s.get<std::string>()) > 0;
    const std::string domain = "domain" + std::to_string(d);
    if (n > 0 && (!best || n > best->senders) && mean_of(r, p, domain, "efficiency"))
      best = Contenders{p, n, domain};
  }
  return best;
}

std::string stations_text(int n) {
  return fmt::format("{} station{}", n, n == 1 ? "" : "s");
}

std::string contention_detail(const Results& r, const Contenders& c) {
  const std::size_t p = c.point;
  std::string s =
      short_label_of(r, p, every_axis(r)) + ": " + stations_text(c.senders) + " sending";
  s += ", efficiency " + percent(*mean_of(r, p, c.domain, "efficiency"));
  if (const auto mb = mean_of(r, p, "analysis", "metcalfe_boggs_efficiency"))
    s += " (Metcalfe-Boggs " + percent(*mb) + ")";
  else if (const auto one = mean_of(r, p, "analysis", "single_sender_efficiency"))
    s += " (one sender's closed form " + percent(*one) + ")";
  if (const auto share = mean_of(r, p, c.domain, "collision_share"))
    s += ", collisions " + percent(*share) + " of the time";
  if (const auto f = mean_of(r, p, c.domain, "fairness")) s += fmt::format(", fairness {:.2f}", *f);
  const auto senders = senders_of(r.config(p));
  if (!senders.empty())
    if (const auto d = mean_of(r, p, senders.front() + ".mac", "access_delay_mean"))
      s += fmt::format(", {}'s mean access delay {:.1f} us", senders.front(), *d * 1e-3);
  if (const auto drops = mean_of(r, p, c.domain, "excessive_collision_drops"); drops && *drops > 0)
    s += ", " + frames_text(*drops) + " dropped after excessive collisions";
  return s;
}

// ---- line rate -------------------------------------------------------------------------------

struct LinePoint {
  std::size_t point = 0;
  std::string sender;
  std::int64_t rate_mbps = 0;
  std::int64_t frame_bytes = 0;
  std::int64_t ifg_bits = 96;
  std::int64_t from_ps = 0;  // the statistics' start (the warm-up's end)
  std::int64_t to_ps = 0;    // the run's end
  double simulated_frames = 0;
  std::int64_t closed_form_frames = 0;
  double closed_form_rate = 0;  // frames/s, steady state
  double seconds() const { return static_cast<double>(to_ps - from_ps) * 1e-12; }
  bool met() const {
    return std::abs(simulated_frames - static_cast<double>(closed_form_frames)) < 0.5;
  }
};

// A point of one saturated full-duplex sender of fixed-size frames with no host in the path,
// against the closed form for its run.
std::optional<LinePoint> line_point(const Results& r, std::size_t p) {
  // analysis.single_sender_frame_rate: the runner's mark of one saturated fixed-size sender.
  if (!mean_of(r, p, "analysis", "single_sender_frame_rate")) return std::nullopt;
  const auto& config = r.config(p);
  if (!all_full_duplex(config) || (config.contains("hosts") && !config["hosts"].empty()))
    return std::nullopt;
  const auto senders = senders_of(config);
  if (senders.size() != 1) return std::nullopt;
  LinePoint x;
  x.point = p;
  x.sender = senders.front();
  const auto& station = config["stations"][x.sender];
  for (const auto& t : station.value("traffic", nlohmann::json::array()))
    if (t.value("enabled", true) && t.contains("frame_bytes") && t["frame_bytes"].is_number())
      x.frame_bytes = t["frame_bytes"].get<std::int64_t>();
  x.rate_mbps = config.value("rate_mbps", 1000);
  x.ifg_bits = station.value("mac", nlohmann::json::object()).value("ifg_bits", 96);
  x.to_ps = config.value("duration_ns", std::int64_t{0}) * 1000;
  x.from_ps = config.value("warmup_ns", std::int64_t{0}) * 1000;
  const auto sent = mean_of(r, p, x.sender + ".mac", "frames_transmitted_ok");
  if (x.frame_bytes <= 0 || x.rate_mbps <= 0 || x.to_ps <= x.from_ps || !sent) return std::nullopt;
  x.simulated_frames = *sent;
  x.closed_form_frames = frames_completed_by(x.rate_mbps, x.frame_bytes, x.to_ps, x.ifg_bits) -
                         frames_completed_by(x.rate_mbps, x.frame_bytes, x.from_ps, x.ifg_bits);
  x.closed_form_rate = line_rate_frames_per_second(x.rate_mbps, x.frame_bytes, x.ifg_bits);
  return x;
}

std::string line_detail(const Results& r, const LinePoint& x) {
  const double rate = x.simulated_frames / x.seconds();
  std::string s = fmt::format(
      "{}: {} frames in {:g} ms (closed form {}), {} frames/s (steady state {}), {} DA..FCS, "
      "efficiency {} (closed form {})",
      short_label_of(r, x.point, every_axis(r)), grouped(x.simulated_frames), x.seconds() * 1e3,
      grouped(static_cast<double>(x.closed_form_frames)), grouped(rate),
      grouped(x.closed_form_rate), mbps(rate * 8.0 * static_cast<double>(x.frame_bytes)),
      percent(rate * 8.0 * static_cast<double>(x.frame_bytes) / (1e6 * x.rate_mbps)),
      percent(line_efficiency(x.frame_bytes, x.ifg_bits)));
  if (!x.met()) s += " -- not met";
  return s;
}

// ---- cable errors --------------------------------------------------------------------------

struct CablePoint {
  std::size_t point = 0;
  double length_m = 0;
  double margin_db = 0;
  double carried = 0;    // frames the link carried, both ways
  double corrupted = 0;  // of them, frames a bit error reached
  double goodput = 0;    // bit/s delivered
  double loss() const { return carried > 0 ? corrupted / carried : 0; }
};

// The links whose bit errors the PHY model sets (an analysis.link<k> component), by name
// ("link<k>"), each with its directions' components ("link<k>.to_b").
std::map<std::string, std::vector<std::string>> phy_links(const Results& r) {
  std::map<std::string, std::vector<std::string>> out;
  const auto components = r.components();
  for (const auto& c : components)
    if (c.rfind("analysis.link", 0) == 0) out[c.substr(std::string("analysis.").size())];
  for (const auto& c : components)
    for (auto& [link, directions] : out)
      if (c.rfind(link + ".to_", 0) == 0) directions.push_back(c);
  return out;
}

std::optional<CablePoint> cable_point(
    const Results& r, std::size_t p, std::size_t length_axis,
    const std::map<std::string, std::vector<std::string>>& links) {
  const auto length = parse_number(r.points[p][length_axis]);
  const auto goodput = mean_of(r, p, "network", "delivered_throughput");
  if (!length || !goodput) return std::nullopt;
  CablePoint c;
  c.point = p;
  c.length_m = *length;
  c.goodput = *goodput;
  // The worst link's margin; every link's frames.
  bool any = false;
  for (const auto& [link, directions] : links) {
    const auto margin = mean_of(r, p, "analysis." + link, "phy_margin_db");
    if (!margin) continue;
    c.margin_db = any ? std::min(c.margin_db, *margin) : *margin;
    any = true;
    for (const auto& d : directions) {
      c.carried += mean_of(r, p, d, "frames_carried").value_or(0);
      c.corrupted += mean_of(r, p, d, "frames_corrupted").value_or(0);
    }
  }
  if (!any) return std::nullopt;
  return c;
}

std::string cable_at(const CablePoint& c) {
  return fmt::format("{:g} m (margin {:+.1f} dB)", c.length_m, c.margin_db);
}

std::string cable_line(const std::string& label, const std::vector<CablePoint>& rows) {
  std::string s = label + ": ";
  const auto first_loss =
      std::find_if(rows.begin(), rows.end(), [](const CablePoint& c) { return c.corrupted > 0; });
  if (first_loss == rows.end())
    return s + "no frame lost up to " + cable_at(rows.back()) + ", goodput " +
           mbps(rows.back().goodput);
  if (first_loss != rows.begin()) {
    const auto& clean = *(first_loss - 1);
    s += "no frame lost up to " + cable_at(clean) + ", goodput " + mbps(clean.goodput) + "; ";
  }
  s += "from " + cable_at(*first_loss) +
       " frames fail their FCS: " + small_percent(first_loss->loss()) + ", goodput " +
       mbps(first_loss->goodput);
  if (&rows.back() != &*first_loss)
    s += "; at " + cable_at(rows.back()) + " " + small_percent(rows.back().loss()) + ", goodput " +
         mbps(rows.back().goodput);
  return s;
}

}  // namespace

void contention(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  std::map<std::size_t, Contenders> at;
  std::set<int> counts;
  for (const std::size_t p : points_with_results(r))
    if (const auto c = contenders_of(r, p)) {
      at[p] = *c;
      counts.insert(c->senders);
    }
  // A curve against the number of stations needs three counts at least (two are a contrast,
  // which the carrier-extension answer draws).
  if (counts.size() < 3) return;
  std::map<std::size_t, std::string> count;
  for (const auto& [p, c] : at) count[p] = std::to_string(c.senders);
  const auto by_count = axes_changing(r, count);
  if (by_count.empty()) return;
  std::vector<std::size_t> points;
  for (const auto& [p, c] : at) points.push_back(p);
  Answer a;
  a.kind = "contention";
  a.question = "How do efficiency and fairness fall as stations contend?";
  for (const auto& g : group_points(r, axes_except(r, by_count), points)) {
    std::vector<Contenders> rows;
    for (const std::size_t p : g.points) rows.push_back(at[p]);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& x, const auto& y) { return x.senders < y.senders; });
    for (const auto& c : rows) a.details.push_back(contention_detail(r, c));
    if (rows.front().senders == rows.back().senders) continue;
    const auto& lo = rows.front();
    const auto& hi = rows.back();
    std::string line = g.label + ": efficiency " +
                       percent(*mean_of(r, lo.point, lo.domain, "efficiency")) + " at " +
                       stations_text(lo.senders) + " .. " +
                       percent(*mean_of(r, hi.point, hi.domain, "efficiency")) + " at " +
                       std::to_string(hi.senders);
    const double efficiency = *mean_of(r, hi.point, hi.domain, "efficiency");
    if (const auto mb = mean_of(r, hi.point, "analysis", "metcalfe_boggs_efficiency"))
      line += fmt::format(" (Metcalfe-Boggs {} at {}: simulated {:.1f} points {})", percent(*mb),
                          hi.senders, 100 * std::abs(efficiency - *mb),
                          efficiency >= *mb ? "above" : "below");
    const auto f_lo = mean_of(r, lo.point, lo.domain, "fairness");
    const auto f_hi = mean_of(r, hi.point, hi.domain, "fairness");
    if (f_lo && f_hi) {
      line += fmt::format("; fairness (Jain's index) {:.2f} .. {:.2f}", *f_lo, *f_hi);
      // The capture effect is often strongest with a few stations: say where it is lowest.
      const Contenders* least = &hi;
      for (const auto& c : rows)
        if (const auto f = mean_of(r, c.point, c.domain, "fairness");
            f && *f < *mean_of(r, least->point, least->domain, "fairness") - 0.005)
          least = &c;
      if (least != &hi)
        line += fmt::format(" (lowest {:.2f} at {})",
                            *mean_of(r, least->point, least->domain, "fairness"), least->senders);
    }
    if (const auto drops = mean_of(r, hi.point, hi.domain, "excessive_collision_drops");
        drops && *drops > 0)
      line += "; " + frames_text(*drops) + " dropped after excessive collisions at " +
              std::to_string(hi.senders);
    a.lines.push_back(line);
  }
  if (a.lines.empty()) return;
  a.method =
      "Efficiency: the collision domain's time carrying DA..FCS bits of frames that got through, "
      "over its capacity, from the simulated medium (mean over replications). Fairness: Jain's "
      "index (sum x)^2 / (n sum x^2) over the DA..FCS bytes each sending station got through "
      "(the domain's fairness): 1 when all get the same, 1/n when one takes everything. "
      "Metcalfe-Boggs: the analytic efficiency for the same frames and station count "
      "(analysis.metcalfe_boggs_efficiency). " +
      reference_assumptions("Metcalfe-Boggs efficiency") +
      " The same capture, with the backoff of stations that keep losing, lowers fairness.";
  a.chart = "contention-efficiency";
  out.push_back(std::move(a));
}

void line_rate(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  // The study of line rate: a frame-size or rate axis, and every point one saturated sender.
  const int size_axis = axis_containing(r, "frame_bytes");
  const int rate_axis = axis_containing(r, "rate_mbps");
  if (size_axis < 0 && rate_axis < 0) return;
  std::vector<LinePoint> rows;
  for (const std::size_t p : points_with_results(r)) {
    const auto x = line_point(r, p);
    if (!x) return;
    rows.push_back(*x);
  }
  if (rows.empty()) return;
  Answer a;
  a.kind = "line-rate";
  a.question = "Does a saturated full-duplex link reach the closed-form line rate?";
  std::vector<std::string> missed;
  std::set<double> seconds;
  for (const auto& x : rows) {
    seconds.insert(x.seconds());
    if (!x.met())
      missed.push_back(fmt::format("{} frames of {} B at {} Mb/s (closed form {})",
                                   grouped(x.simulated_frames), x.frame_bytes, x.rate_mbps,
                                   grouped(x.closed_form_frames)));
  }
  const std::string run =
      seconds.size() == 1 ? fmt::format("its {:g} ms", *seconds.begin() * 1e3) : "its length";
  const double slack = 1.0 / *seconds.begin();
  if (missed.empty())
    a.lines.push_back(fmt::format(
        "Met at all {} points: each run sent exactly the frames the closed form completes in {}, "
        "so a frame rate differs from the steady state only by the frame still on the wire at "
        "the end (at most {} frames/s)",
        rows.size(), run, grouped(slack)));
  else
    a.lines.push_back(fmt::format("Not met at {} of {} points: {}", missed.size(), rows.size(),
                                  join(missed, "; ")));
  // Per group of the axes other than the frame size (and what it determines): the simulated
  // frame rate beside the closed form's, per size.
  std::vector<int> skip = determined_by(r, size_axis);
  if (size_axis < 0) skip = determined_by(r, rate_axis);
  std::vector<std::size_t> points;
  std::map<std::size_t, const LinePoint*> by_point;
  for (const auto& x : rows) {
    points.push_back(x.point);
    by_point[x.point] = &x;
  }
  for (const auto& g : group_points(r, axes_except(r, skip), points)) {
    std::vector<const LinePoint*> xs;
    for (const std::size_t p : g.points) xs.push_back(by_point[p]);
    std::stable_sort(xs.begin(), xs.end(), [](const auto* x, const auto* y) {
      return std::make_pair(x->rate_mbps, x->frame_bytes) <
             std::make_pair(y->rate_mbps, y->frame_bytes);
    });
    const bool rates = xs.front()->rate_mbps != xs.back()->rate_mbps;
    std::vector<std::string> parts;
    for (const auto* x : xs)
      parts.push_back(fmt::format("{}{} B {} ({})",
                                  rates ? fmt::format("{} Mb/s ", x->rate_mbps) : std::string(),
                                  x->frame_bytes, grouped(x->simulated_frames / x->seconds()),
                                  grouped(x->closed_form_rate)));
    a.lines.push_back(g.label + ": frames/s simulated (closed form) " + join(parts));
    for (const auto* x : xs) a.details.push_back(line_detail(r, *x));
  }
  a.method =
      "Closed form (analysis/line_rate): back-to-back frames, each with 8 bytes of preamble and "
      "SFD and followed by the inter-frame gap (96 bits unless the scenario sets another), so "
      "rate / (64 + 8 x bytes + gap) frames per second; the frames completed by the run's end "
      "are counted exactly (the first starts at 0, a frame counts when its last bit has left). "
      "Simulated: the sender's frames_transmitted_ok over the run (after any warm-up). Met: the "
      "two counts are equal.";
  a.chart = "throughput";
  out.push_back(std::move(a));
}

void cable_errors(const Results& r, std::vector<Answer>& out) {
  if (r.kind != ResultsKind::sweep) return;
  int length_axis = axis_containing(r, "cable_m");
  if (length_axis < 0) length_axis = axis_containing(r, "length_m");
  if (length_axis < 0) return;
  const auto links = phy_links(r);
  if (links.empty()) return;
  std::map<std::size_t, CablePoint> at;
  for (const std::size_t p : points_with_results(r))
    if (const auto c = cable_point(r, p, static_cast<std::size_t>(length_axis), links)) at[p] = *c;
  if (at.empty()) return;
  std::vector<std::size_t> points;
  for (const auto& [p, c] : at) points.push_back(p);
  Answer a;
  a.kind = "cable-errors";
  a.question = "What do the cable's bit errors do to goodput?";
  for (const auto& g : group_points(r, axes_except(r, determined_by(r, length_axis)), points)) {
    std::vector<CablePoint> rows;
    for (const std::size_t p : g.points) rows.push_back(at[p]);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& x, const auto& y) { return x.length_m < y.length_m; });
    a.lines.push_back(cable_line(g.label, rows));
    for (const auto& c : rows)
      a.details.push_back(
          fmt::format("{}: margin {:+.2f} dB, {} of {} frames hit by a bit error ({}), goodput {}",
                      short_label_of(r, c.point, every_axis(r)), c.margin_db, grouped(c.corrupted),
                      grouped(c.carried), small_percent(c.loss()), mbps(c.goodput)));
  }
  a.method =
      "Margin: the link-level PHY model's SNR margin for the cable's category and length "
      "(analysis.link<k>.phy_margin_db; at 0 dB the coded bit-error rate is 1e-10), which sets "
      "the bit-error rate the link injects. Lost: the frames a bit error reached over the frames "
      "the link carried; the receiver counts them as FCS errors and drops them. Goodput: DA..FCS "
      "bits per second delivered to the receiving application. 'No frame lost' holds for the "
      "frames of the run: a bit-error rate well below one over the bits carried shows none.";
  a.chart = "goodput";
  out.push_back(std::move(a));
}

}  // namespace gbesim::answer_rules
