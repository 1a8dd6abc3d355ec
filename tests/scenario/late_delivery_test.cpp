// Late delivery: a link direction or half-duplex medium port whose receiver nothing
// watches leaves arrived frames to the receiver's next settle instead of waking a process at each
// arrival (LinkDirection::deliver_late, MediumPort::deliver_late). An events trace watches every
// MAC, so the same run with `--trace events` delivers every frame at the instant it arrives: both
// runs must give the same scalars.csv, flows.csv and series.csv byte for byte. The same trace
// makes every MAC decide at each of its frame ends, where unwatched it transmits late
// (Mac::transmit_late). The activations the runs count differ by what the late run did not
// wake for.

#include <gtest/gtest.h>

#include "models/common/rng.hpp"
#include "sim/input/json_path.hpp"
#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using gbesim::testing::fresh_directory;
using gbesim::testing::read_csv;
using gbesim::testing::read_text;
using gbesim::testing::run_gbesim;
using gbesim::testing::source_dir;
using gbesim::testing::write_text;

double scalar(const std::filesystem::path& file, const std::string& component,
              const std::string& name) {
  for (const auto& row : read_csv(file))
    if (row.size() == 4 && row[0] == component && row[1] == name) return std::stod(row[3]);
  ADD_FAILURE() << "no " << component << "," << name << " in " << file;
  return -1;
}

std::int64_t activations(const std::filesystem::path& dir) {
  return Json::parse(read_text(dir / "run.json"))["process_activations"].get<std::int64_t>();
}

// Runs `scenario` (a file) late (no trace) and at once (`watch`: an events trace, of every MAC
// unless it names stations) in `dir`; expects the same results.
void run_file_both(const std::filesystem::path& dir, const std::string& name,
                   const std::string& scenario, const std::vector<std::string>& extra = {},
                   const std::string& watch = "events") {
  std::vector<std::string> late = {"run", scenario, "--out", name + "-late", "--quiet"};
  std::vector<std::string> now = {"run",     scenario,  "--out", name + "-now",
                                  "--quiet", "--trace", watch};
  late.insert(late.end(), extra.begin(), extra.end());
  now.insert(now.end(), extra.begin(), extra.end());
  ASSERT_EQ(run_gbesim(late, dir).exit_code, 0) << name;
  ASSERT_EQ(run_gbesim(now, dir).exit_code, 0) << name;
  for (const char* file : {"scalars.csv", "flows.csv", "series.csv"}) {
    const auto a = dir / (name + "-late") / file;
    const auto b = dir / (name + "-now") / file;
    ASSERT_EQ(std::filesystem::exists(a), std::filesystem::exists(b)) << name << " " << file;
    if (std::filesystem::exists(a)) {
      EXPECT_EQ(read_text(a), read_text(b)) << name << " " << file;
    }
  }
}

void run_both(const std::filesystem::path& dir, const std::string& name, const std::string& json,
              const std::vector<std::string>& extra = {}, const std::string& watch = "events") {
  write_text(dir / (name + ".json"), json);
  run_file_both(dir, name, name + ".json", extra, watch);
}

TEST(LateDelivery, BetweenTwoSendingStationsNoArrivalWakesAProcess) {
  // Both saturated with 64-byte frames over 100 m: each MAC's settles deliver what has arrived,
  // so the late run wakes for no arrival at all; the traced run once per frame. Both MACs also
  // transmit late (Mac::transmit_late): each wakes once every 64 of its frames.
  const auto dir = fresh_directory("late-both");
  run_both(dir, "both", R"({"name": "both", "description": "", "duration_ns": 2000000,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                   "b": {"traffic": [{"pattern": "saturated", "to": "a", "frame_bytes": 64}]}},
      "links": [{"between": ["a", "b"], "cable_m": 100}]})",
           {"--series", "100us"});
  const double received = scalar(dir / "both-late/scalars.csv", "a.mac", "frames_received_ok") +
                          scalar(dir / "both-late/scalars.csv", "b.mac", "frames_received_ok");
  // By hand, per station: frame k occupies [672 k, 672 k + 576] ns and arrives 556 ns after its
  // end, before 2 ms for k <= 2,974 (2,975 frames received), and ends before 2 ms for
  // k <= 2,975 (2,976 frame ends). Both runs wake the source at 0 and the MAC twice at 0 (the
  // source's kick, and the refill it queues while the MAC is still idle); the traced run then
  // wakes the MAC at each frame end and the link at each arrival; the late run wakes the MAC
  // at the end of frames 63, 127, ..., 63 + 64 x 45 = 2,943 (46 wakes) and the link never
  // (each MAC's catching up settles the other).
  EXPECT_EQ(received, 2 * 2975);
  EXPECT_EQ(activations(dir / "both-late"), 2 * (1 + 2 + 46));
  EXPECT_EQ(activations(dir / "both-now"), 2 * (1 + 2 + 2976 + 2975));
}

