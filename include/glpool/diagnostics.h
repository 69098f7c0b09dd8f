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
  // GL buffers, textures, shaders, programs and fences glpool made, and
  // those it deleted: created - deleted is what it holds right now. After a
  // failed Session::Create, or once every Session is gone, that difference
  // is back where it was (programs shared by a context's sessions aside:
  // they live as long as the context's program cache).
  uint64_t gl_objects_created = 0;
  uint64_t gl_objects_deleted = 0;
};

GLPOOL_API RuntimeCounters GetRuntimeCounters();

// GL failures on demand, for testing how an application (and glpool)
// copes without a failing driver: after `skip` more matching calls, the
// next one fails as a driver's would, once.
enum class GlFault {
  kOutOfMemory,    // a buffer or texture allocation reports GL_OUT_OF_MEMORY -> kOutOfMemory
  kShaderCompile,  // a shader fails to compile -> kGlError naming the shader
  kContextLost,    // the next context check (each Session::Run) finds a reset -> kContextLost
};
GLPOOL_API void InjectGlFaultForTesting(GlFault fault, int skip = 0);
// Cancels every fault injected and not yet met.
GLPOOL_API void ClearGlFaultsForTesting();

}  // namespace glpool
