#include "gpu_backend/gl/gl_context.h"

#include <glad/gles2.h>

namespace glpool::gl {

const char* ContextKindName(ContextKind kind) {
  switch (kind) {
    case ContextKind::kHeadless: return "headless";
    case ContextKind::kWindow: return "window";
    case ContextKind::kAuto: return "auto";
  }
  return "unknown";
}

StatusOr<ContextKind> ParseContextKind(const std::string& name) {
  if (name == "headless") return ContextKind::kHeadless;
  if (name == "window") return ContextKind::kWindow;
  if (name == "auto") return ContextKind::kAuto;
  return InvalidArgumentError("unknown context kind '" + name + "' (expected headless, window or auto)");
}

Status CheckGles31() {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (glGetError() != GL_NO_ERROR || major * 10 + minor < 31) {
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return UnavailableError(std::string("OpenGL ES 3.1 is required, the context offers ") +
                            (version ? version : "an unknown version"));
  }
  return Status::Ok();
}

}  // namespace glpool::gl