TEST(LateDelivery, AnIdleReceiverIsWokenOncePerBatch) {
  // b sends nothing: nothing of its own settles it, so the link wakes once kLateBatch (64)
  // frames have arrived, and the run's end delivers the rest. In one kernel run (--chunk-ns):
  // every stop of the kernel delivers what has arrived, so the batches would depend on where
  // the stops fall (by default on the wall time).
  const auto dir = fresh_directory("late-batch");
  run_both(dir, "oneway", R"({"name": "oneway", "description": "", "duration_ns": 5000000,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
                   "b": {}},
      "links": [{"between": ["a", "b"], "cable_m": 30}]})",
           {"--chunk-ns", "5000000"});
  const auto received = static_cast<std::int64_t>(
      scalar(dir / "oneway-late/scalars.csv", "b.mac", "frames_received_ok"));
  // Frame k starts at k x 12,304 ns ((8 + 1518) x 8 bits + 96 of gap), ends 12,208 ns later and
  // arrives 30 m x 5.56 ns/m = 166.8 ns after that: before 5 ms for k < 405.36, so 406 frames.
  EXPECT_EQ(received, 406);
  // Late, a transmits late too: woken at the end of frames 63, 127, ..., 383 (6 wakes; 447 ends
  // after 5 ms), it hands over 64 frames each time, and the link wakes once, at the 64th's
  // arrival 166.8 ns later; the run's end catches up on frames 384..405. With the source's wake
  // and the MAC's two at 0: 1 + 2 + 6 + 6. Traced: a wakes at each of its 406 frame ends and
  // the link at each of the 406 arrivals.
  EXPECT_EQ(activations(dir / "oneway-late"), 1 + 2 + 6 + 6);
  EXPECT_EQ(activations(dir / "oneway-now"), 1 + 2 + 406 + 406);
}

TEST(LateDelivery, ALateSenderWhoseOwnArrivalsComeOnTime) {
  // a transmits late (b takes late delivery) but receives on time: its sink drains at a finite
  // rate, so b's frames wake it as they arrive and each arrival first catches a up to its
  // instant; b, sending Poisson traffic into that sink, decides on time. Same results; the late
  // run saves a wake at (almost) every frame end of a's as well as b's wakes for a's arrivals,
  // so more activations than a sent frames.
  const auto dir = fresh_directory("late-mixed");
  run_both(dir, "mixed", R"({"name": "mixed", "description": "", "duration_ns": 2000000,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 300}],
                         "sink": {"drain_mbps": 400}},
                   "b": {"traffic": [{"pattern": "poisson", "to": "a", "frame_bytes": 1000,
                                      "load": 0.3}]}},
      "links": [{"between": ["a", "b"], "cable_m": 60}]})",
           {"--series", "200us"});
  const auto sent = static_cast<std::int64_t>(
      scalar(dir / "mixed-late/scalars.csv", "a.mac", "frames_transmitted_ok"));
  // Frame k ends at 2,560 k + 2,464 ns ((8 + 300) x 8 bits, then 96 of gap): before 2 ms for
  // k <= 780.
  EXPECT_EQ(sent, 781);
  EXPECT_GT(scalar(dir / "mixed-late/scalars.csv", "a.mac", "frames_received_ok"), 50);
  EXPECT_GT(activations(dir / "mixed-now") - activations(dir / "mixed-late"), sent);
}

