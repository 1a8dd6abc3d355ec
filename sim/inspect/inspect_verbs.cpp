#include "sim/inspect/inspect_verbs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "sim/inspect/events_command.hpp"
#include "sim/inspect/params_command.hpp"
#include "sim/inspect/phy_command.hpp"
#include "sim/inspect/stats_command.hpp"
#include "sim/inspect/topology_command.hpp"

namespace gbesim {

Verb add_params_verb(CLI::App& app) {
  struct Line {
    bool json = false;
    bool markdown = false;
    std::vector<std::string> under;
    std::vector<std::string> words;
  };
  auto line = std::make_shared<Line>();
  CLI::App* cmd = app.add_subcommand("params", "list every model parameter");
  cmd->add_option("words", line->words,
                  "only the parameters whose path, unit and description mention every word "
                  "(any case): gbesim params pause quanta");
  cmd->add_flag("--json", line->json, "as JSON (for the desktop app)");
  cmd->add_flag("--markdown", line->markdown,
                "as the Markdown reference docs/scenarios.md carries");
  cmd->add_option("--under", line->under,
                  "with --markdown: only the paths under this one (stations.*.mac), no rules; "
                  "repeatable")
      ->needs("--markdown");
  return {cmd, [line] {
            if (!line->words.empty() && (line->json || line->markdown)) {
              fmt::print(stderr, "error: gbesim params: words filter the text listing only\n");
              return 2;
            }
            const std::string text = line->json       ? params_json()
                                     : line->markdown ? params_markdown(line->under)
                                                      : params_text(line->words);
            if (text.empty()) {
              std::string said;
              for (const auto& w : line->words) said += (said.empty() ? "" : " ") + w;
              fmt::print(stderr, "gbesim params: no parameter or rule mentions \"{}\"\n", said);
              return 1;
            }
            fmt::print("{}", text);
            return 0;
          }};
}

Verb add_stats_verb(CLI::App& app) {
  auto options = std::make_shared<StatsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "every statistic a scenario's components record: name, unit, description");
  cmd->add_option("scenario", options->scenario_file,
                  "a scenario (default: one of every kind of component)");
  CLI::Option* json = cmd->add_flag("--json", options->json, "as JSON");
  cmd->add_flag("--markdown", options->markdown,
                "a Markdown table per component, as the model pages in docs/ carry them")
      ->excludes(json);
  cmd->add_option("--component", options->components,
                  "only this component pattern, as listed (\"<station>.mac\"); repeatable");
  return {cmd, [options] {
            fmt::print("{}", stats_listing(*options));
            return 0;
          }};
}

Verb add_events_verb(CLI::App& app) {
  auto options = std::make_shared<EventsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "events", "every event and traced state variable each model reports, and what it means");
  CLI::Option* json = cmd->add_flag("--json", options->json, "as JSON");
  cmd->add_flag("--markdown", options->markdown, "as the tables a model page carries")
      ->excludes(json);
  cmd->add_option("--model", options->models, "only this model: mac, nic, pci, ... (repeatable)");
  return {cmd, [options] {
            fmt::print("{}", events_listing(*options));
            return 0;
          }};
}

Verb add_topology_verb(CLI::App& app) {
  auto options = std::make_shared<TopologyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "topology", "check a cabling plant's collision domains (exit 0 pass, 1 fail, 2 bad input)");
  cmd->add_option("file", options->file, "topology JSON file")->required();
  CLI::Option* out =
      cmd->add_option("-o,--out", options->out_dir, "output directory (default results/<name>)");
  cmd->add_flag("--quiet", options->quiet, "write the files, print nothing");
  cmd->add_flag("--every-pair", options->every_pair,
                "list every pair of stations in topology_pairs.csv, not each station's worst "
                "(refused, with its size, beyond 2 GB)");
  return {cmd, [options, out] {
            check_out_option(out);
            return run_topology(*options);
          }};
}

