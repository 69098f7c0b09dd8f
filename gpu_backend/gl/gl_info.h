// What the current context is and the limits the planner and kernels use.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "glpool/gpu_info.h"

namespace glpool::gl {

using GlInfo = ::glpool::GlInfo;  // declared in the public glpool/gpu_info.h

// Reads everything from the current context.
StatusOr<GlInfo> QueryGlInfo();

// Mesa's llvmpipe: a GL driver that runs shaders on the CPU, eight
// invocations to a SIMD register. Some choices (CPU spinning, where weights
// live) go the other way there than on a GPU.
bool IsLlvmpipe(const GlInfo& info);

// Work groups a dispatch should span to keep the device busy. llvmpipe
// runs each group whole on one of its threads (LP_NUM_THREADS, by default
// one per CPU): two groups a thread, so that groups of unequal cost or an
// odd count still share out. A GPU spreads groups over many compute units
// whose count GL does not say: 16.
uint32_t MinGroupsPerDispatch(const GlInfo& info);

// The uniform blocks a compute shader may use (GL_MAX_UNIFORM_BLOCK_SIZE,
// GL_MAX_COMPUTE_UNIFORM_BLOCKS): on a GPU, kernels' constant weights that
// fit are read from uniform blocks rather than textures or storage buffers.
struct UniformWeightLimits {
  uint64_t max_block_bytes = 0;
  uint32_t max_blocks = 0;
};
StatusOr<UniformWeightLimits> QueryUniformWeightLimits();

}  // namespace glpool::gl
