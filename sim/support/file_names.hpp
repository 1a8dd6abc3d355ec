#pragma once
// Names a user gives that become file names (a station's name names its capture file,
// <station>.pcap) are held at load time to what every file system takes, so that a run never
// fails at its end on a name the scenario accepted, and results can be copied anywhere: at most
// kMaxFileNameChars characters, and not a name Windows reserves for a device.

#include <cstddef>
#include <optional>
#include <string>

namespace gbesim {

// The same limit as a results directory's name (sim/output_dir's results_name_problem).
inline constexpr std::size_t kMaxFileNameChars = 100;

// Whether `name` is a name Windows reserves for a device (CON, PRN, AUX, NUL, COM1 .. COM9,
// LPT1 .. LPT9), with or without an extension, in any case.
bool is_windows_device_name(const std::string& name);

// Why a station's name cannot name its capture file <name>.pcap, or nullopt. (The name is an
// identifier already: letters, digits and '_'.)
std::optional<std::string> station_file_name_problem(const std::string& name);

}  // namespace gbesim