TEST(LateDelivery, ALateSenderIntoAWatchingReceiverWakesOnlyItsLinkPerFrame) {
  // b watches its arrivals (its sink drains at a finite rate), so the link delivers on time; a,
  // saturated, still transmits late: the link wakes at each arrival of a's frame on the wire
  // (LinkDirection::take_late_sender), catches a up and delivers, and a itself wakes once every
  // 64 frames. Same results as a run in which a decides at each of its frame ends.
  const auto dir = fresh_directory("late-sender-on-time");
  run_both(dir, "watching", R"({"name": "watching", "description": "", "duration_ns": 5000000,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
                   "b": {"sink": {"drain_mbps": 900}}},
      "links": [{"between": ["a", "b"], "cable_m": 30}]})",
           {"--chunk-ns", "5000000"}, "events:stations=a");
  // As in AnIdleReceiverIsWokenOncePerBatch: 406 frames arrive in 5 ms, 406 end. Traced, a
  // wakes at each of its 406 frame ends; late, at the ends of frames 63, 127, ..., 383 (6).
  EXPECT_EQ(scalar(dir / "watching-late/scalars.csv", "b.mac", "frames_received_ok"), 406);
  EXPECT_EQ(activations(dir / "watching-now") - activations(dir / "watching-late"), 406 - 6);
  // Every stop of the kernel (a series interval, here every 100 us: about eight frames) catches
  // a up first (Network::settle_late_deliveries): its counters in series.csv are the same.
  run_file_both(dir, "stops", "watching.json", {"--series", "100us"}, "events:stations=a");
}

TEST(LateDelivery, PauseFramesAndAPausedReceiverGiveTheSameResults) {
  // b drains slowly and sends PAUSE to a; a receives PAUSE frames while sending (late) and while
  // paused (it watches then, so they arrive at once). a's own receiver takes late delivery, b's
  // (a finite drain rate) does not.
  const auto dir = fresh_directory("late-pause");
  run_both(dir, "pause", R"({"name": "pause", "description": "", "duration_ns": 3000000,
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 1518}]},
                   "b": {"traffic": [{"pattern": "poisson", "to": "a", "frame_bytes": 300, "load": 0.4}],
                         "mac": {"pause_tx_enabled": true, "pause_quanta": 200,
                                 "pause_send_xon": true},
                         "sink": {"drain_mbps": 500}}},
      "links": [{"between": ["a", "b"], "cable_m": 80}]})",
           {"--series", "250us"});
  EXPECT_GT(scalar(dir / "pause-late/scalars.csv", "a.mac", "pause_mac_ctrl_frames_received"), 10);
  EXPECT_GT(scalar(dir / "pause-late/scalars.csv", "a.mac", "paused_time"), 0);
  EXPECT_LT(activations(dir / "pause-late"), activations(dir / "pause-now"));
}

TEST(LateDelivery, SwitchedStationsWithBitErrorsAndAWarmUpGiveTheSameResults) {
  // Stations behind a switch (its ports react to arrivals: never late; the stations are), mixed
  // sources, 100 Mb/s, a zero-length cable, bit errors, and statistics restarted at a warm-up.
  const auto dir = fresh_directory("late-switch");
  run_both(dir, "sw", R"({"name": "sw", "description": "", "duration_ns": 4000000,
      "warmup_ns": 1000000, "rate_mbps": 100,
      "stations": {
        "s0": {"traffic": [{"pattern": "poisson", "to": "s1", "frame_bytes": 200, "load": 0.5}]},
        "s1": {"traffic": [{"pattern": "on_off", "to": "s2", "frame_bytes": 1000,
                            "peak_load_bps": 80000000, "on_ns": 50000, "off_ns": 80000}]},
        "s2": {"traffic": [{"pattern": "saturated", "to": "s0", "frame_bytes": 64}]}},
      "switches": {"sw": {"ports": [{"count": 3, "rate_mbps": 100}]}},
      "links": [{"between": ["s0", "sw:1"], "cable_m": 0},
                {"between": ["s1", "sw:2"], "cable_m": 20, "ber": 1e-6},
                {"between": ["s2", "sw:3"], "cable_m": 95}]})",
           {"--series", "500us"});
  EXPECT_GT(scalar(dir / "sw-late/scalars.csv", "s0.mac", "frames_received_ok"), 100);
  EXPECT_GT(scalar(dir / "sw-late/scalars.csv", "s2.mac", "frame_check_sequence_errors") +
                scalar(dir / "sw-late/scalars.csv", "sw.port2.mac", "frame_check_sequence_errors"),
            0);
  EXPECT_LT(activations(dir / "sw-late"), activations(dir / "sw-now"));
}