namespace {

struct PhyLine {
  PhyOptions phy;
  CLI::Option* out = nullptr;
  CLI::Option* pmd = nullptr;
  // The receiver's flags (--echo-taps, --adc-bits, ...) by their parameter's key.
  std::vector<std::pair<std::string, CLI::Option*>> receiver_flags;
  // What only the 1000BASE-T link reads: given with --pmd, it would be silently ignored.
  std::vector<CLI::Option*> twisted_pair_only;
};

// The receiver's flags, from its parameter table.
void declare_receiver_flags(CLI::App* cmd, PhyLine& l) {
  for (const auto& e : phy::phy_receiver_param_table().entries()) {
    std::string flag = "--" + e.info.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    const std::string help = fmt::format("{} ({}, default {})", e.info.doc, e.info.unit,
                                         format_param_value(e.info.default_value));
    phy::PhyReceiverParams& receiver = l.phy.receiver;
    CLI::Option* option = nullptr;
    if (e.info.type == ParamType::integer) {
      option =
          cmd->add_option_function<std::int64_t>(
                 flag, [&receiver, &e](std::int64_t v) { e.set(receiver, ParamValue(v)); }, help)
              ->check(decimal())
              ->check(CLI::Range(static_cast<std::int64_t>(e.info.min),
                                 static_cast<std::int64_t>(e.info.max)));
    } else {
      option = cmd->add_option_function<double>(
                      flag, [&receiver, &e](double v) { e.set(receiver, ParamValue(v)); }, help)
                   ->check(CLI::Range(e.info.min, e.info.max));
    }
    l.receiver_flags.emplace_back(e.info.key, option);
    l.twisted_pair_only.push_back(option);
  }
}

// The 1000BASE-T link level: channels, cables, lengths, Monte Carlo, the AWGN sweep.
void declare_twisted_pair(CLI::App* cmd, PhyLine& l) {
  PhyOptions& p = l.phy;
  auto& only = l.twisted_pair_only;
  only.push_back(cmd->add_option("--scenario", p.scenario_file,
                                 "take the sweep from this scenario's \"link_level\" block"));
  only.push_back(cmd->add_option("--channel", p.channel, "awgn, cable or both (default)")
                     ->check(CLI::IsMember({"awgn", "cable", "both"})));
  only.push_back(cmd->add_option("--cable", p.cables, "cable categories (default cat5,cat5e,cat6)")
                     ->delimiter(',')
                     ->check(CLI::IsMember({"cat5", "cat5e", "cat6"})));
  only.push_back(cmd->add_option("--mc-symbols", p.mc_symbols,
                                 "Monte Carlo 4D symbols per cable point (0: none; default 20000)")
                     ->check(decimal())
                     ->check(CLI::Range(std::int64_t{0}, std::int64_t{100'000'000})));
  only.push_back(
      cmd->add_option("--eye-length", p.eye_length_m, "cable length of the eye diagrams (m)")
          ->check(CLI::Range(0.0, 1000.0)));
  declare_receiver_flags(cmd, l);
  only.push_back(cmd->add_option("--sigma", p.sigmas, "noise standard deviations per dimension")
                     ->delimiter(',')
                     ->check(CLI::Range(0.01, 10.0)));
  only.push_back(cmd->add_option("--symbols", p.symbols, "4D symbols per noise level")
                     ->check(decimal())
                     ->check(CLI::Range(1000, 100'000'000)));
  only.push_back(
      cmd->add_option("--seed", p.seed, "seed")->check(decimal())->check(CLI::Range(0, 1 << 30)));
  for (CLI::Option* option : only) option->excludes(l.pmd);
}

// The 1000BASE-X check (--pmd) and what only it reads.
void declare_fibre(CLI::App* cmd, PhyLine& l) {
  PhyOptions& p = l.phy;
  cmd->add_option("--fibre", p.fibres,
                  "fibre types for --pmd (default: every one the PMD runs on): "
                  "mmf-62.5-160, mmf-62.5-200, mmf-50-400, mmf-50-500, smf-9, stp-150")
      ->delimiter(',')
      ->needs(l.pmd);
  cmd->add_option("--connection-loss-db", p.connection_loss_db,
                  "connections and splices for --pmd (default the standard's 1.5 dB)")
      ->check(CLI::Range(0.0, 50.0))
      ->needs(l.pmd);
  cmd->add_option("--tx-min-dbm", p.tx_min_dbm,
                  "a transceiver's minimum launch power for --pmd (default the standard's)")
      ->needs(l.pmd);
}

}  // namespace

Verb add_phy_verb(CLI::App& app) {
  auto line = std::make_shared<PhyLine>();
  CLI::App* cmd = app.add_subcommand(
      "phy", "1000BASE-T link level: SNR, margin and BER vs cable length; AWGN error rates");
  line->out =
      cmd->add_option("-o,--out", line->phy.out_dir, "output directory (default results/phy)");
  line->pmd = cmd->add_option("--pmd", line->phy.pmds,
                              "1000BASE-X link check instead: 1000base-sx, 1000base-lx or "
                              "1000base-cx (power budget, margin per length, reach per fibre; "
                              "--lengths in metres)")
                  ->delimiter(',');
  declare_twisted_pair(cmd, *line);
  cmd->add_option("--lengths", line->phy.lengths_m,
                  "cable lengths in metres (default 0,10,...,200)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_flag("--quiet", line->phy.quiet, "write the files, print nothing");
  declare_fibre(cmd, *line);
  return {cmd, [line] {
            check_out_option(line->out);
            PhyOptions& phy = line->phy;
            phy.out_given = line->out->count() > 0;
            for (const auto& [key, option] : line->receiver_flags)
              if (option->count() > 0) phy.receiver_given.push_back(key);
            return run_phy(phy);
          }};
}

}  // namespace gbesim
