// What the current context is and the limits the planner and kernels use.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace glpool::gl {

struct GlInfo {
  std::string vendor;
  std::string renderer;
  std::string version;       // GL_VERSION, e.g. "OpenGL ES 3.2 Mesa 22.3.6"
  std::string glsl_version;  // GL_SHADING_LANGUAGE_VERSION
  int major = 0;
  int minor = 0;
  std::string platform;      // how the context was made

  int64_t max_texture_size = 0;           // 2D width/height
  int64_t max_array_texture_layers = 0;   // 2D-array depth
  int64_t max_3d_texture_size = 0;
  int64_t max_ssbo_size = 0;              // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
  int64_t ssbo_offset_alignment = 0;      // for glBindBufferRange into an arena
  int64_t max_ssbo_bindings = 0;
  int64_t max_compute_ssbo_blocks = 0;
  int64_t max_image_units = 0;
  int64_t max_compute_image_uniforms = 0;
  int64_t max_compute_texture_units = 0;
  int64_t max_work_group_count[3] = {0, 0, 0};
  int64_t max_work_group_size[3] = {0, 0, 0};
  int64_t max_work_group_invocations = 0;
  int64_t max_shared_memory_bytes = 0;
  bool timer_queries = false;             // GL_EXT_disjoint_timer_query
};

// Reads everything from the current context.
StatusOr<GlInfo> QueryGlInfo();

}  // namespace glpool::gl
