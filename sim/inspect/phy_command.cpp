#include "sim/inspect/phy_command.hpp"

#include "analysis/result_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/core.h>

#include "analysis/sweep_summary.hpp"
#include "models/common/rng.hpp"
#include "models/phy/awgn.hpp"
#include "models/phy/link_model.hpp"
#include "models/phy/optical_pmd.hpp"
#include "models/phy/viterbi.hpp"
#include "sim/input/json_input.hpp"
#include "sim/input/scenario_loader.hpp"
#include "sim/input/schema.hpp"
#include "sim/support/atomic_file.hpp"
#include "sim/support/diagnostics.hpp"
#include "sim/support/output_dir.hpp"
#include "sim/support/progress.hpp"

namespace gbesim {

namespace {

// Calls one(i) for i = 0 .. count-1 on two threads (this machine's cores), each taking the next
// index when it finishes one. Every call must depend on i alone, so the results do not depend
// on which thread ran them.
// Progress on stderr while the command works (gbesim phy takes seconds to minutes): which
// stage, how many of its items are done. Null with --quiet.
ProgressLine* progress_line = nullptr;

void say_progress(const std::string& text, bool force = false) {
  if (progress_line != nullptr) progress_line->update("gbesim phy: " + text, force);
}

// Before a line of the results table: the progress line makes way for it.
void clear_progress() {
  if (progress_line != nullptr) progress_line->clear();
}

// `what` names the items for the progress line ("receivers solved").
void for_each_index_on_two_threads(std::size_t count, const std::string& what,
                                   const std::function<void(std::size_t)>& one) {
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::exception_ptr failure;
  std::mutex lock;  // failure, done and the progress line
  say_progress(fmt::format("{} 0/{}", what, count), true);
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        one(i);
        const std::lock_guard<std::mutex> hold(lock);
        say_progress(fmt::format("{} {}/{}", what, ++done, count));
      } catch (...) {
        const std::lock_guard<std::mutex> hold(lock);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::thread other(work);
  work();
  other.join();
  if (failure) std::rethrow_exception(failure);
}

// awgn.csv and coding_gain.csv: the points, and the trellis code's gain over symbol-by-symbol
// decisions on the same levels from the union bound and the closed form (it approaches 6.02 dB
// as errors get rarer).
void write_awgn_files(const std::filesystem::path& dir, const std::vector<phy::AwgnPoint>& rows) {
  std::ostringstream csv;
  csv << "sigma,snr_db,uncoded_ser,uncoded_ser_closed_form,uncoded_4d_error_rate,"
         "coded_byte_error_rate,coded_byte_error_ci95\n";
  for (const auto& r : rows)
    csv << fmt::format("{},{:.4f},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e}\n", r.sigma, r.snr_db,
                       r.uncoded_ser, r.uncoded_ser_closed_form, r.uncoded_4d_error_rate,
                       r.coded_byte_error_rate, r.coded_ci95);
  write_file_atomically(dir / "awgn.csv", csv.str());
  std::ostringstream gain;
  gain << "octet_error_rate,sigma_uncoded,sigma_coded,coding_gain_db\n";
  for (const double rate : {1e-3, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-15}) {
    const double su = phy::sigma_for_octet_error(rate, false);
    const double sc = phy::sigma_for_octet_error(rate, true);
    gain << fmt::format("{:.0e},{:.5f},{:.5f},{:.3f}\n", rate, su, sc, 20 * std::log10(sc / su));
  }
  write_file_atomically(dir / "coding_gain.csv", gain.str());
}

void print_awgn(const PhyOptions& o, const std::vector<phy::AwgnPoint>& rows,
                double symbols_per_second) {
  fmt::print("gbesim phy: AWGN channel, {} 4D symbols per point, seed {}\n", o.symbols, o.seed);
  fmt::print("{:>7} {:>8} {:>12} {:>12} {:>12} {:>12}\n", "sigma", "SNR dB", "uncoded SER",
             "closed form", "uncoded 4D", "coded bytes");
  for (const auto& r : rows)
    fmt::print("{:>7.3f} {:>8.2f} {:>12.3e} {:>12.3e} {:>12.3e} {:>12.3e}\n", r.sigma, r.snr_db,
               r.uncoded_ser, r.uncoded_ser_closed_form, r.uncoded_4d_error_rate,
               r.coded_byte_error_rate);
  fmt::print(
      "coding gain (union bound vs closed form, same levels): {:.2f} dB at 1e-3, {:.2f} dB "
      "at 1e-10, {:.2f} dB at 1e-15 octet errors (asymptote 6.02 dB)\n",
      phy::coding_gain_db(1e-3), phy::coding_gain_db(1e-10), phy::coding_gain_db(1e-15));
  fmt::print("Viterbi decoding: {:.3g} 4D symbols/s\n", symbols_per_second);
}

void run_awgn(const PhyOptions& o, Json& summary) {
  // Each noise level has its own random streams (models/phy/awgn): solved two at a time.
  std::vector<phy::AwgnPoint> rows(o.sigmas.size());
  for_each_index_on_two_threads(o.sigmas.size(), "AWGN points", [&](std::size_t point) {
    rows[point] =
        phy::simulate_awgn(o.sigmas[point], o.symbols, static_cast<std::uint64_t>(o.seed));
  });
  double decode_seconds = 0;
  for (const auto& r : rows) decode_seconds += r.decode_seconds;
  const double total_symbols =
      static_cast<double>(o.symbols) * static_cast<double>(o.sigmas.size());
  write_awgn_files(std::filesystem::path(o.out_dir), rows);
  summary["awgn_symbols_per_point"] = o.symbols;
  summary["coded_mean_energy_per_dimension"] = phy::coded_symbol_energy();
  // Wall-clock speed: the only figure that differs between runs of one seed, so it stays out of
  // awgn.csv.
  summary["decode_symbols_per_second"] = decode_seconds > 0 ? total_symbols / decode_seconds : 0.0;
  clear_progress();
  if (!o.quiet) print_awgn(o, rows, summary["decode_symbols_per_second"].get<double>());
}

struct Variant {
  const char* name;
  bool echo;
  bool next;
};
constexpr Variant kVariants[] = {
    {"all", true, true}, {"no_next_cancel", true, false}, {"no_echo_cancel", false, true}};

phy::PhyLinkParams link_params(const PhyOptions& o, const phy::CableCategory* cable, double length,
                               const Variant& v) {
  phy::PhyLinkParams p;
  phy::apply(o.receiver, p);
  p.cable = cable;
  p.length_m = length;
  p.echo_cancellation = v.echo;
  p.next_cancellation = v.next;
  return p;
}

// The length at which the margin crosses zero, by bisection; negative: no crossing in 0..400 m.
double zero_margin_length(const PhyOptions& o, const phy::CableCategory* cable, const Variant& v,
                          double& at_zero) {
  at_zero = phy::analyse_link(link_params(o, cable, 0, v)).margin_db;
  if (at_zero <= 0) return -1;
  double lo = 0, hi = 400;
  if (phy::analyse_link(link_params(o, cable, hi, v)).margin_db > 0) return -2;
  while (hi - lo > 0.5) {
    const double mid = (lo + hi) / 2;
    (phy::analyse_link(link_params(o, cable, mid, v)).margin_db > 0 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

// A cable point: one category, length and set of cancellers, its receiver solved.
struct Point {
  std::string cable;
  double length;
  const Variant* variant;
  phy::PhyLinkParams params;
  phy::PhyLinkAnalysis analysis;
};

// Every receiver, solved two at a time.
std::vector<Point> solve_points(const PhyOptions& o) {
  std::vector<double> lengths = o.lengths_m;
  if (lengths.empty())
    for (int l = 0; l <= 200; l += 10) lengths.push_back(l);
  std::vector<Point> points;
  for (const auto& name : o.cables) {
    const auto* cable = phy::find_cable_category(name);
    for (const double length : lengths)
      for (const auto& v : kVariants)
        points.push_back({name, length, &v, link_params(o, cable, length, v), {}});
  }
  for_each_index_on_two_threads(points.size(), "receivers designed", [&](std::size_t i) {
    points[i].analysis = phy::analyse_link(points[i].params);
    // Only the eye diagram (solved again below) needs the oversampled response: not kept for
    // every point.
    points[i].analysis.through_oversampled = std::vector<double>();
  });
  return points;
}

// The Monte Carlo runs of the receivers with all their cancellers, two at a time (each also
// receives a block while it decodes the one before, but its two stages are unequal: one run
// kept both cores 85 % busy), each depending on its point and the seed alone. Returns the
// symbols simulated per second of wall time.
double simulate_points(const PhyOptions& o, const std::vector<Point>& points,
                       std::vector<phy::PhyLinkSimulation>& runs) {
  runs.assign(points.size(), {});
  std::vector<std::size_t> simulated;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (o.mc_symbols > 0 && points[i].variant->echo && points[i].variant->next)
      simulated.push_back(i);
  if (simulated.empty()) return 0.0;
  const auto start = std::chrono::steady_clock::now();
  for_each_index_on_two_threads(
      simulated.size(), "link-level Monte Carlo runs", [&](std::size_t k) {
        const Point& point = points[simulated[k]];
        runs[simulated[k]] = phy::simulate_link(point.params, point.analysis, o.mc_symbols,
                                                static_cast<std::uint64_t>(o.seed));
      });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seconds > 0
             ? static_cast<double>(o.mc_symbols) * static_cast<double>(simulated.size()) / seconds
             : 0.0;
}

// cable.csv: every point, with its Monte Carlo run where it has one. Returns the symbols
// simulated per second.
double write_cable_csv(const PhyOptions& o, const std::vector<Point>& points,
                       const std::filesystem::path& dir) {
  std::vector<phy::PhyLinkSimulation> runs;
  const double symbols_per_second = simulate_points(o, points, runs);
  std::ostringstream csv;
  csv << "category,length_m,cancellation,snr_db,required_snr_db,margin_db,ber_coded,"
         "octet_error_coded,ber_uncoded,octet_error_uncoded,isi,echo,next,fext,noise,adc,"
         "insertion_loss_62mhz_db,propagation_delay_ns,slicer_mse,mc_symbols,mc_mse,"
         "mc_slicer_error_rate,mc_octet_errors,mc_bit_errors\n";
  clear_progress();
  if (!o.quiet)
    fmt::print(
        "gbesim phy: 1000BASE-T over cable, cancellers all / no NEXT / no echo\n"
        "{:>6} {:>7} {:>15} {:>8} {:>8} {:>10} {:>10}\n",
        "cable", "length", "cancellation", "SNR dB", "margin", "BER coded", "uncoded");
  for (const Point& point : points) {
    const Variant& v = *point.variant;
    const auto& a = point.analysis;
    const phy::PhyLinkSimulation& mc = runs[static_cast<std::size_t>(&point - points.data())];
    const double dims = 4.0 * static_cast<double>(mc.symbols);
    csv << fmt::format(
        "{},{},{},{:.4f},{:.4f},{:.4f},{:.4e},{:.4e},{:.4e},{:.4e},{:.4e},{:.4e},{:.4e},"
        "{:.4e},{:.4e},{:.4e},{:.3f},{:.1f},{:.6e},{},{:.6e},{:.4e},{},{}\n",
        point.cable, point.length, v.name, a.snr_db, a.required_snr_db, a.margin_db, a.ber_coded,
        a.octet_error_coded, a.ber_uncoded, a.octet_error_uncoded, a.budget.isi, a.budget.echo,
        a.budget.next, a.budget.fext, a.budget.noise, a.budget.adc, a.insertion_loss_62mhz_db,
        a.propagation_delay_ns, a.sigma * a.sigma, mc.symbols, mc.measured_mse,
        mc.symbols > 0 ? static_cast<double>(mc.slicer_errors) / dims : 0.0, mc.octet_errors,
        mc.bit_errors);
    clear_progress();
    if (!o.quiet && (static_cast<int>(point.length) % 50 == 0))
      fmt::print("{:>6} {:>5.0f} m {:>15} {:>8.2f} {:>8.2f} {:>10.2e} {:>10.2e}\n", point.cable,
                 point.length, v.name, a.snr_db, a.margin_db, a.ber_coded, a.ber_uncoded);
  }
  write_file_atomically(dir / "cable.csv", csv.str());
  return symbols_per_second;
}

// reach.csv: per category and set of cancellers, the length at zero margin (bisections, two at
// a time). Returns the same as JSON for phy.json.
Json write_reach(const PhyOptions& o, const std::filesystem::path& dir) {
  struct Reach {
    double at_zero = 0;
    double length = 0;
  };
  const std::size_t variants = std::size(kVariants);
  std::vector<Reach> reaches(o.cables.size() * variants);
  for_each_index_on_two_threads(reaches.size(), "reach bisections", [&](std::size_t i) {
    Reach& r = reaches[i];
    r.length = zero_margin_length(o, phy::find_cable_category(o.cables[i / variants]),
                                  kVariants[i % variants], r.at_zero);
  });
  std::ostringstream reach;
  reach << "category,cancellation,margin_at_0m_db,zero_margin_length_m\n";
  Json reach_json = Json::object();
  std::size_t next_reach = 0;
  for (const auto& name : o.cables)
    for (const auto& v : kVariants) {
      const double at_zero = reaches[next_reach].at_zero;
      const double l = reaches[next_reach++].length;
      const std::string shown = l == -1 ? "none" : l == -2 ? ">400" : fmt::format("{:.1f}", l);
      reach << fmt::format("{},{},{:.3f},{}\n", name, v.name, at_zero, shown);
      reach_json[name][v.name] = shown;
    }
  write_file_atomically(dir / "reach.csv", reach.str());
  return reach_json;
}

// eye.csv: the eye diagrams at --eye-length, raw and equalised.
void write_eye(const PhyOptions& o, const std::filesystem::path& dir) {
  std::ostringstream eye;
  eye << "category,length_m,trace,point,time_ns,raw,equalised\n";
  for (const auto& name : o.cables) {
    const auto a = phy::analyse_link(
        link_params(o, phy::find_cable_category(name), o.eye_length_m, kVariants[0]));
    for (const auto& e : phy::eye_diagram(a, 100, static_cast<std::uint64_t>(o.seed)))
      eye << fmt::format("{},{},{},{},{:.3f},{:.5f},{:.5f}\n", name, o.eye_length_m, e.trace,
                         e.point, e.point * 8.0 / phy::kOversample, e.raw, e.equalised);
  }
  write_file_atomically(dir / "eye.csv", eye.str());
}

void run_cable(const PhyOptions& o, Json& summary) {
  const std::filesystem::path dir(o.out_dir);
  const double symbols_per_second = write_cable_csv(o, solve_points(o), dir);
  const Json reach = write_reach(o, dir);
  write_eye(o, dir);
  summary["zero_margin_length_m"] = reach;
  summary["receiver"] = schema::write_rows(phy::phy_receiver_param_table(), o.receiver);
  summary["link_symbols_per_second"] = symbols_per_second;
  clear_progress();
  if (o.quiet) return;
  fmt::print("length at zero margin (BER 1e-10):\n");
  for (const auto& name : o.cables)
    fmt::print("  {:<6} all cancellers {:>6} m, no NEXT cancel {:>6} m, no echo cancel {:>6}\n",
               name, reach[name]["all"].get<std::string>(),
               reach[name]["no_next_cancel"].get<std::string>(),
               reach[name]["no_echo_cancel"].get<std::string>());
  if (symbols_per_second > 0)
    fmt::print("link-level Monte Carlo: {:.3g} 4D symbols/s\n", symbols_per_second);
}

}  // namespace

namespace {

// `gbesim phy --pmd ...`: the 1000BASE-X link check. Bad names are exit 2 with a did-you-mean.
int run_pmd(const PhyOptions& o) {
  Diagnostics d("gbesim phy");
  std::vector<std::string> pmd_names;
  for (const auto& p : phy::pmds()) pmd_names.push_back(p.name);
  std::vector<std::string> fibre_names;
  for (const auto& f : phy::fibre_types()) fibre_names.push_back(f.name);
  for (const auto& name : o.pmds)
    if (phy::find_pmd(name) == nullptr)
      d.error("--pmd", "no PMD \"" + name + "\"" + suggestion(name, pmd_names) +
                           " (one of: " + schema::key_list(pmd_names) + ")");
  std::vector<std::string> fibres;
  for (const auto& name : o.fibres) fibres.push_back(phy::fibre_name(name));
  for (const auto& name : fibres) {
    const bool known = std::find(fibre_names.begin(), fibre_names.end(), name) != fibre_names.end();
    if (!known)
      d.error("--fibre", "no fibre type \"" + name + "\"" + suggestion(name, fibre_names) +
                             " (one of: " + schema::key_list(fibre_names) + ")");
    for (const auto& p : o.pmds)
      if (const phy::Pmd* pmd = phy::find_pmd(p); known && pmd && !phy::find_fibre(*pmd, name))
        d.error("--fibre", p + " does not run on " + name);
  }
  d.throw_if_any();
  std::vector<double> lengths = o.lengths_m;
  const OutputDirectory out(o.out_dir, fmt::format("gbesim phy (pid {})", ::getpid()),
                            {"pmd.csv", "pmd.txt"});
  const std::filesystem::path& dir = out.path();
  std::string csv =
      "pmd,fibre,length_m,power_budget_db,insertion_loss_db,link_penalties_db,margin_db,"
      "operating_range_m,within_power,within_range,pass\n";
  std::string text;
  for (const auto& name : o.pmds) {
    const phy::Pmd& pmd = *phy::find_pmd(name);
    for (const auto& fibre : pmd.fibres) {
      if (!fibres.empty() && std::find(fibres.begin(), fibres.end(), fibre.fibre) == fibres.end())
        continue;
      phy::PmdOnFibre f = fibre;
      if (o.tx_min_dbm && pmd.optical) f.tx_min_dbm = *o.tx_min_dbm;
      const auto pts = lengths.empty() ? std::vector<double>{f.operating_range_m} : lengths;
      const phy::PmdCheck c = phy::check_pmd(pmd, f, pts, o.connection_loss_db);
      text += fmt::format("{} on {}: reach {:.0f} m, limited by {}", c.pmd, c.fibre, c.reach_m,
                          c.limited_by);
      if (pmd.optical) {
        text += fmt::format(
            "\n  power budget {:.2f} dB (launch {:.1f} dBm min, sensitivity {:.1f} dBm); "
            "penalties {:.2f} dB; {:.2f} dB unallocated at {:.0f} m; with those penalties the "
            "power "
            "budget alone would reach {:.0f} m",
            c.power_budget_db, f.tx_min_dbm, pmd.rx_sensitivity_dbm, c.link_penalties_db,
            c.unallocated_margin_db, c.operating_range_m, *c.power_reach_m);
        if (!f.confirmed) text += "\n  (this fibre's budget figures are recalled, not confirmed)";
      }
      text += "\n";
      for (const auto& p : c.points) {
        if (pmd.optical)
          text += fmt::format("  {:>7.0f} m: insertion loss {:5.2f} dB, margin {:+6.2f} dB -> {}\n",
                              p.length_m, p.insertion_loss_db, p.margin_db,
                              p.pass            ? "PASS"
                              : !p.within_power ? "FAIL (power budget)"
                                                : "FAIL (beyond the operating range)");
        else
          text += fmt::format("  {:>7.0f} m -> {}\n", p.length_m,
                              p.pass ? "PASS" : "FAIL (beyond the jumper length)");
        csv += fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{}\n", c.pmd, c.fibre, number_text(p.length_m),
            pmd.optical ? number_text(c.power_budget_db) : "",
            pmd.optical ? number_text(p.insertion_loss_db) : "",
            pmd.optical ? number_text(c.link_penalties_db) : "",
            pmd.optical ? number_text(p.margin_db) : "", number_text(c.operating_range_m),
            p.within_power ? 1 : 0, p.within_range ? 1 : 0, p.pass ? 1 : 0);
      }
    }
  }
  write_file_atomically(dir / "pmd.csv", csv);
  write_file_atomically(dir / "pmd.txt", text);
  if (!o.quiet) fmt::print("{}results: {}/ (pmd.csv, pmd.txt)\n", text, dir.string());
  return 0;
}

}  // namespace

int run_phy(const PhyOptions& options) {
  if (!options.pmds.empty()) return run_pmd(options);
  PhyOptions o = options;
  if (!o.scenario_file.empty()) {
    const LoadedScenario s = load_scenario(o.scenario_file);
    if (!s.config.link_level) {
      Diagnostics d(o.scenario_file);
      d.error("link_level",
              "the scenario has no \"link_level\" block for gbesim phy (e.g. "
              "{\"cables\": [\"cat5e\"], \"lengths_m\": [0, 50, 100]})");
      d.throw_if_any();
    }
    const auto& l = *s.config.link_level;
    o.channel = "cable";
    o.cables = l.cables;
    o.lengths_m = l.lengths_m;
    o.mc_symbols = l.mc_symbols;
    o.eye_length_m = l.eye_length_m;
    o.seed = s.config.run.seed;
    // The scenario's receiver, except what the command line gave.
    for (const auto& e : phy::phy_receiver_param_table().entries())
      if (std::find(o.receiver_given.begin(), o.receiver_given.end(), e.info.key) ==
          o.receiver_given.end())
        e.set(o.receiver, e.get(l.receiver));
    if (!o.out_given) o.out_dir = "results/" + s.config.run.name + "-phy";
  }
  // Checked and locked before the (long) link-level computation, not after.
  const std::vector<std::string> files = {"awgn.csv",  "coding_gain.csv", "cable.csv",
                                          "reach.csv", "eye.csv",         "phy.json"};
  const OutputDirectory out(o.out_dir, fmt::format("gbesim phy (pid {})", ::getpid()), files);
  const std::filesystem::path& dir = out.path();
  out.remove_own(files);  // a table this run does not make again must not stay beside it
  Json summary;
  summary["seed"] = o.seed;
  summary["channel"] = o.channel;
  ProgressLine progress(!o.quiet);
  progress_line = &progress;
  if (o.channel != "cable") run_awgn(o, summary);
  if (o.channel != "awgn") run_cable(o, summary);
  progress.finish();
  progress_line = nullptr;
  summary["files"] = checks_of_files(dir, files);
  write_file_atomically(dir / "phy.json", seal_record(dump_json(summary, 2)));
  if (!o.quiet)
    fmt::print("results: {}/ ({}phy.json)\n", dir.string(),
               o.channel == "awgn" ? "awgn.csv, coding_gain.csv, "
               : o.channel == "cable"
                   ? "cable.csv, reach.csv, eye.csv, "
                   : "awgn.csv, coding_gain.csv, cable.csv, reach.csv, eye.csv, ");
  return 0;
}

}  // namespace gbesim
