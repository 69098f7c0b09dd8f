// Context: a GL context for apps that have none. Sessions never need one of
// these: they run on whatever GLES 3.1 context is current on the calling
// thread (an EGL context the app made, a GLFW window's context created
// through EGL). This is the convenience for everyone else.
#pragma once

#include <memory>
#include <string>

#include "glpool/export.h"
#include "glpool/status.h"

namespace glpool {

class GLPOOL_API Context {
 public:
  virtual ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // An OpenGL ES 3.1 context with no window (EGL: a hardware device where
  // there is one, else Mesa's surfaceless platform), made current on the
  // calling thread. kUnavailable with one line naming the step that failed.
  static StatusOr<std::unique_ptr<Context>> CreateHeadless();

  // Makes this context current on the calling thread.
  virtual Status MakeCurrent() = 0;
  // How the context was made, e.g. "EGL surfaceless (Mesa)".
  virtual std::string platform() const = 0;

 protected:
  Context() = default;
};

}  // namespace glpool
