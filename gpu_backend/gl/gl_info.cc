#include "gpu_backend/gl/gl_info.h"

#include <algorithm>
#include <cstdlib>
#include <thread>


#include <glad/gles2.h>

#include "gpu_backend/gl/gl_call.h"

namespace glpool::gl {
namespace {

StatusOr<std::string> GetString(GLenum name) {
  GLPOOL_GL_CALL_RETURN(const GLubyte* text, glGetString(name));
  return std::string(text ? reinterpret_cast<const char*>(text) : "");
}

Status GetInteger(GLenum name, int64_t* out) {
  GLint64 value = 0;
  GLPOOL_GL_CALL(glGetInteger64v(name, &value));
  *out = value;
  return Status::Ok();
}

Status GetIndexed(GLenum name, int64_t out[3]) {
  for (GLuint i = 0; i < 3; ++i) {
    GLint value = 0;
    GLPOOL_GL_CALL(glGetIntegeri_v(name, i, &value));
    out[i] = value;
  }
  return Status::Ok();
}

}  // namespace

bool IsLlvmpipe(const GlInfo& info) { return info.renderer.find("llvmpipe") != std::string::npos; }

uint32_t MinGroupsPerDispatch(const GlInfo& info) {
  if (!IsLlvmpipe(info)) return 16;
  uint32_t threads = std::max(1u, std::thread::hardware_concurrency());
  // Mesa reads the same variable; 0 runs the work on the calling thread.
  if (const char* set = std::getenv("LP_NUM_THREADS")) {
    threads = static_cast<uint32_t>(std::max(1L, std::strtol(set, nullptr, 10)));
  }
  return 2 * threads;
}

StatusOr<GlInfo> QueryGlInfo() {
  GlInfo info;
  GLPOOL_ASSIGN_OR_RETURN(info.vendor, GetString(GL_VENDOR));
  GLPOOL_ASSIGN_OR_RETURN(info.renderer, GetString(GL_RENDERER));
  GLPOOL_ASSIGN_OR_RETURN(info.version, GetString(GL_VERSION));
  GLPOOL_ASSIGN_OR_RETURN(info.glsl_version, GetString(GL_SHADING_LANGUAGE_VERSION));
  GLPOOL_GL_CALL(glGetIntegerv(GL_MAJOR_VERSION, &info.major));
  GLPOOL_GL_CALL(glGetIntegerv(GL_MINOR_VERSION, &info.minor));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_TEXTURE_SIZE, &info.max_texture_size));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_ARRAY_TEXTURE_LAYERS, &info.max_array_texture_layers));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_3D_TEXTURE_SIZE, &info.max_3d_texture_size));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &info.max_ssbo_size));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &info.ssbo_offset_alignment));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &info.max_ssbo_bindings));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &info.max_compute_ssbo_blocks));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_IMAGE_UNITS, &info.max_image_units));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_IMAGE_UNIFORMS, &info.max_compute_image_uniforms));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &info.max_compute_texture_units));
  GLPOOL_RETURN_IF_ERROR(GetIndexed(GL_MAX_COMPUTE_WORK_GROUP_COUNT, info.max_work_group_count));
  GLPOOL_RETURN_IF_ERROR(GetIndexed(GL_MAX_COMPUTE_WORK_GROUP_SIZE, info.max_work_group_size));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &info.max_work_group_invocations));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &info.max_shared_memory_bytes));
  info.timer_queries = GLAD_GL_EXT_disjoint_timer_query != 0;
  info.parallel_shader_compile = GLAD_GL_KHR_parallel_shader_compile != 0;
  if (GLAD_GL_EXT_texture_buffer || GLAD_GL_OES_texture_buffer) {
    GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_TEXTURE_BUFFER_SIZE, &info.max_texture_buffer_texels));
    GLPOOL_RETURN_IF_ERROR(GetInteger(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT, &info.texture_buffer_offset_alignment));
  }
  return info;
}

StatusOr<UniformWeightLimits> QueryUniformWeightLimits() {
  int64_t block_bytes = 0, blocks = 0;
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_UNIFORM_BLOCK_SIZE, &block_bytes));
  GLPOOL_RETURN_IF_ERROR(GetInteger(GL_MAX_COMPUTE_UNIFORM_BLOCKS, &blocks));
  UniformWeightLimits limits;
  limits.max_block_bytes = static_cast<uint64_t>(std::max<int64_t>(block_bytes, 0));
  limits.max_blocks = static_cast<uint32_t>(std::max<int64_t>(blocks, 0));
  return limits;
}

}  // namespace glpool::gl
