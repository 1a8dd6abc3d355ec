#include "sim/support/peak_memory.hpp"

#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sim/support/atomic_file.hpp"

namespace gbesim {

std::int64_t peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoll(line.c_str() + 6, nullptr, 10);
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

void report_peak_rss_if_asked() {
  const char* file = std::getenv("GBESIM_PEAK_RSS_FILE");
  if (file == nullptr || *file == '\0') return;
  try {
    write_file_atomically(file, std::to_string(peak_rss_kib()) + "\n");
  } catch (...) {  // a measurement lost is the bench's to notice, not the command's failure
  }
}

}  // namespace gbesim
