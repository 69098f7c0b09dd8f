#include "gpu_backend/gl/gl_call.h"

namespace glpool::gl {

const char* GlErrorName(GLenum error) {
  switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
  }
}

Status CheckGlError(const char* call, const char* file, int line) {
  GLenum first = glGetError();
  if (first == GL_NO_ERROR) return Status::Ok();
  std::string errors = GlErrorName(first);
  // GL may queue several flags; drain them so the next check starts clean.
  for (int i = 0; i < 8; ++i) {
    GLenum more = glGetError();
    if (more == GL_NO_ERROR) break;
    errors += std::string(", ") + GlErrorName(more);
  }
  std::string message = std::string(call) + " failed with " + errors + " at " + file + ":" + std::to_string(line);
  if (first == GL_OUT_OF_MEMORY) return OutOfMemoryError(message);
  return GlError(message);
}

}  // namespace glpool::gl