TEST(LateDelivery, HalfDuplexStationsGetTheirFramesLateWithTheSameResults) {
  // A collision domain: saturated bursting stations, a broadcast source, a station that only
  // receives (woken per batch), collisions; statistics sampled per interval.
  const auto dir = fresh_directory("late-hd");
  run_both(dir, "hd", R"({"name": "hd", "description": "", "duration_ns": 10000000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": true},
      "stations": {
        "a": {"traffic": [{"pattern": "saturated", "to": "e", "frame_bytes": 64}]},
        "b": {"traffic": [{"pattern": "saturated", "to": "c", "frame_bytes": 300}]},
        "c": {"traffic": [{"pattern": "poisson", "to": "broadcast", "frame_bytes": 100,
                           "load": 0.05}]},
        "d": {"traffic": [{"pattern": "saturated", "to": "a", "frame_bytes": 64}]},
        "e": {}},
      "collision_domains": [{"stations": ["a", "b", "c", "d", "e"],
                             "cable_m": {"a": 10, "b": 40, "c": 90, "d": 1, "e": 60}}]})",
           {"--series", "1ms"});
  EXPECT_GT(scalar(dir / "hd-late/scalars.csv", "e.mac", "frames_received_ok"), 1000);
  EXPECT_GT(scalar(dir / "hd-late/scalars.csv", "a.mac", "collisions"), 10);
  EXPECT_LT(activations(dir / "hd-late"), activations(dir / "hd-now"));
}

TEST(LateDelivery, ABurstsNextFrameStartsAtTheFillsEndWithoutAWakeOfItsOwn) {
  // One station bursting 64-byte frames to an idle one at 1000 Mb/s. By hand (bit time 1 ns):
  // a burst's first frame is preamble + slotTime = 64 + 4,096 = 4,160 ns, each next one a fill
  // of 96 ns + 64 + 512 = 672 ns, and a fill follows the frame ending at 4,160 + 672 k while
  // 4,160 + 672 k + 96 < burstLimit 65,536: k = 0..91, 92 fills, 93 frames; the burst's last
  // frame ends at 65,984 and the next burst starts after the gap, every 66,080 ns. In 2 ms: 30
  // whole bursts (2,790 frames) and a 31st from 1,982,400 whose first frame ends at 1,986,560
  // and 20 more end by 2,000,000 -- the 20th at that very instant, which the run does not
  // reach: 2,810 frames sent, 2,811 started, 31 bursts, 30 x 92 + 20 = 2,780 fills.
  // Watched, a wakes at each burst's start, at its first frame's end, and at each fill's end
  // and frame's end after: 2 + 2 x 92 = 186 per burst, 2 + 20 + 19 = 41 in the last. Unwatched
  // it bursts late too (Mac::bursts_late): the first frame's end finds its source keeping the
  // queue filled and no other signal coming, so a wakes next where the limit may end the burst,
  // at 65,536 - 96 = 65,440 from its start (the frames ending before are caught up then), and
  // at its last frame's end, 65,984: 4 per burst, 2 in the last. b's port, unwatched in both,
  // wakes at every 16th frame that has arrived: 2,810 / 16 -> 175 times with frames handed over
  // at their ends; late, once per burst, at 65,440, when the burst's frames come at once (30).
  // The difference: 30 x (186 - 4) + (41 - 2) + (175 - 30) = 5,644.
  const auto dir = fresh_directory("late-fill");
  const std::string one = R"({"name": "one", "description": "", "duration_ns": 2000000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": true},
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                   "b": {}},
      "collision_domains": [{"stations": ["a", "b"], "cable_m": {"a": 10, "b": 10}}]})";
  // Watching only a (the events trace of a) makes it start each of its burst's frames by a wake
  // of its own; b is as unwatched in both runs. One kernel run each (--chunk-ns).
  run_both(dir, "one", one, {"--chunk-ns", "100000000"}, "events:stations=a");
  const auto scalars = dir / "one-late/scalars.csv";
  EXPECT_EQ(scalar(scalars, "a.mac", "frames_transmitted_ok"), 2810);
  EXPECT_EQ(scalar(scalars, "a.mac", "transmission_attempts"), 2811);
  EXPECT_EQ(scalar(scalars, "a.mac", "bursts"), 31);
  EXPECT_EQ(scalar(scalars, "domain0", "transmissions"), 31);
  EXPECT_EQ(activations(dir / "one-now") - activations(dir / "one-late"), 5644);

  // The same with the kernel stopping every 10 us (a fill's end often falls between a stop and
  // the next frame's end) and a warm-up: the same results as with every MAC watched.
  std::string warm = one;
  warm.replace(warm.find("\"duration_ns\": 2000000"), 22,
               "\"duration_ns\": 2000000, \"warmup_ns\": 100003");
  run_both(dir, "stops", warm, {"--series", "10us"});
  EXPECT_EQ(scalar(dir / "stops-late/scalars.csv", "a.mac", "collisions"), 0);
}

