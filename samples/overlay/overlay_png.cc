#include "samples/overlay/overlay_png.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include "samples/gl_check.h"
#include "samples/overlay/gl_offscreen_target.h"
#include "samples/overlay/imgui_session.h"
#include "samples/overlay/read_pixels.h"

namespace glpool::overlay {

StatusOr<PngReport> RenderOverlayPng(const OverlaySession& session, const std::string& path, int width,
                                     int height) {
  GLPOOL_ASSIGN_OR_RETURN(GlOffscreenTarget target, GlOffscreenTarget::Create(width, height));
  GLPOOL_ASSIGN_OR_RETURN(auto imgui, ImGuiSession::Create(nullptr));
  OverlayRenderer renderer;
  PngReport report{path, width, height, {}};
  GLPOOL_RETURN_IF_ERROR(target.Bind());
  // ImGui sizes child windows and table columns from the previous frame, so
  // the first frames are still settling; the third is the one written.
  constexpr int kFrames = 3;
  for (int frame = 0; frame < kFrames; ++frame) {
    GLPOOL_RETURN_IF_ERROR(imgui->NewFrame(width, height));
    GLPOOL_ASSIGN_OR_RETURN(report.frame, renderer.Draw(session, width, height));
    SAMPLE_GL_CALL(glViewport(0, 0, width, height));
    SAMPLE_GL_CALL(glClearColor(0.08f, 0.08f, 0.1f, 1.0f));
    SAMPLE_GL_CALL(glClear(GL_COLOR_BUFFER_BIT));
    GLPOOL_RETURN_IF_ERROR(imgui->Render());
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<uint8_t> pixels, ReadFramebufferRgba8(width, height));
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
  if (!stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4)) {
    return NotFoundError("cannot write PNG " + path);
  }
  return report;
}

}  // namespace glpool::overlay
