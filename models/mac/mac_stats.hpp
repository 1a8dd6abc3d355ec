#pragma once
// The MAC's statistics, declared in one place: the IEEE 802.3 Clause 30 counters (in snake_case)
// the MAC increments, and the rates derived from them when results are written. In full duplex
// the half-duplex counters still count but are not reported.

#include <string>

#include "models/common/stats.hpp"
#include "models/common/time.hpp"

namespace gbesim {

struct MacStats {
  // `paused_time`: the time spent paused so far, which only the MAC knows (a pause may be open).
  MacStats(StatRegistry& registry, std::string component, bool half_duplex, Picoseconds bit_ps,
           StatGroup::Formula paused_time);

  StatGroup group;
  const bool half_duplex;
  Counter frames_transmitted_ok{group, "frames_transmitted_ok", "frames",
                                "frames transmitted completely, MAC Control frames included"};
  Counter octets_transmitted_ok{
      group, "octets_transmitted_ok", "bytes",
      "MAC client data and pad octets of frames transmitted OK (Clause 30)"};
  Counter frame_octets_transmitted{group, "frame_octets_transmitted_ok", "bytes",
                                   "DA..FCS octets of frames transmitted OK"};
  Counter multicast_frames_transmitted_ok{
      group, "multicast_frames_transmitted_ok", "frames",
      "frames transmitted OK to a group address (not broadcast)"};
  Counter broadcast_frames_transmitted_ok{group, "broadcast_frames_transmitted_ok", "frames",
                                          "frames transmitted OK to the broadcast address"};
  Counter pause_mac_ctrl_frames_transmitted{group, "pause_mac_ctrl_frames_transmitted", "frames",
                                            "PAUSE frames transmitted"};
  Counter frames_received_ok{group, "frames_received_ok", "frames",
                             "frames received intact and accepted, MAC Control frames included"};
  Counter octets_received_ok{group, "octets_received_ok", "bytes",
                             "MAC client data and pad octets of frames received OK (Clause 30)"};
  Counter frame_octets_received{group, "frame_octets_received_ok", "bytes",
                                "DA..FCS octets of frames received OK"};
  Counter multicast_frames_received_ok{group, "multicast_frames_received_ok", "frames",
                                       "frames received OK for a group address (not broadcast)"};
  Counter broadcast_frames_received_ok{group, "broadcast_frames_received_ok", "frames",
                                       "frames received OK for the broadcast address"};
  Counter frame_check_sequence_errors{group, "frame_check_sequence_errors", "frames",
                                      "frames addressed here whose FCS did not match"};
  Counter frame_too_long_errors{group, "frame_too_long_errors", "frames",
                                "frames longer than max_frame_bytes (+4 if VLAN-tagged)"};
  Counter in_range_length_errors{group, "in_range_length_errors", "frames",
                                 "frames whose length field disagrees with the data received"};
  Counter out_of_range_length_field{group, "out_of_range_length_field", "frames",
                                    "frames with a length/type field between 1501 and 1535"};
  Counter undersize_frames{group, "undersize_frames", "frames",
                           "received fragments shorter than 64 bytes, discarded"};
  Counter frames_filtered{group, "frames_filtered", "frames",
                          "intact frames not addressed to this station, discarded"};
  Counter pause_mac_ctrl_frames_received{group, "pause_mac_ctrl_frames_received", "frames",
                                         "PAUSE frames received"};
  Counter unsupported_opcodes_received{group, "unsupported_opcodes_received", "frames",
                                       "MAC Control frames with an opcode other than PAUSE"};
  Counter tx_queue_drops{group, "tx_queue_drops", "frames",
                         "frames refused by a full transmit queue or too long to send"};
  Counter tx_busy_ps{group, "tx_busy_time", "ps",
                     "time spent sending preamble, SFD and frames that completed"};
  // Half duplex.
  Counter attempts_started{group, "transmission_attempts", "attempts",
                           "transmissions begun, retries included (half duplex)", half_duplex};
  Counter collisions{group, "collisions", "collisions", "collisions met by our transmissions",
                     half_duplex};
  Counter single_collision_frames{group, "single_collision_frames", "frames",
                                  "frames sent after exactly one collision (Clause 30)",
                                  half_duplex};
  Counter multiple_collision_frames{group, "multiple_collision_frames", "frames",
                                    "frames sent after more than one collision (Clause 30)",
                                    half_duplex};
  Counter late_collisions{group, "late_collisions", "collisions",
                          "collisions detected later than slotTime after the first preamble "
                          "bit, or after the first frame of a burst (Clause 30)",
                          half_duplex};
  Counter frames_aborted_excessive_collisions{
      group, "frames_aborted_excessive_collisions", "frames",
      "frames dropped after attempt_limit attempts (Clause 30)", half_duplex};
  Counter frames_aborted_late_collision{
      group, "frames_aborted_late_collision", "frames",
      "frames dropped because of a late collision (never retried at 1000 Mb/s)", half_duplex};
  Counter deferred_transmissions{group, "deferred_transmissions", "frames",
                                 "frames whose first attempt waited for carrier (Clause 30)",
                                 half_duplex};
  Counter bursts{group, "bursts", "bursts", "frame bursts begun (frame_bursting)", half_duplex};
  Counter frames_in_bursts{group, "frames_in_bursts", "frames",
                           "frames sent successfully inside bursts, the first included",
                           half_duplex};
  Distribution access_delay{group, "access_delay",
                            "from a frame becoming the head of the line to the first bit of its "
                            "successful transmission",
                            half_duplex};
};

}  // namespace gbesim
