#include "samples/overlay/overlay_window.h"

#include <GLFW/glfw3.h>

#include "samples/gl_check.h"
#include "samples/overlay/read_pixels.h"

namespace glpool::overlay {

StatusOr<std::unique_ptr<OverlayWindow>> OverlayWindow::Create(samples::WindowContext& context, OverlaySession& session) {
  if (context.window() == nullptr) return InvalidArgumentError("the overlay window needs a window context");
  std::unique_ptr<OverlayWindow> window(new OverlayWindow(context, session));
  GLPOOL_ASSIGN_OR_RETURN(window->imgui_, ImGuiSession::Create(context.window()));
  return window;
}

StatusOr<FrameReport> OverlayWindow::RenderFrame() {
  glfwPollEvents();
  // Esc and q close the window, as its title bar's button does.
  if (glfwGetKey(context_.window(), GLFW_KEY_ESCAPE) == GLFW_PRESS ||
      glfwGetKey(context_.window(), GLFW_KEY_Q) == GLFW_PRESS) {
    glfwSetWindowShouldClose(context_.window(), GLFW_TRUE);
  }
  if (pending_) {
    // The session keeps its last good plan and shows the error on failure.
    (void)session_.Apply(*pending_);
    pending_.reset();
  }
  glfwGetFramebufferSize(context_.window(), &width_, &height_);
  GLPOOL_RETURN_IF_ERROR(imgui_->NewFrame(width_, height_));
  GLPOOL_ASSIGN_OR_RETURN(FrameReport report, renderer_.Draw(session_, width_, height_));
  if (report.requested) pending_ = report.requested;
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
  SAMPLE_GL_CALL(glViewport(0, 0, width_, height_));
  SAMPLE_GL_CALL(glClearColor(0.08f, 0.08f, 0.1f, 1.0f));
  SAMPLE_GL_CALL(glClear(GL_COLOR_BUFFER_BIT));
  GLPOOL_RETURN_IF_ERROR(imgui_->Render());
  return report;
}

StatusOr<std::vector<uint8_t>> OverlayWindow::ReadBackBuffer() const {
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
  return ReadFramebufferRgba8(width_, height_);
}

void OverlayWindow::Present() { glfwSwapBuffers(context_.window()); }

bool OverlayWindow::ShouldClose() const { return glfwWindowShouldClose(context_.window()) != 0; }

StatusOr<int> RunOverlayWindow(samples::WindowContext& context, OverlaySession& session, int frames) {
  GLPOOL_ASSIGN_OR_RETURN(auto window, OverlayWindow::Create(context, session));
  int frame = 0;
  for (; (frames <= 0 || frame < frames) && !window->ShouldClose(); ++frame) {
    GLPOOL_RETURN_IF_ERROR(window->RenderFrame().status());
    window->Present();
  }
  return frame;
}

}  // namespace glpool::overlay