TEST(LateDelivery, ASignalReachingALateBurstEndsItOnTime) {
  // a bursts 64-byte frames to b (50 ns away); c, 8 us from both, queues one frame at 5,000 ns
  // and begins then, before a's signal reaches it (8,000 ns). a went late at its first frame's
  // end (4,160 ns); c's begin catches it up to 5,000 (the frame ending at 4,832) and the rest of
  // the burst is on time. By hand: a's frames end at 4,160 + 672 k; c's signal reaches a at
  // 13,000, 8 ns into the preamble of the frame a starts at 12,992 after the fill following
  // k = 13: a late collision (not in the burst's first frame), jam from the SFD's end 13,056 for
  // 32 bits to 13,088, the frame dropped (1000 Mb/s never retries one); 14 frames sent. c meets
  // a's signal at 8,000 (3,000 ns into its slot: not late) and then defers to a's carrier, which
  // is on at c until 13,088 + 8,000, past the run's 16,000 ns. Watching c alone (its port then
  // delivers on time, so a cannot burst late) costs two activations: a wakes at its frame end
  // at 4,832 (late, it was caught up at c's begin instead) and c where the collision reaches it
  // at 8,000 (unwatched, c settles it at its jam's end). Without late bursts it would be one.
  const auto dir = fresh_directory("late-burst-signal");
  run_both(dir, "sig", R"({"name": "sig", "description": "", "duration_ns": 16000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": true},
      "stations": {
        "a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
        "b": {},
        "c": {"traffic": [{"pattern": "script", "to": "b",
                           "script": [{"at_ns": 5000, "bytes": 64}]}]}},
      "collision_domains": [{"stations": ["a", "b", "c"],
                             "delay_ns": [[0, 50, 8000], [50, 0, 8000], [8000, 8000, 0]]}]})",
           {}, "events:stations=c");
  EXPECT_EQ(activations(dir / "sig-now") - activations(dir / "sig-late"), 2);
  const auto scalars = dir / "sig-late/scalars.csv";
  EXPECT_EQ(scalar(scalars, "a.mac", "frames_transmitted_ok"), 14);
  EXPECT_EQ(scalar(scalars, "a.mac", "late_collisions"), 1);
  EXPECT_EQ(scalar(scalars, "a.mac", "frames_aborted_late_collision"), 1);
  EXPECT_EQ(scalar(scalars, "c.mac", "collisions"), 1);
  EXPECT_EQ(scalar(scalars, "c.mac", "late_collisions"), 0);
  EXPECT_EQ(scalar(scalars, "b.mac", "frames_received_ok"), 14);
  // The same collision, seen with every MAC watched (nothing late at all).
  ASSERT_EQ(run_gbesim({"run", "sig.json", "--out", "sig-all", "--quiet", "--trace", "events"}, dir)
                .exit_code,
            0);
  EXPECT_EQ(read_text(dir / "sig-all/scalars.csv"), read_text(scalars));
  const std::string events = read_text(dir / "sig-all/events.csv");
  EXPECT_NE(events.find("13000000,a.mac,collision,"), std::string::npos);
  EXPECT_NE(events.find("13088000,a.mac,drop,"), std::string::npos);
}

