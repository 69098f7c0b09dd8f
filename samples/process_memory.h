// The process's resident memory (Linux /proc/self/status), for memory
// reports: on Mesa's llvmpipe the GPU's memory is the process's own.
#pragma once

#include <cstdint>

namespace glpool::samples {

struct ProcessMemory {
  uint64_t rss_bytes = 0;       // VmRSS: resident now
  uint64_t peak_rss_bytes = 0;  // VmHWM: the most resident so far
};

// Zeros where /proc is not there to read.
ProcessMemory ReadProcessMemory();

}  // namespace glpool::samples
