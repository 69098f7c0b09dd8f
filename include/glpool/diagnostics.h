// Process-wide counters of the expensive or forbidden things glpool does,
// so an app (and glpool's tests) can check start-up and zero-copy claims:
// "this Reshape planned nothing", "this process compiled no shader", "this
// Run read nothing back to the CPU". Counts only grow; compare two reads.
#pragma once

#include <cstdint>

#include "glpool/export.h"

namespace glpool {

struct RuntimeCounters {
  uint64_t shader_compiles = 0;       // glCompileShader calls
  uint64_t program_binary_loads = 0;  // programs restored with glProgramBinary
  uint64_t pool_plans = 0;            // memory plans made (one per shape per session)
  uint64_t gpu_reads = 0;             // reads of GL memory into CPU memory (glMapBufferRange for reading)
};

GLPOOL_API RuntimeCounters GetRuntimeCounters();

}  // namespace glpool
