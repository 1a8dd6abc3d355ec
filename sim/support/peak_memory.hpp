#pragma once
// A process's peak resident memory, as its own pages reached it.

#include <cstdint>

namespace gbesim {

// This process's peak resident memory in KiB: the high-water mark of its own address space
// (/proc/self/status VmHWM; getrusage's ru_maxrss where /proc cannot be read). ru_maxrss is not
// the process's own: across execve Linux keeps the larger of the old and the new image's peaks,
// and a child started by posix_spawn ran on its parent's pages until then, so a small child of a
// large parent reports the parent's size.
std::int64_t peak_rss_kib();

// When the environment names a file in GBESIM_PEAK_RSS_FILE, writes peak_rss_kib() to it (one
// number and a newline): gbesim bench asks each child it times for its own peak so.
void report_peak_rss_if_asked();

}  // namespace gbesim
