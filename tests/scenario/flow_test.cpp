// Per-flow statistics: each unicast traffic source's frames at the receiving sink --
// delay, RFC 3550 interarrival jitter and loss -- against hand-derived timelines.

#include <gtest/gtest.h>

#include <map>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using gbesim::testing::fresh_directory;
using gbesim::testing::read_csv;
using gbesim::testing::read_text;
using gbesim::testing::run_gbesim;
using gbesim::testing::write_text;

std::map<std::string, std::string> rows_of(const std::filesystem::path& file,
                                           const std::string& component) {
  std::map<std::string, std::string> out;
  for (const auto& r : read_csv(file))
    if (r.size() == 4 && r[0] == component) out[r[1]] = r[3];
  return out;
}

// a sends 100-byte frames over 20 m (5.56 ns/m: 111.2 ns): two at 0, one at 5 us. A 100-byte
// frame with its preamble is 108 bytes, 864 ns at 1000 Mb/s; the gap 96 ns. Transit (queue entry
// to last bit at b): frame 1 864 + 111.2 = 975.2 ns; frame 2 waits for frame 1 and the gap,
// 960 + 975.2 = 1935.2 ns; frame 3 975.2 ns. Jitter: |D| = 960 twice: J = 960/16 = 60, then 60 +
// (960 - 60)/16 = 116.25 ns.
TEST(Flows, DelayAndJitterFollowTheTimeline) {
  const auto dir = fresh_directory("flows");
  write_text(dir / "s.json", R"({"name": "flows", "description": "", "duration_ns": 50000,
    "stations": {
      "a": {"traffic": [{"pattern": "script", "to": "b",
            "script": [{"at_ns": 0, "bytes": 100}, {"at_ns": 0, "bytes": 100},
                       {"at_ns": 5000, "bytes": 100}]}]},
      "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 20}]})");
  const auto r = run_gbesim({"run", "s.json", "--quiet", "--out", "out"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto f = rows_of(dir / "out/scalars.csv", "a.source0.to_b");
  EXPECT_EQ(f["frames_received"], "3");
  EXPECT_EQ(f["octets_received"], "300");
  EXPECT_EQ(f["frames_lost"], "0");
  EXPECT_EQ(f["loss_ratio"], "0");
  EXPECT_EQ(f["delay_min"], "975.2");
  EXPECT_EQ(f["delay_max"], "1935.2");
  EXPECT_DOUBLE_EQ(std::stod(f["delay_mean"]), (975.2 + 1935.2 + 975.2) / 3.0);
  EXPECT_EQ(f["jitter"], "116.25");
  // flows.csv: one row per flow, for people.
  const auto flows = read_csv(dir / "out/flows.csv");
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0][0], "flow");
  EXPECT_EQ(flows[1][0], "a.source0.to_b");
  EXPECT_EQ(flows[1][1], "a");
  EXPECT_EQ(flows[1][2], "b");
  EXPECT_EQ(flows[1][3], "3");  // sent
  EXPECT_EQ(flows[1][4], "3");  // received
}

// Frames the sender's full queue refuses are lost to the flow: a queue of 2 frames, six frames
// at 0 and one at 20 us. Lost = refused, received = generated - refused, and the loss ratio is
// over the 7 numbers up to the last one received.
TEST(Flows, FramesTheSendersQueueRefusedAreLost) {
  const auto dir = fresh_directory("flows-loss");
  write_text(dir / "s.json", R"({"name": "loss", "description": "", "duration_ns": 50000,
    "mac": {"tx_queue_frames": 2},
    "stations": {
      "a": {"traffic": [{"pattern": "script", "to": "b",
            "script": [{"at_ns": 0, "bytes": 100}, {"at_ns": 0, "bytes": 100},
                       {"at_ns": 0, "bytes": 100}, {"at_ns": 0, "bytes": 100},
                       {"at_ns": 0, "bytes": 100}, {"at_ns": 0, "bytes": 100},
                       {"at_ns": 20000, "bytes": 100}]}]},
      "b": {}},
    "links": [{"between": ["a", "b"], "cable_m": 20}]})");
  const auto r = run_gbesim({"run", "s.json", "--quiet", "--out", "out"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto source = rows_of(dir / "out/scalars.csv", "a.source0");
  const int refused = std::stoi(source.at("frames_refused"));
  ASSERT_GE(refused, 3);  // at most the frame on the wire and two queued were taken
  auto f = rows_of(dir / "out/scalars.csv", "a.source0.to_b");
  EXPECT_EQ(std::stoi(f["frames_received"]), 7 - refused);
  EXPECT_EQ(std::stoi(f["frames_lost"]), refused);
  EXPECT_DOUBLE_EQ(std::stod(f["loss_ratio"]), refused / 7.0);
}

}  // namespace
}  // namespace gbesim
