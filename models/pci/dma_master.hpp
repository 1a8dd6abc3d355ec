#pragma once
// A generic bus master moving data by DMA at a given rate: a disk or another controller that
// contends with the NIC for the bus. It issues requests of request_bytes at rate_mbps (or back
// to back when 0), with at most max_outstanding requests waiting at the bus: when the bus cannot
// keep up, it falls behind (counted), it does not pile up work without bound, and the time lost is
// not made up. rate_mbps is MB/s (10^6 bytes/s); addresses run on sequentially (mod 1 GiB).
// Does not model: the device behind it (its buffer never runs dry or overflows; a late request
// loses nothing but time), varying sizes or random arrivals (one command, one size, a fixed
// period), or the interrupts and CPU work a real controller would cause.

#include <cstdint>
#include <string>

#include <systemc>

#include "models/common/param_table.hpp"
#include "models/common/sim_context.hpp"
#include "models/common/stats.hpp"
#include "models/pci/pci_bus_module.hpp"

namespace gbesim {

class DmaMaster : public sc_core::sc_module, public PciMasterClient {
 public:
  SC_HAS_PROCESS(DmaMaster);
  DmaMaster(sc_core::sc_module_name name, const DmaTrafficParams& traffic,
            const PciMasterParams& master, std::size_t target, PciBusModule& bus,
            SimContext& context);

  void pci_done(const PciRequest& request, Picoseconds at) override;

 private:
  void run();
  void issue();

  DmaTrafficParams params_;
  PciBusModule& bus_;
  std::size_t index_;
  std::size_t target_;
  SimContext& context_;
  Picoseconds gap_ps_ = 0;   // between requests at the rate; 0 = back to back
  Picoseconds next_ps_ = 0;  // when the next request is due
  std::int64_t outstanding_ = 0;
  std::uint64_t address_ = 0;
  StatGroup stats_;
  Counter requests_, completed_, bytes_, behind_;
  sc_core::sc_event wake_;
};

}  // namespace gbesim
