#pragma once
// A PCI Express 1.x link between the root complex and one endpoint: two serial directions
// (upstream, endpoint -> root; downstream, root -> endpoint), each sending one packet at a time.
// Pure logic (no SystemC); PciBusModule steps it like the PCI bus.
//
// Models, to the picosecond: 2.5 GT/s with 8b/10b (a symbol per lane every 4 ns), x1 and x4
// (a packet of B bytes takes B / lanes symbol times; TLPs are whole dwords); TLPs of the
// transaction layer with their data-link and framing bytes (STP 1, sequence 2, a 3-DW header --
// 4-DW when the master uses 64-bit addresses -- LCRC 4, END 1, optionally ECRC 4); posted Memory
// Writes split at Max_Payload_Size-aligned addresses; Memory Reads as read requests of at most
// Max_Read_Request_Size that do not cross a 4 KB boundary, up to the master's tag limit in
// flight; completions from the completer after its latency, split at its completion boundary
// and at Max_Payload_Size; Ack DLLPs (8 bytes) a set interval after the first unacknowledged TLP,
// with UpdateFC DLLPs for the posted and non-posted credits consumed; flow control: a
// transmitter sends a posted or non-posted TLP only while the receiver has advertised room for
// it (completions have infinite credits, as endpoints and root complexes without peer-to-peer
// advertise); SKP ordered sets (4 symbol times) at a set interval, held to a packet boundary.
// The master's view: a write is done when its last TLP has left the link (posted); a read when
// its last completion has arrived.
// Which end is which: the first target added is the root complex (host memory); every later
// target is a function of the endpoint (its registers). A request goes from its master's end to
// its target's end, so the NIC's DMA runs upstream and the driver's register accesses downstream.
// Does not model: Nak and replay (no bit errors), the replay buffer's limit, link training and
// power states, TLP ordering rules beyond one FIFO per direction (a TLP blocked for credits
// holds back those behind it; completions never wait for credits), the root complex's memory
// bandwidth (posted writes are consumed on arrival), x2, x8 and wider links, PCIe 2.0 and later,
// interrupts as messages (the NIC's interrupt reaches the driver as on PCI).

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/common/hook.hpp"
#include "models/common/stats.hpp"
#include "models/common/time.hpp"
#include "models/pci/dma_bus.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {

enum class PciePacketKind { memory_write, read_request, completion, ack, update_fc };
const char* to_string(PciePacketKind k);

// Bytes on the link of a TLP (framing, sequence number, header, LCRC, optional ECRC) carrying
// payload_bytes starting at address (whole dwords).
std::int64_t pcie_tlp_bytes(std::int64_t payload_bytes, std::uint64_t address, bool four_dw_header,
                            bool ecrc);
constexpr std::int64_t kPcieDllpBytes = 8;
constexpr std::int64_t kPcieSkpSymbols = 4;

class PcieLink : public DmaBus {
 public:
  PcieLink(const PciBusParams& params, StatRegistry& stats, const std::string& component);
  PcieLink(const PcieLink&) = delete;
  PcieLink& operator=(const PcieLink&) = delete;

  std::size_t add_target(const std::string& name, const PciTargetParams& params) override;
  std::size_t add_master(const std::string& name, const PciMasterParams& params,
                         PciMasterClient* client) override;
  void request(std::size_t master, const PciRequest& r, Picoseconds now) override;
  Picoseconds next_event_ps() const override;
  // The first instant the link may call a master, were no request to come before it: a step
  // that calls one (a posted write's last TLP sent, a read's last completion arrived, any
  // completion for a master that follows progress), or the end of the first such packet still
  // queued, after every packet ahead of it in its direction (docs/pci.md). Every step, with
  // traces on.
  Picoseconds next_wake_ps() const override;
  void advance(Picoseconds now) override;
  bool idle() const override;

  Picoseconds ack_interval_ps() const { return ack_interval_ps_; }
  Picoseconds packet_ps(std::int64_t wire_bytes) const {
    return (wire_bytes + params_.lanes - 1) / params_.lanes * kPcieSymbolPs;
  }

  // Every packet on the link as events (`events`, part: the direction, "up" or "down"):
  // tlp_start and tlp_end, or dllp_start and dllp_end, at its first and last symbol time
  // (announced at the first as soon as the direction takes it up); credit_stall when a TLP
  // starts waiting for credits.
  static const ModelVocabulary& vocabulary();
  std::vector<std::string> parts() const override { return {"up", "down"}; }

