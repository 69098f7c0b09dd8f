#include "samples/gl_check.h"

#include <string>

namespace glpool::samples {

Status LoadGl() {
  if (gladLoaderLoadGLES2() == 0) return UnavailableError("loading the GLES entry points failed");
  return Status::Ok();
}

Status CheckGl(const char* call, const char* file, int line) {
  const GLenum first = glGetError();
  if (first == GL_NO_ERROR) return Status::Ok();
  std::string errors;
  for (GLenum error = first; error != GL_NO_ERROR; error = glGetError()) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04x", error);
    errors += (errors.empty() ? "" : ", ") + std::string(code);
    if (errors.size() > 64) break;
  }
  return GlError(std::string(call) + " failed with GL error " + errors + " at " + file + ":" + std::to_string(line));
}

}  // namespace glpool::samples
