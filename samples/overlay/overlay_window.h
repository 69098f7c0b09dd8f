// The overlay in a GLFW window (the samples' WindowContext).
// Each frame first applies a pending selection — from a combo box in the
// previous frame, or from Request() — through OverlaySession::Apply, then
// draws into the back buffer; Present() swaps. Tests read the back buffer
// between RenderFrame() and Present().
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "glpool/status.h"
#include "samples/window_context.h"
#include "samples/overlay/imgui_session.h"
#include "samples/overlay/overlay_renderer.h"
#include "samples/overlay/overlay_session.h"

namespace glpool::overlay {

class OverlayWindow {
 public:
  // `context` must be a window context; both must outlive the OverlayWindow.
  static StatusOr<std::unique_ptr<OverlayWindow>> Create(samples::WindowContext& context, OverlaySession& session);

  // Queues a selection exactly as a combo box does.
  void Request(const Selection& selection) { pending_ = selection; }
  // Polls events, applies a pending selection, draws one frame. A selection
  // that fails to apply is not an error here: the overlay shows why.
  StatusOr<FrameReport> RenderFrame();
  StatusOr<std::vector<uint8_t>> ReadBackBuffer() const;  // RGBA8, top row first
  void Present();
  bool ShouldClose() const;
  int framebuffer_width() const { return width_; }
  int framebuffer_height() const { return height_; }

 private:
  OverlayWindow(samples::WindowContext& context, OverlaySession& session) : context_(context), session_(session) {}
  samples::WindowContext& context_;
  OverlaySession& session_;
  std::unique_ptr<ImGuiSession> imgui_;
  OverlayRenderer renderer_;
  std::optional<Selection> pending_;
  int width_ = 0, height_ = 0;
};

// Shows the overlay until the window closes, or for `frames` frames when > 0.
// Returns the frames shown.
StatusOr<int> RunOverlayWindow(samples::WindowContext& context, OverlaySession& session, int frames);

}  // namespace glpool::overlay
