// The overlay rendered off-screen to a PNG, on whatever context is current
// (normally the headless one): for CI, docs and bug reports.
#pragma once

#include <string>

#include "glpool/status.h"
#include "samples/overlay/overlay_renderer.h"
#include "samples/overlay/overlay_session.h"

namespace glpool::overlay {

struct PngReport {
  std::string path;
  int width = 0, height = 0;
  FrameReport frame;  // what the written frame shows
};

StatusOr<PngReport> RenderOverlayPng(const OverlaySession& session, const std::string& path, int width = 1280,
                                     int height = 800);

}  // namespace glpool::overlay
