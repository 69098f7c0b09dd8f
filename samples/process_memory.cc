#include "samples/process_memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace glpool::samples {

ProcessMemory ReadProcessMemory() {
  ProcessMemory memory;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kib = 0;
    fields >> key >> kib;
    if (key == "VmRSS:") memory.rss_bytes = kib * 1024;
    if (key == "VmHWM:") memory.peak_rss_bytes = kib * 1024;
  }
  return memory;
}

}  // namespace glpool::samples
