// No result depends on the order in which the simulation kernel runs the processes of one
// instant. SystemC leaves that order undefined -- it follows the history of timed
// notifications -- so a change in when any process wakes could reorder simultaneous processes.
// Two reference schedules: GBESIM_BUS_WAKES=every-ns wakes the host bus's shell
// (models/pci/pci_bus_module.hpp) also every nanosecond and at once on every request, and
// GBESIM_PERTURB_ORDER=1 adds one more process re-triggered every nanosecond (sim/runner.cpp).
// Each case runs as shipped and under both; scalars.csv, flows.csv and series.csv must be
// identical byte for byte. The NIC cases are sweep points of scenarios/pci-ceiling.json where
// the order once mattered: a NIC deciding on its next DMA transfer at the instant its MAC
// reported a frame sent (models/nic/nic.cpp, Nic::pump), and a driver's register read joining
// a PCI Express link's queue before or after the completions the link queued at the same
// instant (PciBusModule::request). Full- and half-duplex networks, a switch and a quad card's two
// segments are checked too.

#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/sim_fixture.hpp"

namespace gbesim {
namespace {

using gbesim::testing::fresh_directory;
using gbesim::testing::read_text;
using gbesim::testing::run_gbesim;
using gbesim::testing::source_dir;
using gbesim::testing::write_text;

// "" if equal, else the first line that differs in each.
std::string first_difference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  std::istringstream x(a), y(b);
  std::string lx, ly;
  for (int line = 1;; ++line) {
    const bool hx = static_cast<bool>(std::getline(x, lx));
    const bool hy = static_cast<bool>(std::getline(y, ly));
    if (!hx && !hy) return "differ";  // only in a final newline
    if (!hx || !hy || lx != ly)
      return "line " + std::to_string(line) + ": '" + (hx ? lx : "(end)") + "' against '" +
             (hy ? ly : "(end)") + "'";
  }
}

void expect_same_either_schedule(const std::string& name, const std::string& scenario,
                                 const std::vector<std::string>& options) {
  const auto dir = fresh_directory("bus-schedule-" + name);
  std::vector<std::string> args = {"run", (source_dir() / scenario).string(), "--quiet"};
  args.insert(args.end(), options.begin(), options.end());
  auto with_out = [&](const std::string& out) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--out", out});
    return a;
  };
  const auto plain = run_gbesim(with_out("plain"), dir);
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  for (const char* schedule : {"GBESIM_BUS_WAKES=every-ns", "GBESIM_PERTURB_ORDER=1"}) {
    const std::string out = schedule[7] == 'B' ? "bus" : "perturbed";
    const auto other = run_gbesim(with_out(out), dir, schedule);
    ASSERT_EQ(other.exit_code, 0) << other.output;
    for (const char* file : {"scalars.csv", "flows.csv", "series.csv"}) {
      const auto a = dir / "plain" / file;
      const auto b = dir / out / file;
      ASSERT_EQ(std::filesystem::exists(a), std::filesystem::exists(b)) << name << " " << file;
      if (std::filesystem::exists(a)) {
        EXPECT_EQ(first_difference(read_text(a), read_text(b)), "")
            << name << " " << file << " " << schedule;
      }
    }
  }
}

// The wake-ups really differ: the every-ns run wakes the bus about once per simulated
// nanosecond more.
TEST(KernelOrder, TheBusReferenceScheduleWakesTheBusEveryNanosecond) {
  const auto dir = fresh_directory("bus-schedule-count");
  const std::vector<std::string> args = {
      "run",     (source_dir() / "scenarios/pci-ceiling.json").string(),
      "--point", "0",
      "--set",   "duration_ns=1000000",
      "--quiet"};
  auto with_out = [&](const std::string& out) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--out", out});
    return a;
  };
  ASSERT_EQ(run_gbesim(with_out("plain"), dir).exit_code, 0);
  ASSERT_EQ(run_gbesim(with_out("every"), dir, "GBESIM_BUS_WAKES=every-ns").exit_code, 0);
  auto activations = [&](const std::string& out) {
    const std::string run = read_text(dir / out / "run.json");
    const auto at = run.find("\"process_activations\": ");
    EXPECT_NE(at, std::string::npos);
    return std::stoll(run.substr(at + 23));
  };
  // The run, warm-up included, is 1 ms: 10^6 nanoseconds.
  EXPECT_GE(activations("every") - activations("plain"), 900'000);
}

