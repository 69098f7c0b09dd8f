#include "samples/overlay/overlay_command.h"

#include <iostream>

#include "samples/overlay/overlay_png.h"
#include "samples/overlay/overlay_window.h"
#include "samples/sample_context.h"

namespace glpool::overlay {

int ShowOverlay(const OverlayRequest& request, const Model& model, const std::map<std::string, Shape>& shapes,
                const std::map<std::string, TensorData>& inputs, const Selection& selection,
                VisualMaker visual_maker) {
  auto fail = [&](const Status& status) {
    std::cerr << "glpool " << request.command << ": " << status.ToString() << "\n";
    return 1;
  };
  // The window needs a GLFW context; the PNG alone renders headless.
  auto context = samples::MakeSampleContext(request.window ? "window" : "headless",
                                            {1280, 800, "glpool: " + request.title, true});
  if (!context.ok()) return fail(context.status().WithContext("no OpenGL ES 3.1 context for the overlay"));
  auto session = OverlaySession::Create(request.title, model, shapes, inputs, selection, std::move(visual_maker));
  if (!session.ok()) return fail(session.status().WithContext(request.title));
  if (!request.png.empty()) {
    auto png = RenderOverlayPng(**session, request.png);
    if (!png.ok()) return fail(png.status());
    const Totals& t = png->frame.totals;
    std::cout << "overlay:  " << png->path << " (" << png->width << "x" << png->height << ", "
              << png->frame.boxes_drawn << " tensors on the memory map, " << png->frame.pool_rows
              << " pool objects)\n          naive " << t.naive_bytes << " B, pool " << t.pool_bytes
              << " B, lower bound " << t.lower_bound_bytes << " B, strategy " << t.strategy << " -> " << t.chosen
              << "\n";
  }
  if (request.window) {
    StatusOr<int> shown = RunOverlayWindow(*context->window, **session, request.frames);
    if (!shown.ok()) return fail(shown.status());
    std::cout << "overlay window: " << *shown << " frames\n";
  }
  return 0;
}

}  // namespace glpool::overlay
