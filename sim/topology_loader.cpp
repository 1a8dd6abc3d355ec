#include "sim/topology_loader.hpp"

#include "sim/diagnostics.hpp"
#include "sim/json_input.hpp"
#include "sim/topology_schema.hpp"

namespace gbesim {
namespace {

LoadedTopology read(const Json& doc, const std::string& file, const std::string& path,
                    std::int64_t default_rate, Diagnostics& d,
                    const std::map<std::string, MediumParams>* media) {
  LoadedTopology out;
  out.file = file;
  TopologyDocument t;
  t.plant.rate_mbps = default_rate;
  read_topology_document(doc, path, t, d, media);
  if (path.empty() && doc.is_object() && !doc.contains("name"))
    d.error("", "missing \"name\": the topology's name");
  out.resolved = topology_schema().write(t);
  out.description = std::move(t.description);
  out.plant = std::move(t.plant);
  if (!d.empty()) return out;
  out.report = analyse_topology(out.plant);
  for (const auto& p : out.report.problems) {
    const std::string& where = p.where;
    if (path.empty() || where.empty())
      d.error(path.empty() ? where : path, p.message);
    else
      d.error(where[0] == '[' ? path + where : path + "." + where, p.message);
  }
  return out;
}

}  // namespace

LoadedTopology read_topology_block(const Json& block, const std::string& file,
                                   const std::string& path, std::int64_t default_rate,
                                   Diagnostics& d,
                                   const std::map<std::string, MediumParams>* media) {
  return read(block, file, path, default_rate, d, media);
}

LoadedTopology load_topology_text(const std::string& text, const std::string& file) {
  Diagnostics d(file);
  const Json doc = parse_document(text, d);
  d.throw_if_any();
  LoadedTopology out = read(doc, file, "", 100, d, nullptr);
  d.throw_if_any();
  return out;
}

LoadedTopology load_topology(const std::string& file) {
  return load_topology_text(read_json_file(file), file);
}

}  // namespace gbesim