TEST(KernelOrder, NicsOnEveryBusFamilyGiveTheSameResultsWhicheverProcessRunsFirst) {
  // point: bus, frame size, direction, NIC (scenarios/pci-ceiling.json, `gbesim sweep --list`)
  const std::vector<std::pair<const char*, const char*>> points = {
      {"0", "PCI 32/33, 64 B, receive, 82540EM"},
      {"121", "PCI 32/66, 128 B, transmit, 82540EM"},
      {"244", "PCI 64/33, 256 B, transmit, DP83820"},
      {"319", "PCI 64/66, 64 B, transmit, DP83820"},
      {"365", "PCI 64/66, 512 B, both ways, DP83820"},
      {"424", "PCI-X 64/133, 64 B, transmit, DP83820"},
      {"553", "PCIe x1, 512 B, transmit, 82573"},
      {"598", "PCIe x4, 128 B, transmit, 82573"},
      {"608", "PCIe x4, 256 B, both ways, 82573"},
      {"525", "PCIe x1, 64 B, receive, 82573"},
      {"568", "PCIe x1, 1 KB, transmit, 88E8053"},
  };
  for (const auto& [point, what] : points) {
    SCOPED_TRACE(what);
    expect_same_either_schedule(
        std::string("pci-ceiling-") + point, "scenarios/pci-ceiling.json",
        {"--point", point, "--set", "duration_ns=2000000", "--series", "250us"});
  }
}

TEST(KernelOrder, HostStacksBehindASwitchGiveTheSameResultsWhicheverProcessRunsFirst) {
  for (const char* point : {"10", "40"}) {
    SCOPED_TRACE(point);
    expect_same_either_schedule(std::string("switched-") + point,
                                "scenarios/nic-review-2003-switched.json",
                                {"--point", point, "--set", "duration_ns=3000000"});
  }
}

TEST(KernelOrder, EthernetNetworksGiveTheSameResultsWhicheverProcessRunsFirst) {
  expect_same_either_schedule("default", "scenarios/default.json",
                              {"--set", "duration_ns=2000000", "--series", "250us"});
  expect_same_either_schedule("switch-incast", "scenarios/switch-incast.json",
                              {"--point", "3", "--set", "duration_ns=2000000"});
  expect_same_either_schedule("half-duplex", "scenarios/carrier-extension-waste.json",
                              {"--point", "150", "--set", "duration_ns=2000000"});
  expect_same_either_schedule("server", "scenarios/server-fe-vs-gbe.json",
                              {"--point", "5", "--set", "duration_ns=3000000"});
}

// A quad card: two bus segments, each with its own shell, and the bridge's requests and
// completions crossing between them at the instants the other segment acts (points 49 and 57 of
// scenarios/pcix-server.json: the card's writes retried at 66 MHz, reads in pieces at 133), and
// the card's segment at the host's 133 MHz, where every edge of one is an edge of the other.
TEST(KernelOrder, AQuadCardsTwoSegmentsGiveTheSameResultsWhicheverProcessRunsFirst) {
  for (const char* point : {"49", "57"})
    expect_same_either_schedule(std::string("quad-") + point, "scenarios/pcix-server.json",
                                {"--point", point, "--set", "duration_ns=5000000"});
  std::string text = read_text(source_dir() / "scenarios/pcix-server.json");
  const std::string clock = "\"clock_mhz\": 120";
  ASSERT_NE(text.find(clock), std::string::npos);
  text.replace(text.find(clock), clock.size(), "\"clock_mhz\": 133");
  const auto same_clock = fresh_directory("quad-133-scenario") / "quad-133.json";
  write_text(same_clock, text);
  expect_same_either_schedule("quad-133", same_clock.string(),
                              {"--point", "57", "--set", "duration_ns=5000000"});
}

// The stations of a domain keep their own wakes (one SystemC event each) or the medium keeps
// them all in one queue (from SharedMedium::kWakesKeptFrom stations on, or when
// GBESIM_MEDIUM_WAKES says so): the medium wakes the stations of one instant in station order,
// and a wake asked for at the present instant in the same pass, where the kernel would wake
// them in its own order, a delta cycle later. No result may differ, events included.
// The same run under two settings of an environment variable ("NAME=value"): every result
// file byte for byte.
void expect_same_under(const std::string& name, const std::filesystem::path& scenario,
                       const std::vector<std::string>& options, const std::string& env_a,
                       const std::string& env_b) {
  const auto dir = fresh_directory(name);
  auto args = [&](const std::string& out) {
    std::vector<std::string> a = {"run", scenario.string(), "--quiet", "--out", out};
    a.insert(a.end(), options.begin(), options.end());
    return a;
  };
  const auto first = run_gbesim(args("a"), dir, env_a);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = run_gbesim(args("b"), dir, env_b);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  for (const char* file : {"scalars.csv", "flows.csv", "series.csv", "events.csv"}) {
    const auto a = dir / "a" / file;
    const auto b = dir / "b" / file;
    ASSERT_EQ(std::filesystem::exists(a), std::filesystem::exists(b)) << name << " " << file;
    if (std::filesystem::exists(a)) {
      EXPECT_EQ(first_difference(read_text(a), read_text(b)), "")
          << name << " " << file << ": " << env_a << " against " << env_b;
    }
  }
}

void expect_same_either_keeper(const std::string& name, const std::filesystem::path& scenario,
                               const std::vector<std::string>& options) {
  expect_same_under("medium-wakes-" + name, scenario, options, "GBESIM_MEDIUM_WAKES=stations",
                    "GBESIM_MEDIUM_WAKES=medium");
}

