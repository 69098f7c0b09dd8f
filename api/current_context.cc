#include "api/current_context.h"

#include <glad/egl.h>
#include <glad/gles2.h>

#include "gpu_backend/gl/gl_context.h"

namespace glpool {

Status LoadGlFromCurrentContext() {
  // Client entry points only: enough to ask EGL which context is current.
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0) return UnavailableError("EGL: libEGL could not be loaded");
  if (eglGetCurrentContext == nullptr || eglGetCurrentContext() == EGL_NO_CONTEXT) {
    return UnavailableError("no EGL context is current on this thread: make the app's OpenGL ES 3.1 context "
                            "current (or use glpool::Context::CreateHeadless) before creating a Session");
  }
  if (gladLoadGLES2(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) == 0) {
    return UnavailableError("loading the GLES entry points from the current context failed");
  }
  return gl::CheckGles31();
}

}  // namespace glpool
