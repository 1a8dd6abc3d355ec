// The answers a sweep states (analysis/answers) on stdout, in answers.txt and at the top of the
// report, with numbers checked against arithmetic done here: carrier extension's share and what
// bursting wins back (the single sender's closed-form timeline), a PCI transmit path's bus clocks
// (transaction arithmetic), a PHY's reach (its own reach table). The diameter answer has its own
// test in pipeline_test.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "analysis/half_duplex.hpp"
#include "analysis/results.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim::testing {
namespace {

// The answer section of a report, tags stripped.
std::string answer_text(const std::string& html) {
  const auto from = html.find("<section class=\"answer\"");
  const auto to = html.find("</section>", from);
  if (from == std::string::npos || to == std::string::npos) return "";
  // Tags become spaces (a loop: std::regex recurses per character and overflows the stack on
  // the section's embedded chart).
  std::string text;
  bool in_tag = false;
  for (std::size_t i = from; i < to; ++i) {
    if (html[i] == '<') in_tag = true;
    if (!in_tag) text += html[i];
    if (html[i] == '>') {
      in_tag = false;
      text += ' ';
    }
  }
  return text;
}

// One saturated sender on a gigabit collision domain, with carrier extension, with and without
// frame bursting, at 64 and 1518 bytes. The closed form: a 64-byte frame is extended to the
// 512-byte slot, so a period of 8 + 512 + 12 bytes carries 448 bytes of extension (84.2 %) and
// 64 of frame (12.0 %); bursting's efficiency is the timeline's with bursting on.
TEST(Answers, ACarrierExtensionSweepStatesTheShareAndWhatBurstingWinsBack) {
  const auto dir = fresh_directory("answers-extension");
  write_text(
      dir / "x.json",
      R"({"name": "my-extension", "description": "", "duration_ns": 20000000, "rate_mbps": 1000,
    "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": false},
    "stations": {"s0": {"traffic": [{"pattern": "saturated", "to": "r0", "frame_bytes": 64}]},
                 "r0": {}},
    "collision_domains": [{"stations": ["s0", "r0"], "medium": "cat5e",
                           "cable_m": {"s0": 25, "r0": 25}, "repeater_round_trip_bt": 976}],
    "sweep": {"mode": [{"label": "extension", "set": {"mac.frame_bursting": false}},
                       {"label": "bursting", "set": {"mac.frame_bursting": true}}],
              "stations.s0.traffic[0].frame_bytes": [64, 1518]}})");
  const auto sweep = run_gbesim({"sweep", "x.json", "--out", "sweep", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;

  const double share = 448.0 / (8 + 512 + 12);
  SingleSenderSetup setup;
  setup.frame_bytes = 64;
  const double extended = single_sender_timeline(setup).efficiency(64);
  setup.frame_bursting = true;
  const double burst = single_sender_timeline(setup).efficiency(64);
  EXPECT_NEAR(extended, 64.0 / 532, 1e-12);
  // The simulated shares over 20 ms: the closed form's within one period in the ~4,700 of the run
  // and the printing's rounding (0.1 points).
  const std::regex sentence(
      "How much does carrier extension waste, and what does frame bursting win back\\?\n"
      "  all points: carrier extension takes ([0-9.]+) % at 64 B of the medium's time \\(none at "
      "1518 B: frames at least the slot\\); frame bursting raises efficiency ([0-9.]+) % -> "
      "([0-9.]+) % at 64 B\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(sweep.output, m, sentence)) << sweep.output;
  EXPECT_NEAR(std::stod(m[1]), 100 * share, 0.1);
  EXPECT_NEAR(std::stod(m[2]), 100 * extended, 0.1);
  EXPECT_NEAR(std::stod(m[3]), 100 * burst, 0.1);
  const std::string line = m[0].str().substr(m[0].str().find("all points"));
  EXPECT_NE(read_text(dir / "sweep/answers.txt").find("per combination:"), std::string::npos);
  ASSERT_EQ(run_gbesim({"report", "sweep", "-o", "report.html"}, dir).exit_code, 0);
  const std::string html = read_text(dir / "report.html");
  EXPECT_NE(answer_text(html).find(
                std::regex_replace(line.substr(0, line.size() - 1), std::regex("->"), "-&gt;")),
            std::string::npos)
      << answer_text(html);
  // The answer and its chart come before every other chart.
  EXPECT_LT(html.find("<section class=\"answer\""), html.find("<figure"));
}

// An 82540EM transmitting 1518-byte frames on PCI 32/33 behind a bridge with 8 clocks of read
// latency and 256-byte prefetch: the frame is read in 5 x 256 + 238 bytes, each read an address
// clock, 8 latency clocks, its data phases less one and a turnaround -- 5 x (1 + 8 + 63 + 1) +
// (1 + 8 + 59 + 1) = 434 data clocks for 380 data phases. Receiving, the wire limits it.
TEST(Answers, APciSweepStatesTheCeilingTheBottleneckAndTheBusClocks) {
  const auto dir = fresh_directory("answers-pci");
  write_text(dir / "p.json",
             R"({"name": "my-pci", "description": "", "duration_ns": 3000000, "rate_mbps": 1000,
    "stations": {"a": {}, "b": {"traffic": [{"pattern": "saturated", "to": "a",
                                             "frame_bytes": 1518}]}},
    "links": [{"between": ["a", "b"], "cable_m": 10, "medium": "cat5e"}],
    "hosts": {"h": {"pci": {"mode": "pci", "width_bits": 32, "clock_mhz": 33},
                    "bridge": {"read_latency_clocks": 8, "prefetch_bytes": 256,
                               "cache_line_bytes": 64},
                    "nic": {"station": "a", "profile": "intel-82540em"}, "cpu": {},
                    "tx": {"frame_bytes": 1518}}},
    "sweep": {"hosts.h.nic.profile": ["intel-82540em", "natsemi-dp83820"],
              "direction": [{"label": "rx", "set": {}},
                            {"label": "tx", "set": {"stations.b.traffic[0].enabled": false,
                                                    "hosts.h.tx.to": "b"}}]}})");
  const auto sweep = run_gbesim({"sweep", "p.json", "--out", "sweep", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  const int data_clocks = 5 * (1 + 8 + 63 + 1) + (1 + 8 + 59 + 1);
  const int phases = (1518 + 3) / 4;
  EXPECT_EQ(data_clocks, 434);
  const std::string& out = sweep.output;
  EXPECT_NE(out.find("What throughput can each NIC and bus carry, and what limits it?\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  direction=rx, receive: "), std::string::npos) << out;
  const auto tx = out.find("  direction=tx, transmit: ");
  ASSERT_NE(tx, std::string::npos) << out;
  const std::string tx_line = out.substr(tx, out.find('\n', tx) - tx);
  EXPECT_NE(tx_line.find("limited by bus for 2 of 2. Slowest: "), std::string::npos) << tx_line;
  EXPECT_NE(tx_line.find(fmt::format("(data {}, ", data_clocks)), std::string::npos) << tx_line;
  EXPECT_NE(tx_line.find(fmt::format("~{} data phases of 4 bytes, the other {} data clocks", phases,
                                     data_clocks - phases)),
            std::string::npos)
      << tx_line;
  // The ceiling stated is the simulated one, within the line's 1 Mb/s rounding of the table.
  const Results r = load_results((dir / "sweep").string());
  for (std::size_t p : r.where({{"direction", "tx"}})) {
    const auto sent = r.value(p, "h.driver", "sent_throughput");
    ASSERT_TRUE(sent);
    EXPECT_NE(tx_line.find(fmt::format("{:.0f} Mb/s ({})", sent->mean * 1e-6, r.points[p][0])),
              std::string::npos)
        << tx_line;
  }
}

// `gbesim phy`'s report answers with its reach table's lengths, per category and receiver.
TEST(Answers, APhyReportStatesTheReachPerCategoryAndReceiver) {
  const auto dir = fresh_directory("answers-phy");
  const auto phy = run_gbesim({"phy", "--out", "phy", "--channel", "cable", "--mc-symbols", "0",
                               "--cable", "cat5", "--lengths", "0", "100"},
                              dir);
  ASSERT_EQ(phy.exit_code, 0) << phy.output;
  const auto reach = load_results((dir / "phy").string()).tables.at("reach");
  std::map<std::string, std::string> length;
  for (std::size_t i = 0; i < reach.rows.size(); ++i)
    length[reach.at(i, "cancellation")] = reach.at(i, "zero_margin_length_m");
  const double all = std::stod(length.at("all"));
  const double no_next = std::stod(length.at("no_next_cancel"));
  EXPECT_GT(all, no_next);
  ASSERT_EQ(run_gbesim({"report", "phy", "-o", "report.html"}, dir).exit_code, 0);
  const std::string text = answer_text(read_text(dir / "report.html"));
  EXPECT_NE(text.find(fmt::format("cat5: reach {:.0f} m with echo and NEXT cancellation; {:.0f} m "
                                  "without NEXT cancellation",
                                  all, no_next)),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace gbesim::testing
