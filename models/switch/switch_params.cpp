#include "models/switch/switch_params.hpp"

namespace gbesim {

const ChoiceList<SwitchMode>& choice_list(SwitchMode) {
  static const ChoiceList<SwitchMode> list = {
      {SwitchMode::store_and_forward, "store_and_forward",
       "a frame is forwarded once it has arrived whole and checked"},
      {SwitchMode::cut_through, "cut_through",
       "once cut_through_bytes have arrived, when the output is no faster than the input (else "
       "store and forward)"},
  };
  return list;
}

const ParamTable<SwitchParams>& switch_param_table() {
  static const ParamTable<SwitchParams> table = [] {
    ParamTable<SwitchParams> t(
        "switch", "an output-queued Ethernet switch: learning, flooding, buffers, fabric");
    t.choice("mode", &SwitchParams::mode)
        .integer("cut_through_bytes", &SwitchParams::cut_through_bytes, "bytes", 14, 64,
                 "cut-through: frame bytes (after preamble and SFD) received before forwarding "
                 "starts; 14 = the header, 64 = fragment-free")
        .real("forwarding_latency_ns", &SwitchParams::forwarding_latency_ns, "ns", 0, 1e9,
              "from the frame's decision point (its last bit, or the cut-through point) to its "
              "entering the output queue: lookup and fabric transit")
        .integer("fabric_mbps", &SwitchParams::fabric_mbps, "Mb/s", 0, 100'000'000,
                 "switching-fabric capacity: frames cross it one at a time at this rate, DA..FCS "
                 "bits; 0 = non-blocking")
        .integer("port_buffer_bytes", &SwitchParams::port_buffer_bytes, "bytes", 1518, 1LL << 40,
                 "each output queue's own buffer (the frame being sent included; every priority "
                 "queue of a port has this much); a frame that does not fit takes shared buffer "
                 "or is dropped")
        .integer("port_buffer_frames", &SwitchParams::port_buffer_frames, "frames", 1, 100'000'000,
                 "most frames an output queue holds (per priority queue), the one being sent "
                 "included")
        .integer("shared_buffer_bytes", &SwitchParams::shared_buffer_bytes, "bytes", 0, 1LL << 40,
                 "a pool any output port may use beyond its own buffer")
        .integer("address_table_entries", &SwitchParams::address_table_entries, "entries", 1,
                 100'000'000,
                 "learning table size; a source address seen when it is full (after ageing) is "
                 "not learned, and frames to it are flooded")
        .real("aging_s", &SwitchParams::aging_s, "s", 1e-9, 1e6,
              "a learned address not seen as a source for this long is forgotten (802.1D: "
              "300 s)")
        .integer("priority_queues", &SwitchParams::priority_queues, "queues", 1, 8,
                 "strict-priority output queues per port; a VLAN-tagged frame's 802.1p priority "
                 "p goes to queue p x queues / 8 (untagged: 0), the highest queue first");
    return t;
  }();
  return table;
}

}  // namespace gbesim
