// What the current GL context is and the limits glpool plans against.
#pragma once

#include <cstdint>
#include <string>

#include "glpool/export.h"
#include "glpool/status.h"

namespace glpool {

struct GlInfo {
  std::string vendor;
  std::string renderer;
  std::string version;       // GL_VERSION, e.g. "OpenGL ES 3.2 Mesa 22.3.6"
  std::string glsl_version;  // GL_SHADING_LANGUAGE_VERSION
  int major = 0;
  int minor = 0;
  std::string platform;      // how the context was made (Context::platform())

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
  bool parallel_shader_compile = false;   // GL_KHR_parallel_shader_compile: compiles on driver threads
  int64_t max_texture_buffer_texels = 0;  // GL_EXT/OES_texture_buffer; 0 without
  int64_t texture_buffer_offset_alignment = 0;  // bytes; a view's offset is a multiple
};

// Reads everything from the GLES 3.1 context current on this thread (it
// loads the GL entry points from that context first).
GLPOOL_API StatusOr<GlInfo> QueryCurrentGlInfo();

// The device's own memory figures, where the driver exposes them:
// GL_NVX_gpu_memory_info (NVIDIA) or GL_ATI_meminfo (AMD). Mesa's llvmpipe
// exposes neither (its "device memory" is the process's, see RSS).
struct DeviceMemory {
  bool available = false;
  std::string source;      // the extension read, "" when unavailable
  int64_t free_kib = 0;    // currently free video memory
  int64_t total_kib = 0;   // NVX only: dedicated video memory (0 if unknown)
};
GLPOOL_API StatusOr<DeviceMemory> QueryDeviceMemory();

}  // namespace glpool
