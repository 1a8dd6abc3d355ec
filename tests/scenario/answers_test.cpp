// The answers a sweep states (analysis/answers) on stdout, in answers.txt and at the top of the
// report, with numbers checked against arithmetic done here: carrier extension's share and what
// bursting wins back (the single sender's closed-form timeline), a PCI transmit path's bus clocks
// (transaction arithmetic), a PHY's reach (its own reach table), contention's efficiency against
// Metcalfe-Boggs and Jain's fairness (both computed here), a line rate's frame counts (the
// timeline of back-to-back frames), what a host's applications get per NIC, and the reason a
// sweep no answer reads gives instead. The diameter answer has its own test in
// pipeline_test.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "analysis/answers.hpp"
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
// A user's own extension sweep that sweeps no frame size: the answer restates the frame size
// and the sender count it was found for, from the scenario the points ran.
TEST(Answers, AnExtensionAnswerRestatesItsFramesAndSenders) {
  const auto dir = fresh_directory("answers-extension-own");
  write_text(dir / "x.json",
             R"({"name": "mine", "description": "", "duration_ns": 2000000, "rate_mbps": 1000,
    "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": false},
    "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 128}]},
                 "b": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 128}]},
                 "c": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 128}]},
                 "d": {"traffic": [{"pattern": "saturated", "to": "r", "frame_bytes": 128}]},
                 "r": {}},
    "collision_domains": [{"stations": ["a", "b", "c", "d", "r"],
                           "cable_m": {"a": 10, "b": 10, "c": 10, "d": 10, "r": 10}}],
    "sweep": {"mode": [{"label": "extension", "set": {"mac.frame_bursting": false}},
                       {"label": "bursting", "set": {"mac.frame_bursting": true}}]}})");
  const auto sweep = run_gbesim({"sweep", "x.json", "--out", "s", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_TRUE(std::regex_search(
      sweep.output,
      std::regex("  4 senders: carrier extension takes [0-9.]+ % of the medium's time at 128 B; "
                 "frame bursting raises efficiency [0-9.]+ % -> [0-9.]+ % at 128 B\n")))
      << sweep.output;
  EXPECT_EQ(sweep.output.find("these frames"), std::string::npos);
}

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
  // The table first (a row per case and frame size), then a sentence per case.
  const std::regex table_row("\n  1 sender +64 B +([0-9.]+) % +([0-9.]+) % +- +([0-9.]+) %\n");
  std::smatch row;
  ASSERT_TRUE(std::regex_search(sweep.output, row, table_row)) << sweep.output;
  EXPECT_NEAR(std::stod(row[1]), 100 * share, 0.1);
  EXPECT_NEAR(std::stod(row[2]), 100 * extended, 0.1);
  EXPECT_NEAR(std::stod(row[3]), 100 * burst, 0.1);
  const std::regex sentence(
      "How much does carrier extension waste, and what does frame bursting win back\\?\n"
      "(?:  .*\n)*?"
      "  1 sender: carrier extension takes ([0-9.]+) % of the medium's time at 64 B \\(none at "
      "1518 B: frames at least the slot\\); frame bursting raises efficiency ([0-9.]+) % -> "
      "([0-9.]+) % at 64 B\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(sweep.output, m, sentence)) << sweep.output;
  EXPECT_NEAR(std::stod(m[1]), 100 * share, 0.1);
  EXPECT_NEAR(std::stod(m[2]), 100 * extended, 0.1);
  EXPECT_NEAR(std::stod(m[3]), 100 * burst, 0.1);
  const std::string line = m[0].str().substr(m[0].str().find("1 sender:"));
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
  // At a glance: a row per direction, with the bus's raw rate (32 x 33 1/3 MHz).
  EXPECT_TRUE(std::regex_search(
      out, std::regex("  direction  way +Mb/s +slowest +fastest +limited by +bus clocks/frame "
                      " bus Mb/s\n  -+\n  rx +receive +[0-9]+-[0-9]+ .* 2/2 +392 +1,066\n"
                      "  tx +transmit +[0-9]+-[0-9]+ .* bus 2/2 +454 +1,066\n")))
      << out;
  // Then the sentence for the slowest case, and that the 82540EM is a 32-bit device.
  const auto tx = out.find("  Slowest case, direction=tx, transmit: ");
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

// A 32-bit NIC on a 64-bit bus: the answer says why it takes the same data clocks there, and
// gives each bus's raw rate beside its ceiling (64 x 33 1/3 MHz = 2,133 Mb/s).
TEST(Answers, APciAnswerSaysANarrowNicMovesItsOwnWidthOnAWideBus) {
  const auto dir = fresh_directory("answers-pci-width");
  write_text(dir / "p.json",
             R"({"name": "width", "description": "", "duration_ns": 2000000, "rate_mbps": 1000,
    "stations": {"a": {}, "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 10, "medium": "cat5e"}],
    "hosts": {"h": {"pci": {"mode": "pci", "width_bits": 32, "clock_mhz": 33},
                    "nic": {"station": "a", "profile": "intel-82540em"}, "cpu": {},
                    "tx": {"frame_bytes": 1518, "to": "b"}}},
    "sweep": {"hosts.h.pci.width_bits": [32, 64]}})");
  const auto sweep = run_gbesim({"sweep", "p.json", "--out", "sweep", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("  intel-82540em is a 32-bit PCI device: on a 64-bit bus it moves "
                              "4 bytes a clock, the same data clocks per frame as on 32 bits\n"),
            std::string::npos)
      << sweep.output;
  EXPECT_TRUE(std::regex_search(sweep.output, std::regex("\n  32 +transmit .* 1,066\n  64 +"
                                                         "transmit .* 2,133\n")))
      << sweep.output;
  ASSERT_EQ(run_gbesim({"report", "sweep", "-o", "r.html"}, dir).exit_code, 0);
  EXPECT_NE(read_text(dir / "r.html").find("<th>bus Mb/s</th>"), std::string::npos);
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

// Four stations on one 100 Mb/s collision domain, each saturating the next with 1518-byte
// frames; an axis of its own naming sets how many send. One sender's frames are back to back:
// frame k ends at 12 304 k + 12 208 bit times (10 ns each), so 162 of them end within 20 ms,
// 162 x 12 144 bits over 2 000 000 bit times = 98.4 %. Metcalfe-Boggs for four: A = (3/4)^3,
// W = (1 - A) / A slots of 512 bit times lost per frame of 12 304, so 12 144 / (12 304 + 512 W).
// Fairness: Jain's index over the bytes each station sent, from its own counters.
TEST(Answers, AContentionSweepStatesEfficiencyAndFairnessBesideMetcalfeBoggs) {
  const auto dir = fresh_directory("answers-contention");
  write_text(
      dir / "c.json",
      R"({"name": "my-contention", "description": "", "duration_ns": 20000000, "rate_mbps": 100,
    "mac": {"duplex": "half"},
    "stations": {
      "s0": {"traffic": [{"pattern": "saturated", "to": "s1", "frame_bytes": 1518}]},
      "s1": {"traffic": [{"pattern": "saturated", "to": "s2", "frame_bytes": 1518}]},
      "s2": {"traffic": [{"pattern": "saturated", "to": "s3", "frame_bytes": 1518}]},
      "s3": {"traffic": [{"pattern": "saturated", "to": "s0", "frame_bytes": 1518}]}},
    "collision_domains": [{"stations": ["s0", "s1", "s2", "s3"], "medium": "cat5e",
                           "cable_m": {"s0": 10, "s1": 10, "s2": 10, "s3": 10},
                           "repeater_round_trip_bt": 0}],
    "sweep": {"active": [
      {"label": "solo", "set": {"stations.*.traffic[0].enabled": false,
                                "stations.s0.traffic[0].enabled": true}},
      {"label": "pair", "set": {"stations.*.traffic[0].enabled": false,
                                "stations.s0.traffic[0].enabled": true,
                                "stations.s1.traffic[0].enabled": true}},
      {"label": "everyone", "set": {}}]}})");
  const auto sweep = run_gbesim({"sweep", "c.json", "--out", "sweep", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;

  const double one = 162.0 * 12144 / 2'000'000;
  const double a = std::pow(0.75, 3);
  const double metcalfe_boggs = 12144 / (12304 + 512 * (1 - a) / a);
  EXPECT_NEAR(metcalfe_boggs, 0.9338, 1e-4);
  const Results r = load_results((dir / "sweep").string());
  const auto everyone = r.where({{"active", "everyone"}});
  ASSERT_EQ(everyone.size(), 1u);
  const std::size_t p = everyone.front();
  double sum = 0, squares = 0;
  for (const char* s : {"s0.mac", "s1.mac", "s2.mac", "s3.mac"}) {
    const auto bytes = r.value(p, s, "frame_octets_transmitted_ok");
    ASSERT_TRUE(bytes) << s;
    sum += bytes->mean;
    squares += bytes->mean * bytes->mean;
  }
  const double jain = sum * sum / (4 * squares);
  const auto efficiency = r.value(p, "domain0", "efficiency");
  ASSERT_TRUE(efficiency);

  const std::string expected = fmt::format(
      "How do efficiency and fairness fall as stations contend?\n"
      "  all points: efficiency {:.1f} % at 1 station .. {:.1f} % at 4 (Metcalfe-Boggs {:.1f} % "
      "at 4: simulated {:.1f} points above); fairness (Jain's index) 1.00 .. {:.2f}",
      100 * one, 100 * efficiency->mean, 100 * metcalfe_boggs,
      100 * (efficiency->mean - metcalfe_boggs), jain);
  EXPECT_NE(sweep.output.find(expected), std::string::npos) << expected << "\n" << sweep.output;
  // The station count came from the scenario, not the labels: per point, who sent.
  EXPECT_NE(read_text(dir / "sweep/answers.txt").find("active=pair: 2 stations sending"),
            std::string::npos);
}

// One saturated sender on a full-duplex gigabit link for 1 ms, 64- and 1518-byte frames. Back
// to back, a frame and its preamble, SFD and gap take 64 + 8 x bytes + 96 bit times (1 ns each):
// 672 for 64 bytes (1e9 / 672 = 1 488 095 frames/s; frame k ends at 672 k + 576 ns, so 1 488 end
// within 1 ms), 12 304 for 1518 (81 274 frames/s; 12 304 k + 12 208 ns: 81 end).
TEST(Answers, ALineRateSweepStatesEveryPointAtTheClosedForm) {
  const auto dir = fresh_directory("answers-line-rate");
  write_text(dir / "l.json",
             R"({"name": "my-line", "description": "", "duration_ns": 1000000, "rate_mbps": 1000,
    "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 10, "medium": "cat5e"}],
    "sweep": {"stations.a.traffic[0].frame_bytes": [64, 1518]}})");
  const auto sweep = run_gbesim({"sweep", "l.json", "--out", "sweep"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_EQ(1'000'000'000 / 672, 1'488'095);
  EXPECT_EQ(1'000'000'000 / 12'304, 81'274);
  EXPECT_EQ((1'000'000 - 1 - 576) / 672 + 1, 1'488);
  EXPECT_EQ((1'000'000 - 1 - 12'208) / 12'304 + 1, 81);
  const std::string expected =
      "Does a saturated full-duplex link reach the closed-form line rate?\n"
      "  Met at all 2 points: each run sent exactly the frames the closed form completes in its "
      "1 ms, so a frame rate differs from the steady state only by the frame still on the wire "
      "at the end (at most 1,000 frames/s)\n"
      "  all points: frames/s simulated (closed form) 64 B 1,488,000 (1,488,095), 1518 B 81,000 "
      "(81,274)\n";
  EXPECT_NE(sweep.output.find(expected), std::string::npos) << sweep.output;
  EXPECT_EQ(no_answer_reason(load_results((dir / "sweep").string())), "");
}

// A PC receiving a stream of requests through one of two NIC boards (an axis whose name does not
// say NIC: the answer finds it by what it changes), at two request sizes. The figures stated are
// the simulated ones: the applications' bytes both ways, lowest and highest over the boards.
TEST(Answers, AHostSweepStatesWhatItsApplicationsGetThroughEachNic) {
  const auto dir = fresh_directory("answers-host");
  write_text(dir / "h.json",
             R"({"name": "my-host", "description": "", "duration_ns": 5000000, "rate_mbps": 1000,
    "stations": {"dut": {}, "peer": {}},
    "links": [{"between": ["dut", "peer"], "cable_m": 5, "medium": "cat5e"}],
    "hosts": {"pc": {"pci": {"mode": "pci", "width_bits": 32, "clock_mhz": 33},
                     "bridge": {"read_latency_clocks": 10, "prefetch_bytes": 128,
                                "cache_line_bytes": 64, "posted_write_bytes": 256},
                     "nic": {"station": "dut", "profile": "intel-82540em-onboard"},
                     "cpu": {"clock_mhz": 3060},
                     "app": {"kind": "requests", "peer": "peer", "direction": "receive",
                             "request_bytes": 65536},
                     "transport": {"mtu": 1500, "window_bytes": 65535}}},
    "sweep": {"card": [{"label": "Intel", "set": {"hosts.pc.nic.profile": "intel-82540em-onboard"}},
                       {"label": "HardLink", "set": {"hosts.pc.nic.profile": "hardlink-ha-32g"}}],
              "hosts.pc.app.request_bytes": [1024, 65536]}})");
  const auto sweep = run_gbesim({"sweep", "h.json", "--out", "sweep", "-j", "2"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  const Results r = load_results((dir / "sweep").string());
  auto range = [&](const std::string& size) {
    std::vector<std::pair<double, std::string>> got;
    for (const std::size_t p : r.where({{"hosts.pc.app.request_bytes", size}})) {
      const auto in = r.value(p, "pc.driver", "app_receive_throughput");
      const auto out = r.value(p, "pc.driver", "app_send_throughput");
      EXPECT_TRUE(in && out);
      if (in && out) got.emplace_back(in->mean + out->mean, r.points[p][0]);
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got.size(), 2u);
    return fmt::format("{:.0f} Mb/s ({}) to {:.0f} Mb/s ({})", got.front().first * 1e-6,
                       got.front().second, got.back().first * 1e-6, got.back().second);
  };
  const auto question = sweep.output.find(
      "What do the applications on host pc get through each NIC, and at what CPU cost?\n");
  ASSERT_NE(question, std::string::npos) << sweep.output;
  // The boards side by side at the largest requests (a row each: applications, CPU, P/E), then
  // the sentence.
  for (const char* board : {"Intel", "HardLink"})
    EXPECT_TRUE(
        std::regex_search(sweep.output, std::regex(std::string("\n  all points +") + board +
                                                   " +65536 +[0-9]+ Mb/s +[0-9.]+ % +[0-9.]+\n")))
        << board << "\n"
        << sweep.output;
  const auto at = sweep.output.find(
      "  all points: request_bytes 65536: " + range("65536") + ", CPU ", question);
  ASSERT_NE(at, std::string::npos) << sweep.output;
  const std::string line = sweep.output.substr(at, sweep.output.find('\n', at + 90) - at);
  EXPECT_NE(line.find("; request_bytes 1024: " + range("1024")), std::string::npos) << line;
}

// A sweep of the offered load on a full-duplex link is none of the shapes gbesim answers: it
// states no answer, and the reason names what it varies.
TEST(Answers, ASweepNoAnswerReadsSaysWhatItVariesInstead) {
  const auto dir = fresh_directory("answers-none");
  write_text(dir / "n.json",
             R"({"name": "my-load", "description": "", "duration_ns": 1000000, "rate_mbps": 1000,
    "stations": {"a": {"traffic": [{"pattern": "poisson", "to": "b", "frame_bytes": 512,
                                    "load_bps": 100000000}]},
                 "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 10, "medium": "cat5e"}],
    "sweep": {"stations.a.traffic[0].load_bps": [100000000, 200000000]}})");
  const auto sweep = run_gbesim({"sweep", "n.json", "--out", "sweep"}, dir);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_EQ(sweep.output.find('?'), std::string::npos) << sweep.output;
  const Results r = load_results((dir / "sweep").string());
  EXPECT_TRUE(answers(r).empty());
  const std::string reason = no_answer_reason(r);
  EXPECT_NE(reason.find("This sweep varies stations.a.traffic[0].load_bps, which no answer reads."),
            std::string::npos)
      << reason;
  for (const char* shape : {"diameter", "carrier extension", "PCI", "contention", "line rate",
                            "bit errors", "applications", "switch", "reach"})
    EXPECT_NE(reason.find(shape), std::string::npos) << shape << ": " << reason;
  // The sweep says it where an answer would be: on stdout, in answers.txt and in the report.
  EXPECT_NE(sweep.output.find("No stated answer: " + reason), std::string::npos) << sweep.output;
  EXPECT_EQ(read_text(dir / "sweep/answers.txt"), "No stated answer: " + reason + "\n");
  const auto report = run_gbesim({"report", "sweep", "-o", "r.html", "--quiet"}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(read_text(dir / "r.html").find("No stated answer: gbesim answers a sweep with"),
            std::string::npos);
}

}  // namespace
}  // namespace gbesim::testing
