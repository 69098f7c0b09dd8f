// An application's own OpenGL ES 3.1 context, made the way an app would
// (system libEGL, Mesa's surfaceless platform or the default display), not
// through glpool — so the tests show a Session runs on a context it did
// not create.
#pragma once

#include <EGL/egl.h>

#include <string>

namespace glpool::testing_util {

class AppEglContext {
 public:
  AppEglContext();
  ~AppEglContext();
  AppEglContext(const AppEglContext&) = delete;
  AppEglContext& operator=(const AppEglContext&) = delete;
  // Empty when the context is current; else what failed.
  const std::string& error() const { return error_; }

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  std::string error_;
};

}  // namespace glpool::testing_util
