#include "sim/nic_profiles.hpp"

namespace gbesim {

const std::vector<std::pair<std::string, std::string>>& builtin_nic_profiles() {
  static const std::vector<std::pair<std::string, std::string>> profiles = {
#include "nic_profiles.inc"
  };
  return profiles;
}

}  // namespace gbesim
