// OpenGL ES 3.1 contexts: headless (EGL, no window system) or a GLFW window.
//
// A context loads the GLES entry points (glad) when it is created and when
// MakeCurrent is called, so GL calls always go to the current context. Only
// one context is current per thread; glpool uses one context at a time.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

struct GLFWwindow;

namespace glpool::gl {

enum class ContextKind {
  kHeadless,  // EGL device platform (NVIDIA) or Mesa's surfaceless platform
  kWindow,    // GLFW window with a GLES 3.1 context created through EGL
  kAuto,      // headless, else a window
};

const char* ContextKindName(ContextKind kind);
StatusOr<ContextKind> ParseContextKind(const std::string& name);

struct WindowOptions {
  int width = 1280;
  int height = 800;
  std::string title = "glpool";
  bool visible = true;
};

class GlContext {
 public:
  virtual ~GlContext() = default;
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  virtual Status MakeCurrent() = 0;
  virtual ContextKind kind() const = 0;
  // How the context was made, e.g. "EGL surfaceless (Mesa)".
  virtual std::string platform() const = 0;
  // The GLFW window for windowed contexts, nullptr for headless ones.
  virtual GLFWwindow* window() const { return nullptr; }

 protected:
  GlContext() = default;
};

// Creates a context of at least GLES 3.1 and makes it current. CreateContext
// and CreateWindowContext live in glpool_gl_window (GLFW), outside libglpool. On failure the
// Status is one line saying which step failed (EGL init, no ES 3.1 config...).
StatusOr<std::unique_ptr<GlContext>> CreateContext(ContextKind kind,
                                                   const WindowOptions& window = {});

StatusOr<std::unique_ptr<GlContext>> CreateHeadlessContext();
StatusOr<std::unique_ptr<GlContext>> CreateWindowContext(const WindowOptions& window);

// Fails unless the current context reports GLES >= 3.1 (compute shaders).
Status CheckGles31();

}  // namespace glpool::gl
