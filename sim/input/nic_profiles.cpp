#include "sim/input/nic_profiles.hpp"

#include "sim/input/profiles.hpp"

namespace gbesim {

const std::vector<std::pair<std::string, std::string>>& builtin_nic_profiles() {
  static const std::vector<std::pair<std::string, std::string>> profiles = {
#include "nic_profiles.inc"
  };
  return profiles;
}

void apply_nic_profile(const Json& ref, const std::string& at, const NicProfileTargets& to,
                       Diagnostics& d) {
  const ProfileKind kind{
      "NIC",
      builtin_nic_profiles(),
      "chip",
      {"name", "description", "board"},
      {{"nic",
        [&](const Json& v, const std::string& path, schema::Reader& r) {
          schema::table(nic_param_table()).read(v, path, to.nic, r);
        }},
       {"master",
        [&](const Json& v, const std::string& path, schema::Reader& r) {
          schema::table(pci_master_param_table()).read(v, path, to.master, r);
        }},
       {"driver", [&](const Json& v, const std::string& path, schema::Reader& r) {
          schema::table(driver_param_table()).read(v, path, to.driver, r);
        }}}};
  apply_profile(kind, ref, at, d);
}

}  // namespace gbesim