TEST(LateDelivery, ABurstGoesOnLateOnlyWhileItsSourceKeepsTheQueueFilled) {
  // A saturated source that stops -- after a count of frames, or at a time -- leaves its
  // station's queue empty in the middle of a burst; that end must come on time, so the burst is
  // late only if its source is sure to refill the queue up to where the limit may end the burst
  // (TrafficSource::keeps_queue_filled). A burst is 93 frames (ABurstsNextFrameStartsAtThe
  // FillsEndWithoutAWakeOfItsOwn): with a count of 500, five whole bursts and 35 frames. By hand:
  // burst k's frames end at S + 4,160 + 672 m (m = 0..92), its limit may end it from S + 65,440;
  // after the m-th frame's end 93 (k - 1) + m + 3 frames have been generated, and as many as
  // 365 - 4 m more could leave by then at 1 byte each (168 ns), so the burst goes late from the
  // first m with 93 (k - 1) - 3 m <= 132: m0 = 0, 0, 18, 49, 80 for k = 1..5; never in the
  // sixth, which ends with the queue empty. Activations of the late run, in one kernel run
  // (where the kernel stops, a settle may hand frames over sooner, which moves b's batches):
  // the source's start (1); a kicked twice at 0 (the first frame queued, then its refill queued
  // as a takes it, still idle) (2); a at each burst's frame ends up to m0, at S + 65,440, at its
  // last frame's end and at the next burst's start: m0 + 4 per burst less the first's start
  // (3, 4, 22, 53, 84), and 36 in the sixth (start, 35 frames); b's port at every 16th frame
  // waiting (frames take 543.2 ns to reach it): 1, 1, 2, 4, 5, 3 by burst (the 11 frames
  // caught up in the fifth leave 14 waiting). 1 + 2 + 202 + 16 = 221. With a stop at 100,000 ns,
  // the second burst (from 66,080, frames ending at 70,240 + 672 k) pops its last refilled
  // frame at 99,808, the last frame at 100,480, and ends at 101,152 with its queue empty: 93 +
  // 47 = 140 frames. Late where it must not be, the run would stop with an internal error
  // (Mac::hd_frame_done).
  const auto dir = fresh_directory("late-burst-keeper");
  const std::string counted = R"({"name": "n", "description": "", "duration_ns": 500000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": true},
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64,
                                      "count": 500}]},
                   "b": {}},
      "collision_domains": [{"stations": ["a", "b"], "cable_m": {"a": 10, "b": 10}}]})";
  run_both(dir, "count", counted, {"--chunk-ns", "100000000"});
  EXPECT_EQ(scalar(dir / "count-late/scalars.csv", "a.mac", "frames_transmitted_ok"), 500);
  EXPECT_EQ(scalar(dir / "count-late/scalars.csv", "a.mac", "bursts"), 6);
  EXPECT_EQ(activations(dir / "count-late"), 221);
  std::string stopped = counted;
  stopped.replace(stopped.find("\"count\": 500"), 12, "\"stop_ns\": 100000");
  run_both(dir, "stop", stopped);
  EXPECT_EQ(scalar(dir / "stop-late/scalars.csv", "a.mac", "frames_transmitted_ok"), 140);
  EXPECT_EQ(scalar(dir / "stop-late/scalars.csv", "a.mac", "bursts"), 2);
}

