// The reference workload of `scripts/bench-ns3`: ns-3's CSMA model (CsmaNetDevice on a
// CsmaChannel) with two nodes at 1 Gb/s, 100 m of cable, each device kept saturated with frames
// to the other, or only the first one (a new frame is handed to the device as each of its frames
// ends, as gbesim's saturated source does), no protocol stack. Prints the simulated seconds, the
// frames received, and the CPU seconds of Simulator::Run, so that CPU per frame compares with
// `gbesim bench`'s. ns-3 3.37's CSMA channel is a shared bus (no full duplex), so the two stations
// take turns.
//
// Usage: csma_saturated FRAME_BYTES SIMULATED_MS SENDERS (1: a to b only, 2: both ways)

#include <ctime>
#include <iostream>
#include <string>

#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/network-module.h"

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::uint64_t g_received = 0;
std::uint32_t g_payload = 46;

bool on_receive(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet>, std::uint16_t,
                const ns3::Address&) {
  ++g_received;
  return true;
}

void send_one(ns3::Ptr<ns3::NetDevice> from, ns3::Address to) {
  from->Send(ns3::Create<ns3::Packet>(g_payload), to, 0x88B5);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: csma_saturated FRAME_BYTES SIMULATED_MS SENDERS\n";
    return 2;
  }
  const int frame_bytes = std::stoi(argv[1]);
  const double simulated_ms = std::stod(argv[2]);
  const int senders = std::stoi(argv[3]);
  g_payload = static_cast<std::uint32_t>(frame_bytes - 18);  // less the header and the FCS

  ns3::NodeContainer nodes;
  nodes.Create(2);
  ns3::CsmaHelper csma;
  csma.SetChannelAttribute("DataRate", ns3::DataRateValue(ns3::DataRate("1Gbps")));
  csma.SetChannelAttribute("Delay", ns3::TimeValue(ns3::NanoSeconds(556)));  // 100 m x 5.56 ns/m
  ns3::NetDeviceContainer devices = csma.Install(nodes);
  for (std::uint32_t i = 0; i < 2; ++i) {
    ns3::Ptr<ns3::NetDevice> self = devices.Get(i);
    const ns3::Address peer = devices.Get(1 - i)->GetAddress();
    self->SetReceiveCallback(ns3::MakeCallback(&on_receive));
    if (static_cast<int>(i) >= senders) continue;
    // Saturated: one more frame whenever one of ours has left; two queued to begin with.
    self->TraceConnectWithoutContext("PhyTxEnd",
                                     ns3::MakeBoundCallback(
                                         +[](ns3::Ptr<ns3::NetDevice> d, ns3::Address to,
                                             ns3::Ptr<const ns3::Packet>) { send_one(d, to); },
                                         self, peer));
    send_one(self, peer);
    send_one(self, peer);
  }
  ns3::Simulator::Stop(ns3::MilliSeconds(simulated_ms));
  const double start = cpu_seconds();
  ns3::Simulator::Run();
  const double cpu = cpu_seconds() - start;
  std::cout << "simulated_s " << simulated_ms / 1000.0 << " frames_received " << g_received
            << " cpu_s " << cpu << "\n";
  ns3::Simulator::Destroy();
  return 0;
}
