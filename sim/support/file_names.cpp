#include "sim/support/file_names.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace gbesim {

bool is_windows_device_name(const std::string& name) {
  std::string stem = name.substr(0, name.find('.'));
  std::transform(stem.begin(), stem.end(), stem.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  static const char* const kDevices[] = {"CON", "PRN", "AUX", "NUL"};
  if (std::find(std::begin(kDevices), std::end(kDevices), stem) != std::end(kDevices)) return true;
  return (stem.rfind("COM", 0) == 0 || stem.rfind("LPT", 0) == 0) && stem.size() == 4 &&
         stem[3] >= '1' && stem[3] <= '9';
}

std::optional<std::string> station_file_name_problem(const std::string& name) {
  if (name.size() > kMaxFileNameChars)
    return "a station's name names its capture file (<station>.pcap): at most " +
           std::to_string(kMaxFileNameChars) + " characters, got " + std::to_string(name.size());
  if (is_windows_device_name(name))
    return "\"" + name + "\" names the station's capture file " + name +
           ".pcap, and is a device name on Windows; choose another name";
  return std::nullopt;
}

}  // namespace gbesim
