#include "models/mac/mac_params.hpp"

namespace gbesim {

const ChoiceList<Duplex>& choice_list(Duplex) {
  static const ChoiceList<Duplex> list = {
      {Duplex::full, "full", "a point-to-point link"},
      {Duplex::half, "half", "CSMA/CD on a collision domain (10/100/1000 Mb/s)"},
  };
  return list;
}

std::int64_t slot_time_bits_at(const MacParams& params, std::int64_t rate_mbps) {
  if (params.slot_time_bits > 0) return params.slot_time_bits;
  const auto mode = find_speed_mode(rate_mbps);
  return mode ? mode->slot_time_bits : 0;
}

const ParamTable<MacParams>& mac_param_table() {
  static const ParamTable<MacParams> table = [] {
    ParamTable<MacParams> t("mac", "IEEE 802.3 Clause 4 MAC with Clause 31 PAUSE flow control");
    t.choice("duplex", &MacParams::duplex)
        .integer("max_frame_bytes", &MacParams::max_frame_bytes, "bytes", kMaxBasicFrameBytes,
                 kMaxJumboFrameBytes,
                 "largest DA..FCS frame accepted and sent (1518 per 802.3; up to 16128 for jumbo); "
                 "a VLAN-tagged frame may be 4 bytes longer")
        .integer("ifg_bits", &MacParams::ifg_bits, "bit times", 0, 1'000'000,
                 "inter-frame gap; 96 per 802.3 4.4.2, smaller values are non-standard")
        .boolean("promiscuous", &MacParams::promiscuous,
                 "accept frames whatever their destination address")
        .boolean("accept_multicast", &MacParams::accept_multicast,
                 "accept frames sent to group (multicast) addresses")
        .integer("tx_queue_frames", &MacParams::tx_queue_frames, "frames", 1, 1'000'000,
                 "transmit queue capacity; frames arriving at a full queue are dropped")
        .boolean("pause_rx_enabled", &MacParams::pause_rx_enabled,
                 "honour received PAUSE frames (802.3 Annex 31B)")
        .boolean("pause_tx_enabled", &MacParams::pause_tx_enabled,
                 "send PAUSE when the receive backlog reaches pause_xoff_bytes")
        .integer("pause_xoff_bytes", &MacParams::pause_xoff_bytes, "bytes", 1, 1LL << 40,
                 "receive backlog at which a PAUSE(pause_quanta) is sent")
        .integer("pause_xon_bytes", &MacParams::pause_xon_bytes, "bytes", 0, 1LL << 40,
                 "receive backlog at or below which a paused link is released")
        .integer("pause_quanta", &MacParams::pause_quanta, "quanta (512 bit times)", 1, 65535,
                 "pause_time sent in XOFF frames; refreshed at half time while above xon")
        .boolean("pause_send_xon", &MacParams::pause_send_xon,
                 "send PAUSE(0) when the backlog falls to pause_xon_bytes instead of letting the "
                 "pause time run out")
        .integer("ifg_part1_bits", &MacParams::ifg_part1_bits, "bit times", 0, 1'000'000,
                 "half duplex: carrier in this first part of the gap restarts it (4.2.3.2.1)")
        .integer("slot_time_bits", &MacParams::slot_time_bits, "bit times", 0, 1'000'000,
                 "half duplex: slotTime, the backoff quantum and collision window; 0 = the "
                 "rate's (512 at 10/100 Mb/s, 4096 at 1000 Mb/s)")
        .boolean("carrier_extension", &MacParams::carrier_extension,
                 "half duplex: extend a transmission's first frame to slotTime bits (needed at "
                 "1000 Mb/s; off shows why)")
        .boolean("frame_bursting", &MacParams::frame_bursting,
                 "half duplex at 1000 Mb/s: send queued frames in a burst without deferring")
        .integer("burst_limit_bits", &MacParams::burst_limit_bits, "bit times", 1, 1LL << 32,
                 "frame bursting: a frame may start while fewer than this many bit times have "
                 "passed since the burst began (65 536 per 802.3; at most 2^32, 4.3 s at "
                 "1000 Mb/s)")
        .integer("attempt_limit", &MacParams::attempt_limit, "attempts", 1, 1024,
                 "half duplex: attempts before a frame is dropped (16 per 802.3)")
        .integer("backoff_limit", &MacParams::backoff_limit, "", 0, 62,
                 "half duplex: the backoff range stops doubling after this many attempts (10)")
        .integer("jam_bits", &MacParams::jam_bits, "bit times", 1, 1'000'000,
                 "half duplex: jam sent after a collision is detected (32 per 802.3)")
        .boolean("retry_late_collisions", &MacParams::retry_late_collisions,
                 "half duplex at 10/100 Mb/s: retry a frame after a late collision (at "
                 "1000 Mb/s it is never retried)");
    return t;
  }();
  return table;
}

}  // namespace gbesim
