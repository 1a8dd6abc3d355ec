#include "sim/run/simulate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string_view>

#include "scenarios/network.hpp"
#include "sim/run/run_options.hpp"
#include "sim/run/series.hpp"
#include "sim/support/progress.hpp"
#include "sim/support/stop_signal.hpp"

namespace gbesim {
namespace {

class OrderPerturbation : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(OrderPerturbation);
  explicit OrderPerturbation(sc_core::sc_module_name name) : sc_module(name) { SC_METHOD(tick); }
  static bool wanted() {
    const char* v = std::getenv("GBESIM_PERTURB_ORDER");
    return v != nullptr && std::string_view(v) == "1";
  }

 private:
  void tick() { next_trigger(sc_core::sc_time(1, sc_core::SC_NS)); }
};

// CPU time this process has used (user and system), seconds.
double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

Outcome simulate(Picoseconds end_ps, Picoseconds warmup_ps, StatRegistry& stats,
                 const RunOptions& options, const std::string& name, SeriesRecorder* series,
                 Network& network) {
  using Clock = std::chrono::steady_clock;
  ProgressLine progress(!options.quiet);
  const auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  Picoseconds chunk = options.chunk_ns ? *options.chunk_ns * kPsPerNs : kPsPerUs;
  Outcome out;
  while (now_ps() < end_ps) {
    if (stop_requested()) {
      out.interrupted = true;
      break;
    }
    Picoseconds step = std::min(chunk, end_ps - now_ps());
    if (series) step = std::min(step, series->next_ps() - now_ps());
    if (now_ps() < warmup_ps) step = std::min(step, warmup_ps - now_ps());
    const auto before = Clock::now();
    sc_core::sc_start(to_sc_time(step));
    network.settle_late_deliveries();
    if (series && now_ps() == series->next_ps()) series->sample(now_ps());
    if (warmup_ps > 0 && now_ps() == warmup_ps) {
      StatContext at;
      at.elapsed_ps = warmup_ps;
      stats.restart(at);
      out.statistics_from_ps = warmup_ps;
    }
    const double took = std::chrono::duration<double>(Clock::now() - before).count();
    if (!options.chunk_ns) {
      // Aim for about 0.1 s of wall time per chunk, growing at most 4x at a time.
      const double target = 0.1;
      const double scale = took > 0 ? std::clamp(target / took, 0.25, 4.0) : 4.0;
      chunk = std::max<Picoseconds>(kPsPerNs,
                                    static_cast<Picoseconds>(static_cast<double>(chunk) * scale));
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const Picoseconds now = now_ps();
    const double ratio = wall > 0 ? ps_to_seconds(now) / wall : 0;
    const double done = static_cast<double>(now) / static_cast<double>(end_ps);
    const double eta = ratio > 0 ? ps_to_seconds(end_ps - now) / ratio : 0;
    progress.update(fmt::format("{}: {} / {} simulated ({:.0f}%), {:.3g}x real time, ETA {}", name,
                                format_duration_ps(now), format_duration_ps(end_ps), 100 * done,
                                ratio, format_wall_seconds(eta)));
  }
  progress.finish();
  if (series) series->sample(now_ps());
  out.simulated_ps = now_ps();
  out.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out.cpu_seconds = process_cpu_seconds() - cpu_start;
  return out;
}

std::unique_ptr<sc_core::sc_module> order_perturbation_if_asked() {
  if (!OrderPerturbation::wanted()) return nullptr;
  return std::make_unique<OrderPerturbation>("perturb");
}

}  // namespace gbesim