 private:
  // Small (72 bytes), since every step copies one: sizes fit 32 bits, and a write's request
  // waits in writes_ for its last TLP.
  static constexpr std::uint32_t kNoWrite = 0xFFFFFFFF;
  struct Packet {
    PciePacketKind kind = PciePacketKind::memory_write;
    std::int32_t wire_bytes = 0;
    std::int32_t payload_bytes = 0;
    std::int32_t asked_bytes = 0;  // read requests: what they ask for
    std::uint32_t master = 0;
    std::uint32_t target = 0;        // read requests: the completer
    std::uint32_t write = kNoWrite;  // a write's last TLP: the master's request, in writes_
    bool last = false;               // a write's last TLP; a read request's last completion
    bool final = false;              // a read's last request, and that request's last completion
    std::uint64_t read = 0;          // read requests and completions: the master's read
    std::uint64_t address = 0;       // read requests: what they ask for
    std::uint64_t frame_id = 0;      // the frame whose data it carries, for traces
    std::int32_t posted_headers = 0, posted_data = 0, nonposted_headers = 0;  // UpdateFC
  };
  struct Direction {
    std::deque<Packet> tlps;
    std::deque<Packet> dllps;
    bool busy = false;
    Packet current;
    Picoseconds current_start = 0;
    Picoseconds free_at = 0;  // end of the last packet or SKP sent
    Picoseconds next_skp = 0;
    // The transmitter's view of the receiver's credits.
    std::int64_t posted_headers = 0, posted_data = 0, nonposted_headers = 0;
    bool stalled = false;  // the head TLP waits for credits
    Picoseconds stalled_since = 0;
    // The receiver's side: TLPs not yet acknowledged, credits freed and not yet reported.
    bool ack_scheduled = false;
    std::int64_t freed_posted_headers = 0, freed_posted_data = 0, freed_nonposted_headers = 0;
    // Statistics.
    std::uint64_t tlps_sent = 0, dllps_sent = 0, skps = 0, stalls = 0;
    std::uint64_t wire_bytes = 0, payload_bytes = 0;
    Picoseconds busy_ps = 0, stall_ps = 0;
  };
  struct Read {
    std::uint64_t id = 0;
    PciRequest request;
    std::int64_t requested = 0;  // bytes asked for in read requests so far
    std::int64_t received = 0;
  };
  struct Master {
    std::string name;
    PciMasterParams params;
    PciMasterClient* client = nullptr;
    std::deque<PciRequest> queue;  // not yet turned into TLPs
    std::deque<Read> reads;        // reads with requests sent or to send
    bool head_open = false;        // the queue's head is a read with its record in `reads`
    std::int64_t tags_in_use = 0;
    std::uint64_t bytes_read = 0, bytes_written = 0;
  };
  struct Target {
    std::string name;
    PciTargetParams params;
  };
  // What the link has to do at a time (its agenda).
  enum class Step { sent, arrived, ack_due, completions_ready };
  // Small, so that the agenda's heap moves little: a packet it carries waits in packets_.
  static constexpr std::uint32_t kNoPacket = 0xFFFFFFFF;
  struct Due {
    Picoseconds at = 0;
    std::uint64_t seq = 0;
    Step step = Step::sent;
    int direction = 0;
    std::uint32_t packet = kNoPacket;  // its index in packets_
    bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  static int opposite(int d) { return 1 - d; }
  // The direction from the end holding `from_root` (true: the root complex) to the other.
  static int direction_from(bool from_root) { return from_root ? 1 : 0; }
  bool target_at_root(std::size_t target) const { return target == 0; }
  // Returns the packet's slot in packets_ (kept until its step is done).
  std::uint32_t schedule(Picoseconds at, Step step, int direction, const Packet& packet);
  void schedule(Picoseconds at, Step step, int direction);
  void serve(std::size_t master, Picoseconds now);
  void kick(int direction, Picoseconds now);
  // A packet's event (events connected).
  void report(EventKind kind, Picoseconds at, int direction, const Packet& p) const;
  bool credits_allow(const Direction& d, const Packet& p) const;
  Picoseconds after_skps(Direction& d, Picoseconds t);
  void sent(int direction, Picoseconds at);
  void arrived(int direction, const Packet& p, Picoseconds at);
  void ack_due(int direction, Picoseconds at);
  void completions_ready(int direction, const Packet& request, Picoseconds at);
  Read* find_read(Master& m, std::uint64_t id);
  // Whether the packet calls its master when it has been sent (a write) or has arrived (a
  // completion).
  bool calls_master(const Packet& p) const;
  Picoseconds calls_master_at(const Due& e) const;

  PciBusParams params_;
  StatRegistry& registry_;
  Picoseconds ack_interval_ps_ = 0;
  Picoseconds skp_interval_ps_ = 0;
  Picoseconds latency_ps_ = 0;
  std::vector<Master> masters_;
  std::vector<Target> targets_;
  Direction dirs_[2];
  // Each direction's busy time when the statistics restarted, and when (0: never).
  Picoseconds busy_at_restart_ps_[2] = {0, 0};
  Picoseconds restarted_ps_ = 0;
  std::vector<Due> agenda_;                  // a heap, earliest first (std::greater<Due>)
  std::deque<Packet> packets_;               // the packets of agenda entries, and free slots
  std::vector<std::uint32_t> free_packets_;  // the free slots of packets_
  std::vector<PciRequest> writes_;           // the requests of writes whose last TLP is to go
  std::vector<std::uint32_t> free_writes_;   // the free slots of writes_
  std::uint64_t next_seq_ = 0;
  std::uint64_t next_read_ = 1;
  StatGroup stats_;
  std::deque<StatGroup> master_groups_;
};

}  // namespace gbesim