TEST(LateDelivery, ALateBurstUnderAHugeBurstLimitCatchesUpABoundedSpan) {
  // burst_limit_bits far above the standard's: one sender's burst lasts the whole 2 ms run
  // (2,970 frames, the first ending at 4,160 ns and one every 672 ns). Late, it catches up at
  // most Mac::kLateBurstBits = 65,536 bit times of frames at once -- 98 of them, then goes on
  // on time for a frame and late again -- so its receiver's port holds about that many at a
  // time (with one or two handed over before them, and the source's and the MAC's own frame:
  // 101 frame objects in all). Without the bound every frame of the burst would wait in that
  // port until the run's end.
  const auto dir = fresh_directory("late-burst-huge-limit");
  run_both(dir, "huge", R"({"name": "huge", "description": "", "duration_ns": 2000000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": true,
              "burst_limit_bits": 1000000000},
      "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
                   "b": {}},
      "collision_domains": [{"stations": ["a", "b"], "cable_m": {"a": 10, "b": 10}}]})");
  EXPECT_EQ(scalar(dir / "huge-late/scalars.csv", "a.mac", "frames_transmitted_ok"), 2970);
  EXPECT_EQ(scalar(dir / "huge-late/scalars.csv", "a.mac", "bursts"), 1);
  const auto allocated = Json::parse(read_text(dir / "huge-late/run.json"))["frames_allocated"];
  EXPECT_LE(allocated.get<std::int64_t>(), 128);
  EXPECT_GE(allocated.get<std::int64_t>(), 98);
  // Above 2^32 bit times the limit is refused: the analysis of one sender's timeline lists every
  // frame end of a burst (2^40 took minutes and 16.8 GB).
  std::string over = read_text(dir / "huge.json");
  over.replace(over.find("1000000000"), 10, "4294967297");
  write_text(dir / "over.json", over);
  const auto r = run_gbesim({"run", "over.json", "--out", "over", "--quiet"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("burst_limit_bits"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "over"));
}

TEST(LateDelivery, LateBurstsInRandomDomainsGiveTheSameResults) {
  // Random domains of 2-10 stations at 1000 Mb/s with bursting, cables up to 1,500 m (signals
  // reaching bursts well after their first frame: late collisions), saturated sources (some with
  // counts and stops), Poisson and on-off ones, broadcasts, short queues, a warm-up: late and
  // watched, with the kernel stopping every 7.777 us and series every 33 us.
  const auto dir = fresh_directory("late-burst-random");
  for (std::uint64_t index = 0; index < 8; ++index) {
    RngStream rng(index, "late-bursts");
    const std::size_t n = 2 + rng.uniform_below(9);
    const std::int64_t cables[] = {0, 5, 100, 300, 800, 1500};
    Json stations = Json::object();
    Json cable = Json::object();
    Json names = Json::array();
    for (std::size_t i = 0; i < n; ++i) {
      const std::string name = "s" + std::to_string(i);
      names.push_back(name);
      cable[name] = cables[rng.uniform_below(6)];
      Json traffic = Json::array();
      const std::uint64_t kind = rng.uniform_below(5);
      Json t = {{"to", rng.uniform_below(10) == 0 ? std::string("broadcast")
                                                  : "s" + std::to_string((i + 1) % n)},
                {"frame_bytes", rng.uniform_below(3) == 0 ? 512 : 64}};
      if (kind <= 2) {
        t["pattern"] = "saturated";
        if (kind == 1) t["count"] = 100 + rng.uniform_below(400);
        if (kind == 2) t["stop_ns"] = 100000 + rng.uniform_below(600000);
      } else if (kind == 3) {
        t["pattern"] = "poisson";
        t["load_bps"] = 2e8;
      } else {
        t["pattern"] = "on_off";
        t["peak_load_bps"] = 5e8;
        t["on_ns"] = 20000;
        t["off_ns"] = 30000;
      }
      traffic.push_back(t);
      stations[name]["traffic"] = traffic;
      if (rng.uniform_below(4) == 0) stations[name]["mac"] = {{"tx_queue_frames", 2}};
    }
    Json doc;
    doc["name"] = "r" + std::to_string(index);
    doc["description"] = "";
    doc["duration_ns"] = 800000;
    doc["warmup_ns"] = 50000;
    doc["seed"] = index + 1;
    doc["mac"] = {{"duplex", "half"}, {"carrier_extension", true}, {"frame_bursting", true}};
    doc["stations"] = stations;
    doc["collision_domains"] = Json::array({Json{{"stations", names}, {"cable_m", cable}}});
    run_both(dir, "r" + std::to_string(index), doc.dump(1),
             {"--chunk-ns", "7777", "--series", "33us"});
  }
}

