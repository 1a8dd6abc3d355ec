#include "models/mac/mac_stats.hpp"

#include <utility>

namespace gbesim {

MacStats::MacStats(StatRegistry& registry, std::string component, bool half_duplex_mac,
                   Picoseconds bit_ps, StatGroup::Formula paused_time)
    : group(registry, std::move(component)), half_duplex(half_duplex_mac) {
  group.rate("tx_frame_rate", "frames/s", "frames_transmitted_ok per simulated second",
             per_second(frames_transmitted_ok));
  group.rate("tx_throughput", "bit/s", "DA..FCS bits transmitted OK per second",
             bits_per_second(frame_octets_transmitted));
  group.rate("tx_payload_throughput", "bit/s",
             "MAC client data and pad bits transmitted OK per second",
             bits_per_second(octets_transmitted_ok));
  group.total("paused_time", "ps", "time spent paused: data waiting, held back by a received PAUSE",
              std::move(paused_time));
  group.rate("tx_utilisation", "fraction",
             "share of time the transmitter sent preamble, SFD or frame bits",
             share_of_time(tx_busy_ps));
  // The bit times of the frames sent OK, as a share of the time.
  group.rate("tx_efficiency", "fraction", "DA..FCS bits transmitted OK over line capacity",
             share_of_time([this, bit_ps] {
               return 8.0 * static_cast<double>(frame_octets_transmitted.value()) *
                      static_cast<double>(bit_ps);
             }));
  group.rate("rx_frame_rate", "frames/s", "frames_received_ok per simulated second",
             per_second(frames_received_ok));
  group.rate("rx_throughput", "bit/s", "DA..FCS bits received OK per second",
             bits_per_second(frame_octets_received));
  group.rate("rx_payload_throughput", "bit/s",
             "MAC client data and pad bits received OK per second",
             bits_per_second(octets_received_ok));
}

}  // namespace gbesim
