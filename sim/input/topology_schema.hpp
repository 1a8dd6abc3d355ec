#pragma once
// The topology document declared once (sim/schema.hpp): a `gbesim topology FILE` and a
// scenario's "topology" block are read, written back and described (`gbesim params`,
// docs/scenarios.md) from this one declaration.
//
// {
//   "name": "two-hubs", "description": "...",
//   "rate_mbps": 100,                  // domains whose speed nothing else fixes
//   "margin_bt": 0,                    // added to every path delay value
//   "budget_bt": 512,                  // optional: replaces the speed's budget ("what if")
//   "media": {"my_cable": {"ns_per_m": 6.0, "source": "datasheet"}},
//   "nodes": {"a": {"kind": "dte"}, "h1": {"kind": "repeater", "class": "class_ii"},
//             "sw": {"kind": "switch"}, "mc": {"kind": "converter", "delay_bt": 12}},
//   "cables": [{"between": ["a", "h1"], "medium": "cat5", "length_m": 100}]
// }

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "models/medium/media.hpp"
#include "models/topology/cabling.hpp"
#include "sim/input/schema.hpp"

namespace gbesim {

// A medium the document adds to (or changes in) the media table (models/medium/media).
struct TopologyMedium {
  std::string name;
  MediumParams params;
};

struct TopologyDocument {
  std::string description;
  CablingPlant plant;
  std::vector<TopologyMedium> media;
};

// The most nodes a plant takes (`gbesim topology FILE`). The analysis is linear in stations
// (models/topology/cabling): 200,000 nodes (a switch, 2,000 hubs of 99 stations) take about 4 s
// and 0.5 GB on the project's 2-core VM, 850,000 (about what 64 MiB of JSON can describe) 20 s
// and 2 GB. A scenario's topology block takes far fewer (sim/topology_loader.hpp).
inline constexpr std::size_t kMaxPlantNodes = 200'000;

const schema::Object<TopologyDocument>& topology_schema();

// Reads `doc` at `path` ("" for a file, "topology" for a scenario's block) into `out` (whose
// plant's rate_mbps is the default speed), then checks the names cables use and puts the
// document's media into the plant's delay table (after `base_media`, a scenario's media table,
// when given). Errors go to `d`.
void read_topology_document(const Json& doc, const std::string& path, TopologyDocument& out,
                            Diagnostics& d,
                            const std::map<std::string, MediumParams>* base_media = nullptr);

}  // namespace gbesim
