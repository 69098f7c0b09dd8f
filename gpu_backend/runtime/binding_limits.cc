#include "gpu_backend/runtime/binding_limits.h"

#include <algorithm>
#include <string>

#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

int64_t TaskBindingLimit(const GlInfo& info, ObjectKind objects, uint32_t override_bindings) {
  int64_t limit = info.max_compute_ssbo_blocks;
  if (objects == ObjectKind::kTextures) limit = std::min(limit, info.max_compute_image_uniforms);
  if (override_bindings > 0) limit = std::min<int64_t>(limit, override_bindings);
  return limit;
}

StatusOr<size_t> VariadicSplitWidth(const GlInfo& info, ObjectKind objects, uint32_t override_bindings) {
  const int64_t limit = TaskBindingLimit(info, objects, override_bindings);
  if (limit < 3) {
    return UnsupportedError("the context lets a compute shader bind " + std::to_string(limit) +
                            " tensors (GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS " +
                            std::to_string(info.max_compute_ssbo_blocks) + ", GL_MAX_COMPUTE_IMAGE_UNIFORMS " +
                            std::to_string(info.max_compute_image_uniforms) +
                            "); glpool's kernels need at least 3");
  }
  return std::min<size_t>(static_cast<size_t>(limit - 1), kMaxKernelVariadicInputs);
}

}  // namespace glpool