TEST(KernelOrder, HalfDuplexStationsWokenByTheMediumGiveTheSameResultsAsByTheirOwnEvents) {
  // 32 stations at 1000 Mb/s (64 B, extension and bursting; 20 ms) and at 100 Mb/s (1518 B;
  // 200 ms), runs 87 and 70 of the sweep.
  for (const char* point : {"87", "70"}) {
    SCOPED_TRACE(point);
    expect_same_either_keeper(
        std::string("contention-") + point, source_dir() / "scenarios/halfduplex-contention.json",
        {"--point", point, "--series", "1ms", "--trace", "events:from=1ms,to=1100us"});
  }
  // Late collisions on 130 m cables at 1000 Mb/s with a 512-bit slot (run 979), and carrier
  // extension's waste.
  expect_same_either_keeper("diameter", source_dir() / "scenarios/diameter-vs-slot-time.json",
                            {"--point", "979"});
  expect_same_either_keeper("extension", source_dir() / "scenarios/carrier-extension-waste.json",
                            {"--point", "150", "--set", "duration_ns=2000000"});
  // 40 stations on cables of 0 to 150 m, every kind of source, broadcasts, queues of one to
  // four frames, a warm-up; the kernel stopped every 7.777 us and sampled every 33 us.
  const auto dir = fresh_directory("medium-wakes-mixed-scenario");
  std::string stations;
  std::string names;
  std::string cables;
  for (int i = 0; i < 40; ++i) {
    const std::string s = "s" + std::to_string(i);
    const std::string to = i % 9 == 4 ? "broadcast" : "s" + std::to_string((i * 7 + 3) % 40);
    const char* pattern[] = {"\"saturated\"", "\"poisson\", \"load\": 0.04",
                             "\"on_off\", \"peak_load_bps\": 3e8, \"on_ns\": 20000, "
                             "\"off_ns\": 30000"};
    stations += (i ? ",\n" : "") + std::string("    \"") + s +
                "\": {\"mac\": {\"tx_queue_frames\": " + std::to_string(1 + i % 4) +
                "}, \"traffic\": [{\"pattern\": " + pattern[i % 3] + ", \"to\": \"" + to +
                "\", \"frame_bytes\": " + std::to_string(i % 5 == 0 ? 1518 : 64 + 37 * i) +
                (i % 3 == 0 && i % 2 == 0 ? ", \"count\": 300" : "") + "}]}";
    names += (i ? ", \"" : "\"") + s + "\"";
    cables += (i ? ", \"" : "\"") + s + "\": " + std::to_string((i * 37) % 151);
  }
  write_text(dir / "mixed.json",
             "{\n  \"name\": \"mixed\", \"description\": \"40 stations, every kind of source\",\n"
             "  \"duration_ns\": 2000000, \"warmup_ns\": 300000,\n"
             "  \"rate_mbps\": 1000,\n"
             "  \"mac\": {\"duplex\": \"half\", \"carrier_extension\": true, "
             "\"frame_bursting\": true},\n"
             "  \"stations\": {\n" +
                 stations + "\n  },\n  \"collision_domains\": [{\"stations\": [" + names +
                 "], \"cable_m\": {" + cables + "}}]\n}\n");
  expect_same_either_keeper("mixed", dir / "mixed.json",
                            {"--series", "33us", "--chunk-ns", "7777"});
}

// A domain forgets the signals nobody can look back to any more, every 16 ends
// (SharedMedium::prune_history; GBESIM_PRUNE_EVERY=N prunes every N ends, 0 never). What it
// forgets may change no result: never pruning and pruning at every end give the same files.
// Run 1072 of the diameter sweep (1000 Mb/s with a 512-bit slot, 105 m cables, Poisson 64-byte
// frames at 10 % each) has frames damaged at their receivers by a signal that had left every
// station before the frame's last bit arrived: a prune that forgot it before the frame was
// judged made two of those frames intact. Runs 87 and 70 of halfduplex-contention: 32
// saturated stations at 1000 and 100 Mb/s.
TEST(KernelOrder, HalfDuplexResultsDoNotDependOnWhenTheHistoryIsPruned) {
  const auto diameter = source_dir() / "scenarios/diameter-vs-slot-time.json";
  expect_same_under("prune-diameter", diameter, {"--point", "1072", "--trace", "events"},
                    "GBESIM_PRUNE_EVERY=0", "GBESIM_PRUNE_EVERY=1");
  expect_same_under("prune-diameter-default", diameter, {"--point", "1072"}, "GBESIM_PRUNE_EVERY=0",
                    "GBESIM_PRUNE_EVERY=16");
  for (const char* point : {"87", "70"}) {
    SCOPED_TRACE(point);
    expect_same_under(std::string("prune-contention-") + point,
                      source_dir() / "scenarios/halfduplex-contention.json",
                      {"--point", point, "--trace", "events:from=1ms,to=1100us"},
                      "GBESIM_PRUNE_EVERY=0", "GBESIM_PRUNE_EVERY=1");
  }
}

}  // namespace
}  // namespace gbesim
