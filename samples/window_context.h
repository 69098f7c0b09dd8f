// The samples' window: a GLFW window with an OpenGL ES 3.1 context made
// through EGL, current on the creating thread. glpool itself has no window
// code; like any app, the overlay brings its own and glpool runs on it.
#pragma once

#include <memory>
#include <string>

#include "glpool/status.h"

struct GLFWwindow;

namespace glpool::samples {

struct WindowOptions {
  int width = 1280;
  int height = 800;
  std::string title = "glpool";
  bool visible = true;
};

class WindowContext {
 public:
  ~WindowContext();
  WindowContext(const WindowContext&) = delete;
  WindowContext& operator=(const WindowContext&) = delete;

  // kUnavailable with GLFW's reason (no display, no GLES 3.1 over EGL).
  static StatusOr<std::unique_ptr<WindowContext>> Create(const WindowOptions& options = {});
  GLFWwindow* window() const { return window_; }
  static const char* platform() { return "GLFW window (EGL)"; }

 private:
  explicit WindowContext(GLFWwindow* window) : window_(window) {}
  GLFWwindow* window_;
};

}  // namespace glpool::samples