TEST(LateDelivery, ACollisionIsSettledAtItsJamsEndWithoutAWakeOfItsOwn) {
  // Six stations offering Poisson traffic (0.72 of the line together) to a seventh that sends
  // nothing, no bursting: a watched station wakes where each collision reaches it and again
  // where its jam ends; an unwatched one only at the jam's end, settling the collision as of its
  // instant then (or at any settle before). Watching only a (which receives nothing, so its
  // port has nothing to deliver either way) costs exactly one activation per collision a meets,
  // and changes no result.
  const auto dir = fresh_directory("late-collision");
  const std::string poisson =
      R"({"traffic": [{"pattern": "poisson", "to": "g", "frame_bytes": 512, "load": 0.12}]})";
  std::string three = R"({"name": "three", "description": "", "duration_ns": 4000000,
      "mac": {"duplex": "half", "carrier_extension": true, "frame_bursting": false},
      "stations": {"a": P, "b": P, "c": P, "d": P, "e": P, "f": P, "g": {}},
      "collision_domains": [{"stations": ["a", "b", "c", "d", "e", "f", "g"],
                             "cable_m": {"a": 10, "b": 60, "c": 100, "d": 5, "e": 33,
                                         "f": 81, "g": 1}}]})";
  for (auto at = three.find(" P"); at != std::string::npos; at = three.find(" P"))
    three.replace(at + 1, 1, poisson);
  run_both(dir, "three", three, {"--chunk-ns", "100000000"}, "events:stations=a");
  const double collisions = scalar(dir / "three-late/scalars.csv", "a.mac", "collisions");
  EXPECT_GT(collisions, 100);
  EXPECT_EQ(static_cast<double>(activations(dir / "three-now") - activations(dir / "three-late")),
            collisions);

  // Runs that end 1-2 ns after one of a's collisions reached it, inside its jam (at least 32 ns):
  // the unwatched a has had no wake since, so the end's settle finds the collision -- the same
  // counts and shares as the watched a's.
  int ends = 0;
  for (const auto& row : read_csv(dir / "three-now/events.csv")) {
    if (row.size() < 3 || row[1] != "a.mac" || row[2] != "collision") continue;
    const std::int64_t end_ns = std::stoll(row[0]) / 1000 + 2;
    run_both(dir, "end" + std::to_string(++ends), three,
             {"--set", "duration_ns=" + std::to_string(end_ns)});
    if (ends == 4) break;
  }
  EXPECT_EQ(ends, 4);

  // With the kernel stopping every 10 us and a warm-up: the same results as with every MAC
  // watched.
  std::string warm = three;
  warm.replace(warm.find("\"duration_ns\": 4000000"), 22,
               "\"duration_ns\": 4000000, \"warmup_ns\": 100003");
  run_both(dir, "stops", warm, {"--series", "10us"});
}

TEST(LateDelivery, FramesDamagedAtTheirReceiverAreFoundSoWhenDeliveredLate) {
  // Past the collision domain's diameter, collisions that the senders do not see damage frames
  // where they arrive: those frames must carry a bad FCS however late they are delivered.
  const auto dir = fresh_directory("late-damaged");
  run_file_both(dir, "far", (source_dir() / "scenarios/diameter-vs-slot-time.json").string(),
                {"--point", "1500"});
  double fcs_errors = 0;
  for (const auto& row : read_csv(dir / "far-late/scalars.csv"))
    if (row.size() == 4 && row[1] == "frame_check_sequence_errors") fcs_errors += std::stod(row[3]);
  EXPECT_GT(fcs_errors, 50);
  EXPECT_LT(activations(dir / "far-late"), activations(dir / "far-now"));
}

}  // namespace
}  // namespace gbesim
