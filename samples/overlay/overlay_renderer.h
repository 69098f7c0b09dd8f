// OverlayRenderer: draws an OverlaySession with Dear ImGui — totals, the
// selectors, the memory map, the pool table, task times and the visual
// output — between ImGuiSession::NewFrame and Render. It returns what it
// drew, so tests check the picture's content without parsing pixels, and
// the selection the user picked in a combo box (the caller applies it via
// OverlaySession::Apply, outside the frame).
#pragma once

#include <optional>
#include <vector>

#include "glpool/status.h"
#include "samples/overlay/gl_rgba8_texture.h"
#include "samples/overlay/overlay_session.h"

namespace glpool::overlay {

struct FrameReport {
  size_t boxes_drawn = 0;
  std::vector<size_t> box_tensors;  // the pooled tensor of each box, in drawing order
  size_t pool_rows = 0;
  size_t task_rows = 0;
  Totals totals;
  bool visual_drawn = false;
  // The memory map's plot area in window pixels (top-left origin).
  float map_x0 = 0, map_y0 = 0, map_x1 = 0, map_y1 = 0;
  // Shared objects (not the arena): each band's height in pixels and its
  // object's bytes, in object order; heights are proportional to bytes.
  std::vector<float> row_heights;
  std::vector<uint64_t> row_bytes;
  // Dynamic mode: the live-bytes curve's points (one per task), else 0.
  size_t live_curve_points = 0;
  std::optional<Selection> requested;  // a combo box changed the selection
};

class OverlayRenderer {
 public:
  StatusOr<FrameReport> Draw(const OverlaySession& session, int width, int height);

 private:
  GlRgba8Texture visual_texture_;
  int uploaded_generation_ = -1;
};

}  // namespace glpool::overlay
