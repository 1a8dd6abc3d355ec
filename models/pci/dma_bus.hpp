#pragma once
// What a DMA master and a host see of the bus their device sits on, whatever its family: a
// shared PCI / PCI-X segment (pci_bus.hpp) or a PCI Express link (pcie_link.hpp). Masters ask
// for transfers; the bus tells them when the data have moved. The timing shell
// (pci_bus_module.hpp) steps whichever engine the host's bus block names.

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/event.hpp"
#include "models/common/hook.hpp"
#include "models/common/time.hpp"
#include "models/pci/pci_params.hpp"

namespace gbesim {

bool is_read(PciCommand c);
const char* to_string(PciCommand c);

struct PciRequest {
  std::size_t target = 0;
  PciCommand command = PciCommand::memory_write;
  std::uint64_t address = 0;
  std::int64_t bytes = 0;
  std::uint64_t tag = 0;       // the master's own reference, handed back
  std::uint64_t frame_id = 0;  // the frame whose data it moves, for traces (0: none)
};

// The master's side of the bus.
class PciMasterClient {
 public:
  virtual ~PciMasterClient() = default;
  // The request's last byte has moved (a read: it is in the master; a write: the target has
  // it, or on PCI Express the link has taken it). `at` is when.
  virtual void pci_done(const PciRequest& request, Picoseconds at) = 0;
  // Bytes of the request moved by one transaction (or completion), when they moved.
  virtual void pci_progress(const PciRequest&, std::int64_t /*bytes*/, Picoseconds /*at*/) {}
  // Whether pci_progress does anything: a bus need not wake for the progress of a master that
  // only acts when its request is done. A client that overrides pci_progress says true.
  virtual bool follows_progress() const { return false; }
};

class DmaBus {
 public:
  virtual ~DmaBus() = default;
  virtual std::size_t add_target(const std::string& name, const PciTargetParams& params) = 0;
  virtual std::size_t add_master(const std::string& name, const PciMasterParams& params,
                                 PciMasterClient* client) = 0;
  // The master asks for a transfer at time now; requests of one master are served in order.
  virtual void request(std::size_t master, const PciRequest& r, Picoseconds now) = 0;
  // Master `master` is another function of the chip whose bus interface `with` is: they share
  // one REQ# / GNT# pair (PCI, PCI-X). A PCI Express link has no arbiter: nothing to share.
  virtual void share_request_line(std::size_t /*master*/, std::size_t /*with*/) {}
  // Event-driven stepping: the next instant the bus has something to do (kForeverPs if none),
  // and doing everything due at or before now.
  virtual Picoseconds next_event_ps() const = 0;
  virtual void advance(Picoseconds now) = 0;
  // The instant the bus must be woken at: the earliest at which its work can reach a master (a
  // callback), no later than next_event_ps(). Work due before it (on PCI Express a packet sent
  // or an Ack) waits for that wake-up, or for a request, which advances to now first, or for the
  // end of a stretch of the run (catch-up): nothing outside the bus sees the difference.
  virtual Picoseconds next_wake_ps() const { return next_event_ps(); }
  virtual bool idle() const = 0;  // nothing in progress nor pending

  // What the bus does, for traces: each event's `part` names who it is about (a master on PCI,
  // a direction on PCI Express), one of parts().
  Hook<const Event&> events;
  virtual std::vector<std::string> parts() const = 0;
};

}  // namespace gbesim
