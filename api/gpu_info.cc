#include "glpool/gpu_info.h"

#include <glad/gles2.h>

#include <cstring>

#include "api/current_context.h"
#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_info.h"

namespace glpool {

StatusOr<GlInfo> QueryCurrentGlInfo() {
  GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
  return gl::QueryGlInfo();
}

namespace {

// The extensions' enums (not in the GLES headers glpool generates).
constexpr GLenum kNvxDedicatedVidmemKib = 0x9047;
constexpr GLenum kNvxCurrentAvailableVidmemKib = 0x9049;
constexpr GLenum kAtiTextureFreeMemory = 0x87FC;

StatusOr<bool> HasExtension(const char* name) {
  GLint count = 0;
  GLPOOL_GL_CALL(glGetIntegerv(GL_NUM_EXTENSIONS, &count));
  for (GLint i = 0; i < count; ++i) {
    GLPOOL_GL_CALL_RETURN(const GLubyte* extension, glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (extension != nullptr && std::strcmp(reinterpret_cast<const char*>(extension), name) == 0) return true;
  }
  return false;
}

}  // namespace

StatusOr<DeviceMemory> QueryDeviceMemory() {
  GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
  DeviceMemory memory;
  GLPOOL_ASSIGN_OR_RETURN(const bool nvx, HasExtension("GL_NVX_gpu_memory_info"));
  if (nvx) {
    GLint total = 0, free = 0;
    GLPOOL_GL_CALL(glGetIntegerv(kNvxDedicatedVidmemKib, &total));
    GLPOOL_GL_CALL(glGetIntegerv(kNvxCurrentAvailableVidmemKib, &free));
    memory.available = true;
    memory.source = "GL_NVX_gpu_memory_info";
    memory.total_kib = total;
    memory.free_kib = free;
    return memory;
  }
  GLPOOL_ASSIGN_OR_RETURN(const bool ati, HasExtension("GL_ATI_meminfo"));
  if (ati) {
    GLint values[4] = {0, 0, 0, 0};  // total free, largest block, aux total, aux largest
    GLPOOL_GL_CALL(glGetIntegerv(kAtiTextureFreeMemory, values));
    memory.available = true;
    memory.source = "GL_ATI_meminfo";
    memory.free_kib = values[0];
  }
  return memory;
}

}  // namespace glpool
