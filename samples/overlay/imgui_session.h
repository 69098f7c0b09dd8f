// ImGuiSession: one Dear ImGui context with Debian's OpenGL3 renderer
// backend (and its GLFW platform backend for a window), owned: the
// destructor shuts the backends down and destroys the context.
//
// Debian's libimgui builds imgui_impl_opengl3 for desktop GL: it loads its
// entry points from libGL.so.1 (glvnd dispatches them to whichever context
// is current, our EGL GLES one included) and probes desktop-only state
// (polygon mode, clip origin, primitive restart), which raises GL errors on
// GLES. Those errors are not glpool's, so every call into the backend is
// preceded by a check of our own pending errors and followed by draining the
// backend's — otherwise the next SAMPLE_GL_CALL would blame an innocent call.
#pragma once

#include <memory>

#include "glpool/status.h"

struct GLFWwindow;
struct ImGuiContext;

namespace glpool::overlay {

class ImGuiSession {
 public:
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  // `window` null: headless, the caller sets the display size per frame.
  static StatusOr<std::unique_ptr<ImGuiSession>> Create(GLFWwindow* window);

  // Starts a frame; for headless sessions `width` x `height` is the display.
  Status NewFrame(int width, int height);
  // Ends the frame and draws it into the bound framebuffer.
  Status Render();

 private:
  ImGuiSession() = default;
  ImGuiContext* context_ = nullptr;
  GLFWwindow* window_ = nullptr;
  bool renderer_ready_ = false;
  bool platform_ready_ = false;
};

}  // namespace glpool::overlay
